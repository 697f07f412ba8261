"""Legal moves in the kernel (R-TURN, R-OPTIONAL), in the canonical order both engines share:
by hand slot, trail first, then captures by ascending mask. Also whether a sweep scores now."""

from __future__ import annotations

import numpy as np
from numba import njit

from simcasino.engine.captures import card_options, hand_card, hand_size
from simcasino.engine.layout import (
    GAME_SCORE,
    IMMEDIATE,
    LAST_ROUND,
    MOVE_CAP,
    MOVE_MASK,
    MOVE_SLOT,
    MOVES_N,
    OPTIONS,
    R_MOKKI_LAST,
    R_MOKKI_LIMIT,
    R_PLAYERS,
    WsPointer,
)


@njit(cache=True)
def list_moves(ws: WsPointer, seat: np.int64) -> np.int64:
    """Fill MOVE_SLOT/MOVE_MASK with every legal move of ``seat`` (after `find_groups`)."""
    count = 0
    for slot in range(hand_size(ws, seat)):
        n = card_options(ws, hand_card(ws, seat, slot))
        if count + n + 1 > MOVE_CAP:
            raise RuntimeError("too many legal moves")
        ws[MOVE_SLOT + count] = slot
        ws[MOVE_MASK + count] = 0
        count += 1
        for k in range(n):
            ws[MOVE_SLOT + count] = slot
            ws[MOVE_MASK + count] = ws[OPTIONS + k]
            count += 1
    ws[MOVES_N] = count
    return count


@njit(cache=True)
def sweep_scores(ws: WsPointer) -> bool:
    """Would a sweep made now score? R-TABBE with R-MOKKI-LAST and R-MOKKI-10."""
    if ws[R_MOKKI_LAST] and ws[LAST_ROUND]:
        return False
    limit = ws[R_MOKKI_LIMIT]
    if limit > 0:
        for seat in range(ws[R_PLAYERS]):
            if ws[GAME_SCORE + seat] + ws[IMMEDIATE + seat] >= limit:
                return False
    return True
