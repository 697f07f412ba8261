"""The simulation API: batches of single deals and of whole games, as polars frames.

Every engine gives the same frame for the same arguments: decks come from the counter-based
stream of (seed, deal), so the numba kernel (fast, all cores), the pure-Python reference
(slow, obviously correct: every seat plays its strategy's Python form) and a mixed table (the
reference engine referees, plain-Python seats choose in Python and kernel seats through the
kernel's position API, one decision at a time: see `loop.seat`) see the same cards and, with
the same decisions, score the same.
"""

from __future__ import annotations

import json
import os
import shlex
import traceback
from collections.abc import Callable, Iterator, Sequence

import numpy as np
import polars as pl

from simcasino.core.cards import card_code
from simcasino.core.columns import COLUMNS
from simcasino.core.notation import move_name, position_text
from simcasino.core.protocol import Move, Stream
from simcasino.core.rng import seed_key
from simcasino.core.rules import Rules, for_players
from simcasino.loop.batch import simulate_deals, simulate_games
from simcasino.loop.seat import KernelSeat
from simcasino.reference.game import GameState, single_deal
from simcasino.reference.referee import Seat, play_deal, seated
from simcasino.reference.state import DealState
from simcasino.strategies import (
    PluginStrategy,
    PythonStrategy,
    StrategySpec,
    check_builds,
    parse_strategy,
)

ENGINES = ("numba", "mixed", "reference")
REFEREED = ("mixed", "reference")  # the engines where the reference engine referees every deal
BLOCK = 1 << 16  # deals a block of `simulate_blocks` in the kernel (and between progress reports)
# deals a block at a refereed table, some thousand times slower: what an interrupted batch keeps
REFEREED_BLOCK = 256
# a frame row in memory (45 bytes), twice over while the blocks are joined, and a little more
ROW_BYTES = 96
GAME_COLUMNS = ("score", "won", "deals")
Progress = Callable[[int], None]


Lineup = list[StrategySpec | PluginStrategy | PythonStrategy]


def lineup(rules: Rules | str | dict, strategies: Sequence[object]) -> tuple[Rules, Lineup]:
    """Resolve rules and strategies; the number of strategies sets the number of players."""
    if isinstance(strategies, (str, StrategySpec)) or hasattr(strategies, "choose"):
        raise ValueError(
            "strategies must be a list with one strategy per seat, e.g. ('greedy', 'random')"
        )
    specs = [parse_strategy(s) for s in strategies]
    resolved = for_players(rules, len(specs), f"{len(specs)} strategies are given (one a seat)")
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
        raise ValueError(
            f"strategy {python_seats[0]!r} is plain Python: only engine='mixed' or 'reference' can "
            "play it"
        )
    return engine


class StrategyError(ValueError):
    """A plain-Python strategy failed at a table: it raised, or chose a move that is not legal.

    Why it carries so much: a failure on deal 8,193 of a batch is found again only if the
    message says where. The seat that failed says what happened, the strategy (its file) and
    the position in card names (`GuardedSeat`); the batch adds the deal (`locate`: its index,
    and the game for whole games), the table's strategies and rules, and the seed, from which
    `replay` writes the command that plays that deal again move by move. The strategy's own
    traceback is kept as text in ``trace`` (it crosses worker processes as text), for the
    command line's ``--debug``."""

    def __init__(
        self, problem: str, strategy: str, seat: int, position: str, trace: str = ""
    ) -> None:
        super().__init__(
            problem, strategy, seat, position, trace
        )  # so that it pickles, for worker processes
        self.problem, self.strategy, self.seat, self.position, self.trace = (
            problem,
            strategy,
            seat,
            position,
            trace,
        )
        self.deal: int | None = None
        self.game: int | None = None
        self.lineup: tuple[str, ...] = ()
        self.rules: Rules | None = None
        self.seed: int | None = None

    def locate(self, deal: int, game: int | None = None) -> StrategyError:
        """Note the deal (of a `simulate` batch, or of game ``game``), unless already noted."""
        if self.deal is None:
            self.deal, self.game = deal, game
        return self

    def replay(self) -> str:
        """``simcasino replay ...`` for this deal, or "" while the deal or the seed is unknown."""
        if self.deal is None or self.seed is None or self.rules is None or not self.lineup:
            return ""
        table = self.rules.to_table(changed_only=True)
        options = [] if table.pop("preset") == "swedish" else ["--rules", self.rules.name]
        table.pop("players", None)  # one -s per seat says it
        for knob, value in table.items():
            options += [
                "--rule",
                f"{knob}={value if isinstance(value, str) else json.dumps(value)}",
            ]
        options += ["--seed", str(self.seed)] + (
            ["--game", str(self.game)] if self.game is not None else []
        )
        options += ["--deal", str(self.deal)] + [
            item for label in self.lineup for item in ("-s", label)
        ]
        return shlex.join(["simcasino", "replay", *options])

    def where(self) -> str:
        """ "in deal 17 of seed 1, at hand AS 2C, table 4C 6D" (what is known of it)."""
        deal = (
            ""
            if self.deal is None
            else f"in deal {self.deal}"
            + (f" of game {self.game}" if self.game is not None else "")
            + (f" of seed {self.seed}" if self.seed is not None else "")
            + ", "
        )
        return f"{deal}at {self.position}"

    def __str__(self) -> str:
        replay = self.replay()
        return f"{self.strategy} (seat {self.seat}) {self.problem}; {self.where()}" + (
            f"; replay it with: {replay}" if replay else ""
        )


