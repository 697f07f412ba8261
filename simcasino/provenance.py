"""Where a measurement comes from: the commit and the library versions it was made with.

A findings run or a rule search is resumable, so its page may be assembled from parts made in
several sittings, at several commits. Each part (`run.Clock`) and each measurement of a rule
search (`discovery.Ledger`) keeps its own provenance, so the page can say which code made
which figure, not only the commit the run started at.
"""

from __future__ import annotations

import functools
import platform
import subprocess
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

HERE = (
    Path(__file__).resolve().parent
)  # the commit of the package's own clone, wherever the command runs

LIBRARIES = ("numba", "numpy", "polars")


@functools.cache
def commit() -> str:
    """The commit of the working tree (its short hash, '+' when tracked files have changes)."""
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
            cwd=HERE,
        )
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            check=True,
            cwd=HERE,
        )
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head.stdout.strip() + ("+" if dirty.stdout.strip() else "")


@functools.cache
def provenance() -> str:
    """``commit abc1234; python 3.11.7; numba 0.60.0; numpy …; polars …`` for this process."""
    return "; ".join(
        [
            f"commit {commit()}",
            f"python {platform.python_version()}",
            *(f"{name} {_version(name)}" for name in LIBRARIES),
        ]
    )


def _version(name: str) -> str:
    try:
        return version(name)
    except PackageNotFoundError:
        return "missing"
