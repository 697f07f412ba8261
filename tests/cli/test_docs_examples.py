"""Every Python example of docs/python-api.md and docs/interop.md runs, and shows what it prints.

An example written with ``>>>`` prompts is run by doctest (its outputs checked line for
line); any other Python block is run as a script, and where a ``text`` block follows it
directly, that is what it must print. The examples run in a folder of their own, with the
repository's experiments/ beside them (python-api.md's first example runs experiments/quick.toml).
"""

from __future__ import annotations

import contextlib
import doctest
import io
import os
import re
from pathlib import Path

import pytest
from helpers.paths import ROOT
from helpers.tiers import quick_tier

PAGES = ("docs/python-api.md", "docs/interop.md")
BLOCK = re.compile(r"```python\n(.*?)```\n(?:\n```text\n(.*?)```\n)?", re.S)


def examples() -> list[tuple[str, int, str, str | None]]:
    found = []
    for page in PAGES:
        for number, match in enumerate(BLOCK.finditer((ROOT / page).read_text())):
            found.append((page, number, match.group(1), match.group(2)))
    return found


EXAMPLES = examples()


def needs(code: str) -> str | None:
    """The optional package an example imports (the test is skipped only where it is missing)."""
    for package in ("pyspiel", "pettingzoo", "gymnasium"):
        if package in code or (package == "pettingzoo" and "pettingzoo_env" in code) or \
                (package == "gymnasium" and "gym_env" in code):
            return package
    return None


@pytest.mark.parametrize("page,number,code,shown", quick_tier(EXAMPLES, EXAMPLES[:3], unpack=True),
                         ids=lambda v: v if isinstance(v, (str, int)) else "")
def test_the_example_runs_and_prints_what_the_page_shows(page: str, number: int, code: str, shown: str | None,
                                                         tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if (package := needs(code)) is not None:
        pytest.importorskip(package)  # the openspiel and rl extras; .ci/run installs both
    (tmp_path / "experiments").symlink_to(ROOT / "experiments")
    monkeypatch.chdir(tmp_path)
    name = f"{page} example {number}"
    if ">>>" in code:
        test = doctest.DocTestParser().get_doctest(code, {}, name, page, 0)
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        out = io.StringIO()
        runner.run(test, out=out.write)
        assert runner.failures == 0, out.getvalue()
        return
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, name, "exec"), {"__name__": "__docs__"})
    if shown is not None:
        assert printed.getvalue() == shown


def test_every_page_has_examples() -> None:
    pages = {page for page, *_ in examples()}
    assert pages == set(PAGES) and len(examples()) >= 8
    assert os.path.exists(ROOT / "experiments" / "quick.toml")
