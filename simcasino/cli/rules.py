"""The ``rules`` verbs: list the presets, show every knob of one as TOML, and sweep house rules
(``rules tune``, which plays: its runner and report are imported when it runs)."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

import click

from simcasino.cli.common import PRESET_NAMES, Group, backend_options, build_rules, echo_table
from simcasino.cli.progress import resumable, showing_progress
from simcasino.cli.report import FORMAT_CHOICE, write_report
from simcasino.core.rules import PRESETS, SWITCHES, Rules


@click.group("rules", cls=Group)
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
@click.option(
    "--rule",
    "overrides",
    multiple=True,
    metavar="KNOB=VALUE",
    help="Change one knob, value as in TOML; repeatable: --rule target=21 --rule ace_hand=[14].",
)
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
    lines = [
        f"# {preset.name}: {preset.description}",
        "[rules]",
        f'{"preset":<{width}} = "{preset.name}"',
    ]
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


@rules_group.command("tune")
@click.argument(
    "spec_file",
    metavar="[SWEEP.toml]",
    required=False,
    type=click.Path(dir_okay=False, path_type=Path),
)
@click.option(
    "--base",
    metavar="PRESET",
    help=f"Rules every setting starts from: {PRESET_NAMES} (default: swedish).",
)
@click.option(
    "--rule",
    "overrides",
    multiple=True,
    metavar="KNOB=VALUE",
    help="Change one knob of the base for every setting; repeatable.",
)
@click.option(
    "--vary",
    "varies",
    multiple=True,
    metavar="KEY=V1,V2,...",
    help="A knob (target=11,16,21; must_capture_max=off,on) or a preset switch "
    f"({', '.join(SWITCHES)}: on/off) and its values; repeat to sweep their product.",
)
@click.option(
    "--strategy",
    metavar="NAME",
    help="Strategy in every seat for the first player's edge, volatility, "
    "tabbes, ties and game length (default: heuristic).",
)
@click.option("--decks", type=int, help="Decks per setting (default 20,000, or the file's).")
@click.option("--games", type=int, help="Whole games per setting (default 2,000, or the file's).")
@click.option(
    "--seed",
    type=int,
    help="Master seed (default 0, or the file's); every setting gets the same decks.",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    metavar="DIR",
    help="Folder for the settings' runs, the table and the report (default: runs/NAME-seedSEED). "
    "Re-running into it resumes.",
)
@click.option(
    "--format",
    "fmt",
    type=FORMAT_CHOICE,
    default="both",
    show_default=True,
    help="The report: a PDF, one PNG per page, or both.",
)
@backend_options
def tune_command(
    spec_file: Path | None,
    base: str | None,
    overrides: tuple[str, ...],
    varies: tuple[str, ...],
    strategy: str | None,
    decks: int | None,
    games: int | None,
    seed: int | None,
    out: Path | None,
    fmt: str,
    workers: int | None,
    scheduler: str | None,
    dask_local: int | None,
) -> None:
    """Sweep house rules and measure, per setting: deals per game, the first player's edge in
    points per deal and in game wins, the skill gaps heuristic − greedy and greedy − random
    (paired decks), the spread of a player's points, tabbes per deal, and how often the most
    cards are tied; each with a 95% CI. Prints the table, writes it as tune.parquet and
    tune.csv, and draws the report into the folder (report.pdf and PNGs): a page
    of sentences saying which setting changes what, the tables, and a chart per
    metric that changes between settings.

    \b
    Examples:
      simcasino rules tune --base swedish --vary target=11,16,21 --vary overspader=off,on --decks 20000
      simcasino rules tune experiments/house_rules.toml --workers 2
    """  # noqa: E501 (a \b example, printed as written)
    from simcasino.tune import display_table, load_tune, run_tune
    from simcasino.tune.run import default_folder
    from simcasino.tune.sweep import spec_from_options

    check_options(strategy, decks, games, seed)
    if spec_file:
        if base or overrides or varies:
            raise ValueError("give a sweep file or --base/--rule/--vary, not both")
        spec = load_tune(spec_file)
        changes = {
            k: v
            for k, v in (("strategy", strategy), ("decks", decks), ("games", games), ("seed", seed))
            if v is not None
        }
        spec = spec.replace(**changes) if changes else spec
    else:
        spec = spec_from_options(base, overrides, varies, strategy, decks, games, seed)
    folder = out or default_folder(spec)
    given = (
        ("--base", [base]),
        ("--rule", overrides),
        ("--vary", varies),
        ("--strategy", [strategy]),
        ("--decks", [decks]),
        ("--games", [games]),
        ("--seed", [seed]),
        ("--out", [folder]),
    )
    again = ["simcasino", "rules", "tune", *([str(spec_file)] if spec_file else [])]
    again += [
        part
        for option, values in given
        for value in values
        if value is not None
        for part in (option, str(value))
    ]
    with (
        showing_progress([spec.strategy, *spec.ladder], spec.name) as line,
        resumable(folder, shlex.join(again), line),
    ):
        result = run_tune(spec, folder, workers, scheduler, dask_local, progress=line)
    anytime = [
        label
        for label, kind in result.table.select("setting", "gap_interval").iter_rows()
        if kind == "anytime"
    ]
    kinds = (
        "; the skill gaps' anytime, as the run went on after its results were seen: "
        f"{', '.join(anytime)}"
        if anytime
        else ""
    )
    click.echo(
        f"{spec.name}: {len(result.settings)} settings of {spec.base.name} rules, {spec.decks:,} "
        f"decks and {spec.games:,} games each, {spec.strategy.label} in every seat, seed "
        f"{spec.seed} (95% CIs{kinds}):"
    )
    echo_table(display_table(spec, result.table))
    click.echo(f"wrote {result.folder / 'tune.parquet'} and tune.csv")
    write_report(result.folder, result.folder, fmt)


def check_options(
    strategy: str | None, decks: int | None, games: int | None, seed: int | None
) -> None:
    """The sweep's options checked as typed, so that an error names the option, not the key
    of the sweep's table it becomes."""
    from simcasino.experiment.spec import whole_number
    from simcasino.strategies import parse_strategy

    if strategy is not None:
        try:
            parse_strategy(strategy)
        except ValueError as err:
            raise ValueError(f"--strategy {strategy}: {err}") from None
    if decks is not None:
        whole_number(decks, "--decks", minimum=2)
    if games is not None and whole_number(games, "--games", minimum=0) < 2:
        raise ValueError(
            f"--games {games}: a sweep plays whole games (deals per game, wins): give at least 2"
        )
    if seed is not None:
        whole_number(seed, "--seed", minimum=0)


COMMANDS = (rules_group,)
