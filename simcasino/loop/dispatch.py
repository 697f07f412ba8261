"""The kernel's strategy switch: one compiled function calls the strategy of each seat.

A seat's strategy is its number in the registry (`simcasino.strategies.KERNEL_ORDER`), and
the branches below name those numbers. ``every`` is None when the seats play only the plain
strategies (`strategies.PLAIN`: random and greedy), else True: numba prunes branches by an
argument's type before it compiles them, so a table of plain strategies never compiles the
heuristic or the search (a first run in seconds, not minutes), and the threaded play loop
above passes it down unchanged.
"""

from __future__ import annotations

import numpy as np

from simcasino.core.jit import kernel
from simcasino.engine.layout import R_PLAYERS, STRATEGY, WsPointer
from simcasino.strategies import (
    GREEDY_ID,
    HEURISTIC_ID,
    RANDOM_ID,
    SEARCH_ID,
    clairvoyant,
    greedy,
    heuristic,
    random,
    search,
)


@kernel
def choose_move(ws: WsPointer, seat: np.int64, every: bool | None) -> np.int64:
    """The hand slot chosen by the strategy of ``seat``; its capture mask (0: trail) is left
    in CHOSEN_MASK (see `layout` for why not a tuple)."""
    strategy = ws[STRATEGY + seat]
    if strategy == RANDOM_ID:
        return random.choose_kernel(ws, seat)
    if every is None:  # only random and greedy at this table: the other branches are never compiled
        return greedy.choose_kernel(ws, seat)
    if strategy == GREEDY_ID:
        return greedy.choose_kernel(ws, seat)
    if strategy == HEURISTIC_ID:
        return heuristic.choose_kernel(ws, seat)
    if strategy == SEARCH_ID:
        return search.choose_kernel(ws, seat)
    return clairvoyant.choose_kernel(ws, seat)


@kernel
def prepare_strategies(ws: WsPointer, every: bool | None) -> None:
    """What a seat's strategy works out once from its parameters (the heuristic's card values)."""
    if every is None:  # random and greedy work out nothing
        return
    for seat in range(ws[R_PLAYERS]):
        if ws[STRATEGY + seat] == HEURISTIC_ID:
            heuristic.prepare_seat(ws, seat)
