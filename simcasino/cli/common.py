"""What every verb module shares: one-line errors, the rules and seat options, and printing.

Bad input is detected by the API, which raises ValueError; `Group` turns that, and click's
own usage errors, into one line ``error: ...`` on stderr with exit code 2, so a typo never
shows a traceback. Imports of the engine, polars and the strategies happen inside the
functions that need them, so ``simcasino --help`` starts without them.
"""

from __future__ import annotations

import errno
import re
import traceback
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from simcasino.core.rules import PRESETS, Rules, from_toml, parse_overrides
from simcasino.strategies import KERNEL_ORDER, PLUGINS

if TYPE_CHECKING:
    import polars as pl

    from simcasino.strategies import StrategySpec

PRESET_NAMES = ", ".join(PRESETS)
STRATEGY_NAMES = ", ".join((*KERNEL_ORDER, *PLUGINS))

# --- errors: one place turns bad input into `error: ...` and exit 2 ----------------------


class CliError(click.ClickException):
    """Bad input, shown as a single ``error: <message>`` line (exit 2, like a usage error)."""

    exit_code = 2

    def show(self, file: Any = None) -> None:
        click.echo(f"error: {self.format_message()}", err=True)


@contextmanager
def one_line_errors(debug: bool = False) -> Iterator[None]:
    """Re-raise ValueError (the API's bad-input signal), click usage errors and a file or stream
    that fails (a full disk) as `CliError`;
    with ``debug`` (``simcasino --debug``) the error's traceback first, a strategy's own where
    it raised. Ctrl-C that no verb handled ends with exit code 130, not click's "Aborted!"."""
    from simcasino.cli.progress import INTERRUPTED

    try:
        yield
    except click.exceptions.NoArgsIsHelpError:
        raise  # `simcasino rules` with no verb: click prints the help, which is what we want
    except click.UsageError as err:
        hint = f" (see '{err.ctx.command_path} --help')" if err.ctx else ""
        raise CliError(_one_line(err.format_message()) + hint) from None
    except ValueError as err:
        if debug:
            _traceback(err)
        raise CliError(_one_line(str(err)) + _debug_hint(err, debug)) from None
    except OSError as err:
        if err.errno == errno.EPIPE:
            raise  # the reader went away (``| head``): click ends quietly
        if debug:
            _traceback(err)
        where = f"{err.filename}: " if err.filename else "writing the output: "
        raise CliError(where + (err.strerror or str(err))) from None
    except KeyboardInterrupt:
        click.echo("\ninterrupted", err=True)
        raise click.exceptions.Exit(INTERRUPTED) from None


def _traceback(err: Exception) -> None:
    """The traceback behind ``err`` on stderr: a strategy's own (kept as text, as it may come
    from a worker process), else the error's with the one it was raised from."""
    from simcasino.simulation import StrategyError

    if isinstance(err, StrategyError) and err.trace:
        click.echo(err.trace.rstrip(), err=True)
        return
    err.__suppress_context__ = False
    click.echo("".join(traceback.format_exception(err)).rstrip(), err=True)


def _debug_hint(err: ValueError, debug: bool) -> str:
    """Where a strategy's own exception stopped the run: how to see its traceback."""
    trace = getattr(err, "trace", "")
    return (
        " (run again as 'simcasino --debug ...' for its traceback)" if trace and not debug else ""
    )


def _one_line(message: str) -> str:
    return " ".join(message.split())


class Group(click.Group):
    """A click group whose parsing and every subcommand run under `one_line_errors`."""

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        with one_line_errors():
            return super().make_context(info_name, args, parent, **extra)

    def invoke(self, ctx: click.Context) -> Any:
        with one_line_errors(bool(ctx.find_root().params.get("debug"))):
            return super().invoke(ctx)


# --- shared options: rules and seats --------------------------------------------------------


def check_writable(path: Path, option: str) -> None:
    """Refuse, before any work, a file that cannot be written there (a read-only place such as
    /sys, a folder of that name): an hour of play must not end in a traceback. A file that is
    there is left as it was."""
    existed = path.exists()
    try:
        with path.open("ab"):
            pass
    except OSError as err:
        raise ValueError(f"{option} {path}: cannot write there ({err.strerror})") from None
    if not existed:
        path.unlink(missing_ok=True)