class GuardedSeat:
    """A plain-Python strategy's seat whose failures say where they happened: its exception,
    or a move that is not legal, becomes a `StrategyError` naming the strategy, the seat and
    the position (the referee would say only that some seat made an illegal move)."""

    def __init__(self, spec: PythonStrategy | PluginStrategy) -> None:
        self.seat, self.name = seated(spec.python()), getattr(spec, "source", "") or spec.label

    def decide(self, state: DealState, stream: Stream) -> Move:
        seat = state.to_move
        try:
            move = self.seat.decide(state, stream)
        except Exception as err:  # the user's code: anything it raises is its failure
            raise StrategyError(
                f"raised {type(err).__name__}: {err}",
                self.name,
                seat,
                _position(state),
                "".join(traceback.format_exception(err)),
            ) from err
        reason = state.why_illegal(move)
        if reason:
            raise StrategyError(
                f"chose {_move_words(move, state)}, which is not legal here ({reason})",
                self.name,
                seat,
                _position(state),
            )
        return move


def _position(state: DealState) -> str:
    """The position a seat decided at, in card names: its hand and the table."""
    hand, table, _ = position_text(state.observation(state.to_move))
    return f"hand {hand or '(empty)'}, table {table or '(empty)'}"


def _move_words(move: object, state: DealState) -> str:
    """A move in card names: as the notation names it when it names table items that are
    there, else its parts (what it plays, and the table positions a capture claims)."""
    if not isinstance(move, Move):
        return repr(move)
    card = card_code(move.card) if 0 <= move.card < len(state.deck) else f"card id {move.card}"
    claimed = [i for i in range(move.taken.bit_length()) if move.taken >> i & 1]
    if move.card in state.hands[state.to_move] and all(i < len(state.table) for i in claimed):
        return f"'{move_name(move, state.table)}'"
    if move.is_capture:
        return f"a capture with {card} of table positions {', '.join(map(str, claimed))}"
    return f"a {'build' if move.is_build else 'trail'} of {card}"


def seats(engine: str, specs: Lineup) -> list[Seat]:
    """Who decides for each seat of a refereed table: with the reference engine every
    strategy's Python form; at a mixed table a plain-Python strategy in Python (a plug-in's
    seat, `strategies.PLUGINS`, handed the state) and a kernel strategy through the kernel
    (`loop.seat.KernelSeat`). A plain-Python seat is guarded (`GuardedSeat`)."""
    if engine == "reference":
        return [seated(s.python()) if s.in_kernel else GuardedSeat(s) for s in specs]
    return [KernelSeat(s, specs) if s.in_kernel else GuardedSeat(s) for s in specs]


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
    rules: Rules | str | dict,
    strategies: Sequence[object],
    deals: int,
    seed: int = 0,
    engine: str | None = None,
    progress: Progress | None = None,
    threads: int | None = None,
    block: int | None = None,
) -> Iterator[pl.DataFrame]:
    """`simulate`'s frame in blocks of ``block`` deals (default `BLOCK` in the kernel,
    `REFEREED_BLOCK` at a refereed table), one after the other (deal numbers run on), so that
    a batch of any size needs the memory of one block, and an interrupted one keeps the
    blocks it finished."""
    _check(deals, "deals")
    return _blocks(
        deal_table,
        "deal",
        COLUMNS,
        rules,
        strategies,
        deals,
        seed,
        engine,
        progress,
        threads,
        block,
    )


def play_game_blocks(
    rules: Rules | str | dict,
    strategies: Sequence[object],
    games: int,
    seed: int = 0,
    engine: str | None = None,
    progress: Progress | None = None,
    threads: int | None = None,
    block: int | None = None,
) -> Iterator[pl.DataFrame]:
    """`play_games`'s frame in blocks of games, as `simulate_blocks` gives deals."""
    _check(games, "games")
    for frame in _blocks(
        game_table,
        "game",
        GAME_COLUMNS,
        rules,
        strategies,
        games,
        seed,
        engine,
        progress,
        threads,
        block,
    ):
        yield frame.with_columns(pl.col("won").cast(pl.Boolean))


