"""`kernel`: how every compiled function of the package is made, and where numba caches it.

Why one decorator: ``cache=True`` is wanted everywhere (a cold compile takes minutes), and
the cache folder must be chosen before the first function is decorated. Importing `kernel`
from here guarantees both, whatever module a process imports first.

Why a folder per digest of the kernel's sources: numba's cache notices edits only to the file that
defines a function, not to helpers it inlines or constants it reads from other files, so an edited
engine could silently run stale machine code. The digest covers every source file of the packages
compiled code comes from (`KERNEL_PACKAGES`: the constants of core, the mechanics, the advice, the
strategies, the play loop) by its path inside the package and its content (not where the clone
lies), so every edit there compiles afresh and any copy of the same version reuses the cache; an
edit to the layers above (statistics, reports, the command line) keeps it. Older folders are pruned,
keeping the few used last. Set NUMBA_CACHE_DIR to choose the folder yourself (then empty it after
edits).

Compile time is a budget (`benchmarks/bench_compile.py`): a literal constant passed to a
kernel called from Python makes a specialization of its own (pass ``np.int64(...)`` or
``np.bool_(...)``, as `rank_moves`' callers do); ``inline="always"`` pays only on small
helpers in hot loops, and costs where it copies a large body into many callers (measured on
the heuristic's choice, `strategies/heuristic/kernel.py`: 15 s of a cold compile, against
11% more instructions a deal without it).
"""

from __future__ import annotations

import contextlib
import functools
import gc
import hashlib
import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import numba
from numba.core import event

PACKAGE = Path(__file__).resolve().parent.parent
KEEP_FOLDERS = 3  # cache folders of other versions kept (a few checkouts side by side)
# where compiled code and the constants it reads live
KERNEL_PACKAGES = ("core", "engine", "advice", "strategies", "loop")
COMPILE_SECONDS = (
    "compile-seconds.json"  # beside the cache folders: how long each tier's last compile took
)


def sources_digest(package: Path = PACKAGE) -> str:
    """A digest of the kernel's sources: relative path and content of every .py file of
    `KERNEL_PACKAGES`."""
    digest = hashlib.sha256()
    for path in sorted(p for name in KERNEL_PACKAGES for p in (package / name).rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def cache_root() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "simcasino"


def cache_dir() -> Path:
    return cache_root() / f"numba-{numba.__version__}-{sources_digest()}"


def prune(root: Path, current: Path, keep: int = KEEP_FOLDERS) -> None:
    """Remove the cache folders of other versions but the ``keep`` used last."""
    others = [p for p in root.glob("numba-*") if p.is_dir() and p != current]
    others.sort(key=lambda p: p.stat().st_mtime, reverse=True)
    for old in others[keep:]:
        shutil.rmtree(old, ignore_errors=True)


def compile_seconds() -> dict[str, float]:
    """How long the last compile of each job's kernel took on this machine (wall seconds by
    tier name, `record_compile`), so a first run of the next version can say what to expect."""
    try:
        return {
            str(k): float(v)
            for k, v in json.loads((cache_root() / COMPILE_SECONDS).read_text()).items()
        }
    except (OSError, ValueError, AttributeError):
        return {}


def record_compile(name: str, seconds: float) -> None:
    """Remember that compiling the kernel of tier ``name`` took ``seconds`` (best effort: a
    cache folder that cannot be written only loses the estimate)."""
    try:
        cache_root().mkdir(parents=True, exist_ok=True)
        (cache_root() / COMPILE_SECONDS).write_text(
            json.dumps(compile_seconds() | {name: round(seconds, 1)})
        )
    except OSError:
        pass


def _ready_marker(name: str) -> Path:
    return Path(numba.config.CACHE_DIR or cache_dir()) / f"ready-{name}"


def is_cached(name: str) -> bool:
    """Has the kernel of tier ``name`` been compiled into the cache folder in use
    (`mark_cached`)? Why: a wait for a cache that loads must say it loads, not that it compiles."""
    return _ready_marker(name).is_file()


def mark_cached(name: str) -> None:
    """Note that the cache folder in use holds the kernel of tier ``name`` (best effort)."""
    with contextlib.suppress(OSError):
        _ready_marker(name).touch()


@contextlib.contextmanager
def compiling(name: str) -> Iterator[None]:
    """Held while this process compiles (or loads) the kernel of tier ``name``: one process
    at a time, so that on an empty cache the first compiles and the others wait and then load
    what it wrote. Why: processes started together (an experiment's workers, the test
    workers, a command run beside another) would otherwise each compile the same kernel, the
    whole of a cold start's CPU paid once per process (measured on the cold test run). A lock
    file beside the cache (``fcntl.flock``, released if the process dies); where there is no
    ``fcntl`` (Windows) or the folder cannot be written, no lock: each compiles, as before."""
    try:
        import fcntl

        cache_root().mkdir(parents=True, exist_ok=True)
        handle = open(cache_root() / f"compiling-{name}.lock", "w")  # noqa: SIM115 (held across the yield)
    except (ImportError, OSError):
        yield
        return
    with handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _choose_cache() -> None:
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    folder = cache_dir()
    numba.config.CACHE_DIR = str(folder)
    if not folder.is_dir():
        prune(cache_root(), folder)
        folder.mkdir(parents=True, exist_ok=True)
    else:
        os.utime(folder)  # the newest folder is the one in use


class _FewerCollections(event.Listener):
    """Python's cyclic garbage collector run less often while numba compiles (numba's event
    API: the outermost compile's start and end). A compile allocates millions of small objects
    that live until it ends, and each collection walks them all again: measured on a cold
    `bench_compile.py every`, 7.7% less CPU for 14% more peak memory (585 -> 669 MiB)."""

    THRESHOLD = (100_000, 50, 1000)  # Python's default is (700, 10, 10)
    depth, saved = 0, gc.get_threshold()

    def on_start(self, ev: event.Event) -> None:
        if _FewerCollections.depth == 0:
            _FewerCollections.saved = gc.get_threshold()
            gc.set_threshold(*self.THRESHOLD)
        _FewerCollections.depth += 1

    def on_end(self, ev: event.Event) -> None:
        _FewerCollections.depth -= 1
        if _FewerCollections.depth == 0:
            gc.set_threshold(*_FewerCollections.saved)


_choose_cache()
event.register("numba:compile", _FewerCollections())

kernel = functools.partial(numba.njit, cache=True)
(
    """``numba.njit(cache=True, ...)``: ``@kernel``, ``@kernel(inline="always")``, """
    """``@kernel(parallel=True)``."""
)
