"""Where the tests find the repository: its root (the docs, specs and example strategies they
read, the folder a fresh process starts in) and the tests' data files. A test's own file is no
guide to them: the tests live in folders by layer."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
