"""The rules as game parameters: a preset and every knob of `core.rules.Rules`, typed as
OpenSpiel types them (whole numbers, booleans, text), and back; and the game's own
parameters (`GAME_PARAMS`): what a seat's return is (``utility``: `interop.outcome`), and
the deal's place in a game (``dealer``, the game ``scores`` before it, the points tied
deals ``carry`` into it), so that a later deal of a game is a game of its own.

Why Swedish defaults: OpenSpiel fills every parameter the caller leaves out with its default
before the game sees them, so a parameter cannot say "as the preset has it". Every knob's
default is Swedish Kasino's (the `Rules` default), and a knob given at any other value
changes the preset: ``preset=finnish,players=3,target=21``. One consequence, said in
docs/interop.md: a preset's knob cannot be set back to its Swedish value this way (name
``preset=swedish`` and the knobs that differ instead).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from simcasino.core.rules import PRESETS, SWEDISH, Rules
from simcasino.interop.outcome import check_utility
from simcasino.reference.deal import Carry

ParamValue = int | bool | str
GAME_PARAMS: dict[str, ParamValue] = {
    "utility": "points",
    "dealer": -1,
    "scores": "",
    "carry": "0/0",
}


@dataclass(frozen=True)
class Setting:
    """What a game is besides its rules: the utility, and the deal's place in a game (the
    seat dealing, the game scores before it, the points carried into it)."""

    utility: str = "points"
    dealer: int = -1  # -1: the last seat
    scores: tuple[int, ...] = ()  # () : nobody has points yet
    carry: Carry = Carry()


def setting_of(params: dict[str, ParamValue], rules: Rules) -> Setting:
    """The game's own parameters (ValueError naming a bad one)."""
    params = {**GAME_PARAMS, **{k: v for k, v in params.items() if k in GAME_PARAMS}}
    utility = check_utility(str(params["utility"]))
    dealer = int(params["dealer"])
    if not -1 <= dealer < rules.players:
        raise ValueError(
            f"game parameter 'dealer' must be a seat 0-{rules.players - 1} (or -1: the last); "
            f"got {dealer}"
        )
    scores = _values("scores", params["scores"]) if params["scores"] != "" else ()
    if scores and len(scores) != rules.players:
        raise ValueError(
            f"game parameter 'scores' must give {rules.players} scores joined by '/'; "
            f"got {params['scores']!r}"
        )
    carry = _values("carry", params["carry"])
    if len(carry) != 2:
        raise ValueError(
            f"game parameter 'carry' must be cards/spades points, e.g. 0/0; got {params['carry']!r}"
        )
    return normal(Setting(utility, dealer, scores, Carry(*carry)), rules)


def normal(setting: Setting, rules: Rules) -> Setting:
    """``setting`` as written by default: the last seat dealing as -1, no scores as ()."""
    dealer = -1 if setting.dealer == rules.players - 1 else setting.dealer
    return Setting(
        setting.utility, dealer, setting.scores if any(setting.scores) else (), setting.carry
    )


def setting_params(setting: Setting) -> dict[str, ParamValue]:
    """The parameters of ``setting`` that differ from the defaults."""
    params = {
        "utility": setting.utility,
        "dealer": setting.dealer,
        "scores": encode(setting.scores),
        "carry": encode(tuple(setting.carry)),
    }
    return {
        k: v for k, v in params.items() if v != GAME_PARAMS[k] and not (k == "scores" and not v)
    }


def encode(value: Any) -> ParamValue:
    """A knob's value as a parameter: value lists (``ace_hand``) as text, ``"1/14"`` (a comma
    would end the parameter in OpenSpiel's game string)."""
    return "/".join(map(str, value)) if isinstance(value, tuple) else value


def specification() -> dict[str, ParamValue]:
    """Every parameter with its default: the preset, each knob at its Swedish value, then the
    game's own (`GAME_PARAMS`)."""
    return {
        "preset": SWEDISH.name,
        **{name: encode(value) for name, value in SWEDISH.knobs().items()},
        **GAME_PARAMS,
    }


def rules_of(params: dict[str, ParamValue]) -> Rules:
    """The rules the parameters name (ValueError naming the bad parameter)."""
    params = {k: v for k, v in {**specification(), **params}.items() if k not in GAME_PARAMS}
    preset = Rules.preset(str(params.pop("preset")))
    swedish = SWEDISH.knobs()
    changes = {}
    for name, value in params.items():
        if name not in swedish:
            raise ValueError(
                f"unknown game parameter {name!r}: parameters are {', '.join(specification())}"
            )
        decoded = _values(name, value) if isinstance(swedish[name], tuple) else value
        if decoded != swedish[name]:
            changes[name] = decoded
    return preset.replace(**changes)


def params_of(rules: Rules) -> dict[str, ParamValue]:
    """Parameters that name ``rules``: its preset and the knobs where it differs, or, where a knob
    differs from the preset at its Swedish value, Swedish Kasino and every knob that differs."""
    for base in (PRESETS.get(rules.name, SWEDISH), SWEDISH):
        params: dict[str, ParamValue] = {
            "preset": base.name,
            **{k: encode(v) for k, v in rules.knobs().items() if v != base.knobs()[k]},
        }
        if rules_of(params).knobs() == rules.knobs():
            return params
    raise AssertionError("unreachable: Swedish Kasino and every knob that differs name any rules")


def _values(name: str, text: ParamValue) -> tuple[int, ...]:
    try:
        return tuple(int(v) for v in str(text).split("/"))
    except ValueError:
        raise ValueError(
            f"game parameter {name!r} must be values joined by '/', e.g. 1/14; got {text!r}"
        ) from None
