"""The verbs that play deals with given seats: ``simulate`` (many single deals), ``games``
(whole games to the target) and ``replay`` (one deal move by move, to check by eye)."""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click

from simcasino.cli.common import (
    add_options,
    build_lineup,
    check_writable,
    echo_table,
    lineup_options,
)
from simcasino.cli.progress import showing_progress, stopped
from simcasino.core.rules import Rules

if TYPE_CHECKING:
    import polars as pl

    from simcasino.core.protocol import View
    from simcasino.reference.deal import DealResult
    from simcasino.reference.state import Action, DealState
    from simcasino.strategies import StrategySpec


def run_options(command: Callable) -> Callable:
    """The options of the batch verbs (simulate, games): reproducibility, engine, output."""
    return add_options(
        command,
        [
            click.option(
                "--seed",
                type=click.IntRange(min=0),
                default=0,
                show_default=True,
                help="Master seed; the same seed gives the same table.",
            ),
            click.option(
                "--engine",
                metavar="ENGINE",
                help="numba (fast, all cores; the default), mixed (the default when a seat plays a "
                "plain-Python strategy file: the reference engine referees and every kernel "
                "decision loads a workspace of its own, so slow) or reference (every seat plays "
                "its strategy's Python form; slow, for checking).",
            ),
            click.option(
                "--threads",
                type=click.IntRange(min=1),
                help="Cap the numba threads (default: all cores).",
            ),
            click.option(
                "--out",
                type=click.Path(dir_okay=False, path_type=Path),
                metavar="FILE",
                help="Also write the full table, one row per seat and unit: FILE.parquet or "
                "FILE.csv.",
            ),
        ],
    )


OUT_FORMATS = (".parquet", ".csv")


def check_out(out: Path | None) -> None:
    """Refuse an --out in a missing folder, or of a format it cannot be, before the run, not
    after an hour of simulating."""
    if out is None:
        return
    if out.suffix.lower() not in OUT_FORMATS:
        raise ValueError(
            f"--out {out}: the table is written as Parquet (.parquet) or CSV (.csv), by its name"
        )
    if not out.parent.is_dir():
        raise ValueError(f"--out {out}: folder {out.parent} does not exist")
    check_writable(out, "--out")


def write_out(frame: pl.DataFrame, out: Path | None) -> None:
    if out is None:
        return
    try:
        frame.write_csv(out) if out.suffix.lower() == ".csv" else frame.write_parquet(out)
    except OSError as err:
        raise ValueError(f"cannot write {out}: {err}") from None
    click.echo(f"wrote {out} ({frame.height:,} rows)")


class TableOut:
    """--out written block by block: each block as a Parquet part in a hidden folder beside
    ``out``, joined by polars' streaming engine at the end (so a batch of any size needs
    the memory of one block); the parts go whatever happens."""

    def __init__(self, out: Path) -> None:
        self.out, self.parts, self.rows = out, out.parent / f".{out.name}.parts", 0
        shutil.rmtree(self.parts, ignore_errors=True)
        try:
            self.parts.mkdir()
        except OSError as err:
            raise ValueError(
                f"--out {out}: cannot write beside it in {out.parent} ({err.strerror})"
            ) from None

    def add(self, block: pl.DataFrame) -> None:
        block.write_parquet(self.parts / f"{self.rows:015d}.parquet")
        self.rows += block.height

    def finish(self) -> None:
        import polars as pl

        joined = pl.scan_parquet(self.parts / "*.parquet")
        try:
            joined.sink_csv(self.out) if self.out.suffix.lower() == ".csv" else joined.sink_parquet(
                self.out
            )
        except OSError as err:
            raise ValueError(f"cannot write {self.out}: {err}") from None
        click.echo(f"wrote {self.out} ({self.rows:,} rows)")

    def close(self) -> None:
        shutil.rmtree(self.parts, ignore_errors=True)


def describe_run(rules: Rules, specs: Sequence[StrategySpec], seed: int, engine: str | None) -> str:
    from simcasino.simulation import pick_engine

    seats = ", ".join(f"seat {i} {s.label}" for i, s in enumerate(specs))
    return (
        f"{rules.name} rules, {rules.players} players ({seats}), seed {seed}, "
        f"{pick_engine(engine, specs)} engine"
    )


