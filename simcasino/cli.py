"""The ``simcasino`` command line: thin click wrappers over the library API.

Each verb parses its options, builds the rules and the seats, calls the API (`simulate`,
`play_games`, `Rules`, the reference engine for `replay`) and prints. Bad input is detected by
the API, which raises ValueError; `_Group` turns that, and click's own usage errors, into one
line ``error: ...`` on stderr with exit code 2, so a typo never shows a traceback.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click
import polars as pl

from simcasino import __version__
from simcasino.analyze import analyze
from simcasino.reference.deal import COLUMNS, VARIANT_COLUMNS, DealResult
from simcasino.reference.game import single_deal
from simcasino.rng import seed_key
from simcasino.rules import PRESETS, Rules, from_toml, parse_override
from simcasino.simulate import ENGINES, pick_engine, play_games, simulate
from simcasino.strategies import REGISTRY, StrategySpec, check_builds, params_of, parse_strategy

# --- errors: one place turns bad input into `error: ...` and exit 2 ----------------------


class CliError(click.ClickException):
    """Bad input, shown as a single ``error: <message>`` line (exit 2, like a usage error)."""

    exit_code = 2

    def show(self, file: Any = None) -> None:
        click.echo(f"error: {self.format_message()}", err=True)


@contextmanager
def _one_line_errors() -> Iterator[None]:
    """Re-raise ValueError (the API's bad-input signal) and click usage errors as `CliError`."""
    try:
        yield
    except click.exceptions.NoArgsIsHelpError:
        raise  # `simcasino rules` with no verb: click prints the help, which is what we want
    except click.UsageError as err:
        hint = f" (see '{err.ctx.command_path} --help')" if err.ctx else ""
        raise CliError(_one_line(err.format_message()) + hint) from None
    except ValueError as err:
        raise CliError(_one_line(str(err))) from None


def _one_line(message: str) -> str:
    return " ".join(message.split())


class _Group(click.Group):
    """A click group whose parsing and every subcommand run under `_one_line_errors`."""

    def make_context(self, info_name: str | None, args: list[str], parent: click.Context | None = None,
                     **extra: Any) -> click.Context:
        with _one_line_errors():
            return super().make_context(info_name, args, parent, **extra)

    def invoke(self, ctx: click.Context) -> Any:
        with _one_line_errors():
            return super().invoke(ctx)


# --- shared options: rules and seats --------------------------------------------------------

PRESET_NAMES = ", ".join(PRESETS)
STRATEGY_NAMES = ", ".join(REGISTRY)


def lineup_options(command: Callable) -> Callable:
    """The options every playing verb shares: which rules, how many players, who plays."""
    options = [
        click.option("--rules", "rules_name", metavar="PRESET", help=f"Rules preset: {PRESET_NAMES} (default: swedish)."),
        click.option("--rules-file", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE.toml",
                     help="Rules from a TOML file with a [rules] table (e.g. saved from 'simcasino rules show')."),
        click.option("--rule", "overrides", multiple=True, metavar="KNOB=VALUE",
                     help="Change one knob, value as in TOML; repeatable: --rule target=21 --rule ace_hand=[14]."),
        click.option("--players", type=int, help="Number of players, 2-4 (2-6 with two decks; default: the rules' players, or the number of -s)."),
        click.option("-s", "--strategy", "strategies", multiple=True, metavar="NAME",
                     help=f"Strategy of the next seat, repeat once per seat; one -s plays every seat. "
                          f"Choices: {STRATEGY_NAMES} (default: greedy)."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def build_rules(name: str | None, rules_file: Path | None, overrides: Sequence[str], players: int | None = None) -> Rules:
    """A preset or a TOML file, then the --rule changes (and the number of players) applied
    together: they may depend on each other, e.g. lowering target and mokki_limit at once,
    or players=4 with partnership=2."""
    if name and rules_file:
        raise ValueError("give --rules or --rules-file, not both")
    base = from_toml(rules_file) if rules_file else Rules.preset(name or "swedish")
    changes = dict(parse_override(text) for text in overrides)
    if players is not None:
        changes["players"] = players
    return base.replace(**changes) if changes else base


def build_lineup(name: str | None, rules_file: Path | None, overrides: Sequence[str],
                 players: int | None, strategies: Sequence[str]) -> tuple[Rules, list[StrategySpec]]:
    """Rules and one strategy per seat: -s once per seat, or one -s (or none: greedy) for all."""
    several = len(strategies) > 1
    rules = build_rules(name, rules_file, overrides, players if players is not None else len(strategies) if several else None)
    count = rules.players
    if several and len(strategies) != count:
        raise ValueError(f"{len(strategies)} strategies (-s) for {count} players: give one -s per seat, or one for all")
    names = list(strategies) if several else [strategies[0] if strategies else "greedy"] * count
    specs = [parse_strategy(n) for n in names]
    check_builds(rules.builds, specs)
    return rules, specs


def run_options(command: Callable) -> Callable:
    """The options of the batch verbs (simulate, games): reproducibility, engine, output."""
    options = [
        click.option("--seed", type=int, default=0, show_default=True, help="Master seed; the same seed gives the same table."),
        click.option("--engine", type=click.Choice(ENGINES),
                     help="numba (fast, all cores; the default) or reference (pure Python, slow, for checking;"
                     " the default when a seat plays a plain-Python strategy file)."),
        click.option("--threads", type=click.IntRange(min=1), help="Cap the numba threads (default: all cores)."),
        click.option("--out", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE.parquet",
                     help="Also write the full table, one row per seat and unit, as Parquet."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


# --- progress and printing --------------------------------------------------------------------


class _Bar:
    """The API's ``progress`` callback (called with the number finished), drawn on stderr.

    The bar opens at the first report rather than before the call, so input errors, which the
    API raises before any work, print nothing but the error line. The lock keeps reports from
    engine threads from interleaving.
    """

    def __init__(self, total: int, label: str) -> None:
        self.total, self.label, self.done = total, label, 0
        self.bar: Any = None
        self.lock = threading.Lock()

    def __call__(self, done: int) -> None:
        with self.lock:
            if self.bar is None:
                self.bar = click.progressbar(length=self.total, label=self.label, file=sys.stderr)
                self.bar.__enter__()
            self.bar.update(done - self.done)
            self.done = done

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)


@contextmanager
def progress_bar(total: int, label: str) -> Iterator[_Bar]:
    bar = _Bar(total, label)
    try:
        yield bar
    finally:
        bar.close()


def echo_table(frame: pl.DataFrame) -> None:
    """Print a frame whole (every row and column), as a Markdown table a person can paste."""
    with pl.Config(tbl_formatting="ASCII_MARKDOWN", tbl_hide_column_data_types=True, tbl_hide_dataframe_shape=True,
                   tbl_cols=-1, tbl_rows=-1, tbl_width_chars=400, tbl_cell_numeric_alignment="RIGHT",
                   fmt_str_lengths=200):
        click.echo(str(frame))


def check_out(out: Path | None) -> None:
    """Refuse an --out in a missing folder before the run, not after an hour of simulating."""
    if out is not None and not out.parent.is_dir():
        raise ValueError(f"--out {out}: folder {out.parent} does not exist")


def write_out(frame: pl.DataFrame, out: Path | None) -> None:
    if out is None:
        return
    try:
        frame.write_parquet(out)
    except OSError as err:
        raise ValueError(f"cannot write {out}: {err}") from None
    click.echo(f"wrote {out} ({frame.height:,} rows)")


def describe_run(rules: Rules, specs: Sequence[StrategySpec], seed: int, engine: str | None) -> str:
    seats = ", ".join(f"seat {i} {s.label}" for i, s in enumerate(specs))
    return f"{rules.name} rules, {rules.players} players ({seats}), seed {seed}, {pick_engine(engine, specs)} engine"


# --- the verbs ----------------------------------------------------------------------------------


@click.group(cls=_Group)
@click.version_option(__version__, prog_name="simcasino")
def main() -> None:
    """Simulate Nordic Kasino by the million and measure which tactics win points.

    \b
    Examples:
      simcasino simulate --rules finnish -s greedy -s random --deals 100000 --seed 1
      simcasino games --rules swedish -s greedy -s random --games 1000
      simcasino rules list
      simcasino replay --rules finnish --seed 1 --deal 0
    """


@main.command("simulate")
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
    rules, specs = build_lineup(rules_name, rules_file, overrides, players, strategies)
    check_out(out)
    start = time.perf_counter()
    with progress_bar(deals, f"simulating {deals:,} deals") as bar:
        frame = simulate(rules, specs, deals, seed, engine, bar, threads)
    seconds = time.perf_counter() - start
    click.echo(describe_run(rules, specs, seed, engine))
    click.echo(f"{deals:,} deals in {seconds:.2f} s ({deals / seconds:,.0f} deals/s); mean per deal by seat:")
    echo_table(deal_summary(frame))
    write_out(frame, out)


def deal_summary(frame: pl.DataFrame) -> pl.DataFrame:
    """Per seat: strategy, deals, and the mean of points and of every counted column (but
    the variant columns, such as mulles, while they are all zero)."""
    shown = [c for c in COLUMNS if c not in VARIANT_COLUMNS or (frame[c] != 0).any()]
    means = [pl.col(c).mean().round(3) for c in shown]
    return frame.group_by("seat").agg(pl.col("strategy").first(), pl.len().alias("deals"), *means).sort("seat")


@main.command("games")
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
    rules, specs = build_lineup(rules_name, rules_file, overrides, players, strategies)
    check_out(out)
    start = time.perf_counter()
    with progress_bar(games, f"playing {games:,} games") as bar:
        frame = play_games(rules, specs, games, seed, engine, bar, threads)
    seconds = time.perf_counter() - start
    click.echo(describe_run(rules, specs, seed, engine))
    click.echo(f"{games:,} games to {rules.target} in {seconds:.2f} s ({games / seconds:,.0f} games/s); by seat:")
    echo_table(game_summary(frame))
    write_out(frame, out)


def game_summary(frame: pl.DataFrame) -> pl.DataFrame:
    """Per seat: strategy, games, win rate (%), mean final score, mean deals per game."""
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


@main.group("rules", cls=_Group)
def rules_group() -> None:
    """List the rule presets, show every knob of one, or sweep house rules.

    \b
    Examples:
      simcasino rules list
      simcasino rules show finnish --rule target=21
      simcasino rules tune --vary target=11,16,21 --vary overspader=off,on
    """


@rules_group.command("list")
def rules_list() -> None:
    """Print every rules preset with its one-line description.

    \b
    Example:
      simcasino rules list
    """
    width = max(len(name) for name in PRESETS)
    for name, rules in PRESETS.items():
        click.echo(f"{name:<{width}}  {rules.description}")


@rules_group.command("show")
@click.argument("name")
@click.option("--rule", "overrides", multiple=True, metavar="KNOB=VALUE",
              help="Change one knob, value as in TOML; repeatable: --rule target=21 --rule ace_hand=[14].")
def rules_show(name: str, overrides: tuple[str, ...]) -> None:
    """Print every knob of a preset and its value, as TOML you can save and pass to --rules-file.

    Knobs changed by --rule are marked with the preset's value.

    \b
    Examples:
      simcasino rules show finnish
      simcasino rules show swedish --rule target=21 --rule must_capture_max=true > house.toml
      simcasino simulate --rules-file house.toml --engine reference --deals 100
    """
    preset = Rules.preset(name)
    rules = build_rules(preset.name, None, overrides)
    click.echo("\n".join(rules_toml(preset, rules)))


def rules_toml(preset: Rules, rules: Rules) -> list[str]:
    """TOML lines for ``rules``; it reads back with `from_toml` to the same Rules."""
    knobs = rules.knobs()
    width = max(len(k) for k in knobs)
    lines = [f"# {preset.name}: {preset.description}", "[rules]", f'{"preset":<{width}} = "{preset.name}"']
    for knob, value in knobs.items():
        line = f"{knob:<{width}} = {toml_value(value)}"
        was = getattr(preset, knob)
        lines.append(line if was == value else f"{line}  # {preset.name}: {toml_value(was)}")
    return lines


def toml_value(value: Any) -> str:
    """A knob value as TOML, the same syntax --rule KNOB=VALUE reads."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, tuple):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return str(value)


@main.group("strategies", cls=_Group)
def strategies_group() -> None:
    """List the built-in strategies.

    \b
    Example:
      simcasino strategies list
    """


@strategies_group.command("list")
def strategies_list() -> None:
    """Print every strategy with a one-line description and its parameters (defaults).

    A parameter is set where a strategy is named: -s heuristic:hold_twos=0,card_value=0.1

    \b
    Example:
      simcasino strategies list
    """
    width = max(len(name) for name in REGISTRY)
    for name, module in REGISTRY.items():
        click.echo(f"{name:<{width}}  {module.DESCRIPTION}")
        for param, (default, what) in params_of(name).items():
            click.echo(f"{'':<{width}}    {param}={default:g}  {what}")


@main.command("analyze")
@click.option("--hand", required=True, metavar="CARDS", help="Cards in hand, e.g. 'AS 10D 7H'.")
@click.option("--table", default="", metavar="CARDS", help="Cards on the table (default: none).")
@click.option("--seen", default="", metavar="CARDS", help="Cards already played or captured (visible to all).")
@click.option("--rules", "rules_name", default="swedish", metavar="PRESET", help=f"Rules preset: {PRESET_NAMES}.")
@click.option("--rule", "overrides", multiple=True, metavar="KNOB=VALUE", help="Change one knob; repeatable.")
@click.option("-p", "--param", "params", multiple=True, metavar="NAME=VALUE",
              help="A heuristic weight for the heuristic column, e.g. -p tabbe_denial=0.")
def analyze_command(hand: str, table: str, seen: str, rules_name: str, overrides: tuple[str, ...],
                    params: tuple[str, ...]) -> None:
    """List every legal move of a hand on a table: what it takes, its immediate points, the
    heuristic's value of it (best first), and for the heuristic's best few the search's
    expected margin (our points minus the opponent's at the end of the deal, over sampled
    deals of the unseen cards) with its standard error.

    \b
    Example:
      simcasino analyze --rules finnish --hand "AS 9H 7D" --table "5C 9D 2H" --seen "2S"
    """
    rules = build_rules(rules_name, None, overrides)
    weights = parse_strategy("heuristic:" + ",".join(params)).params if params else None
    echo_table(analyze(hand, table, rules, seen, weights))


@main.command("replay")
@lineup_options
@click.option("--seed", type=int, default=0, show_default=True, help="Master seed, as for simulate.")
@click.option("--deal", type=click.IntRange(min=0), default=0, show_default=True,
              help="Which deal of that seed's simulate batch (0 is the first).")
def replay_command(rules_name: str | None, rules_file: Path | None, overrides: tuple[str, ...], players: int | None,
                   strategies: tuple[str, ...], seed: int, deal: int) -> None:
    """Print one deal move by move, then the per-seat result, to check by eye.

    Each line shows the mover's hand and the table before the move, then the card played and
    what it took. The deal is the same one `simulate` plays for that seed and deal number, so
    its result row matches the simulate table.

    \b
    Example:
      simcasino replay --rules finnish --seed 1 --deal 0 -s greedy -s random
    """
    rules, specs = build_lineup(rules_name, rules_file, overrides, players, strategies)
    result = single_deal(rules, [s.python() for s in specs], seed_key(seed), deal, log=True)
    click.echo(f"replay of deal {deal}: {describe_run(rules, specs, seed, 'reference')}")
    click.echo(f"seat {rules.players - 1} deals, seat 0 leads")
    for line in replay_lines(rules, result):
        click.echo(line)
    click.echo()
    echo_table(seat_table(specs, result))
    total = sum(s.points for s in result.seats)
    click.echo(f"total: {total} points, {sum(s.cards for s in result.seats)} cards")


def replay_lines(rules: Rules, result: DealResult) -> Iterator[str]:
    """The move log split into dealing rounds (R-REDEAL), which the mökki rules depend on."""
    per_round = rules.hand_cards * rules.players
    for i, play in enumerate(result.plays):
        if i % per_round == 0:
            yield round_header(rules, i // per_round + 1)
        yield f"  {play}"
    if result.winner >= 0:
        yield f"seat {result.winner} reached the target mid-deal and wins; only immediate points count"
        return
    last = [i for i, s in enumerate(result.seats) if s.sistan]
    if last:
        yield f"end of deal: seat {last[0]}, the last to capture, takes the cards left on the table (sistan)"


def round_header(rules: Rules, number: int) -> str:
    hand, rounds = rules.hand_cards, rules.deal_rounds
    dealt = f"{hand} cards to each hand and {rules.table_cards} to the table" if number == 1 else f"{hand} more cards to each hand"
    if number == rounds and rounds * hand * rules.players + rules.table_cards > rules.deck_size:
        dealt = "the rest of the stock, one card at a time"
    return f"round {number} of {rounds}: {dealt}" + (" (last round)" if number == rounds else "")


def seat_table(specs: Sequence[StrategySpec], result: DealResult) -> pl.DataFrame:
    """One row per seat: strategy, points and every count of the deal."""
    rows = [(i, spec.label, *seat.row()) for i, (spec, seat) in enumerate(zip(specs, result.seats))]
    return pl.DataFrame(rows, schema=["seat", "strategy", *COLUMNS], orient="row")


if __name__ == "__main__":  # as a script, run the imported module: the one the verbs below join
    from simcasino.cli import main as imported_main

    imported_main()
else:  # the experiment verbs live in their own module, which imports the helpers above
    from simcasino.cli_experiment import compare_command, experiment_group
    from simcasino.cli_report import report_command
    from simcasino.cli_tune import tune_command

    rules_group.add_command(tune_command)
    main.add_command(compare_command)
    main.add_command(experiment_group)
    main.add_command(report_command)
