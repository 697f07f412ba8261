"""The kernel's strategy switch: which compiled function decides for each seat.

A seat's strategy is its number in the registry (`simcasino.strategies.KERNEL_ORDER`), and
the branches below name those numbers. A seat made to follow a claim (`strategies.follow`)
chooses among the moves its claim allows wherever the claim is contested (`choose_every`
only: such a table is never plain); the search and the clairvoyant restrict their own
candidates. There are two switches: `choose_plain` for a table of only the plain strategies
(`strategies.PLAIN`: random and greedy, none following a claim), which never compiles the
heuristic or the search (a first run in seconds, not minutes), and `choose_every`. The loops
above pick one by ``every``: None for a plain table, else True (numba prunes branches by an
argument's type before it compiles them).
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
    follow,
    greedy,
    heuristic,
    random,
    search,
)


@kernel(inline="always")  # small: into the turn loop, as LLVM would not
def choose_plain(ws: WsPointer, seat: np.int64) -> np.int64:
    """The hand slot chosen by the strategy of ``seat`` at a table of only random and greedy
    (nothing else is compiled for it); its capture mask (0: trail) is left in CHOSEN_MASK
    (see `layout` for why not a tuple)."""
    if ws[STRATEGY + seat] == RANDOM_ID:
        return random.choose_kernel(ws, seat)
    return greedy.choose_kernel(ws, seat)


@kernel(inline="always")
def choose_every(ws: WsPointer, seat: np.int64) -> np.int64:
    """`choose_plain` for a table of any strategies."""
    strategy = ws[STRATEGY + seat]
    if follow.followed(ws, seat) and strategy < SEARCH_ID:  # the search restricts its own candidates
        count = follow.allowed_moves(ws, seat)
        if count:
            return _choose_listed(ws, seat, count)
    if strategy == RANDOM_ID:
        return random.choose_kernel(ws, seat)
    if strategy == GREEDY_ID:
        return greedy.choose_kernel(ws, seat)
    if strategy == HEURISTIC_ID:
        return heuristic.choose_kernel(ws, seat)
    if strategy == SEARCH_ID:
        return search.choose_kernel(ws, seat)
    return clairvoyant.choose_kernel(ws, seat)


@kernel
def _choose_listed(ws: WsPointer, seat: np.int64, count: np.int64) -> np.int64:
    """The choice of the strategy of ``seat`` (random, greedy or the heuristic) among the first
    ``count`` listed moves: those its claim allows."""
    if ws[STRATEGY + seat] == HEURISTIC_ID:
        return heuristic.choose_listed(ws, seat, count)
    if ws[STRATEGY + seat] == RANDOM_ID:
        return random.choose_listed(ws, count)
    return greedy.choose_listed(ws, seat, count)


@kernel
def prepare_strategies(ws: WsPointer, every: bool | None) -> None:
    """What the seats' strategies work out once from the rules and their parameters (greedy:
    whether it weighs every move; the heuristic: its card values)."""
    greedy.prepare(ws)
    if every is None:  # only random and greedy at this table
        return
    for seat in range(ws[R_PLAYERS]):
        if ws[STRATEGY + seat] == HEURISTIC_ID:
            heuristic.prepare_seat(ws, seat)
