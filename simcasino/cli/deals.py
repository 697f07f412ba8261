"""The verbs that play deals with given seats: ``simulate`` (many single deals), ``games``
(whole games to the target) and ``replay`` (one deal move by move, to check by eye)."""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click

from simcasino.cli.common import add_options, build_lineup, echo_table, lineup_options
from simcasino.cli.progress import MIXED, CompileNote, progress_bar
from simcasino.core.rules import Rules

if TYPE_CHECKING:
    import polars as pl

    from simcasino.core.protocol import View
    from simcasino.reference.deal import DealResult
    from simcasino.reference.state import Action
    from simcasino.strategies import StrategySpec

def run_options(command: Callable) -> Callable:
    """The options of the batch verbs (simulate, games): reproducibility, engine, output."""
    return add_options(command, [
        click.option("--seed", type=int, default=0, show_default=True,
                     help="Master seed; the same seed gives the same table."),
        click.option("--engine", metavar="ENGINE",
                     help="numba (fast, all cores; the default), mixed (the default when a seat plays a plain-Python"
                     " strategy file: the reference engine referees and every kernel decision loads a workspace of"
                     " its own, so slow) or reference (every seat plays its strategy's Python form; slow, for"
                     " checking)."),
        click.option("--threads", type=click.IntRange(min=1), help="Cap the numba threads (default: all cores)."),
        click.option("--out", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
                     help="Also write the full table, one row per seat and unit: FILE.parquet or FILE.csv."),
    ])


OUT_FORMATS = (".parquet", ".csv")


def check_out(out: Path | None) -> None:
    """Refuse an --out in a missing folder, or of a format it cannot be, before the run, not
    after an hour of simulating."""
    if out is None:
        return
    if out.suffix.lower() not in OUT_FORMATS:
        raise ValueError(f"--out {out}: the table is written as Parquet (.parquet) or CSV (.csv), by its name")
    if not out.parent.is_dir():
        raise ValueError(f"--out {out}: folder {out.parent} does not exist")


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
        self.parts.mkdir()

    def add(self, block: pl.DataFrame) -> None:
        block.write_parquet(self.parts / f"{self.rows:015d}.parquet")
        self.rows += block.height

    def finish(self) -> None:
        import polars as pl

        joined = pl.scan_parquet(self.parts / "*.parquet")
        try:
            joined.sink_csv(self.out) if self.out.suffix.lower() == ".csv" else joined.sink_parquet(self.out)
        except OSError as err:
            raise ValueError(f"cannot write {self.out}: {err}") from None
        click.echo(f"wrote {self.out} ({self.rows:,} rows)")

    def close(self) -> None:
        shutil.rmtree(self.parts, ignore_errors=True)


def describe_run(rules: Rules, specs: Sequence[StrategySpec], seed: int, engine: str | None) -> str:
    from simcasino.simulation import pick_engine

    seats = ", ".join(f"seat {i} {s.label}" for i, s in enumerate(specs))
    return f"{rules.name} rules, {rules.players} players ({seats}), seed {seed}, {pick_engine(engine, specs)} engine"


@click.command("simulate")
@lineup_options
@click.option("--deals", type=int, default=100_000, show_default=True, help="Number of independent deals.")
@run_options
def simulate_command(rules_name: str | None, rules_file: Path | None, overrides: tuple[str, ...], players: int | None,
                     strategies: tuple[str, ...], deals: int, seed: int, engine: str, threads: int | None,
                     out: Path | None) -> None:
    """Play many single deals and print the mean points and counts per deal of every seat.

    Each deal is independent (the last seat deals, seat 0 leads). With --out the full table,
    one row per deal and seat, is written as Parquet.

    \b
    Example:
      simcasino simulate --rules finnish --players 3 -s greedy -s random -s greedy \\
          --deals 100000 --seed 1 --out deals.parquet
    """
    from simcasino.simulation import simulate, simulate_blocks

    rules, specs = build_lineup(rules_name, rules_file, overrides, players, strategies)
    check_out(out)
    compiled(simulate, rules, specs, engine)
    table, sums = TableOut(out) if out else None, []
    start = time.perf_counter()
    try:
        with progress_bar(deals, f"simulating {deals:,} deals{slow_note(specs, engine)}") as bar:
            for block in simulate_blocks(rules, specs, deals, seed, engine, bar, threads):
                sums.append(seat_sums(block))
                if table:
                    table.add(block)
        seconds = time.perf_counter() - start
        click.echo(describe_run(rules, specs, seed, engine))
        click.echo(f"{deals:,} deals in {seconds:.2f} s ({deals / seconds:,.0f} deals/s); mean per deal by seat:")
        echo_table(deal_summary(sums))
        if table:
            table.finish()
    finally:
        if table:
            table.close()


def compiled(call: Callable, rules: Rules, specs: Sequence[StrategySpec], engine: str | None) -> None:
    """Play one unit first, so that the rate shown leaves out compiling the kernel (and say
    when that is happening)."""
    from simcasino.simulation import pick_engine

    chosen = pick_engine(engine, specs)
    if chosen != "reference":
        with CompileNote(specs):
            call(rules, specs, 1, 0, chosen, None, 1)


def slow_note(specs: Sequence[StrategySpec], engine: str | None) -> str:
    """What the progress bar says of a mixed table: it is slow, and why."""
    from simcasino.simulation import pick_engine

    return f" {MIXED}" if pick_engine(engine, specs) == "mixed" else ""


