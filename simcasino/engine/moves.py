"""Legal moves in the kernel (R-TURN, R-OPTIONAL, §6 must_capture), in the canonical order both
engines share: by hand slot, trail first, then captures by ascending mask; a card identical to
an earlier one in hand adds no moves. Also whether a sweep scores now."""

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
    DECK_N,
    HAND,
    HAND_CAP,
    KINDS,
    OPTIONS,
    R_MOKKI_LAST,
    R_MOKKI_LIMIT,
    R_MUST_CAPTURE,
    RANK_ORDER,
    UNITS,
    WsPointer,
)


@njit(cache=True)
def list_moves(ws: WsPointer, seat: np.int64) -> np.int64:
    """Fill MOVE_SLOT/MOVE_MASK with every legal move of ``seat`` (after `find_groups`)."""
    count = 0
    for slot in range(hand_size(ws, seat)):
        if ws[DECK_N] > KINDS and _repeats_earlier(ws, seat, slot):
            continue
        n = card_options(ws, hand_card(ws, seat, slot))
        if count + n + 1 > MOVE_CAP:
            raise RuntimeError("too many legal moves")
        if n == 0 or not ws[R_MUST_CAPTURE]:
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
def _repeats_earlier(ws: WsPointer, seat: np.int64, slot: np.int64) -> bool:
    """Is the card in ``slot`` identical to one in an earlier slot of the hand (R-DECK)?"""
    base = HAND + seat * HAND_CAP
    for k in range(slot):
        if ws[RANK_ORDER + ws[base + k]] == ws[RANK_ORDER + ws[base + slot]]:
            return True
    return False


@njit(cache=True)
def sweep_scores(ws: WsPointer) -> bool:
    """Would a sweep made now score? R-TABBE with R-MOKKI-LAST and R-MOKKI-10."""
    if ws[R_MOKKI_LAST] and ws[LAST_ROUND]:
        return False
    limit = ws[R_MOKKI_LIMIT]
    if limit > 0:
        for unit in range(ws[UNITS]):  # partners share a score: one seat per unit
            if ws[GAME_SCORE + unit] + ws[IMMEDIATE + unit] >= limit:
                return False
    return True
