"""The ``simcasino compare`` and ``simcasino experiment`` verbs: thin wrappers over
`simcasino.experiment`, with a progress line (deals/s, ETA) on stderr and polars tables.

Kept apart from `cli` so the experiment verbs can grow without touching the engine verbs;
`cli` registers them, and errors go through its `_Group` (one line ``error: ...``, exit 2).
"""

from __future__ import annotations

import datetime
import json
import time
from pathlib import Path
from typing import Any

import click
import polars as pl

from simcasino.cli import PRESET_NAMES, _Group, build_rules, echo_table
from simcasino.cli_report import write_report
from simcasino.experiment.chunk import KINDS
from simcasino.experiment.compare import compare_dict, compare_run
from simcasino.experiment.runner import RunResult, progress_of, resume, run_experiment, summarise
from simcasino.experiment.spec import Spec, load_spec
from simcasino.experiment.store import MANIFEST
from simcasino.experiment.summary import COMPONENT_LABELS as ANATOMY
from simcasino.experiment.summary import VARIANT_PARTS
from simcasino.rules import read_toml
from simcasino.tune import load_tune
from simcasino.tune.run import selfplay_table



class ProgressLine:
    """The runner's progress callback, drawn as one line on stderr: done, deals/s, ETA."""

    def __init__(self) -> None:
        self.start, self.shown, self.drawn = time.perf_counter(), 0.0, False
        self.first: float | None = None  # the fraction already done when this call began (resume)

    def __call__(self, fraction: float, deals: int) -> None:
        now = time.perf_counter()
        if now - self.shown < 0.2 and fraction < 1:
            return
        self.shown, self.drawn = now, True
        elapsed = now - self.start
        rate = deals / elapsed if elapsed > 0 else 0.0
        if self.first is None:
            self.first = fraction
        gained = fraction - self.first
        eta = elapsed * (1 - fraction) / gained if gained > 0 else None
        bar = "#" * int(fraction * 30)
        eta_text = str(datetime.timedelta(seconds=round(eta))) if eta is not None else "?"
        click.echo(f"\r[{bar:<30}] {fraction:6.1%}  {deals:>12,} deals  {rate:>10,.0f} deals/s  ETA {eta_text}   ",
                   err=True, nl=False)

    def close(self) -> None:
        if self.drawn:
            click.echo("", err=True)


def run_with_progress(call: Any, *args: Any, **kwargs: Any) -> RunResult:
    line = ProgressLine()
    try:
        return call(*args, progress=line, **kwargs)
    finally:
        line.close()


# --- tables ---------------------------------------------------------------------------------------


def _interval(low: str, high: str) -> pl.Expr:
    return pl.format("[{}, {}]", pl.col(low).round(3), pl.col(high).round(3))


def main_table(table: pl.DataFrame, data: dict[str, Any]) -> pl.DataFrame:
    """One row per comparison: A − B in points per deal with CI, p, Holm's p, pairing's gain."""
    points = table.filter(pl.col("measure") == "points").select(
        "a", "b", pl.col("decks"), pl.col("mean_diff").round(3).alias("diff/deal"), _interval("ci_low", "ci_high").alias("95% CI"),
        pl.col("p_value").map_elements(_p, return_dtype=pl.String).alias("p"),
        pl.col("p_holm").map_elements(_p, return_dtype=pl.String).alias("p (Holm)"),
        pl.col("variance_reduction").round(2).alias("pairing ×"))
    extra = {}
    if any("sprt" in c for c in data["comparisons"]):
        extra["SPRT"] = [_sprt(c["sprt"]) for c in data["comparisons"]]
    if any("games" in c for c in data["comparisons"]):
        extra["A wins (games)"] = [_wins(c["games"]) for c in data["comparisons"]]
    return points.with_columns(pl.Series(k, v) for k, v in extra.items())


def anatomy_table(table: pl.DataFrame) -> pl.DataFrame:
    """Where the difference comes from: A − B per deal by scoring component."""
    parts = table.filter(pl.col("measure").is_in(list(ANATOMY)))
    wide = parts.pivot("measure", index=["a", "b"], values="mean_diff", maintain_order=True)
    shown = [m for m in ANATOMY if m not in VARIANT_PARTS or wide[m].abs().sum() > 0]
    return wide.select("a", "b", *(pl.col(m).round(3).alias(ANATOMY[m]) for m in shown))


