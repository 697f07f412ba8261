"""Where numba keeps compiled kernels: a folder named after a hash of this package's sources.

Why: ``cache=True`` only notices edits to the file that defines a function, not to helpers
it inlines from other files, so an edited engine could silently run stale machine code.
A cache folder per source version makes every edit compile afresh and every unchanged
install reuse its cache. Set NUMBA_CACHE_DIR to choose the folder yourself.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numba


def _sources_digest() -> str:
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).parent.rglob("*.py")):
        digest.update(path.as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def cache_dir() -> Path:
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "simcasino" / f"numba-{numba.__version__}-{_sources_digest()}"


if not os.environ.get("NUMBA_CACHE_DIR"):
    numba.config.CACHE_DIR = str(cache_dir())
