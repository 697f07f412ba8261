"""The ``compare`` and ``experiment`` verbs: thin wrappers over `simcasino.experiment`, with a
progress line (deals/s, ETA) on stderr and the summary as tables. The runner is imported when
a verb runs."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from simcasino.cli.common import Group, backend_options, build_rules, rules_options
from simcasino.cli.progress import noting, resumable, showing_progress, stopped
from simcasino.cli.report import write_report

if TYPE_CHECKING:
    from simcasino.core.rules import Rules
    from simcasino.experiment.runner import RunResult
    from simcasino.experiment.spec import Spec


def comparison_options(decks: int) -> Callable[[Callable], Callable]:
    """The table and the size of a paired comparison, as `compare` and `evaluate` take them;
    ``decks`` is the default count (a refereed table plays a thousand times slower)."""

    def decorate(command: Callable) -> Callable:
        for option in reversed(_comparison_options(decks)):
            command = option(command)
        return command

    return decorate


def _comparison_options(decks: int) -> list[Callable[[Callable], Callable]]:
    return [
        click.option(
            "--players",
            type=click.IntRange(2, 4),
            help="Players at the table: A in one seat, B in the others (default: the rules' count, "
            "2 for a preset).",
        ),
        click.option(
            "--decks",
            type=int,
            default=decks,
            show_default=True,
            help="Decks to play, each once per seat rotation (a deck of 2 players gives 2 deals).",
        ),
        click.option(
            "--games",
            type=int,
            default=0,
            show_default=True,
            help="Also play this many whole games (win rates).",
        ),
        click.option(
            "--seed",
            type=int,
            default=0,
            show_default=True,
            help="Master seed; the same seed gives the same answer.",
        ),
        click.option(
            "--margin",
            type=float,
            metavar="D",
            help="Equivalence margin in points per deal: 'no difference larger than D' when the "
            "95% CI lies inside ±D.",
        ),
        click.option(
            "--json", "as_json", is_flag=True, help="Print one JSON object instead of tables."
        ),
    ]


@click.command("compare")
@click.argument("a")
@click.argument("b")
@rules_options
@comparison_options(decks=10_000)
def compare_command(
    a: str,
    b: str,
    rules_name: str | None,
    rules_file: Path | None,
    overrides: tuple[str, ...],
    **table: Any,
) -> None:
    """Head-to-head of strategy A against B: the difference in points per deal with its 95%
    CI, p-value and the component anatomy. Every deck is played once per seat rotation.
    A or B may be a plain-Python strategy file: the decks are then played at a mixed table
    (the reference engine referees, a workspace per kernel decision), about a thousand times
    slower than the kernel, so give it thousands of decks, not millions. A strategy made to
    follow advice is compared with itself free: greedy:follow=card plays by the strategy card,
    greedy:follow=S4 by one tactic (simcasino strategies list names every form).

    \b
    Examples:
      simcasino compare greedy random --rules swedish --decks 20000 --seed 1
      simcasino compare greedy:follow=card greedy --rules finnish --decks 20000
      simcasino compare heuristic heuristic:hold_twos=0 --rules finnish --players 3 --json
      simcasino compare heuristic heuristic:hold_tens=0 --decks 100000 --margin 0.05
      simcasino compare strategies/spade_hoarder.py greedy --decks 2000 --seed 1
    """
    from simcasino.strategies import parse_strategy

    rules = build_rules(rules_name, rules_file, overrides)
    _compare(parse_strategy(a), parse_strategy(b), rules, **table)


@click.command("evaluate")
@click.argument("policy_file", metavar="POLICY.py", type=click.Path(dir_okay=False))
@click.argument("against", default="greedy")
@rules_options
@comparison_options(decks=1_000)
@click.option(
    "--batched",
    is_flag=True,
    help="The policy takes arrays (k, features), (k, actions) and returns (k,) actions.",
)
@click.option(
    "--recall",
    is_flag=True,
    help="Observe the information state (the whole history), as the environments' recall=True.",
)
def evaluate_command(
    policy_file: str,
    against: str,
    rules_name: str | None,
    rules_file: Path | None,
    overrides: tuple[str, ...],
    batched: bool,
    recall: bool,
    **table: Any,
) -> None:
    """A trained policy against a strategy (default greedy) on the decks `compare` plays:
    POLICY.py defines policy(observation, mask) -> action, on the observation and legal-action
    mask of the Gymnasium and PettingZoo environments (docs/interop.md). The policy plays at a
    refereed table, about 70 deals a second: give it thousands of decks, not millions.

    \b
    Examples:
      simcasino evaluate my_policy.py --decks 2000 --seed 1
      simcasino evaluate my_policy.py heuristic --rules finnish --json
      simcasino evaluate my_vector_policy.py --batched --recall --players 3
    """
    from simcasino.interop.evaluate import load_policy
    from simcasino.strategies import parse_strategy

    rules = build_rules(rules_name, rules_file, overrides)
    seat = parse_strategy(load_policy(policy_file, batched, recall))
    _compare(seat, parse_strategy(against), rules, **table)


def _compare(
    a: object,
    b: object,
    rules: Rules,
    *,
    players: int | None,
    decks: int,
    games: int,
    seed: int,
    margin: float | None,
    as_json: bool,
) -> None:
    """Play and show a comparison; on Ctrl-C show the figures of the chunks finished."""
    from simcasino.experiment.compare import compare_run
    from simcasino.experiment.runner import Interrupted
    from simcasino.experiment.spec import games_count, margin_value, whole_number

    whole_number(decks, "--decks", minimum=2)
    games_count(games, "--games")
    whole_number(seed, "--seed", minimum=0)
    if margin is not None:
        margin_value(margin, "--margin")
    with showing_progress([a, b], "compare") as line:
        try:
            result = compare_run(
                a, b, rules, players, decks, seed, games, margin=margin, progress=line
            )
        except Interrupted as stop:
            line.close()
            if stop.result is not None:
                _show(stop.result, as_json)
            stopped(
                line,
                "the figures above are those of the chunks of decks finished, marked partial"
                if stop.result
                else "no chunk of decks was finished, so there are no figures yet",
            )
    _show(result, as_json)


def _show(result: RunResult, as_json: bool) -> None:
    from simcasino.experiment.compare import compare_result

    if as_json:
        click.echo(json.dumps(compare_result(result).to_dict()))
    else:
        _echo(result)


def _echo(result: RunResult) -> None:
    from simcasino.cli.summary import echo_result

    echo_result(result)


@click.group("experiment", cls=Group)
def experiment_group() -> None:
    """Run experiment specs (TOML) in resumable, reproducible chunks and summarise them.

    \b
    Examples:
      simcasino experiment run experiments/quick.toml
      simcasino experiment resume runs/quick-seed1
      simcasino experiment list
      simcasino experiment show runs/quick-seed1
    """


@experiment_group.command("run")
@click.argument("spec_file", metavar="SPEC.toml", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    metavar="DIR",
    help="Run folder (default: runs/NAME-seedSEED). Re-running into it resumes.",
)
@click.option(
    "--decks", type=int, help="Decks to play, each once per seat rotation, instead of the spec's."
)
@click.option("--seed", type=int, help="Master seed, instead of the spec's.")
@click.option(
    "--report",
    "with_report",
    is_flag=True,
    help="Then draw the report (PDF and PNGs under reports/ and the run folder's name; "
    "see 'simcasino report').",
)
@backend_options
def run_command(
    spec_file: Path,
    out: Path | None,
    decks: int | None,
    seed: int | None,
    with_report: bool,
    workers: int | None,
    scheduler: str | None,
    dask_local: int | None,
) -> None:
    """Run an experiment spec, print the summary and write summary.parquet and summary.json
    into the run folder. Interrupted (Ctrl-C, kill -9), the same command resumes it.

    \b
    Examples:
      simcasino experiment run experiments/quick.toml
      simcasino experiment run experiments/hold_twos.toml --decks 1000000 --workers 2 --out runs/h2
      simcasino experiment run experiments/ladder.toml --dask-local 2
      simcasino experiment run experiments/trailing.toml --report
    """
    from simcasino.experiment.runner import FinishedRun, default_folder, run_experiment
    from simcasino.experiment.spec import load_spec

    spec = load_spec(spec_file)
    changes = {k: v for k, v in (("decks", decks), ("seed", seed)) if v is not None}
    spec = spec.replace(**changes) if changes else spec
    folder = out or default_folder(spec)
    with (
        showing_progress(seats_of(spec), spec.name) as line,
        resumable(folder, _resume(folder), line),
        noting(FinishedRun),
    ):
        result = run_experiment(spec, folder, workers, scheduler, dask_local, progress=line)
    _report(result)
    if with_report:
        write_report(result.folder)


@experiment_group.command("resume")
@click.argument("folder", metavar="DIR", type=click.Path(file_okay=False, path_type=Path))
@backend_options
def resume_command(
    folder: Path, workers: int | None, scheduler: str | None, dask_local: int | None
) -> None:
    """Finish an interrupted run: play only the chunks not yet stored, then summarise.

    \b
    Example:
      simcasino experiment resume runs/quick-seed1 --workers 2
    """
    from simcasino.experiment.runner import FinishedRun, resume, spec_of_folder

    spec = spec_of_folder(folder)
    with (
        showing_progress(seats_of(spec), spec.name) as line,
        resumable(folder, _resume(folder), line),
        noting(FinishedRun),
    ):
        result = resume(folder, workers, scheduler, dask_local, progress=line)
    _report(result)


def _resume(folder: Path) -> str:
    """How to go on with an interrupted run, and how to see its figures so far."""
    return (
        f"simcasino experiment resume {folder} (its figures so far: simcasino experiment show "
        f"{folder}, a look after which a resumed run prints anytime intervals)"
    )


def seats_of(spec: Spec) -> list[object]:
    """Every strategy a run plays (what the engine compiles for it)."""
    return [*spec.arms.values(), *([spec.selfplay] if spec.selfplay else [])]


def _report(result: RunResult) -> None:
    _echo(result)
    click.echo(f"wrote {result.folder / 'summary.parquet'} and summary.json")


@experiment_group.command("list")
@click.option(
    "--specs",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("experiments"),
    show_default=True,
    help="Folder of spec files.",
)
@click.option(
    "--runs",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("runs"),
    show_default=True,
    help="Folder of run folders.",
)
def list_command(specs: Path, runs: Path) -> None:
    """List the experiment specs and the run folders with how far each got.

    \b
    Example:
      simcasino experiment list --specs experiments --runs runs
    """
    from simcasino.experiment.store import MANIFEST

    if not specs.is_dir():
        click.echo(
            f"no folder {specs}/ here: the shipped specs are in a clone's experiments/ (or give "
            "--specs DIR)"
        )
    else:
        click.echo(f"specs in {specs}/:")
        for path in sorted(specs.glob("*.toml")):
            click.echo(f"  {path.name:<20} {_spec_line(path)}")
    folders = sorted(p.parent for p in runs.glob(f"*/{MANIFEST}"))
    if not folders:
        click.echo(
            f"no run folders in {runs}/ yet (runs land there: simcasino experiment run SPEC.toml)"
        )
    else:
        click.echo(f"runs in {runs}/:")
        for folder in folders:
            click.echo(f"  {folder.name:<20} {_run_line(folder)}")


def _spec_line(path: Path) -> str:
    from simcasino.core.rules import read_toml
    from simcasino.experiment.spec import load_spec
    from simcasino.tune import load_tune

    try:
        if "vary" in read_toml(path):
            return (
                f"{load_tune(path).description} (a house-rule sweep: simcasino rules tune {path})"
            )
        return load_spec(path).description
    except ValueError as err:
        return f"(invalid: {err})"


def _run_line(folder: Path) -> str:
    """A run folder in a line: its spec and seed, and how far it got: complete (every chunk it
    needs stored, or the SPRT decided), or the chunks stored so far."""
    from simcasino.experiment.runner import progress_of, run_state

    try:
        spec, plan, chunks = progress_of(folder)
    except ValueError as err:
        return f"(unreadable: {err})"
    state = run_state(spec, plan, chunks)
    summary = ", summarised" if (folder / "summary.json").exists() else ""
    return f"{spec.name}, seed {spec.seed}: {state}{summary}"


@experiment_group.command("show")
@click.argument("folder", metavar="DIR", type=click.Path(file_okay=False, path_type=Path))
def show_command(folder: Path) -> None:
    """Print a run's spec, how far it got, and the summary of the chunks stored so far
    (a run in progress or interrupted shows its partial answer). Only the look is written
    down (looks.json): a run resumed after it prints anytime intervals.

    \b
    Example:
      simcasino experiment show runs/quick-seed1
    """
    from simcasino.experiment.chunk import KINDS
    from simcasino.experiment.runner import look, run_state

    spec, plan, chunks, result = look(folder)
    click.echo(f"{folder}: {_describe(spec)}")
    click.echo(f"state: {run_state(spec, plan, chunks)}")
    for kind in KINDS:
        if plan.total(kind):
            stored = sum(1 for k, _ in chunks if k == kind)
            click.echo(f"{kind}: {stored}/{plan.chunks(kind)} chunks of {plan.chunk:,} stored")
    if result is None:
        click.echo("no deal chunk stored yet")
        return
    _echo(result)


def _describe(spec: Spec) -> str:
    arms = ", ".join(f"{name} = {s.label}" for name, s in spec.arms.items())
    how = (
        f"baseline {spec.baseline}"
        if spec.baseline
        else "pairs " + ", ".join(f"{a}-{b}" for a, b in spec.pairs)
        if spec.pairs
        else spec.design
    )
    return f"{spec.name} ({spec.description}); arms {arms}; {how}"


COMMANDS = (compare_command, evaluate_command, experiment_group)
