"""Experiment specs: a TOML file saying what to compare, under which rules, on how many decks.

A spec names its arms (each a strategy with parameters, ``"heuristic:hold_twos=0"``) and how
they meet: every arm against the ``baseline`` arm, every pair (``round-robin``), or each arm
against the next one listed (``chain``: a ladder of rungs such as heuristic, greedy, random). Each
comparison seats the two arms at one table, A in one seat and B in the others, and plays
every deck once per seat rotation, so the luck of the cards cancels (see `runner`).

Example (``experiments/quick.toml``)::

    name = "quick"
    description = "greedy against random"
    seed = 1
    decks = 20000          # each deck is played once per seat rotation: 2 deals of it in 2 players
    games = 0              # also play whole games for win rates (0: none)
    chunk = 4096           # decks per chunk: the step of resuming and of early stopping
    [rules]
    preset = "swedish"     # plus any knob of `simcasino rules show`
    [arms]
    greedy = "greedy"
    random = "random"
    selfplay = "greedy"    # optional: also play every deck (and game) with this strategy in
                           # every seat: first-player edge, spread, tabbes, ties, game length
    [compare]
    baseline = "random"    # or: design = "round-robin" (every pair), "chain" (each the next),
                           # or pairs = [["A", "B"], ...] (just these comparisons)
    [stop]                 # optional SPRT on points per deal: H0 "a gain of at most low"
    low = 0.0              # against H1 "at least high"; alpha and beta (0.05 unless set) are
    high = 0.2             # the error rates over all the comparisons together

and, at the top, ``margin = 0.05`` (optional): a comparison whose simultaneous interval lies
inside ±margin points per deal is reported as "no difference larger than" it (equivalence).

Every mistake is a ValueError naming the file, the key and what was expected, so a typo in
a spec never starts an hour of simulating.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simcasino.core.rules import Rules, from_table, read_toml
from simcasino.core.suggest import did_you_mean, near_or_all
from simcasino.sequential import Sprt
from simcasino.strategies import Named, PythonStrategy, StrategySpec, check_builds, parse_strategy

Arm = (
    StrategySpec | PythonStrategy
)  # an arm: a kernel strategy, or a plain-Python file (a mixed table)

DESIGNS = ("baseline", "round-robin", "chain", "pairs")
DEFAULT_CHUNK = 16384
TOP_KEYS = (
    "name",
    "description",
    "seed",
    "decks",
    "games",
    "chunk",
    "players",
    "rules",
    "arms",
    "compare",
    "stop",
    "selfplay",
    "margin",
)


@dataclass(frozen=True)
class Spec:
    """A validated experiment: rules, arms and how they meet, how much to play, the seed."""

    name: str
    description: str
    rules: Rules
    arms: dict[str, Arm]
    design: str
    baseline: str | None
    decks: int
    games: int
    seed: int
    chunk: int = DEFAULT_CHUNK
    sprt: Sprt | None = None
    selfplay: Arm | None = None
    margin: float | None = None  # equivalence margin in points per deal (> 0)
    pairs: tuple[tuple[str, str], ...] = ()  # design "pairs": the comparisons, as listed

    @property
    def comparisons(self) -> list[tuple[str, str]]:
        """(A, B) arm names; a positive difference means A scores more than B."""
        if self.design == "pairs":
            return list(self.pairs)
        if self.design == "round-robin":
            return list(itertools.combinations(self.arms, 2))
        if self.design == "chain":
            return list(itertools.pairwise(self.arms))
        return [(arm, self.baseline) for arm in self.arms if arm != self.baseline]

    def replace(self, **changes: Any) -> Spec:
        """A copy with, e.g., another seed or number of decks (the CLI's overrides), re-checked."""
        for key in ("decks", "seed"):
            if key in changes:
                whole_number(changes[key], f"--{key}", minimum=1 if key == "decks" else 0)
        return dataclasses.replace(self, **changes)

    def to_table(self, in_memory: bool = False) -> dict[str, Any]:
        """Everything that decides the results, as the TOML-style table `spec_from_table` reads
        back (the run manifest keeps it, so `experiment resume DIR` needs no spec file).
        ``in_memory``: a strategy given as a Python object is named by its label (a run that
        writes nothing; `arm_text`)."""
        rules = self.rules.to_table()
        compare = {"design": self.design} if self.baseline is None else {"baseline": self.baseline}
        if self.pairs:
            compare["pairs"] = [list(pair) for pair in self.pairs]
        table = {
            "name": self.name,
            "description": self.description,
            "seed": self.seed,
            "decks": self.decks,
            "games": self.games,
            "chunk": self.chunk,
            "rules": rules,
            "arms": {name: arm_text(s, in_memory) for name, s in self.arms.items()},
            "compare": compare,
        }
        if self.sprt:
            table["stop"] = dataclasses.asdict(self.sprt)
        if self.selfplay:
            table["selfplay"] = arm_text(self.selfplay, in_memory)
        if self.margin is not None:
            table["margin"] = self.margin
        return table


def arm_text(arm: Arm, in_memory: bool = False) -> str:
    """The arm's text; in memory, a Python object without a file is ``python:LABEL``, which
    no file can be read back from (a run folder asks for its file: `PythonStrategy.text`)."""
    if in_memory and isinstance(arm, PythonStrategy) and not arm.source:
        return f"python:{arm.label}"
    return arm.text


def load_spec(path: str | Path) -> Spec:
    """Read and validate a spec file; errors name the file and the key."""
    data = read_toml(path)
    if "vary" in data:
        raise ValueError(
            f"{path}: a house-rule sweep, not an experiment: run it with 'simcasino rules tune "
            f"{path}'"
        )
    return spec_from_table(data, str(path), default_name=Path(path).stem)


def spec_from_table(
    data: dict[str, Any], where: str = "spec", default_name: str = "experiment"
) -> Spec:
    """Validate a parsed spec table (see the module docstring for the keys)."""
    check_top_keys(data, TOP_KEYS, where)
    rules = rules_of(data, where)
    arms = _arms(data.get("arms"), where)
    try:
        check_builds(rules.builds, list(arms.values()))
    except ValueError as err:
        raise ValueError(f"{where}: {err}") from None
    design, baseline, pairs = _compare(data.get("compare", {}), arms, where)
    return Spec(
        name=text_value(data.get("name", default_name), f"{where}: key 'name'"),
        description=text_value(data.get("description", ""), f"{where}: key 'description'"),
        rules=rules,
        arms=arms,
        design=design,
        baseline=baseline,
        pairs=pairs,
        decks=whole_number(data.get("decks"), f"{where}: key 'decks'", minimum=2),
        games=games_count(data.get("games", 0), f"{where}: key 'games'"),
        seed=whole_number(data.get("seed", 0), f"{where}: key 'seed'", minimum=0),
        chunk=whole_number(data.get("chunk", DEFAULT_CHUNK), f"{where}: key 'chunk'", minimum=2),
        sprt=_stop(data.get("stop"), where),
        selfplay=_selfplay(data.get("selfplay"), where),
        margin=None
        if data.get("margin") is None
        else margin_value(data["margin"], f"{where}: key 'margin'"),
    )


def check_top_keys(data: dict[str, Any], keys: tuple[str, ...], where: str) -> None:
    """ValueError for a key the file may not have; the key that was renamed says so."""
    if "deals" in data and "decks" in keys:
        raise ValueError(
            f"{where}: key 'deals' is now 'decks' (a deck is one shuffle, played once per seat "
            f"rotation): rename it"
        )
    unknown = sorted(set(data) - set(keys))
    if unknown:
        raise ValueError(
            f"{where}: unknown key {unknown[0]!r}: "
            f"{near_or_all(unknown[0], keys, 'docs/experiments.md')}"
        )


def text_value(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{what}: expected a string; got {value!r}")
    return value


def whole_number(value: Any, what: str, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(f"{what}: expected a whole number >= {minimum}; got {value!r}")
    return value


def margin_value(value: Any, what: str) -> float:
    """An equivalence margin: a positive, finite number of points per deal."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < math.inf:
        raise ValueError(f"{what}: expected a positive number of points per deal; got {value!r}")
    return float(value)


def games_count(value: Any, what: str) -> int:
    games = whole_number(value, what, minimum=0)
    if games == 1:
        raise ValueError(f"{what}: expected 0 (no games) or at least 2 for an interval; got 1")
    return games


def table_value(value: Any, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError(f"{what}: expected a table; got {value!r}")
    return value


def rules_of(data: dict[str, Any], where: str) -> Rules:
    rules = from_table(
        table_value(data.get("rules", {}), f"{where}: key 'rules'"), where=f"{where}: [rules]"
    )
    if "players" not in data:
        return rules
    players = whole_number(data["players"], f"{where}: key 'players'", minimum=2)
    try:
        return rules.replace(players=players)
    except ValueError as err:
        raise ValueError(f"{where}: key 'players': {err}") from None


def _arms(value: Any, where: str) -> dict[str, Arm]:
    if value is None:
        raise ValueError(
            f"{where}: key 'arms' is missing: expected a table such as [arms] on = \"greedy\""
        )
    table = table_value(value, f"{where}: key 'arms'")
    if len(table) < 2:
        raise ValueError(f"{where}: key 'arms': expected at least two arms; got {len(table)}")
    return {
        name: strategy_value(text, f"{where}: key 'arms.{name}'") for name, text in table.items()
    }


def strategy_value(value: Any, what: str) -> Arm:
    """An arm from its text, or as given when Python hands a strategy already parsed (an
    in-memory spec, `compare`'s: it is never written, so needs no text)."""
    if isinstance(value, (Named, PythonStrategy)):
        return value
    text = text_value(value, what)
    try:
        return parse_strategy(text)
    except ValueError as err:
        raise ValueError(f"{what}: {err}") from None


def _selfplay(value: Any, where: str) -> Arm | None:
    return None if value is None else strategy_value(value, f"{where}: key 'selfplay'")


def _compare(
    value: Any, arms: dict[str, Arm], where: str
) -> tuple[str, str | None, tuple[tuple[str, str], ...]]:
    table = table_value(value, f"{where}: key 'compare'")
    unknown = sorted(set(table) - {"design", "baseline", "pairs"})
    if unknown:
        raise ValueError(
            f"{where}: unknown key 'compare.{unknown[0]}': "
            f"{did_you_mean(unknown[0], ('design', 'baseline', 'pairs'))}"
            "expected design, baseline or pairs"
        )
    design = table.get(
        "design",
        "baseline" if "baseline" in table else "pairs" if "pairs" in table else "round-robin",
    )
    if design not in DESIGNS:
        raise ValueError(
            f"{where}: key 'compare.design': expected one of {', '.join(DESIGNS)}; got {design!r}"
        )
    baseline = table.get("baseline")
    if design == "baseline" and baseline not in arms:
        raise ValueError(
            f"{where}: key 'compare.baseline': expected one of the arms ({', '.join(arms)}); "
            f"got {baseline!r}"
        )
    return (
        design,
        baseline if design == "baseline" else None,
        _pairs(table.get("pairs"), design, arms, where),
    )


def _pairs(
    value: Any, design: str, arms: dict[str, Arm], where: str
) -> tuple[tuple[str, str], ...]:
    """Design "pairs": the listed [A, B] comparisons, each of two different arms."""
    if design != "pairs":
        if value is not None:
            raise ValueError(f"{where}: key 'compare.pairs' is for design = \"pairs\"")
        return ()
    ok = (
        isinstance(value, list)
        and value
        and all(
            isinstance(p, list) and len(p) == 2 and p[0] in arms and p[1] in arms and p[0] != p[1]
            for p in value
        )
    )
    if not ok:
        raise ValueError(
            f"{where}: key 'compare.pairs': expected a list of [A, B] pairs of two different arms "
            f"({', '.join(arms)})"
        )
    return tuple((a, b) for a, b in value)


def _stop(value: Any, where: str) -> Sprt | None:
    if value is None:
        return None
    table = table_value(value, f"{where}: key 'stop'")
    numbers = {}
    for key in ("low", "high", "alpha", "beta"):
        if key not in table:
            continue
        if isinstance(table[key], bool) or not isinstance(table[key], (int, float)):
            raise ValueError(f"{where}: key 'stop.{key}': expected a number; got {table[key]!r}")
        numbers[key] = float(table[key])
    unknown = sorted(set(table) - set(numbers))
    if unknown:
        raise ValueError(
            f"{where}: unknown key 'stop.{unknown[0]}': "
            f"{did_you_mean(unknown[0], ('low', 'high', 'alpha', 'beta'))}"
            "expected low, high, alpha, beta"
        )
    if "high" not in numbers:
        raise ValueError(
            f"{where}: key 'stop.high' is missing: expected the effect (points per deal) to detect"
        )
    try:
        return Sprt(
            numbers.get("low", 0.0),
            numbers["high"],
            numbers.get("alpha", 0.05),
            numbers.get("beta", 0.05),
        )
    except ValueError as err:
        raise ValueError(f"{where}: key 'stop': {err}") from None