@click.command("simulate")
@lineup_options
@click.option(
    "--deals",
    type=click.IntRange(min=1),
    default=100_000,
    show_default=True,
    help="Number of independent deals.",
)
@run_options
def simulate_command(
    rules_name: str | None,
    rules_file: Path | None,
    overrides: tuple[str, ...],
    players: int | None,
    strategies: tuple[str, ...],
    deals: int,
    seed: int,
    engine: str,
    threads: int | None,
    out: Path | None,
) -> None:
    """Play many single deals and print the mean points and counts per deal of every seat.

    Each deal is independent (the last seat deals, seat 0 leads). With --out the full table,
    one row per deal and seat, is written as Parquet.

    \b
    Example:
      simcasino simulate --rules finnish --players 3 -s greedy -s random -s greedy \\
          --deals 100000 --seed 1 --out deals.parquet
    """
    from simcasino.simulation import simulate_blocks

    rules, specs = build_lineup(rules_name, rules_file, overrides, players, strategies)
    check_out(out)
    table, sums = TableOut(out) if out else None, []
    try:
        with showing_progress(specs, "simulate", prepare=in_kernel(specs, engine)) as line:
            start = time.perf_counter()  # after the compile: the rate is the engine's
            try:
                for block in simulate_blocks(
                    rules, specs, deals, seed, engine, line.counter(deals), threads
                ):
                    sums.append(seat_sums(block))
                    if table:
                        table.add(block)
            except KeyboardInterrupt:
                line.close()
                _deals_so_far(rules, specs, seed, engine, sums, deals, start, table)
                stopped(
                    line,
                    "the figures above are those of the blocks of deals finished, marked partial",
                )
        _deals_so_far(rules, specs, seed, engine, sums, deals, start, table)
    finally:
        if table:
            table.close()


def _deals_so_far(
    rules: Rules,
    specs: Sequence[StrategySpec],
    seed: int,
    engine: str | None,
    sums: list[pl.DataFrame],
    asked: int,
    start: float,
    table: TableOut | None,
) -> None:
    """The summary of the deals played (of the ``asked``: all, or those of the blocks an
    interruption left finished, said to be partial), and the --out table of them."""
    seconds = time.perf_counter() - start
    played = int(sum(frame["deals"][0] for frame in sums))
    click.echo(describe_run(rules, specs, seed, engine))
    if not played:
        click.echo(f"no block of deals was finished (of {asked:,}), so there are no figures yet")
        return
    done = (
        f"{played:,} deals"
        if played == asked
        else f"{played:,} of {asked:,} deals (interrupted: partial figures)"
    )
    click.echo(
        f"{done} in {seconds:.2f} s ({played / seconds:,.0f} deals/s); mean per deal by seat:"
    )
    echo_table(deal_summary(sums))
    if table:
        table.finish()


def in_kernel(specs: Sequence[StrategySpec], engine: str | None) -> bool:
    """Does the kernel play these seats (the numba engine, or kernel seats at a mixed table)?"""
    from simcasino.simulation import pick_engine

    return pick_engine(engine, specs) != "reference"


def seat_sums(block: pl.DataFrame) -> pl.DataFrame:
    """Per seat of a block: the strategy, the deals, and every counted column summed."""
    import polars as pl

    from simcasino.core.columns import COLUMNS

    return block.group_by("seat").agg(
        pl.col("strategy").first(), pl.len().alias("deals"), pl.col(COLUMNS).sum()
    )


def deal_summary(sums: list[pl.DataFrame]) -> pl.DataFrame:
    """Per seat: strategy, deals, and the mean of points and of every counted column (but
    the variant columns, such as mulles, while they are all zero), from the blocks' sums."""
    import polars as pl

    from simcasino.core.columns import COLUMNS, VARIANT_COLUMNS

    total = (
        pl.concat(sums)
        .group_by("seat")
        .agg(pl.col("strategy").first(), pl.col("deals", *COLUMNS).sum())
    )
    shown = [c for c in COLUMNS if c not in VARIANT_COLUMNS or (total[c] != 0).any()]
    means = [(pl.col(c) / pl.col("deals")).round(3).alias(c) for c in shown]
    return total.select("seat", "strategy", "deals", *means).sort("seat")


