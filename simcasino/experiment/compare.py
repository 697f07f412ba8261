"""`simcasino.compare`: a quick head-to-head of two strategies, with the experiment's statistics.

The same paired design and numbers as an experiment with two arms, played in this process on
all cores (numba threads) and kept in memory: nothing is written.
"""

from __future__ import annotations

from typing import Any

from simcasino.core.rules import Rules, resolve
from simcasino.experiment.backends import InlineExecutor
from simcasino.experiment.runner import Progress, RunResult, execute, make_plan
from simcasino.experiment.spec import DEFAULT_CHUNK, games_count, spec_from_table, whole_number
from simcasino.strategies import parse_strategy

COMPARE_CHUNKS = 100  # chunks a comparison is played in, about (see `compare_chunk`)
MIN_CHUNK = 8  # decks a chunk at the least


def compare(a: str, b: str, rules: Rules | str | dict = "swedish", players: int = 2, decks: int = 10_000,
            seed: int = 0, games: int = 0, threads: int | None = None, margin: float | None = None,
            **renamed: Any) -> dict[str, Any]:
    """Play A against B on ``decks`` decks, each once per seat rotation (A in one seat, B in
    the others), and return the difference A − B in points per deal::

        {"a": "greedy", "b": "random", "mean_diff": 1.9, "ci_low": 1.8, "ci_high": 2.0,
         "p_value": 0.0, "decks": 10000, "variance_reduction": 2.1,
         "components": {"cards": {"mean_diff": ..., "ci_low": ..., "ci_high": ..., "p_value": ...},
                        "spades": ..., "aces": ..., "big_kasino": ..., "small_kasino": ...,
                        "sistan": ..., "tabbes": ...}, ...}

    Strategies take parameters (``"heuristic:hold_twos=0"``) or are plain-Python files
    (``"strategies/spade_hoarder.py"``: the decks are then played at a mixed table, the
    reference engine refereeing and the kernel strategies deciding one decision at a time,
    which is slow); ``games`` > 0 also plays whole games and adds ``games`` (A's win rate with
    a Wilson CI); a ``margin`` (points per deal) adds ``equivalent``: the 95% CI lies inside
    ±margin. The size is fixed in advance, so the interval is a fixed-sample one
    (``"interval": "fixed"``). ValueError on bad input; simcasino 0.2's ``deals=`` (the same
    count) is answered with its new name.

    200 decks, 400 deals (seconds, once the kernel is compiled):

    >>> from simcasino import compare
    >>> result = compare("greedy", "random", decks=200, seed=1)
    >>> result["deals_played"], result["mean_diff"], (round(result["ci_low"], 2), round(result["ci_high"], 2))
    (400, 7.41, (7.04, 7.78))
    """
    if "deals" in renamed:
        raise TypeError(f"compare() counts decks since simcasino 0.3: write decks={renamed['deals']!r} "
                        "(0.2's deals=, the same count: each deck is dealt once per seat rotation)")
    if renamed:
        raise TypeError(f"compare() got an unexpected keyword argument {next(iter(renamed))!r}")
    return compare_dict(compare_run(a, b, rules, players, decks, seed, games, threads, margin))


def compare_run(a: str, b: str, rules: Rules | str | dict = "swedish", players: int = 2, decks: int = 10_000,
                seed: int = 0, games: int = 0, threads: int | None = None, margin: float | None = None,
                progress: Progress | None = None) -> RunResult:
    """`compare` as a run result (summary table and data), for the command line's tables;
    ``progress`` is called as the experiment runner calls it (fraction done, deals played).
    Ctrl-C raises `runner.Interrupted` with the figures of the decks played so far."""
    decks, seed = whole_number(decks, "decks", minimum=2), whole_number(seed, "seed", minimum=0)
    games = games_count(games, "games")
    resolved = resolve(rules)
    one, other = parse_strategy(a), parse_strategy(b)
    name_a, name_b = one.label, other.label
    name_b = name_b if name_b != name_a else f"{name_b} (B)"  # arms need two names for A against A
    table = {"name": "compare", "seed": seed, "decks": decks, "games": games, "players": players,
             "chunk": compare_chunk(decks), "rules": resolved.to_table(),
             "arms": {name_a: one.text, name_b: other.text}, "compare": {"baseline": name_b}, "margin": margin}
    spec = spec_from_table(table, "compare")
    return execute(spec, make_plan(spec), None, InlineExecutor(), 1, progress, threads=threads)


def compare_chunk(decks: int) -> int:
    """Decks a chunk of a comparison: at most `DEFAULT_CHUNK`, and small enough that a run has
    about `COMPARE_CHUNKS` of them, so that progress moves and Ctrl-C keeps the decks played
    however slow the table (a strategy file, the search). The numbers do not depend on it: a
    chunk's sums are exact integers."""
    return min(DEFAULT_CHUNK, max(MIN_CHUNK, -(-decks // COMPARE_CHUNKS)))


def compare_dict(result: RunResult) -> dict[str, Any]:
    """The one comparison of a `compare_run` as `compare` returns it."""
    spec, item = result.spec, result.data["comparisons"][0]
    rest = {k: v for k, v in item.items() if k not in ("a", "b", "strategy_a", "strategy_b")}
    partial = {"interrupted": True} if result.data.get("interrupted") else {}
    return {"a": item["strategy_a"], "b": item["strategy_b"], "rules": spec.rules.name,
            "players": spec.rules.players, "seed": spec.seed, **rest, "deals_played": result.data["deals_played"],
            **partial}

