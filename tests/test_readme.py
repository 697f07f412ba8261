"""The README's examples are pasted from real runs and stay true: every `$ simcasino ...` line of
its text blocks that finishes in seconds is run again, and each table it shows must come out
the same, header and rows (the seed fixes them), while the lines that report a wall time are
left out of the comparison."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from conftest import ok

README = Path(__file__).resolve().parent.parent / "README.md"
FAST_VERBS = ("simulate", "games", "compare", "analyze", "rules")  # seconds each, once compiled


def examples(text: str) -> list[tuple[list[str], list[str]]]:
    """Each `$ simcasino ...` command of the README's text blocks with the table lines shown under it."""
    found: list[tuple[list[str], list[str]]] = []
    for block in re.findall(r"```text\n(.*?)```", text, flags=re.S):
        for line in block.splitlines():
            if line.startswith("$ simcasino "):
                found.append((shlex.split(line[2:])[1:], []))
            elif found and line.startswith("|"):
                found[-1][1].append(line)
    return found


FAST = [(args, shown) for args, shown in examples(README.read_text()) if args[0] in FAST_VERBS]


def test_the_readme_shows_fast_examples() -> None:
    assert len(FAST) >= 4 and all(shown for _, shown in FAST)


@pytest.mark.parametrize("args, shown", FAST, ids=[" ".join(a[:3]) for a, _ in FAST])
def test_readme_example_is_true(args: list[str], shown: list[str]) -> None:
    out = [line for line in ok(*args).output.splitlines() if line.startswith("|")]
    assert out == shown