@click.command("games")
@lineup_options
@click.option(
    "--games",
    type=click.IntRange(min=1),
    default=1000,
    show_default=True,
    help="Number of whole games to the target.",
)
@run_options
def games_command(
    rules_name: str | None,
    rules_file: Path | None,
    overrides: tuple[str, ...],
    players: int | None,
    strategies: tuple[str, ...],
    games: int,
    seed: int,
    engine: str,
    threads: int | None,
    out: Path | None,
) -> None:
    """Play many whole games to the target score and print each seat's win rate and scores.

    The deal passes left after each deal; a game ends as the rules say (after a deal, or
    mid-deal with Finnish immediate scoring). With --out the full table, one row per game
    and seat, is written as Parquet.

    \b
    Example:
      simcasino games --rules swedish --rule target=21 -s greedy -s random --games 1000 --seed 1
    """
    from simcasino.simulation import play_game_blocks

    rules, specs = build_lineup(rules_name, rules_file, overrides, players, strategies)
    check_out(out)
    blocks = []
    with showing_progress(specs, "games", "games", prepare=in_kernel(specs, engine)) as line:
        start = time.perf_counter()  # after the compile: the rate is the engine's
        try:
            blocks.extend(
                play_game_blocks(rules, specs, games, seed, engine, line.counter(games), threads)
            )
        except KeyboardInterrupt:
            line.close()
            _games_so_far(rules, specs, seed, engine, blocks, games, start, out)
            stopped(
                line, "the figures above are those of the blocks of games finished, marked partial"
            )
    _games_so_far(rules, specs, seed, engine, blocks, games, start, out)


def _games_so_far(
    rules: Rules,
    specs: Sequence[StrategySpec],
    seed: int,
    engine: str | None,
    blocks: list[pl.DataFrame],
    asked: int,
    start: float,
    out: Path | None,
) -> None:
    """`_deals_so_far` for whole games."""
    import polars as pl

    seconds = time.perf_counter() - start
    click.echo(describe_run(rules, specs, seed, engine))
    if not blocks:
        click.echo(f"no block of games was finished (of {asked:,}), so there are no figures yet")
        return
    frame = pl.concat(blocks)
    played = frame.height // rules.players
    done = (
        f"{played:,} games"
        if played == asked
        else f"{played:,} of {asked:,} games (interrupted: partial figures)"
    )
    click.echo(
        f"{done} to {rules.target} in {seconds:.2f} s ({played / seconds:,.0f} games/s); by seat:"
    )
    echo_table(game_summary(frame))
    write_out(frame, out)


def game_summary(frame: pl.DataFrame) -> pl.DataFrame:
    """Per seat: strategy, games, win rate (%), mean final score, mean deals per game."""
    import polars as pl

    return (
        frame.group_by("seat")
        .agg(
            pl.col("strategy").first(),
            pl.len().alias("games"),
            (pl.col("won").mean() * 100).round(1).alias("win %"),
            pl.col("score").mean().round(2).alias("mean score"),
            pl.col("deals").mean().round(2).alias("deals per game"),
        )
        .sort("seat")
    )


@click.command("replay")
@lineup_options
@click.option(
    "--seed",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    help="Master seed, as for simulate.",
)
@click.option(
    "--deal",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    help="Which deal of that seed's simulate batch (0 is the first), or of the game (--game).",
)
@click.option(
    "--game",
    type=click.IntRange(min=0),
    metavar="N",
    help="A deal of game N as 'games' plays it (its deals before it are played first), not of a "
    "simulate batch.",
)
@click.option(
    "--record",
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="FILE.jsonl",
    help="Also write the deal as a game record, for 'simcasino review FILE --seat N'.",
)
def replay_command(
    rules_name: str | None,
    rules_file: Path | None,
    overrides: tuple[str, ...],
    players: int | None,
    strategies: tuple[str, ...],
    seed: int,
    deal: int,
    game: int | None,
    record: Path | None,
) -> None:
    """Print one deal move by move, then the per-seat result, to check by eye.

    Each line shows the mover's hand and the table before the move, then the move (named as
    'play' names it). The deal is the same one 'simulate' plays for that seed and deal
    number, so its result row matches the simulate table; with --game, the deal of that
    game as 'games' plays it. A strategy file that fails shows the moves up to its failure.

    \b
    Example:
      simcasino replay --rules finnish --seed 1 --deal 0 -s greedy -s random
      simcasino replay --seed 3 --game 12 --deal 1 -s strategies/spade_hoarder.py -s greedy
    """
    from simcasino.reference.referee import play_deal
    from simcasino.reference.state import DealState
    from simcasino.simulation import StrategyError, seats

    rules, specs = build_lineup(rules_name, rules_file, overrides, players, strategies)
    engine = "mixed" if any(not s.in_kernel for s in specs) else "reference"
    players_ = seats(engine, specs)
    if record and game is not None:
        raise ValueError(
            "--record with --game: a record holds a game from its first deal (play one with "
            "'simcasino play'), or one deal of a simulate batch"
        )
    state = (
        game_deal(rules, players_, seed, game, deal)
        if game is not None
        else DealState.new(rules, seed, deal)
    )
    lines: list[tuple[int, str]] = []
    if record:
        from simcasino.play.record import DealRecorder, Header

        recorder = DealRecorder(record, Header(rules, seed, tuple(s.label for s in specs)), deal)

    def watch(view: View, action: Action) -> None:
        lines.append((action.round, replay_line(view, action)))
        if record:
            recorder.watch(view, action)

    which = f"deal {deal}" + (f" of game {game}" if game is not None else "")
    click.echo(f"replay of {which}: {describe_run(rules, specs, seed, engine)}")
    click.echo(f"seat {state.dealer} deals, seat {(state.dealer + 1) % rules.players} leads")
    try:
        result = play_deal(state, players_, watch)
    except StrategyError as err:
        for line in replay_lines(rules, lines, None):
            click.echo(line)
        err.seed, err.deal, err.game = seed, deal, game  # here: no command to replay it again
        raise
    if record:
        recorder.finish([s.points for s in result.seats])
    for line in replay_lines(rules, lines, result):
        click.echo(line)
    click.echo()
    echo_table(seat_table(specs, result))
    total = sum(s.points for s in result.seats)
    click.echo(f"total: {total} points, {sum(s.cards for s in result.seats)} cards")
    if record:
        click.echo(f"wrote {record}")