def make_folder(path: Path, option: str) -> Path:
    """``path`` as a folder, made if missing; ValueError (one line) if it cannot be."""
    if path.exists() and not path.is_dir():
        raise ValueError(f"{option} {path}: not a folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise ValueError(f"{option} {path}: cannot make the folder ({err.strerror})") from None
    return path


def add_options(command: Callable, options: Sequence[Callable]) -> Callable:
    for option in reversed(options):
        command = option(command)
    return command


def rules_options(command: Callable) -> Callable:
    """Which rules: a preset or a TOML file, and knob changes."""
    return add_options(
        command,
        [
            click.option(
                "--rules",
                "rules_name",
                metavar="PRESET",
                help=f"Rules preset: {PRESET_NAMES} (default: swedish).",
            ),
            click.option(
                "--rules-file",
                type=click.Path(dir_okay=False, path_type=Path),
                metavar="FILE.toml",
                help="Rules from a TOML file with a [rules] table (e.g. saved from 'simcasino "
                "rules show').",
            ),
            click.option(
                "--rule",
                "overrides",
                multiple=True,
                metavar="KNOB=VALUE",
                help="Change one knob, value as in TOML; repeatable: --rule target=21 --rule "
                "ace_hand=[14].",
            ),
        ],
    )


def lineup_options(command: Callable) -> Callable:
    """The options every playing verb shares: which rules, how many players, who plays."""
    return rules_options(
        add_options(
            command,
            [
                click.option(
                    "--players",
                    type=int,
                    help="Number of players, 2-4 (2-6 with two decks; default: the rules' "
                    "players, or the number of -s).",
                ),
                click.option(
                    "-s",
                    "--strategy",
                    "strategies",
                    multiple=True,
                    metavar="NAME",
                    help=f"Strategy of the next seat, repeat once per seat; one -s plays every "
                    f"seat. Choices: {STRATEGY_NAMES} (default: greedy). Parameters after a "
                    f"colon (heuristic:hold_twos=0); follow=card makes it play by the strategy "
                    f"card, follow=S4 by one tactic (simcasino strategies list names them all).",
                ),
            ],
        )
    )


def build_rules(
    name: str | None, rules_file: Path | None, overrides: Sequence[str], players: int | None = None
) -> Rules:
    """A preset or a TOML file, then the --rule changes (and the number of players) applied
    together: they may depend on each other, e.g. lowering target and mokki_limit at once,
    or players=4 with partnership=2."""
    if name and rules_file:
        raise ValueError("give --rules or --rules-file, not both")
    base = from_toml(rules_file) if rules_file else Rules.preset(name or "swedish")
    changes = parse_overrides(overrides)
    if players is None:
        return base.replace(**changes) if changes else base
    try:
        return base.replace(**changes, players=players)
    except ValueError as err:
        if changes:
            base.replace(**changes)  # the --rule changes' own error, if they are at fault
        raise ValueError(f"--players {players}: {err}") from None


def build_lineup(
    name: str | None,
    rules_file: Path | None,
    overrides: Sequence[str],
    players: int | None,
    strategies: Sequence[str],
) -> tuple[Rules, list[StrategySpec]]:
    """Rules and one strategy per seat: -s once per seat, or one -s (or none: greedy) for all."""
    from simcasino.strategies import check_builds, parse_strategy

    several = len(strategies) > 1
    rules = build_rules(
        name,
        rules_file,
        overrides,
        players if players is not None else len(strategies) if several else None,
    )
    count = rules.players
    if several and len(strategies) != count:
        raise ValueError(
            f"{len(strategies)} strategies (-s) for {count} players: give one -s per seat, or one "
            "for all"
        )
    names = list(strategies) if several else [strategies[0] if strategies else "greedy"] * count
    specs = [parse_strategy(n) for n in names]
    check_builds(rules.builds, specs)
    return rules, specs


# --- printing -----------------------------------------------------------------------------------


def plain(text: str) -> str:
    """Text written for the docs (reStructuredText's ``name`` and `name`) as a terminal shows
    it: the marks left out."""
    return re.sub(r"``([^`]+)``|`([^`]+)`", lambda m: m[1] or m[2], text)


def echo_table(frame: pl.DataFrame) -> None:
    """Print a frame whole (every row and column), as a Markdown table a person can paste."""
    import polars as pl

    with pl.Config(
        tbl_formatting="ASCII_MARKDOWN",
        tbl_hide_column_data_types=True,
        tbl_hide_dataframe_shape=True,
        tbl_cols=-1,
        tbl_rows=-1,
        tbl_width_chars=400,
        tbl_cell_numeric_alignment="RIGHT",
        fmt_str_lengths=200,
    ):
        click.echo(str(frame))


def backend_options(command: Callable) -> Callable:
    """Where a run's chunks are played: local worker processes, or a Dask cluster."""
    return add_options(
        command,
        [
            click.option(
                "--workers",
                type=click.IntRange(min=1),
                help="Local worker processes (default: all cores; 1 runs in this process).",
            ),
            click.option(
                "--scheduler",
                metavar="tcp://HOST:PORT",
                help="Run the chunks on this Dask scheduler (pip install 'simcasino[dask]').",
            ),
            click.option(
                "--dask-local",
                type=int,
                metavar="N",
                help="Start a local Dask cluster of N worker processes.",
            ),
        ],
    )