def _p(p: float) -> str:
    return "< 1e-9" if p < 1e-9 else f"{p:.2g}"


def _sprt(sprt: dict[str, Any]) -> str:
    return f"{sprt['decision']} after {sprt['decks']:,} decks" if sprt["decision"] else "undecided"


def _wins(games: dict[str, Any]) -> str:
    return f"{games['win_rate']:.1%} [{games['win_ci_low']:.1%}, {games['win_ci_high']:.1%}] of {games['games']:,}"


def echo_result(result: RunResult) -> None:
    data = result.data
    click.echo(f"{data['name']}: {data['rules']} rules, {data['players']} players, seed {data['seed']}, "
               f"{data['decks']:,} decks x {data['players']} seat rotations"
               + (" (stopped early by the SPRT)" if data["stopped_early"] else ""))
    click.echo("difference A − B in points per deal (positive: A scores more):")
    echo_table(main_table(result.table, data))
    click.echo("anatomy: A − B per deal by scoring component:")
    echo_table(anatomy_table(result.table))
    if "selfplay" in data:
        click.echo("self-play, the strategy in every seat (mean [95% CI]):")
        echo_table(selfplay_table(data["selfplay"]))


# --- compare ---------------------------------------------------------------------------------------


@click.command("compare")
@click.argument("a")
@click.argument("b")
@click.option("--rules", "rules_name", metavar="PRESET", help=f"Rules preset: {PRESET_NAMES} (default: swedish).")
@click.option("--rules-file", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE.toml",
              help="Rules from a TOML file with a [rules] table.")
@click.option("--rule", "overrides", multiple=True, metavar="KNOB=VALUE", help="Change one knob; repeatable.")
@click.option("--players", type=click.IntRange(2, 4), default=2, show_default=True,
              help="Players at the table: A in one seat, B in the others.")
@click.option("--deals", type=int, default=10_000, show_default=True, help="Decks, each played once per seat rotation.")
@click.option("--games", type=int, default=0, show_default=True, help="Also play this many whole games (win rates).")
@click.option("--seed", type=int, default=0, show_default=True, help="Master seed; the same seed gives the same answer.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of tables.")
def compare_command(a: str, b: str, rules_name: str | None, rules_file: Path | None, overrides: tuple[str, ...],
                    players: int, deals: int, games: int, seed: int, as_json: bool) -> None:
    """Head-to-head of strategy A against B: the difference in points per deal with its 95%
    CI, p-value and the component anatomy. Every deck is played once per seat rotation.

    \b
    Examples:
      simcasino compare greedy random --rules swedish --deals 20000 --seed 1
      simcasino compare heuristic heuristic:hold_twos=0 --rules finnish --players 3 --json
    """
    rules = build_rules(rules_name, rules_file, overrides)
    result = compare_run(a, b, rules, players, deals, seed, games)
    if as_json:
        click.echo(json.dumps(compare_dict(result)))
        return
    echo_result(result)


# --- experiment --------------------------------------------------------------------------------------


@click.group("experiment", cls=_Group)
def experiment_group() -> None:
    """Run experiment specs (TOML) in resumable, reproducible chunks and summarise them.

    \b
    Examples:
      simcasino experiment run experiments/quick.toml
      simcasino experiment resume runs/quick-seed1
      simcasino experiment list
      simcasino experiment show runs/quick-seed1
    """


