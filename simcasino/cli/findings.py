"""The ``findings`` verbs: every claim of docs/rules.md §7 measured into a run folder
(`simcasino.findings`, and docs/ only with --docs); the engine is imported only when a run
starts."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import click

from simcasino.cli.common import Group
from simcasino.cli.progress import ProgressLine, resumable


@click.group("findings", cls=Group)
def findings_group() -> None:
    """The answers: what each tactic of the rule books is worth, measured."""


@findings_group.command("run")
@click.option(
    "--quick", is_flag=True, help="The same measures on a small budget (under 10 minutes)."
)
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    metavar="DIR",
    help="The run folder: every part, the page and its figures (default: runs/findings or "
    "runs/findings-quick); a run stopped half-way resumes from it.",
)
@click.option(
    "--docs",
    type=click.Path(path_type=Path),
    metavar="DIR",
    help="Also write findings.md, findings.json and the figures here (e.g. docs); "
    "without it nothing outside the run folder changes.",
)
def run_command(quick: bool, out: Path | None, docs: Path | None) -> None:
    """Measure every claim of docs/rules.md §7 (contested positions of the search's play,
    judged; each base player made to follow it, per deal) into the run folder, print the
    verdicts, and write the page there (and into --docs when given).

    \b
    Examples:
      simcasino findings run --quick
      simcasino findings run --out runs/findings --docs docs
    """
    folder = _folder(out or Path("runs") / ("findings-quick" if quick else "findings"), "--out")
    pages = [folder] + ([_folder(docs, "--docs")] if docs else [])
    from simcasino.findings import (
        FULL,
        QUICK,
        estimate_full,
        run_findings,
        verdict_lines,
        write_page,
    )
    from simcasino.findings.measures import Page
    from simcasino.provenance import commit

    budget = QUICK if quick else FULL
    command = "simcasino findings run" + (" --quick" if quick else "")
    kept = (
        folder / "commit.txt"
    )  # the commit the parts were measured at, kept for a resumed run's page
    if not kept.exists():
        kept.write_text(commit())
    start = time.perf_counter()
    with resumable(folder, f"{command} --out {folder}"):
        findings = run_findings(folder, budget, click.echo, _bar)
    seconds = time.perf_counter() - start
    written = [write_page(findings, where, kept.read_text(), command) for where in pages]
    click.echo("")
    for line in verdict_lines(Page(findings)):
        click.echo(line)
    click.echo(
        f"\nwrote {', '.join(map(str, written))} in {seconds / 60:.1f} minutes"
        + (
            f"; the full run would take about {estimate_full(findings) / 3600:.1f} hours"
            if quick
            else ""
        )
    )


@findings_group.command("card")
@click.option(
    "--quick", is_flag=True, help="The same search on a small budget (minutes, not hours)."
)
@click.option(
    "--level",
    "levels",
    multiple=True,
    type=click.Choice(["greedy", "heuristic"]),
    help="The level of player the card is for; repeatable (default: both).",
)
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    metavar="DIR",
    help="The run folder: every measurement as it is made, and the card's files (default: "
    "runs/card or runs/card-quick); a search stopped half-way resumes from it.",
)
@click.option(
    "--docs",
    type=click.Path(path_type=Path),
    metavar="DIR",
    help="Also write the card there (e.g. docs: docs/strategy-card.toml is the card that "
    "follow=card plays); without it nothing outside the run folder changes.",
)
def card_command(quick: bool, levels: tuple[str, ...], out: Path | None, docs: Path | None) -> None:
    """Search the rules a player can apply at the table (a move test and when it applies) for
    what each is worth to a player of a level who adopts it, validate the best on fresh decks,
    and build the strategy card from them: the rules that add most, checked as a whole on
    decks of a third seed. Swedish and Finnish, 2 players.

    \b
    Examples:
      simcasino findings card --quick
      simcasino findings card --level greedy --out runs/card --docs docs
      simcasino compare greedy:follow=card greedy --rules finnish
    """
    folder = _folder(out or Path("runs") / ("card-quick" if quick else "card"), "--out")
    from simcasino.findings.card import write_card
    from simcasino.findings.discovery import FULL, QUICK, discover
    from simcasino.provenance import commit

    budget, command = (
        (QUICK if quick else FULL),
        "simcasino findings card" + (" --quick" if quick else ""),
    )
    kept = folder / "commit.txt"
    if not kept.exists():
        kept.write_text(commit())
    with resumable(folder, f"{command} --out {folder}"):
        found = [
            discover(level, folder, budget, click.echo)
            for level in levels or ("greedy", "heuristic")
        ]
    written = write_card(found, budget, folder, command, kept.read_text())
    if docs:
        written += write_card(found, budget, _folder(docs, "--docs"), command, kept.read_text())
    for d in found:
        for game, card in d.cards.items():
            whole = ", ".join(f"{t} {m.mean:+.3f}" for t, m in d.checks[game].items())
            click.echo(
                f"{d.level}, {game or 'both games'}: card of {len(card)} rules ({whole} a deal on "
                f"fresh decks): {', '.join(card)}"
            )
    click.echo(f"wrote {', '.join(map(str, written))}")


@contextmanager
def _bar(label: str) -> Iterator[ProgressLine]:
    """A progress line for one part of the run, ended with it (also by Ctrl-C)."""
    line = ProgressLine(label)
    try:
        yield line
    finally:
        line.close()


def _folder(path: Path, option: str) -> Path:
    """``path`` as a folder, made if missing; ValueError (one line) if it cannot be."""
    if path.exists() and not path.is_dir():
        raise ValueError(f"{option} {path}: not a folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise ValueError(f"{option} {path}: cannot make the folder ({err.strerror})") from None
    return path


COMMANDS = (findings_group,)
