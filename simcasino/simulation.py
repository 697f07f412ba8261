"""The simulation API: batches of single deals and of whole games, as polars frames.

Every engine gives the same frame for the same arguments: decks come from the counter-based
stream of (seed, deal), so the numba kernel (fast, all cores), the pure-Python reference
(slow, obviously correct: every seat plays its strategy's Python form) and a mixed table (the
reference engine referees, plain-Python seats choose in Python and kernel seats through the
kernel's position API, one decision at a time: see `loop.seat`) see the same cards and, with
the same decisions, score the same.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence

import numpy as np
import polars as pl

from simcasino.core.columns import COLUMNS
from simcasino.core.rng import seed_key
from simcasino.core.rules import Rules, resolve
from simcasino.loop.batch import simulate_deals, simulate_games
from simcasino.loop.seat import KernelSeat
from simcasino.reference.game import play_game, single_deal
from simcasino.reference.referee import Seat, seated
from simcasino.strategies import PluginStrategy, PythonStrategy, StrategySpec, check_builds, parse_strategy

ENGINES = ("numba", "mixed", "reference")
REFEREED = ("mixed", "reference")  # the engines where the reference engine referees every deal
BLOCK = 1 << 16  # deals a block of `simulate_blocks` (and between progress reports)
ROW_BYTES = 96  # a frame row in memory (45 bytes), twice over while the blocks are joined, and a little more
GAME_COLUMNS = ("score", "won", "deals")
Progress = Callable[[int], None]


Lineup = list[StrategySpec | PluginStrategy | PythonStrategy]


def lineup(rules: Rules | str | dict, strategies: Sequence[object]) -> tuple[Rules, Lineup]:
    """Resolve rules and strategies; the number of strategies sets the number of players."""
    if isinstance(strategies, (str, StrategySpec)) or hasattr(strategies, "choose"):
        raise ValueError("strategies must be a list with one strategy per seat, e.g. ('greedy', 'random')")
    specs = [parse_strategy(s) for s in strategies]
    resolved = resolve(rules)
    if len(specs) != resolved.players:
        resolved = resolved.replace(players=len(specs))
    check_builds(resolved.builds, specs)
    return resolved, specs


def _check(count: int, what: str) -> None:
    if isinstance(count, bool) or not isinstance(count, (int, np.integer)) or count < 1:
        raise ValueError(f"{what} must be a positive whole number; got {count!r}")


def pick_engine(engine: str | None, specs: Sequence[StrategySpec | PythonStrategy]) -> str:
    """The numba kernel unless asked otherwise, or a mixed table when a seat plays a
    plain-Python strategy."""
    python_seats = [s.label for s in specs if not s.in_kernel]
    if engine is None:
        return "mixed" if python_seats else "numba"
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}: choose from {', '.join(ENGINES)}")
    if engine == "numba" and python_seats:
        raise ValueError(f"strategy {python_seats[0]!r} is plain Python: only engine='mixed' or 'reference' can "
                         "play it")
    return engine


def seats(engine: str, specs: Lineup) -> list[Seat]:
    """Who decides for each seat of a refereed table: with the reference engine every
    strategy's Python form; at a mixed table a plain-Python strategy in Python (a plug-in's
    seat, `strategies.PLUGINS`, handed the state) and a kernel strategy through the kernel
    (`loop.seat.KernelSeat`)."""
    if engine == "reference":
        return [seated(s.python()) for s in specs]
    return [KernelSeat(s, specs) if s.in_kernel else seated(s.python()) for s in specs]


def simulate(
    rules: Rules | str | dict = "swedish",
    strategies: Sequence[object] = ("greedy", "greedy"),
    deals: int = 1000,
    seed: int = 0,
    engine: str | None = None,
    progress: Progress | None = None,
    threads: int | None = None,
) -> pl.DataFrame:
    """Play ``deals`` independent deals (the last seat deals, seat 0 leads each one).

    Returns one row per (deal, seat): ``deal, seat, strategy`` and the seat's counts and
    points for that deal (columns of `COLUMNS`; in partnerships every seat shows its team's).
    Strategies are names (``"greedy"``) or plain-Python strategies (objects with
    ``choose(view)``, see `core.protocol`). ``engine`` is "numba" (the default), "mixed"
    (the default when a seat plays a plain-Python strategy: the reference engine referees,
    kernel strategies decide through the kernel one decision at a time; slow) or "reference"
    (every seat plays its strategy's Python form). ``progress`` is called with the number of
    deals finished as work completes; ``threads`` caps the numba threads (default: all cores).
    The whole frame is held in memory, so a batch that would not fit is refused before it
    starts: `simulate_blocks` streams any number of deals.
    """
    _check(deals, "deals")
    rules, specs = lineup(rules, strategies)
    _check_memory(deals * rules.players)
    return pl.concat(simulate_blocks(rules, specs, deals, seed, engine, progress, threads))


def simulate_blocks(
    rules: Rules | str | dict, strategies: Sequence[object], deals: int, seed: int = 0, engine: str | None = None,
    progress: Progress | None = None, threads: int | None = None, block: int = BLOCK,
) -> Iterator[pl.DataFrame]:
    """`simulate`'s frame in blocks of ``block`` deals, one after the other (deal numbers run
    on), so that a batch of any size needs the memory of one block."""
    _check(deals, "deals")
    rules, specs = lineup(rules, strategies)
    engine = pick_engine(engine, specs)
    key = seed_key(seed)
    for first in range(0, deals, block):
        count = min(block, deals - first)
        report = (lambda done, first=first: progress(first + done)) if progress else None
        table = deal_table(rules, specs, key, count, engine, report, threads, first)
        yield _frame(table, "deal", COLUMNS, specs, first)


def deal_table(rules: Rules, specs: Lineup, key: int, deals: int, engine: str = "numba",
               progress: Progress | None = None, threads: int | None = None, start: int = 0) -> np.ndarray:
    """(deals, seats, len(COLUMNS)) int16 results of deals ``start ..`` of stream key ``key``
    on ``engine`` (see `simulate`); a range of deals is how the experiment runner splits work."""
    if engine in REFEREED:
        return _refereed_deals(rules, seats(engine, specs), key, start, deals, progress)
    return simulate_deals(rules, specs, key, deals, progress, threads, start=start)


def game_table(rules: Rules, specs: Lineup, key: int, games: int, engine: str = "numba",
               progress: Progress | None = None, threads: int | None = None, start: int = 0) -> np.ndarray:
    """(games, seats, 3) int16: final score, won (0/1; partners win together), deals played,
    of games ``start ..`` on ``engine`` (see `play_games`)."""
    if engine in REFEREED:
        return _refereed_games(rules, seats(engine, specs), key, start, games, progress)
    return simulate_games(rules, specs, key, games, progress, threads, start=start)


def _check_memory(rows: int) -> None:
    """Refuse a frame that would take more than half of this machine's memory."""
    need = rows * ROW_BYTES
    total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") if hasattr(os, "sysconf") else 0
    if total and need > total // 2:
        raise ValueError(f"{rows:,} rows would need about {need / 2**30:,.1f} GiB in memory (this machine has "
                         f"{total / 2**30:,.0f} GiB): play fewer deals, or take them block by block "
                         "(simcasino.simulation.simulate_blocks)")


def play_games(
    rules: Rules | str | dict = "swedish",
    strategies: Sequence[object] = ("greedy", "greedy"),
    games: int = 100,
    seed: int = 0,
    engine: str | None = None,
    progress: Progress | None = None,
    threads: int | None = None,
) -> pl.DataFrame:
    """Play ``games`` whole games to the target (§5); one row per (game, seat):
    ``game, seat, strategy, score, won, deals`` (in partnerships, the team's score and win)."""
    _check(games, "games")
    rules, specs = lineup(rules, strategies)
    table = game_table(rules, specs, seed_key(seed), games, pick_engine(engine, specs), progress, threads)
    frame = _frame(table, "game", GAME_COLUMNS, specs)
    return frame.with_columns(pl.col("won").cast(pl.Boolean))


def _refereed_deals(rules: Rules, players: list[Seat], key: int, first: int, deals: int,
                    progress: Progress | None) -> np.ndarray:
    table = np.zeros((deals, rules.players, len(COLUMNS)), dtype=np.int16)
    for d in range(deals):
        result = single_deal(rules, players, key, first + d)
        table[d] = [seat.row() for seat in result.seats]
        if progress:
            progress(d + 1)
    return table


def _refereed_games(rules: Rules, players: list[Seat], key: int, first: int, games: int,
                    progress: Progress | None) -> np.ndarray:
    table = np.zeros((games, rules.players, len(GAME_COLUMNS)), dtype=np.int16)
    for g in range(games):
        result = play_game(rules, players, key, first + g)
        for seat in range(rules.players):
            won = result.winner >= 0 and result.winner == seat % rules.units
            table[g, seat] = (result.scores[seat], won, result.deals)
        if progress:
            progress(g + 1)
    return table


def _frame(table: np.ndarray, unit: str, columns: Sequence[str], specs: Lineup, first: int = 0) -> pl.DataFrame:
    """(units, seats, columns) counts -> a long frame ordered by unit then seat; units are
    numbered from ``first``."""
    units, seats, _ = table.shape
    # polars copies strided columns slowly
    by_column = np.ascontiguousarray(table.reshape(units * seats, len(columns)).T)
    labels = pl.Series("strategy", [s.label for s in specs], dtype=pl.Categorical)
    return pl.DataFrame(
        {
            unit: np.repeat(np.arange(first, first + units, dtype=np.int64), seats),
            "seat": np.tile(np.arange(seats, dtype=np.int8), units),
            "strategy": labels.gather(np.tile(np.arange(seats), units)),
            **{c: by_column[i] for i, c in enumerate(columns)},
        }
    )
