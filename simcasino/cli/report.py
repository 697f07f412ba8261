"""The ``report`` verb: a run folder drawn as a PDF and PNGs (`simcasino.report`); matplotlib
is imported only when a report is drawn."""

from __future__ import annotations

from pathlib import Path

import click

FORMAT_CHOICE = click.Choice(["pdf", "png", "both"])


def write_report(folder: Path, out: Path | None = None, fmt: str = "both") -> None:
    """Draw the report of ``folder`` and say where it went (also used by ``experiment run
    --report``)."""
    from simcasino.report import make_report  # matplotlib only when a report is asked for

    report = make_report(folder, out, fmt)
    written = ([str(report.pdf)] if report.pdf else []) + (
        [f"{len(report.pngs)} PNGs in {report.folder}"] if report.pngs else []
    )
    click.echo(f"wrote a report of {report.pages} pages: {' and '.join(written)}")


@click.command("report")
@click.argument("folder", metavar="DIR", type=click.Path(path_type=Path))
@click.option(
    "--format",
    "fmt",
    type=FORMAT_CHOICE,
    default="both",
    show_default=True,
    help="A multi-page PDF, one PNG per page, or both.",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    metavar="PATH",
    help="Folder for the report (default: reports/ and the run folder's name).",
)
def report_command(folder: Path, fmt: str, out: Path | None) -> None:
    """Draw a run folder (finished or still running) as a report: the answer on the first
    page, the effects with CIs (forest plot), their anatomy by scoring component, the
    convergence of the running mean, and tables of every number.

    \b
    Examples:
      simcasino report runs/hold_twos-seed1
      simcasino report runs/quick-seed1 --format png --out reports/quick
    """
    write_report(folder, out, fmt)


COMMANDS = (report_command,)
