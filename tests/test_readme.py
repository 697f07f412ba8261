"""The README's examples (and those of the docs pages a newcomer reads first) are pasted from real
runs and stay true: every `$ simcasino ...` line of their text blocks that finishes in seconds is
run again, and each table it shows must come out the same, header and rows (the seed fixes them);
the lines that report a wall time are left out of the comparison."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from conftest import ok

ROOT = Path(__file__).resolve().parent.parent
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


@pytest.mark.parametrize("args, shown", FAST, ids=[" ".join(a[:3]) for a, _ in FAST])
def test_readme_example_is_true(args: list[str], shown: list[str]) -> None:
    out = [line for line in ok(*args).stdout.splitlines() if not TIMED.search(line)]
    assert out[: len(shown)] == shown


def test_the_glossary_page_says_what_the_report_says() -> None:
    from simcasino.report.glossary import GLOSSARY

    page = (ROOT / "docs" / "glossary.md").read_text()
    assert all(f"- **{word}**: {meaning}" in page for word, meaning in GLOSSARY.items())
