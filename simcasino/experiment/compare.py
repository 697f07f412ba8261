"""`simcasino.compare`: a quick head-to-head of two strategies, with the experiment's statistics.

The same paired design and numbers as an experiment with two arms, played in this process on
all cores (numba threads) and kept in memory: nothing is written.
"""

from __future__ import annotations

from typing import Any

from simcasino.core.rules import Rules, for_players
from simcasino.experiment.backends import InlineExecutor
from simcasino.experiment.result import Comparison
from simcasino.experiment.runner import Progress, RunResult, execute, make_plan
from simcasino.experiment.spec import DEFAULT_CHUNK, games_count, spec_from_table, whole_number
from simcasino.strategies import parse_strategy

COMPARE_CHUNKS = 100  # chunks a comparison is played in, about (see `compare_chunk`)
MIN_CHUNK = 8  # decks a chunk at the least


# a strategy as `simcasino.simulate` takes one: a name, a .py file, a function, an object
Seat = object


def compare(
    a: Seat,
    b: Seat,
    rules: Rules | str | dict = "swedish",
    players: int | None = None,
    decks: int = 10_000,
    seed: int = 0,
    games: int = 0,
    threads: int | None = None,
    margin: float | None = None,
    **renamed: Any,
) -> Comparison:
    """Play A against B on ``decks`` decks, each once per seat rotation (A in one seat, B in
    the others), and return the difference A − B in points per deal as a `Comparison`: it
    prints as a sentence and its components, frames itself (``.to_frame()``, polars), draws
    itself (``.plot()``) and gives ``simcasino compare --json``'s dict (``.to_dict()``).

    A and B are what `simcasino.simulate` takes as a seat: a name with parameters
    (``"heuristic:hold_twos=0"``), a plain-Python file (``"strategies/spade_hoarder.py"``), a
    function of the view or an object with ``choose(view)`` (a plain-Python seat: the decks
    are then played at a mixed table, the reference engine refereeing and the kernel
    strategies deciding one decision at a time, which is slow). ``players`` None plays the
    rules' count; rules that state another count than ``players=`` are a ValueError.
    ``games`` > 0 also plays whole games (A's win rate with a Wilson CI); a ``margin`` (points
    per deal) adds ``equivalent``: the 95% CI lies inside ±margin. The size is fixed in
    advance, so the interval is a fixed-sample one. ValueError on bad input; simcasino 0.2's
    ``deals=`` (the same count) is answered with its new name. The API's default size is the
    command line's (10,000 decks).

    200 decks, 400 deals (seconds, once the kernel is compiled):

    >>> import simcasino
    >>> result = simcasino.compare("greedy", "random", decks=200, seed=1)
    >>> result
    greedy − random: +7.410 points a deal [+7.038, +7.782], p = 8.65e-96 (200 decks)
      swedish rules, 2 players, seed 1, 400 deals, fixed interval, pairing cut the variance 1.06×
      cards          +0.968 [+0.943, +0.992]
      spades         +1.760 [+1.665, +1.855]
      aces           +2.355 [+2.191, +2.519]
      10♦            +1.010 [+0.862, +1.158]
      2♠             +0.550 [+0.470, +0.630]
      sistan         +0.335 [+0.242, +0.428]
      tabbes         +0.432 [+0.328, +0.537]
    >>> result.mean_diff, result.deals_played, result.to_frame().shape
    (7.41, 400, (11, 14))
    """
    if "deals" in renamed:
        raise TypeError(
            f"compare() counts decks since simcasino 0.3: write decks={renamed['deals']!r} "
            "(0.2's deals=, the same count: each deck is dealt once per seat rotation)"
        )
    if renamed:
        raise TypeError(f"compare() got an unexpected keyword argument {next(iter(renamed))!r}")
    return compare_result(compare_run(a, b, rules, players, decks, seed, games, threads, margin))


def compare_run(
    a: Seat,
    b: Seat,
    rules: Rules | str | dict = "swedish",
    players: int | None = None,
    decks: int = 10_000,
    seed: int = 0,
    games: int = 0,
    threads: int | None = None,
    margin: float | None = None,
    progress: Progress | None = None,
) -> RunResult:
    """`compare` as a run result (summary table and data), for the command line's tables;
    ``progress`` is called as the experiment runner calls it (fraction done, deals played).
    Ctrl-C raises `runner.Interrupted` with the figures of the decks played so far."""
    decks, seed = whole_number(decks, "decks", minimum=2), whole_number(seed, "seed", minimum=0)
    games = games_count(games, "games")
    resolved = for_players(rules, players)
    one, other = parse_strategy(a), parse_strategy(b)
    name_a, name_b = one.label, other.label
    name_b = name_b if name_b != name_a else f"{name_b} (B)"  # arms need two names for A against A
    table = {
        "name": "compare",
        "seed": seed,
        "decks": decks,
        "games": games,
        "chunk": compare_chunk(decks),
        "rules": resolved.to_table(),
        "arms": {name_a: one, name_b: other},
        "compare": {"baseline": name_b},
        "margin": margin,
    }
    spec = spec_from_table(table, "compare")
    return execute(spec, make_plan(spec), None, InlineExecutor(), 1, progress, threads=threads)


def compare_chunk(decks: int) -> int:
    """Decks a chunk of a comparison: at most `DEFAULT_CHUNK`, and small enough that a run has
    about `COMPARE_CHUNKS` of them, so that progress moves and Ctrl-C keeps the decks played
    however slow the table (a strategy file, the search). The numbers do not depend on it: a
    chunk's sums are exact integers."""
    return min(DEFAULT_CHUNK, max(MIN_CHUNK, -(-decks // COMPARE_CHUNKS)))


def compare_result(result: RunResult) -> Comparison:
    """The one comparison of a `compare_run` as `compare` returns it."""
    return result.comparisons[0]
