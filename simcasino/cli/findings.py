"""The ``findings`` verbs: every claim of docs/rules.md §7 measured into a run folder
(`simcasino.findings`, and docs/ only with --docs); the engine is imported only when a run
starts."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import click

from simcasino.cli.common import Group, make_folder, rules_options
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
    folder = make_folder(out or Path("runs") / ("findings-quick" if quick else "findings"), "--out")
    pages = [folder] + ([make_folder(docs, "--docs")] if docs else [])
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
    folder = make_folder(out or Path("runs") / ("card-quick" if quick else "card"), "--out")
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
        written += write_card(found, budget, make_folder(docs, "--docs"), command, kept.read_text())
    for d in found:
        for game, card in d.cards.items():
            whole = ", ".join(f"{t} {m.mean:+.3f}" for t, m in d.checks[game].items())
            click.echo(
                f"{d.level}, {game or 'both games'}: card of {len(card)} rules ({whole} a deal on "
                f"fresh decks): {', '.join(card)}"
            )
    click.echo(f"wrote {', '.join(map(str, written))}")


@findings_group.command("teach")
@rules_options
@click.option("--players", type=int, help="Number of players (default: the rules' players).")
@click.option(
    "--teacher",
    default="search",
    show_default=True,
    metavar="NAME",
    help="The stronger player whose choices are read (a built-in strategy, parameters allowed).",
)
@click.option(
    "--pupil",
    default="greedy",
    show_default=True,
    metavar="NAME",
    help="The player the rules are for: it follows a rule with its own choice among the moves "
    "the rule allows.",
)
@click.option(
    "--played-by",
    metavar="NAME",
    help="Who plays the deals, so whose positions are read (default: the pupil, the positions "
    "it meets).",
)
@click.option("--deals", type=int, default=200, show_default=True, help="Deals played.")
@click.option(
    "--seed",
    type=int,
    default=1,
    show_default=True,
    help="The deals' seed, as simulate numbers them.",
)
@click.option(
    "--depth",
    type=int,
    default=3,
    show_default=True,
    help="Conditions a rule at most.",
)
@click.option("--top", type=int, default=15, show_default=True, help="Candidates printed.")
def teach_command(
    rules_name: str | None,
    rules_file: Path | None,
    overrides: tuple[str, ...],
    players: int | None,
    teacher: str,
    pupil: str,
    played_by: str | None,
    deals: int,
    seed: int,
    depth: int,
    top: int,
) -> None:
    """Read candidate rules off a stronger player: at every decision of the deals, ask the
    teacher what it would play, and score every move test with up to --depth conditions by
    the pupil's moves it brings to the teacher's (toward) less those it takes away (away).
    A rule is printed only where each of its conditions adds to that net. Candidates, not
    findings: what one is worth is measured in play (the command printed last).

    \b
    Examples:
      simcasino findings teach --rules swedish --deals 200 --seed 1
      simcasino findings teach --rules finnish --teacher search --pupil heuristic --top 8
    """
    from simcasino.cli.common import build_rules, echo_table
    from simcasino.experiment.spec import whole_number

    whole_number(deals, "--deals", minimum=1)
    whole_number(top, "--top", minimum=1)
    if not 0 <= depth <= 3:
        raise ValueError(f"--depth: expected 0 to 3 conditions a rule; got {depth}")
    from simcasino.cli.progress import showing_progress
    from simcasino.core.rules import PRESETS
    from simcasino.findings.discovery import CONDITIONS
    from simcasino.findings.teacher import read_rules, record_lessons

    rules = build_rules(rules_name, rules_file, overrides, players)
    taught, student = _built_in("--teacher", teacher), _built_in("--pupil", pupil)
    player = _built_in("--played-by", played_by) if played_by else student
    with showing_progress([taught, student, player], "teach") as line:
        lessons = record_lessons(
            rules, deals, seed, student, taught, player, lambda done: line(done / deals, done)
        )
    differ = sum(lesson.pupil != lesson.teacher for lesson in lessons)
    click.echo(
        f"{len(lessons):,} decisions of {student.text} in {deals:,} deals of {player.text} "
        f"({rules.name} rules, {rules.players} players, seed {seed}); "
        f"{taught.text} plays otherwise at {differ:,} ({differ / max(1, len(lessons)):.0%})"
    )
    found = read_rules(lessons, CONDITIONS, student, depth=depth)[:top]
    if not found:
        click.echo("no rule brings the pupil's moves nearer the teacher's")
        return
    import polars as pl

    echo_table(
        pl.DataFrame(
            {
                "rule": [c.rule.text for c in found],
                "changed": [c.changed for c in found],
                "toward": [c.toward for c in found],
                "away": [c.away for c in found],
                "net": [c.net for c in found],
                "in words": [c.rule.words for c in found],
            }
        )
    )
    where = f" --rules {rules.name}" if PRESETS.get(rules.name) == rules else " --rules-file FILE"
    click.echo(
        f"measure one in play: simcasino compare '{student.text}:follow={found[0].rule.text}' "
        f"{student.text}{where} --decks 2000"
    )


@contextmanager
def _bar(label: str) -> Iterator[ProgressLine]:
    """A progress line for one part of the run, ended with it (also by Ctrl-C)."""
    line = ProgressLine(label)
    try:
        yield line
    finally:
        line.close()


def _built_in(option: str, text: str):  # noqa: ANN202 (a StrategySpec, imported with the engine)
    """``text`` as a built-in strategy; ValueError naming the option as typed if it is not."""
    from simcasino.findings.teacher import strategy

    try:
        return strategy(text)
    except ValueError as err:
        raise ValueError(f"{option} {text}: {err}") from None


COMMANDS = (findings_group,)
