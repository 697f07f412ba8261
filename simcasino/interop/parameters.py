"""The rules as game parameters: a preset and every knob of `core.rules.Rules`, typed as
OpenSpiel types them (whole numbers, booleans, text), and back.

Why Swedish defaults: OpenSpiel fills every parameter the caller leaves out with its default
before the game sees them, so a parameter cannot say "as the preset has it". Every knob's
default is Swedish Kasino's (the `Rules` default), and a knob given at any other value
changes the preset: ``preset=finnish,players=3,target=21``. One consequence, said in
docs/interop.md: a preset's knob cannot be set back to its Swedish value this way (name
``preset=swedish`` and the knobs that differ instead).
"""

from __future__ import annotations

from typing import Any

from simcasino.core.rules import PRESETS, SWEDISH, Rules

ParamValue = int | bool | str


def encode(value: Any) -> ParamValue:
    """A knob's value as a parameter: value lists (``ace_hand``) as text, ``"1/14"`` (a comma
    would end the parameter in OpenSpiel's game string)."""
    return "/".join(map(str, value)) if isinstance(value, tuple) else value


def specification() -> dict[str, ParamValue]:
    """Every parameter with its default: the preset, then each knob at its Swedish value."""
    return {"preset": SWEDISH.name, **{name: encode(value) for name, value in SWEDISH.knobs().items()}}


def rules_of(params: dict[str, ParamValue]) -> Rules:
    """The rules the parameters name (ValueError naming the bad parameter)."""
    params = {**specification(), **params}
    preset = Rules.preset(str(params.pop("preset")))
    swedish = SWEDISH.knobs()
    changes = {}
    for name, value in params.items():
        if name not in swedish:
            raise ValueError(f"unknown game parameter {name!r}: parameters are {', '.join(specification())}")
        decoded = _values(name, value) if isinstance(swedish[name], tuple) else value
        if decoded != swedish[name]:
            changes[name] = decoded
    return preset.replace(**changes)


def params_of(rules: Rules) -> dict[str, ParamValue]:
    """Parameters that name ``rules``: its preset and the knobs where it differs, or, where a
    knob differs from the preset at its Swedish value, Swedish Kasino and every knob that differs."""
    for base in (PRESETS.get(rules.name, SWEDISH), SWEDISH):
        params = {"preset": base.name, **{k: encode(v) for k, v in rules.knobs().items() if v != base.knobs()[k]}}
        if rules_of(params).knobs() == rules.knobs():
            return params
    raise AssertionError("unreachable: Swedish Kasino and every knob that differs name any rules")


def _values(name: str, text: ParamValue) -> tuple[int, ...]:
    try:
        return tuple(int(v) for v in str(text).split("/"))
    except ValueError:
        raise ValueError(f"game parameter {name!r} must be values joined by '/', e.g. 1/14; got {text!r}") from None
