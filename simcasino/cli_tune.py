"""The ``simcasino rules tune`` verb: a house-rule sweep (`simcasino.tune`) from a TOML file or
from ``--base``/``--vary``, with a progress line, the table printed, and its report drawn.

Kept apart from `cli` so matplotlib and the runner are imported only by the verbs that use
them; `cli` registers it under ``rules``, and errors go through its `_Group` (one line
``error: ...``, exit 2).
"""

from __future__ import annotations

from pathlib import Path

import click

from simcasino.cli import PRESET_NAMES, echo_table
from simcasino.cli_experiment import run_with_progress, backend_options
from simcasino.cli_report import FORMAT_CHOICE, write_report
from simcasino.tune import display_table, load_tune, run_tune
from simcasino.tune.sweep import SWITCHES, spec_from_options


@click.command("tune")
@click.argument("spec_file", metavar="[SWEEP.toml]", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--base", metavar="PRESET", help=f"Rules every setting starts from: {PRESET_NAMES} (default: swedish).")
@click.option("--rule", "overrides", multiple=True, metavar="KNOB=VALUE",
              help="Change one knob of the base for every setting; repeatable.")
@click.option("--vary", "varies", multiple=True, metavar="KEY=V1,V2,...",
              help="A knob (target=11,16,21; must_capture_max=off,on) or a preset switch "
                   f"({', '.join(SWITCHES)}: on/off) and its values; repeat to sweep their product.")
@click.option("--strategy", metavar="NAME", help="Strategy in every seat for the first player's edge, volatility, "
                                                  "tabbes, ties and game length (default: heuristic).")
@click.option("--deals", type=int, help="Decks per setting (default 20,000, or the file's).")
@click.option("--games", type=int, help="Whole games per setting (default 2,000, or the file's).")
@click.option("--seed", type=int, help="Master seed (default 0, or the file's); every setting gets the same decks.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), metavar="DIR",
              help="Folder for the settings' runs, the table and the report (default: runs/NAME-seedSEED). "
                   "Re-running into it resumes.")
@click.option("--format", "fmt", type=FORMAT_CHOICE, default="both", show_default=True,
              help="The report: a PDF, one PNG per page, or both.")
@backend_options
def tune_command(spec_file: Path | None, base: str | None, overrides: tuple[str, ...], varies: tuple[str, ...],
                 strategy: str | None, deals: int | None, games: int | None, seed: int | None, out: Path | None,
                 fmt: str, workers: int | None, scheduler: str | None, dask_local: int | None) -> None:
    """Sweep house rules and measure, per setting: deals per game, the first player's edge in
    points per deal and in game wins, the skill gaps heuristic − greedy and greedy − random
    (paired decks), the spread of a player's points, tabbes per deal, and how often the most
    cards are tied; each with a 95% CI. Prints the table, writes it as tune.parquet and
    tune.csv, and draws a chart per metric (report.pdf and PNGs) into the folder.

    \b
    Examples:
      simcasino rules tune --base swedish --vary target=11,16,21 --vary overspader=off,on --deals 20000
      simcasino rules tune experiments/house_rules.toml --workers 2
    """
    if spec_file:
        if base or overrides or varies:
            raise ValueError("give a sweep file or --base/--rule/--vary, not both")
        spec = load_tune(spec_file)
        changes = {k: v for k, v in (("strategy", strategy), ("deals", deals), ("games", games), ("seed", seed))
                   if v is not None}
        spec = spec.replace(**changes) if changes else spec
    else:
        spec = spec_from_options(base, overrides, varies, strategy, deals, games, seed)
    result = run_with_progress(run_tune, spec, out, workers, scheduler, dask_local)
    click.echo(f"{spec.name}: {len(result.settings)} settings of {spec.base.name} rules, {spec.deals:,} decks and "
               f"{spec.games:,} games each, {spec.strategy.label} in every seat, seed {spec.seed} (95% CIs):")
    echo_table(display_table(spec, result.table))
    click.echo(f"wrote {result.folder / 'tune.parquet'} and tune.csv")
    write_report(result.folder, result.folder, fmt)
