"""The one compiled function Python calls to play: batches of deals and games (`batch`) and
the questions about one position (`position`) all go through `run`.

Why one entry: numba compiles each function called from Python with everything it calls
linked in, and optimizes and generates code for that whole closure again (measured on an
empty cache, `benchmarks/bench_compile.py`: 3 to 5 s of CPU for every entry into the search,
most of a cold start). So the batch loop and the position questions are one function, and
what sits between it and the strategies is inlined into it (`games.play_batch`,
`deals.play_deal`, `questions.answer`, `dispatch.choose`).

Why a tier: a job compiles `run` once for the strategies it plays (`strategies.tier_of`):
``advises``, ``weighs``, ``searches`` and ``sees`` are None where no seat needs the advice's
move tests, the heuristic, the search or the clairvoyant, and numba then compiles none of what
they guard (`dispatch`). At most five versions exist (plain, advised, weighed, searched,
clairvoyant), each cached on disk after its first compile.
"""

from __future__ import annotations

import time

import numpy as np

from simcasino.core.jit import (
    compile_seconds,
    compiling,
    is_cached,
    kernel,
    mark_cached,
    record_compile,
)
from simcasino.core.rules import Rules
from simcasino.engine import layout
from simcasino.loop.games import play_batch
from simcasino.loop.questions import answer
from simcasino.loop.workspace import make_workspace
from simcasino.strategies import ADVISED, PLAIN, SEARCHED, SEES_ALL, TIER_NAMES, WEIGHED

TASK_DEALS, TASK_GAMES = (
    -1,
    -2,
)  # `run`'s batch tasks; a question (`questions.ASK_*`) is a number >= 0
NO_DATA = np.zeros(0, dtype=np.int64)
NO_OUT = np.zeros((0, 0, 0), dtype=np.int16)


def flags(tier: int) -> tuple[bool | None, bool | None, bool | None, bool | None]:
    """`run`'s ``advises``, ``weighs``, ``searches`` and ``sees`` for a tier (`strategies.PLAIN` ...
    `SEES_ALL`)."""
    return tuple(
        True if tier >= level else None for level in (ADVISED, WEIGHED, SEARCHED, SEES_ALL)
    )


@kernel(nogil=True)
def run(
    workspace: np.ndarray,
    advises: bool | None,
    weighs: bool | None,
    searches: bool | None,
    sees: bool | None,
    task: np.int64,
    seat: np.int64,
    a: np.int64,
    b: np.int64,
    key: np.uint64,
    data: np.ndarray,
    out: np.ndarray,
) -> np.int64:
    """``task`` TASK_DEALS or TASK_GAMES: play deals or games ``a .. a + len(out)`` of stream
    ``key`` into ``out`` (`games.play_batch`; with ``b`` > 0, each deal's rounds' ends into
    ``data``, ``b`` rows a deal); a question (`questions.answer`): its answer about the position
    in ``workspace`` for ``seat`` (``a``, ``b``, ``data``: its operands)."""
    if task < 0:
        play_batch(
            workspace, advises, weighs, searches, sees, task == TASK_GAMES, key, a, out, data, b
        )
        return 0
    return answer(workspace, advises, weighs, searches, sees, task, seat, a, b, data)


# CPU seconds of a cold compile on 2 cores (`benchmarks/bench_compile.py`), until this machine has
# compiled a tier once and `compile_seconds` knows better
COMPILE_GUESS = {PLAIN: 20.0, ADVISED: 30.0, WEIGHED: 45.0, SEARCHED: 70.0, SEES_ALL: 80.0}
_prepared: set[int] = set()


def prepared(tier: int) -> bool:
    """Has this process already compiled or loaded `run` for ``tier`` (`prepare`)?"""
    return tier in _prepared


def cached(tier: int) -> bool:
    """Is `run` for ``tier`` in the disk cache, so that `prepare` loads rather than compiles?"""
    return is_cached(TIER_NAMES[tier])


def expected_seconds(tier: int) -> tuple[float, bool]:
    """How long compiling ``tier`` should take here: the last compile's seconds and True, or
    the guess of `COMPILE_GUESS` and False when this machine has not compiled it before."""
    last = compile_seconds().get(TIER_NAMES[tier])
    return (last, True) if last is not None else (COMPILE_GUESS[tier], False)


def prepare(tier: int) -> float | None:
    """Compile `run` and `make_workspace` for a job of ``tier``, or load them from the disk
    cache, so the job's first deal or decision does not wait; returns the seconds a compile
    took (recorded for `expected_seconds`), None if nothing was compiled. Why apart from the
    job: a display can show the wait while it happens (`cli.progress`), a game can prepare
    behind its first screen (`play`), and worker processes started after it load the cache."""
    if tier in _prepared:
        return None
    with compiling(TIER_NAMES[tier]):  # another process compiling it: wait, then load what it wrote
        misses = _cache_misses()
        start = time.perf_counter()
        rules = (
            Rules()
        )  # the rules are data in the workspace: one compiled kernel serves every rule set
        advises, weighs, searches, sees = flags(tier)
        n = rules.players
        params = np.zeros((n, layout.N_PARAMS), dtype=np.int64)
        workspace = make_workspace(
            rules.to_array(), np.zeros(n, dtype=np.int64), params, False, weighs
        )
        run(
            workspace,
            advises,
            weighs,
            searches,
            sees,
            np.int64(TASK_DEALS),
            np.int64(0),
            np.int64(0),
            np.int64(0),
            np.uint64(0),
            NO_DATA,
            np.zeros((0, n, layout.N_COLUMNS), dtype=np.int16),
        )  # the compile only
    _prepared.add(tier)
    mark_cached(TIER_NAMES[tier])
    if _cache_misses() == misses:
        return None
    seconds = time.perf_counter() - start
    record_compile(TIER_NAMES[tier], seconds)
    return seconds


def _cache_misses() -> int:
    return sum(sum(f.stats.cache_misses.values()) for f in (run, make_workspace))
