"""The one compiled function Python calls to play: batches of deals and games (`batch`) and
the questions about one position (`position`) all go through `run`.

Why one entry: numba compiles each function called from Python with everything it calls
linked in, and optimizes and generates code for that whole closure again (measured on an
empty cache, `benchmarks/bench_compile.py`: 3 to 5 s of CPU for every entry into the search,
most of a cold start). So the batch loop and the position questions are one function, and
what sits between it and the strategies is inlined into it (`games.play_batch`,
`deals.play_deal`, `questions.answer`, `dispatch.choose`).

Why a tier: a job compiles `run` once for the strategies it plays (`strategies.tier_of`):
``weighs``, ``searches`` and ``sees`` are None where no seat needs the heuristic, the search
or the clairvoyant, and numba then compiles none of what they guard (`dispatch`). At most four
versions exist (plain, weighed, searched, clairvoyant), each cached on disk after its first
compile.
"""

from __future__ import annotations

import numpy as np

from simcasino.core.jit import kernel
from simcasino.loop.games import play_batch
from simcasino.loop.questions import answer
from simcasino.strategies import SEARCHED, SEES_ALL, WEIGHED

TASK_DEALS, TASK_GAMES = -1, -2  # `run`'s batch tasks; a question (`questions.ASK_*`) is a number >= 0
NO_DATA = np.zeros(0, dtype=np.int64)
NO_OUT = np.zeros((0, 0, 0), dtype=np.int16)


def flags(tier: int) -> tuple[bool | None, bool | None, bool | None]:
    """`run`'s ``weighs``, ``searches`` and ``sees`` for a tier (`strategies.PLAIN` ... `SEES_ALL`)."""
    return tuple(True if tier >= level else None for level in (WEIGHED, SEARCHED, SEES_ALL))


@kernel(nogil=True)
def run(workspace: np.ndarray, weighs: bool | None, searches: bool | None, sees: bool | None, task: np.int64,
        seat: np.int64, a: np.int64, b: np.int64, key: np.uint64, data: np.ndarray, out: np.ndarray) -> np.int64:
    """``task`` TASK_DEALS or TASK_GAMES: play deals or games ``a .. a + len(out)`` of stream
    ``key`` into ``out`` (`games.play_batch`); a question (`questions.answer`): its answer
    about the position in ``workspace`` for ``seat`` (``a``, ``b``, ``data``: its operands)."""
    if task < 0:
        play_batch(workspace, weighs, searches, sees, task == TASK_GAMES, key, a, out)
        return 0
    return answer(workspace, weighs, searches, sees, task, seat, a, b, data)
