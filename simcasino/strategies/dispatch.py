"""The kernel's strategy switch: one compiled function calls the strategy of each seat.

A strategy's number is its place in the registry (`simcasino.strategies.KERNEL_ID`); the
branches below must follow that order (a test checks it).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simcasino.engine.layout import R_PLAYERS, STRATEGY, WsPointer
from simcasino.strategies import greedy, heuristic, heuristic_builds, random, search

KERNEL_ORDER = ("random", "greedy", "heuristic", "search")


@njit(cache=True)
def choose_move(ws: WsPointer, seat: np.int64) -> np.int64:
    """The hand slot chosen by the strategy of ``seat``; its capture mask (0: trail) is left
    in CHOSEN_MASK (see `layout` for why not a tuple)."""
    strategy = ws[STRATEGY + seat]
    if strategy == 0:
        return random.choose_kernel(ws, seat)
    if strategy == 1:
        return greedy.choose_kernel(ws, seat)
    if strategy == 2:
        return heuristic_builds.choose_kernel(ws, seat)  # the form without builds unless §6 builds
    return search.choose_kernel(ws, seat)


@njit(cache=True)
def prepare_strategies(ws: WsPointer) -> None:
    """What a seat's strategy works out once from its parameters (the heuristic's card values)."""
    for seat in range(ws[R_PLAYERS]):
        if ws[STRATEGY + seat] == 2:
            heuristic.prepare_seat(ws, seat)


@njit(cache=True)
def choose_capture(ws: WsPointer, chooser: np.int64, mover: np.int64, card: np.int64, n: np.int64) -> np.int64:
    """§6 Misère: the index, among the ``n`` captures in OPTIONS that ``mover``'s ``card``
    may make, that the strategy of ``chooser`` picks (the heuristic and the search choose
    as greedy does: the capture worst for the mover)."""
    if ws[STRATEGY + chooser] == 0:
        return random.choose_capture_kernel(ws, n)
    return greedy.choose_capture_kernel(ws, card, n)