def game_deal(
    rules: Rules, players: Sequence[object], seed: int, game: int, deal: int
) -> DealState:
    """Deal ``deal`` of game ``game`` of ``seed`` as `games` plays it, dealt: the deals before
    it played by ``players`` (the scores and the dealer depend on them)."""
    from simcasino.reference.game import GameState
    from simcasino.reference.referee import play_deal

    state = GameState.new(rules, seed, game)
    for _ in range(deal):
        if state.is_over:
            break
        state.end_deal(play_deal(state.next_deal(), players))
    if state.is_over:
        raise ValueError(
            f"--deal {deal}: game {game} of seed {seed} ends after {state.deals} deals "
            f"(0-{state.deals - 1})"
        )
    return state.next_deal()


def replay_line(view: View, action: Action) -> str:
    """One decision: the decider's hand and the table before it, then the move by its name
    (`core.notation`), a sweep marked (R-TABBE), §6 Misère's pick said."""
    from simcasino.core.cards import card_codes
    from simcasino.core.notation import move_name
    from simcasino.core.table import item_code

    what = move_name(action.move, action.table)
    if action.pending:
        what += f" (seat {(action.seat + 1) % view.rules.players} picks the capture)"
    if action.pick:
        what = f"picks for seat {action.player}: {what}"
    if action.sweep:
        what += " — tabbe" + ("" if action.tabbes else " (no point)")
    table = " ".join(item_code(item) for item in action.table) or "-"
    return f"seat {action.seat} [{' '.join(card_codes(view.hand))}] table [{table}]: {what}"


def replay_lines(
    rules: Rules, plays: list[tuple[int, str]], result: DealResult | None
) -> Iterator[str]:
    """The move log (round, line) split into dealing rounds (R-REDEAL), which the mökki rules
    depend on, and how the deal ended (None: it did not)."""
    for i, (number, play) in enumerate(plays):
        if i == 0 or number != plays[i - 1][0]:
            yield round_header(rules, number)
        yield f"  {play}"
    if result is None:
        return
    if result.winner >= 0:
        yield (
            f"seat {result.winner} reached the target mid-deal and wins; only immediate points "
            "count"
        )
        return
    last = [i for i, s in enumerate(result.seats) if s.sistan]
    if last:
        yield (
            f"end of deal: seat {last[0]}, the last to capture, takes the cards left on the "
            "table (sistan)"
        )


def round_header(rules: Rules, number: int) -> str:
    hand, rounds = rules.hand_cards, rules.deal_rounds
    dealt = (
        f"{hand} cards to each hand and {rules.table_cards} to the table"
        if number == 1
        else f"{hand} more cards to each hand"
    )
    if number == rounds and rounds * hand * rules.players + rules.table_cards > rules.deck_size:
        dealt = "the rest of the stock, one card at a time"
    return f"round {number} of {rounds}: {dealt}" + (" (last round)" if number == rounds else "")


def seat_table(specs: Sequence[StrategySpec], result: DealResult) -> pl.DataFrame:
    """One row per seat: strategy, points and every count of the deal."""
    import polars as pl

    from simcasino.core.columns import COLUMNS

    rows = [(i, spec.label, *seat.row()) for i, (spec, seat) in enumerate(zip(specs, result.seats))]
    return pl.DataFrame(rows, schema=["seat", "strategy", *COLUMNS], orient="row")


COMMANDS = (simulate_command, games_command, replay_command)
