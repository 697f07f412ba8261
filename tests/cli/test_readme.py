"""The README's examples (and those of the docs pages a newcomer reads first) are pasted from real
runs and stay true: every `$ simcasino ...` line of their text blocks that finishes in seconds is
run again, and what it shows must come out the same, every line (the seed fixes them); the lines
that report a wall time are left out of the comparison. The README's play and review excerpt is
one game's, and that game's review adds up."""

from __future__ import annotations

import re
import shlex

import pytest
from helpers.cli import ok
from helpers.paths import ROOT
from helpers.tiers import quick_tier

PAGES = ("README.md", "docs/cli.md", "docs/variants.md", "docs/python-api.md")
FAST_VERBS = ("simulate", "games", "compare", "analyze", "rules")  # seconds each, once compiled


def fast(args: list[str]) -> bool:
    return args[0] in FAST_VERBS and args[:2] != ["rules", "tune"]


TIMED = re.compile(r" in [0-9.]+ s \(")  # "20,000 deals in 0.32 s (61,647 deals/s)": the machine's speed


def examples(text: str) -> list[tuple[list[str], list[str]]]:
    """Each `$ simcasino ...` command of the text blocks with the lines shown under it (timed ones left out)."""
    found: list[tuple[list[str], list[str]]] = []
    for block in re.findall(r"```text\n(.*?)```", text, flags=re.S):
        for line in block.splitlines():
            if line.startswith("$ "):
                found.append((shlex.split(line[2:])[1:], []))
            elif found and not TIMED.search(line) and line != "…":
                found[-1][1].append(line)
    return found


FAST = [(args, shown) for page in PAGES for args, shown in examples((ROOT / page).read_text()) if fast(args)]
README_FAST = [args for args, _ in examples((ROOT / "README.md").read_text()) if fast(args)]


def test_the_readme_shows_fast_examples() -> None:
    assert len(README_FAST) >= 4 and all(shown for _, shown in FAST)


@pytest.mark.parametrize("args, shown", quick_tier(FAST, FAST[:3], unpack=True), ids=[" ".join(a[:3]) for a, _ in FAST])
def test_readme_example_is_true(args: list[str], shown: list[str]) -> None:
    out = [line for line in ok(*args).stdout.splitlines() if not TIMED.search(line)]
    assert out == shown  # the whole output: nothing it prints is missing from the page either


def test_the_glossary_page_says_what_the_report_says() -> None:
    from simcasino.report.glossary import GLOSSARY

    page = (ROOT / "docs" / "glossary.md").read_text()
    assert all(f"- **{word}**: {meaning}" in page for word, meaning in GLOSSARY.items())


def blocks(text: str) -> list[str]:
    return re.findall(r"```[a-z]*\n(.*?)```", text, flags=re.S)


def test_the_readme_play_and_review_excerpt_is_one_game_whose_figures_add_up() -> None:
    """The README's excerpt is a slice of docs/play.md's transcript, and its review row and
    last line are those of the review of that same game there, whose rows add up to that line:
    the moves, the deals, the points lost and the mistakes."""
    excerpt = next(b for b in blocks((ROOT / "README.md").read_text()) if "$ simcasino review game.jsonl" in b)
    played, judged = excerpt.split("$ simcasino review")
    page = blocks((ROOT / "docs" / "play.md").read_text())
    assert any(played in block for block in page if block.startswith("swedish rules, 2 players, to 16; seed 7"))
    review = next(b for b in page if b.startswith("review of seat 0 (human) in game.jsonl")).splitlines()
    row, last = judged.splitlines()[1:3]
    rows = [line for line in review if re.match(r"\|\s+\d", line)]
    assert row in rows and last in review
    found = re.match(r"(\d+) moves in (\d+) deals: ([0-9.]+) points lost a deal \(([0-9.]+) in all\), "
                     r"([0-9.]+) mistakes a deal \((\d+) in all", last)
    deals = {line.split("|")[1].strip() for line in rows}
    losses = sum(float(line.split("|")[7]) for line in rows)
    mistakes = sum("MISTAKE" in line for line in rows)
    assert (int(found[1]), int(found[2]), int(found[6])) == (len(rows), len(deals), mistakes)
    assert float(found[4]) == pytest.approx(losses, abs=0.01 * len(rows))  # each row rounded to 0.01
    assert float(found[3]) == pytest.approx(float(found[4]) / len(deals), abs=0.006)
    assert float(found[5]) == pytest.approx(mistakes / len(deals), abs=0.006)
