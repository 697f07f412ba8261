"""What a house-rule sweep is: base rules, the knobs (or preset-like switches) to vary with
their values, and how much to play at each setting of their cartesian product.

A ``--vary`` key is a `Rules` knob (``target=11,16,21``, ``must_capture_max=off,on``) or a
**switch** named after a preset (``overspader=off,on``): ``on`` sets the knobs in which that
preset differs from Swedish Kasino to the preset's values, ``off`` to Swedish values (so
``overspader=on`` is "most spades 2" replaced by a point per spade beyond 6, to 21). Switches
apply first and knobs after, so ``--vary overspader=on --vary target=11`` plays Överspader to 11.

Every setting is validated when the sweep is made, so a bad value is one error naming it
before anything is played. Each setting becomes one experiment (`setting_spec`): the ladder
(heuristic > greedy > random by default) as a chain of paired comparisons, and the chosen
strategy in every seat for what the rules do to the seats and to a game.

Example (``experiments/house_rules.toml``)::

    name = "house_rules"
    description = "target and Överspader"
    seed = 1
    decks = 20000              # decks per setting (self-play and each comparison)
    games = 4000               # whole games per setting
    strategy = "heuristic"     # every seat, for the first-player edge and the rest
    ladder = ["heuristic", "greedy", "random"]   # skill gaps: each against the next
    [rules]
    preset = "swedish"         # the base, plus any knob
    [vary]
    target = [11, 16, 21]
    overspader = ["off", "on"]
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simcasino.core import suggest
from simcasino.core.rules import (
    KNOBS_LISTED,
    OFF,
    ON,
    SWEDISH,
    SWITCHES,
    Rules,
    as_switch,
    knob_names,
    parse_overrides,
    parse_value,
    read_toml,
)
from simcasino.experiment.spec import (
    Spec,
    check_top_keys,
    games_count,
    rules_of,
    strategy_value,
    table_value,
    text_value,
    whole_number,
)
from simcasino.strategies import StrategySpec, check_builds

LADDER = ("heuristic", "greedy", "random")
DEFAULT_DECKS, DEFAULT_GAMES = 20_000, 2_000  # per setting, when the command line does not say
DEFAULT_CHUNK = 8192  # decks per chunk: several chunks per setting keep every worker busy
TOP_KEYS = (
    "name",
    "description",
    "seed",
    "decks",
    "games",
    "chunk",
    "players",
    "strategy",
    "ladder",
    "rules",
    "vary",
)


@dataclass(frozen=True)
class Setting:
    """One point of the sweep: the value of each varied key, and the rules they make."""

    values: tuple[tuple[str, Any], ...]
    rules: Rules

    @property
    def label(self) -> str:
        return label_of(self.values)

    def folder(self, index: int) -> str:
        """A file-name-safe folder name, numbered so folders sort in sweep order."""
        words = "_".join(f"{key}-{show(value)}" for key, value in self.values)
        return f"{index:02d}-" + re.sub(r"[^A-Za-z0-9_.-]+", "", words)


@dataclass(frozen=True)
class TuneSpec:
    """A validated sweep (see the module docstring)."""

    name: str
    description: str
    base: Rules
    axes: tuple[tuple[str, tuple[Any, ...]], ...]
    strategy: StrategySpec
    ladder: tuple[StrategySpec, ...]
    decks: int
    games: int
    seed: int
    chunk: int = DEFAULT_CHUNK

    def settings(self) -> list[Setting]:
        """The cartesian product of the axes, the first axis varying slowest."""
        keys = [key for key, _ in self.axes]
        return [
            setting(self.base, tuple(zip(keys, combo)))
            for combo in itertools.product(*(v for _, v in self.axes))
        ]

    def replace(self, **changes: Any) -> TuneSpec:
        """A copy with another seed, number of decks or games, or strategy (the CLI's overrides)."""
        table = self.to_table() | {
            k: v.label if isinstance(v, StrategySpec) else v for k, v in changes.items()
        }
        return spec_from_table(table, "command line")

    def to_table(self) -> dict[str, Any]:
        """Everything that decides the results, as the TOML-style table `spec_from_table` reads."""
        return {
            "name": self.name,
            "description": self.description,
            "seed": self.seed,
            "decks": self.decks,
            "games": self.games,
            "chunk": self.chunk,
            "strategy": self.strategy.label,
            "ladder": [s.label for s in self.ladder],
            "rules": self.base.to_table(),
            "vary": _vary_table(self.axes),
        }


def label_of(values: tuple[tuple[str, Any], ...]) -> str:
    return ", ".join(f"{key}={show(value)}" for key, value in values)


def show(value: Any) -> str:
    """A varied value as it reads in labels and tables: on/off, 21, [1, 14], play_on."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, tuple):
        return "[" + ", ".join(show(v) for v in value) + "]"
    return str(value)


def setting_spec(tune: TuneSpec, index: int, point: Setting) -> Spec:
    """The experiment of one setting: the ladder as a chain of comparisons, the strategy in
    every seat, the sweep's seed (so every setting is dealt the same decks)."""
    arms = {s.label: s for s in tune.ladder}
    return Spec(
        name=f"{tune.name}-{index:02d}",
        description=point.label,
        rules=point.rules,
        arms=arms,
        design="chain",
        baseline=None,
        decks=tune.decks,
        games=tune.games,
        seed=tune.seed,
        chunk=tune.chunk,
        selfplay=tune.strategy,
    )


# --- the varied keys -----------------------------------------------------------------------------


def changes_of(key: str, value: Any) -> dict[str, Any]:
    """The knob changes of one varied key at one value; ValueError for an unknown key or a
    switch value other than on/off."""
    if key in SWITCHES:
        word = str(value).lower() if isinstance(value, (str, bool)) else None
        if word not in ON + OFF:
            raise ValueError(f"switch {key!r} takes on or off; got {show(value)!r}")
        return (
            dict(SWITCHES[key]) if word in ON else {k: getattr(SWEDISH, k) for k in SWITCHES[key]}
        )
    if key not in knob_names():
        raise ValueError(
            suggest.unknown(
                "rule knob or switch",
                key,
                [*knob_names(), *SWITCHES],
                f"{KNOBS_LISTED}; switches {', '.join(SWITCHES)}",
            )
        )
    return {key: as_switch(SWEDISH, key, value)}


def setting(base: Rules, values: tuple[tuple[str, Any], ...]) -> Setting:
    """The rules of one point: switches first, then knobs; ValueError naming the point."""
    changes: dict[str, Any] = {}
    for key, value in sorted(values, key=lambda kv: kv[0] not in SWITCHES):
        changes |= changes_of(key, value)
    try:
        return Setting(values, base.replace(**changes))
    except ValueError as err:
        raise ValueError(f"setting {label_of(values)}: {err}") from None


def parse_vary(text: str) -> tuple[str, tuple[Any, ...]]:
    """``"target=11,16,21"`` -> ``("target", (11, 16, 21))``; values as in TOML, commas inside
    brackets kept (``ace_hand=[1,14],[14]``)."""
    if "=" not in text:
        raise ValueError(f"--vary {text!r}: expected KEY=VALUE,VALUE,..., e.g. target=11,16,21")
    key, raw = (part.strip() for part in text.split("=", 1))
    parts, depth, current = [], 0, ""
    for char in raw:
        depth += (char == "[") - (char == "]")
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    parts.append(current)
    if not key or any(not p.strip() for p in parts):
        raise ValueError(f"--vary {text!r}: expected KEY=VALUE,VALUE,... with no empty value")
    return key, tuple(parse_value(p) for p in parts)


def check_axes(
    axes: list[tuple[str, tuple[Any, ...]]], where: str
) -> tuple[tuple[str, tuple[Any, ...]], ...]:
    """Keys known and varied once, values given and distinct."""
    if not axes:
        raise ValueError(
            f"{where}: nothing to vary: give at least one --vary KEY=V1,V2 (or a [vary] table)"
        )
    seen = set()
    for key, values in axes:
        if key in seen:
            raise ValueError(
                f"{where}: {key!r} is varied twice; give all its values at once: {key}=V1,V2"
            )
        seen.add(key)
        if not values:
            raise ValueError(f"{where}: {key!r} has no values")
        for value in values:
            try:
                changes_of(key, value)
            except ValueError as err:
                raise ValueError(f"{where}: {err}") from None
        if len({show(v) for v in values}) < len(values):
            raise ValueError(f"{where}: {key!r} repeats a value")
    return tuple(axes)


# --- the spec -------------------------------------------------------------------------------------


def load_tune(path: str | Path) -> TuneSpec:
    """Read and validate a sweep file; errors name the file and the key."""
    data = read_toml(path)
    if "vary" not in data:
        raise ValueError(
            f"{path}: not a house-rule sweep (no [vary] table); "
            f"run an experiment spec with 'simcasino experiment run {path}'"
        )
    return spec_from_table(data, str(path), default_name=Path(path).stem)


def spec_from_options(
    base: str | None,
    overrides: Sequence[str],
    varies: Sequence[str],
    strategy: str | None = None,
    decks: int | None = None,
    games: int | None = None,
    seed: int | None = None,
) -> TuneSpec:
    """A sweep from the command line: ``--base``, ``--rule KNOB=VALUE`` and ``--vary KEY=V1,V2``
    (errors name the --vary), named after the varied keys."""
    axes = check_axes([parse_vary(text) for text in varies], "--vary")
    try:
        preset = Rules.preset(base or "swedish")
    except ValueError as err:
        raise ValueError(f"--base {base}: {err}") from None
    changes = parse_overrides(overrides)
    try:
        preset.replace(**changes)
    except ValueError as err:
        raise ValueError(f"--rule: {err}") from None
    rules = {"preset": preset.name} | {k: _plain(v) for k, v in changes.items()}
    table = {
        "name": "tune-" + "-".join(key for key, _ in axes),
        "description": "house rules: "
        + ", ".join(f"{key} {'/'.join(show(v) for v in values)}" for key, values in axes),
        "seed": 0 if seed is None else seed,
        "decks": DEFAULT_DECKS if decks is None else decks,
        "games": DEFAULT_GAMES if games is None else games,
        "strategy": strategy or "heuristic",
        "rules": rules,
        "vary": _vary_table(axes),
    }
    return spec_from_table(table, "command line")


def _plain(value: Any) -> Any:
    """A value as TOML (and JSON) holds it: tuples as lists."""
    return list(value) if isinstance(value, tuple) else value


def _vary_table(axes: Sequence[tuple[str, tuple[Any, ...]]]) -> dict[str, list[Any]]:
    return {key: [_plain(v) for v in values] for key, values in axes}


def spec_from_table(
    data: dict[str, Any], where: str = "tune", default_name: str = "tune"
) -> TuneSpec:
    """Validate a parsed sweep table (see the module docstring for the keys)."""
    check_top_keys(data, TOP_KEYS, where)
    vary = table_value(data.get("vary", {}), f"{where}: key 'vary'")
    axes = []
    for key, values in vary.items():
        values = values if isinstance(values, list) else [values]
        axes.append((key, tuple(tuple(v) if isinstance(v, list) else v for v in values)))
    ladder = data.get("ladder", list(LADDER))
    if not isinstance(ladder, list) or len(ladder) < 2:
        raise ValueError(
            f"{where}: key 'ladder': expected a list of at least two strategies; got {ladder!r}"
        )
    rungs = tuple(strategy_value(s, f"{where}: key 'ladder'") for s in ladder)
    if len({s.label for s in rungs}) < len(rungs):
        raise ValueError(f"{where}: key 'ladder': a strategy is listed twice")
    tune = TuneSpec(
        name=text_value(data.get("name", default_name), f"{where}: key 'name'"),
        description=text_value(data.get("description", ""), f"{where}: key 'description'"),
        base=rules_of(data, where),
        axes=check_axes(axes, f"{where}: [vary]"),
        strategy=strategy_value(data.get("strategy", "heuristic"), f"{where}: key 'strategy'"),
        ladder=rungs,
        decks=whole_number(data.get("decks"), f"{where}: key 'decks'", minimum=2),
        games=games_count(data.get("games"), f"{where}: key 'games'"),
        seed=whole_number(data.get("seed", 0), f"{where}: key 'seed'", minimum=0),
        chunk=whole_number(data.get("chunk", DEFAULT_CHUNK), f"{where}: key 'chunk'", minimum=2),
    )
    if tune.games < 2:
        raise ValueError(
            f"{where}: key 'games': a sweep plays whole games (deals per game, wins): give at "
            "least 2"
        )
    for point in tune.settings():  # every setting valid, or one error naming it
        try:
            check_builds(point.rules.builds, [tune.strategy, *tune.ladder])
        except ValueError as err:
            raise ValueError(f"{where}: setting {point.label}: {err}") from None
    return tune
