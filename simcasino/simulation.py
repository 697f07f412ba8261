"""The simulation API: batches of single deals and of whole games, as polars frames.

Both engines give the same frame for the same arguments: decks come from the counter-based
stream of (seed, deal), so the numba kernel (fast, all cores) and the pure-Python reference
(slow, obviously correct) see the same cards and, with the same decisions, score the same.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import polars as pl

from simcasino.core.rng import seed_key
from simcasino.core.rules import Rules, resolve
from simcasino.reference.deal import COLUMNS
from simcasino.reference.game import play_game, single_deal
from simcasino.strategies import PythonStrategy, StrategySpec, check_builds, parse_strategy

ENGINES = ("numba", "reference")
GAME_COLUMNS = ("score", "won", "deals")
Progress = Callable[[int], None]


Seat = StrategySpec | PythonStrategy


def lineup(rules: Rules | str | dict, strategies: Sequence[object]) -> tuple[Rules, list[Seat]]:
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


def pick_engine(engine: str | None, specs: Sequence[Seat]) -> str:
    """The numba kernel unless asked otherwise or a seat plays a plain-Python strategy."""
    python_seats = [s.label for s in specs if not s.in_kernel]
    if engine is None:
        return "reference" if python_seats else "numba"
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}: choose from {', '.join(ENGINES)}")
    if engine == "numba" and python_seats:
        raise ValueError(f"strategy {python_seats[0]!r} is plain Python: only engine='reference' can play it")
    return engine


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
    Strategies are names (``"greedy"``) or
    plain-Python strategies (objects with ``choose(view)``, see `strategies.protocol`).
    ``engine`` is "numba" (the default) or "reference" (the default when a seat plays a
    plain-Python strategy). ``progress`` is called with the number of deals finished as
    work completes; ``threads`` caps the numba threads (default: all cores).
    """
    _check(deals, "deals")
    rules, specs = lineup(rules, strategies)
    engine = pick_engine(engine, specs)
    key = seed_key(seed)
    if engine == "reference":
        table = _reference_deals(rules, specs, key, deals, progress)
    else:
        from simcasino.loop.batch import simulate_deals

        table = simulate_deals(rules, specs, key, deals, progress, threads)
    return _frame(table, "deal", COLUMNS, specs)


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
    engine = pick_engine(engine, specs)
    key = seed_key(seed)
    if engine == "reference":
        table = _reference_games(rules, specs, key, games, progress)
    else:
        from simcasino.loop.batch import simulate_games

        table = simulate_games(rules, specs, key, games, progress, threads)
    frame = _frame(table, "game", GAME_COLUMNS, specs)
    return frame.with_columns(pl.col("won").cast(pl.Boolean))


def _reference_deals(rules: Rules, specs: list[Seat], key: int, deals: int, progress: Progress | None) -> np.ndarray:
    table = np.zeros((deals, rules.players, len(COLUMNS)), dtype=np.int16)
    players = [s.python() for s in specs]
    for d in range(deals):
        result = single_deal(rules, players, key, d)
        table[d] = [seat.row() for seat in result.seats]
        if progress and ((d + 1) % 100 == 0 or d + 1 == deals):
            progress(d + 1)
    return table


def _reference_games(rules: Rules, specs: list[Seat], key: int, games: int, progress: Progress | None) -> np.ndarray:
    table = np.zeros((games, rules.players, len(GAME_COLUMNS)), dtype=np.int16)
    players = [s.python() for s in specs]
    for g in range(games):
        result = play_game(rules, players, key, g)
        for seat in range(rules.players):
            won = result.winner >= 0 and result.winner == seat % rules.units
            table[g, seat] = (result.scores[seat], won, result.deals)
        if progress:
            progress(g + 1)
    return table


def _frame(table: np.ndarray, unit: str, columns: Sequence[str], specs: list[Seat]) -> pl.DataFrame:
    """(units, seats, columns) counts -> a long frame ordered by unit then seat."""
    units, seats, _ = table.shape
    # polars copies strided columns slowly
    by_column = np.ascontiguousarray(table.reshape(units * seats, len(columns)).T)
    labels = pl.Series("strategy", [s.label for s in specs], dtype=pl.Categorical)
    return pl.DataFrame(
        {
            unit: np.repeat(np.arange(units, dtype=np.int64), seats),
            "seat": np.tile(np.arange(seats, dtype=np.int8), units),
            "strategy": labels.gather(np.tile(np.arange(seats), units)),
            **{c: by_column[i] for i, c in enumerate(columns)},
        }
    )