def _blocks(
    table_of: Callable,
    unit: str,
    columns: Sequence[str],
    rules: Rules | str | dict,
    strategies: Sequence[object],
    count: int,
    seed: int,
    engine: str | None,
    progress: Progress | None,
    threads: int | None,
    block: int | None,
) -> Iterator[pl.DataFrame]:
    """Units ``0 .. count`` of ``table_of`` (`deal_table`, `game_table`) block by block, as frames;
    a strategy's failure names the seed it was played with."""
    rules, specs = lineup(rules, strategies)
    engine = pick_engine(engine, specs)
    key, size = seed_key(seed), block or (REFEREED_BLOCK if engine in REFEREED else BLOCK)
    for first in range(0, count, size):
        part = min(size, count - first)
        report = (lambda done, first=first: progress(first + done)) if progress else None
        try:
            table = table_of(rules, specs, key, part, engine, report, threads, first)
        except StrategyError as err:
            err.seed = seed
            raise
        yield _frame(table, unit, columns, specs, first)


def deal_table(
    rules: Rules,
    specs: Lineup,
    key: int,
    deals: int,
    engine: str = "numba",
    progress: Progress | None = None,
    threads: int | None = None,
    start: int = 0,
) -> np.ndarray:
    """(deals, seats, len(COLUMNS)) int16 results of deals ``start ..`` of stream key ``key``
    on ``engine`` (see `simulate`); a range of deals is how the experiment runner splits work."""
    if engine in REFEREED:
        return _refereed(_deal_rows, rules, specs, engine, key, start, deals, progress)
    return simulate_deals(rules, specs, key, deals, progress, threads, start=start)


def game_table(
    rules: Rules,
    specs: Lineup,
    key: int,
    games: int,
    engine: str = "numba",
    progress: Progress | None = None,
    threads: int | None = None,
    start: int = 0,
) -> np.ndarray:
    """(games, seats, 3) int16: final score, won (0/1; partners win together), deals played,
    of games ``start ..`` on ``engine`` (see `play_games`)."""
    if engine in REFEREED:
        return _refereed(_game_rows, rules, specs, engine, key, start, games, progress)
    return simulate_games(rules, specs, key, games, progress, threads, start=start)


def _check_memory(rows: int) -> None:
    """Refuse a frame that would take more than half of this machine's memory."""
    need = rows * ROW_BYTES
    total = (
        os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") if hasattr(os, "sysconf") else 0
    )
    if total and need > total // 2:
        raise ValueError(
            f"{rows:,} rows would need about {need / 2**30:,.1f} GiB in memory (this machine has "
            f"{total / 2**30:,.0f} GiB): play fewer deals, or take them block by block "
            "(simcasino.simulation.simulate_blocks)"
        )


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
    return pl.concat(play_game_blocks(rules, strategies, games, seed, engine, progress, threads))


def _refereed(
    rows_of: Callable,
    rules: Rules,
    specs: Lineup,
    engine: str,
    key: int,
    first: int,
    count: int,
    progress: Progress | None,
) -> np.ndarray:
    """Units ``first ..`` of ``count`` at a refereed table, each a row per seat from ``rows_of``
    (`_deal_rows`, `_game_rows`); a strategy's failure names the unit, the table and the rules."""
    players = seats(engine, specs)
    table = None
    for d in range(count):
        try:
            rows = rows_of(rules, players, key, first + d)
        except StrategyError as err:
            err.lineup, err.rules = tuple(map(_replay_name, specs)), rules
            raise
        table = (
            np.zeros((count, rules.players, len(rows[0])), dtype=np.int16)
            if table is None
            else table
        )
        table[d] = rows
        if progress:
            progress(d + 1)
    return table


def _replay_name(spec: StrategySpec | PluginStrategy | PythonStrategy) -> str:
    """How ``-s`` names a seat's strategy again: its text, a strategy file by its path (an
    object given in Python, which has neither, by its label)."""
    return getattr(spec, "source", "") or (
        spec.label if isinstance(spec, PythonStrategy) else spec.text
    )


def _deal_rows(rules: Rules, players: list[Seat], key: int, deal: int) -> list[tuple[int, ...]]:
    """Per seat of deal ``deal`` of a `simulate` batch: its result row."""
    try:
        return [seat.row() for seat in single_deal(rules, players, key, deal).seats]
    except StrategyError as err:
        raise err.locate(deal) from None


def _game_rows(
    rules: Rules, players: list[Seat], key: int, game: int
) -> list[tuple[int, int, int]]:
    """Per seat of game ``game``: final score, won (0/1), deals played."""
    state = GameState(rules, key, game)
    while not state.is_over:
        try:
            state.end_deal(play_deal(state.next_deal(), players))
        except StrategyError as err:
            raise err.locate(state.deals, game) from None
    result = state.result()
    return [
        (
            result.scores[seat],
            result.winner >= 0 and result.winner == seat % rules.units,
            result.deals,
        )
        for seat in range(rules.players)
    ]


def _frame(
    table: np.ndarray, unit: str, columns: Sequence[str], specs: Lineup, first: int = 0
) -> pl.DataFrame:
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
