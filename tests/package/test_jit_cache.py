"""The numba cache folder follows the kernel's sources and nothing else (`core.jit`)."""

from __future__ import annotations

import shutil
from pathlib import Path

from simcasino.core.jit import PACKAGE, sources_digest


def _copy(tmp_path: Path) -> Path:
    package = tmp_path / "simcasino"
    shutil.copytree(PACKAGE, package, ignore=shutil.ignore_patterns("__pycache__"))
    return package


def test_an_edit_to_the_kernel_sources_changes_the_cache_folder(tmp_path):
    package = _copy(tmp_path)
    before = sources_digest(package)
    assert before == sources_digest(PACKAGE)  # where the clone lies does not matter
    layout = package / "engine" / "layout.py"
    layout.write_text(layout.read_text() + "\n# an edit\n")
    assert sources_digest(package) != before


def test_an_edit_above_the_kernel_keeps_the_cache_folder(tmp_path):
    package = _copy(tmp_path)
    before = sources_digest(package)
    for name in ("stats.py", "report/text.py", "cli/common.py"):
        path = package / name
        path.write_text(path.read_text() + "\n# an edit\n")
    assert sources_digest(package) == before
