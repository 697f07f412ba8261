"""The ``findings`` verbs: every claim of docs/rules.md §7 measured into docs/findings.md
(`simcasino.findings`); the engine is imported only when a run starts."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import click

from simcasino.cli.common import Group


@click.group("findings", cls=Group)
def findings_group() -> None:
    """The answers: what each tactic of the rule books is worth, measured."""


@findings_group.command("run")
@click.option("--quick", is_flag=True, help="The same measures on fewer decks, deals and worlds (under 10 minutes).")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), metavar="DIR",
              help="Folder for the run folders and audits (default: runs/findings or runs/findings-quick); "
                   "a run stopped half-way resumes from it.")
@click.option("--docs", type=click.Path(file_okay=False, path_type=Path), default=Path("docs"), show_default=True,
              metavar="DIR", help="Where findings.md and its figures go.")
def run_command(quick: bool, out: Path | None, docs: Path) -> None:
    """Run every ablation and decision audit and write DIR/findings.md with one figure per
    rule set.

    \b
    Examples:
      simcasino findings run --quick
      simcasino findings run --out runs/findings
    """
    from simcasino.findings import FULL, QUICK, estimate_full, run_findings, write_page

    budget = QUICK if quick else FULL
    folder = out or Path("runs") / ("findings-quick" if quick else "findings")
    command = "simcasino findings run" + (" --quick" if quick else "")
    start = time.perf_counter()
    findings = run_findings(folder, budget, click.echo)
    seconds = time.perf_counter() - start
    page = write_page(findings, docs, _commit(), command)
    click.echo(f"wrote {page} and its figures in {seconds / 60:.1f} minutes"
               + (f"; the full run would take about {estimate_full(findings) / 3600:.1f} hours" if quick else ""))


def _commit() -> str:
    """The commit the run measured (its short hash, '+' when the work tree has changes)."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True)
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], capture_output=True,
                               text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head.stdout.strip() + ("+" if dirty.stdout.strip() else "")


COMMANDS = (findings_group,)