def backend_options(command: Any) -> Any:
    options = [
        click.option("--workers", type=click.IntRange(min=1),
                     help="Local worker processes (default: all cores; 1 runs in this process)."),
        click.option("--scheduler", metavar="tcp://HOST:PORT",
                     help="Run the chunks on this Dask scheduler (pip install 'simcasino[dask]')."),
        click.option("--dask-local", type=int, metavar="N", help="Start a local Dask cluster of N worker processes."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


@experiment_group.command("run")
@click.argument("spec_file", metavar="SPEC.toml", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), metavar="DIR",
              help="Run folder (default: runs/NAME-seedSEED). Re-running into it resumes.")
@click.option("--deals", type=int, help="Decks to play, instead of the spec's.")
@click.option("--seed", type=int, help="Master seed, instead of the spec's.")
@click.option("--report", "with_report", is_flag=True,
              help="Then draw the report (PDF and PNGs under reports/NAME-seedSEED; see 'simcasino report').")
@backend_options
def run_command(spec_file: Path, out: Path | None, deals: int | None, seed: int | None, with_report: bool,
                workers: int | None, scheduler: str | None, dask_local: int | None) -> None:
    """Run an experiment spec, print the summary and write summary.parquet and summary.json
    into the run folder. Interrupted (Ctrl-C, kill -9), the same command resumes it.

    \b
    Examples:
      simcasino experiment run experiments/quick.toml
      simcasino experiment run experiments/hold_twos.toml --deals 1000000 --workers 2 --out runs/h2
      simcasino experiment run experiments/ladder.toml --dask-local 2
      simcasino experiment run experiments/trailing.toml --report
    """
    spec = load_spec(spec_file)
    changes = {k: v for k, v in (("deals", deals), ("seed", seed)) if v is not None}
    spec = spec.replace(**changes) if changes else spec
    result = run_with_progress(run_experiment, spec, out, workers, scheduler, dask_local)
    _report(result)
    if with_report:
        write_report(result.folder)


@experiment_group.command("resume")
@click.argument("folder", metavar="DIR", type=click.Path(file_okay=False, path_type=Path))
@backend_options
def resume_command(folder: Path, workers: int | None, scheduler: str | None, dask_local: int | None) -> None:
    """Finish an interrupted run: play only the chunks not yet stored, then summarise.

    \b
    Example:
      simcasino experiment resume runs/quick-seed1 --workers 2
    """
    _report(run_with_progress(resume, folder, workers, scheduler, dask_local))


def _report(result: RunResult) -> None:
    echo_result(result)
    click.echo(f"wrote {result.folder / 'summary.parquet'} and summary.json")


@experiment_group.command("list")
@click.option("--specs", type=click.Path(file_okay=False, path_type=Path), default=Path("experiments"),
              show_default=True, help="Folder of spec files.")
@click.option("--runs", type=click.Path(file_okay=False, path_type=Path), default=Path("runs"), show_default=True,
              help="Folder of run folders.")
def list_command(specs: Path, runs: Path) -> None:
    """List the experiment specs and the run folders with how far each got.

    \b
    Example:
      simcasino experiment list --specs experiments --runs runs
    """
    click.echo(f"specs in {specs}/:")
    for path in sorted(specs.glob("*.toml")):
        click.echo(f"  {path.name:<20} {_spec_line(path)}")
    click.echo(f"runs in {runs}/:")
    for folder in sorted(p.parent for p in runs.glob(f"*/{MANIFEST}")):
        click.echo(f"  {folder.name:<20} {_run_line(folder)}")


def _spec_line(path: Path) -> str:
    try:
        if "vary" in read_toml(path):
            return f"{load_tune(path).description} (a house-rule sweep: simcasino rules tune {path})"
        return load_spec(path).description
    except ValueError as err:
        return f"(invalid: {err})"


def _run_line(folder: Path) -> str:
    try:
        spec, plan, chunks = progress_of(folder)
    except ValueError as err:
        return f"(unreadable: {err})"
    done = sum(1 for key in chunks)
    total = sum(plan.chunks(k) for k in KINDS)
    state = "summarised" if (folder / "summary.json").exists() else "in progress"
    return f"{spec.name}, seed {spec.seed}: {done}/{total} chunks, {state}"


@experiment_group.command("show")
@click.argument("folder", metavar="DIR", type=click.Path(file_okay=False, path_type=Path))
def show_command(folder: Path) -> None:
    """Print a run's spec, how far it got, and the summary of the chunks stored so far
    (a run in progress or interrupted shows its partial answer; nothing is written).

    \b
    Example:
      simcasino experiment show runs/quick-seed1
    """
    spec, plan, chunks = progress_of(folder)
    click.echo(f"{folder}: {_describe(spec)}")
    for kind in KINDS:
        if plan.total(kind):
            stored = sum(1 for k, _ in chunks if k == kind)
            click.echo(f"{kind}: {stored}/{plan.chunks(kind)} chunks of {plan.chunk:,} stored")
    if not any(k == "deals" and i == 0 for k, i in chunks):
        click.echo("no deal chunk stored yet")
        return
    echo_result(summarise(spec, plan, chunks))


def _describe(spec: Spec) -> str:
    arms = ", ".join(f"{name} = {s.label}" for name, s in spec.arms.items())
    how = f"baseline {spec.baseline}" if spec.baseline else spec.design
    return f"{spec.name} ({spec.description}); arms {arms}; {how}"