def seat_sums(block: pl.DataFrame) -> pl.DataFrame:
    """Per seat of a block: the strategy, the deals, and every counted column summed."""
    import polars as pl

    from simcasino.core.columns import COLUMNS

    return block.group_by("seat").agg(pl.col("strategy").first(), pl.len().alias("deals"), pl.col(COLUMNS).sum())


def deal_summary(sums: list[pl.DataFrame]) -> pl.DataFrame:
    """Per seat: strategy, deals, and the mean of points and of every counted column (but
    the variant columns, such as mulles, while they are all zero), from the blocks' sums."""
    import polars as pl

    from simcasino.core.columns import COLUMNS, VARIANT_COLUMNS

    total = pl.concat(sums).group_by("seat").agg(pl.col("strategy").first(), pl.col("deals", *COLUMNS).sum())
    shown = [c for c in COLUMNS if c not in VARIANT_COLUMNS or (total[c] != 0).any()]
    means = [(pl.col(c) / pl.col("deals")).round(3).alias(c) for c in shown]
    return total.select("seat", "strategy", "deals", *means).sort("seat")


@click.command("games")
@lineup_options
@click.option("--games", type=int, default=1000, show_default=True, help="Number of whole games to the target.")
@run_options
def games_command(rules_name: str | None, rules_file: Path | None, overrides: tuple[str, ...], players: int | None,
                  strategies: tuple[str, ...], games: int, seed: int, engine: str, threads: int | None,
                  out: Path | None) -> None:
    """Play many whole games to the target score and print each seat's win rate and scores.

    The deal passes left after each deal; a game ends as the rules say (after a deal, or
    mid-deal with Finnish immediate scoring). With --out the full table, one row per game
    and seat, is written as Parquet.

    \b
    Example:
      simcasino games --rules swedish --rule target=21 -s greedy -s random --games 1000 --seed 1
    """
    from simcasino.simulation import play_games

    rules, specs = build_lineup(rules_name, rules_file, overrides, players, strategies)
    check_out(out)
    compiled(play_games, rules, specs, engine)
    start = time.perf_counter()
    with progress_bar(games, f"playing {games:,} games{slow_note(specs, engine)}") as bar:
        frame = play_games(rules, specs, games, seed, engine, bar, threads)
    seconds = time.perf_counter() - start
    click.echo(describe_run(rules, specs, seed, engine))
    click.echo(f"{games:,} games to {rules.target} in {seconds:.2f} s ({games / seconds:,.0f} games/s); by seat:")
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
@click.option("--seed", type=int, default=0, show_default=True, help="Master seed, as for simulate.")
@click.option("--deal", type=click.IntRange(min=0), default=0, show_default=True,
              help="Which deal of that seed's simulate batch (0 is the first).")
@click.option("--record", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE.jsonl",
              help="Also write the deal as a game record, for 'simcasino review FILE --seat N'.")
def replay_command(rules_name: str | None, rules_file: Path | None, overrides: tuple[str, ...], players: int | None,
                   strategies: tuple[str, ...], seed: int, deal: int, record: Path | None) -> None:
    """Print one deal move by move, then the per-seat result, to check by eye.

    Each line shows the mover's hand and the table before the move, then the move (named as
    'play' names it). The deal is the same one `simulate` plays for that seed and deal
    number, so its result row matches the simulate table.

    \b
    Example:
      simcasino replay --rules finnish --seed 1 --deal 0 -s greedy -s random
    """
    from simcasino.reference.referee import play_deal
    from simcasino.reference.state import DealState

    rules, specs = build_lineup(rules_name, rules_file, overrides, players, strategies)
    lines: list[tuple[int, str]] = []
    if record:
        from simcasino.play.record import DealRecorder, Header

        recorder = DealRecorder(record, Header(rules, seed, tuple(s.label for s in specs)), deal)

    def watch(view: View, action: Action) -> None:
        lines.append((action.round, replay_line(view, action)))
        if record:
            recorder.watch(view, action)

    result = play_deal(DealState.new(rules, seed, deal), [s.python() for s in specs], watch)
    if record:
        recorder.finish([s.points for s in result.seats])
    click.echo(f"replay of deal {deal}: {describe_run(rules, specs, seed, 'reference')}")
    click.echo(f"seat {rules.players - 1} deals, seat 0 leads")
    for line in replay_lines(rules, lines, result):
        click.echo(line)
    click.echo()
    echo_table(seat_table(specs, result))
    total = sum(s.points for s in result.seats)
    click.echo(f"total: {total} points, {sum(s.cards for s in result.seats)} cards")
    if record:
        click.echo(f"wrote {record}")


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


def replay_lines(rules: Rules, plays: list[tuple[int, str]], result: DealResult) -> Iterator[str]:
    """The move log (round, line) split into dealing rounds (R-REDEAL), which the mökki rules depend on."""
    for i, (number, play) in enumerate(plays):
        if i == 0 or number != plays[i - 1][0]:
            yield round_header(rules, number)
        yield f"  {play}"
    if result.winner >= 0:
        yield f"seat {result.winner} reached the target mid-deal and wins; only immediate points count"
        return
    last = [i for i, s in enumerate(result.seats) if s.sistan]
    if last:
        yield f"end of deal: seat {last[0]}, the last to capture, takes the cards left on the table (sistan)"


def round_header(rules: Rules, number: int) -> str:
    hand, rounds = rules.hand_cards, rules.deal_rounds
    dealt = (f"{hand} cards to each hand and {rules.table_cards} to the table" if number == 1
             else f"{hand} more cards to each hand")
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
