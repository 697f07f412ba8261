"""The kernel's strategy switch: one compiled function calls the strategy of each seat.

A strategy's number is its place in the registry (`simcasino.strategies.KERNEL_ID`); the
branches below must follow that order (a test checks it).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simcasino.engine.layout import STRATEGY
from simcasino.strategies import greedy, random

KERNEL_ORDER = ("random", "greedy")


@njit(cache=True)
def choose_move(ws: np.ndarray, seat: np.int64) -> tuple[np.int64, np.int64]:
    """(hand slot, capture mask) chosen by the strategy of ``seat``."""
    strategy = ws[STRATEGY + seat]
    if strategy == 0:
        return random.choose_kernel(ws, seat)
    return greedy.choose_kernel(ws, seat)
