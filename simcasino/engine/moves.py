"""Legal moves in the kernel (R-TURN, R-OPTIONAL, §6 must_capture, §6 Builds), in the canonical
order both engines share: by hand slot, trail first, then captures by ascending mask, then
builds by table slot and value; a card identical to an earlier one in hand adds no moves; a
player owning a build may not trail unless nothing else is left. Also whether a sweep scores now."""

from __future__ import annotations

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from simcasino.core.jit import kernel
from simcasino.engine import layout
from simcasino.engine.builds import build_code, declarable, owns_build, target_values
from simcasino.engine.captures import card_options
from simcasino.engine.layout import WsPointer, hand_at, hand_card, hand_size


@kernel
def list_moves(ws: WsPointer, seat: np.int64) -> np.int64:
    """Fill MOVE_SLOT/MOVE_MASK with every legal move of ``seat`` (after `find_groups`); a
    build's mask is its `builds.build_code`."""
    count = 0
    obliged = (
        seat if ws[layout.R_BUILDS] and owns_build(ws, seat) else -1
    )  # §6 the builder's obligation
    for slot in range(hand_size(ws, seat)):
        if ws[layout.DECK_N] > layout.KINDS and _repeats_earlier(ws, seat, slot):
            continue
        card = hand_card(ws, seat, slot)
        n = card_options(ws, card)
        if (n == 0 or not ws[layout.R_MUST_CAPTURE]) and obliged < 0:
            count = _add(ws, count, slot, 0)
        for k in range(n):
            count = _add(ws, count, slot, ws[layout.OPTIONS + k])
        if ws[layout.R_BUILDS]:
            count = _list_builds(ws, seat, slot, card, count, obliged)
    if obliged >= 0 and count == 0:  # nothing to take or build on: the builder trails
        for slot in range(hand_size(ws, seat)):
            if not (ws[layout.DECK_N] > layout.KINDS and _repeats_earlier(ws, seat, slot)):
                count = _add(ws, count, slot, 0)
    ws[layout.MOVES_N] = count
    return count


@kernel(inline="always")  # tiny: inlined, so constant arguments make no specializations of its own
def _add(ws: WsPointer, count: np.int64, slot: np.int64, mask: np.int64) -> np.int64:
    if count >= layout.MOVE_CAP:
        raise RuntimeError("too many legal moves")
    ws[layout.MOVE_SLOT + count] = slot
    ws[layout.MOVE_MASK + count] = mask
    return count + 1


@kernel
def _list_builds(
    ws: WsPointer,
    seat: np.int64,
    slot: np.int64,
    card: np.int64,
    count: np.int64,
    obliged: np.int64,
) -> np.int64:
    """Append the builds the card in ``slot`` may make, by table slot then value (§6)."""
    allowed = declarable(ws, seat, slot)
    for target in range(ws[layout.TABLE_N]):
        values = target_values(ws, card, target, allowed, obliged)
        while values:
            count = _add(ws, count, slot, build_code(target, trailing_zeros(values)))
            values &= values - 1
    return count


@kernel
def _repeats_earlier(ws: WsPointer, seat: np.int64, slot: np.int64) -> bool:
    """Is the card in ``slot`` identical to one in an earlier slot of the hand (R-DECK)?"""
    base = hand_at(seat)
    for k in range(slot):
        if ws[layout.RANK_ORDER + ws[base + k]] == ws[layout.RANK_ORDER + ws[base + slot]]:
            return True
    return False


@kernel
def sweep_scores(ws: WsPointer) -> bool:
    """Would a sweep made now score? R-TABBE with R-MOKKI-LAST and R-MOKKI-10."""
    if ws[layout.R_MOKKI_LAST] and ws[layout.LAST_ROUND]:
        return False
    limit = ws[layout.R_MOKKI_LIMIT]
    if limit > 0:
        for unit in range(ws[layout.UNITS]):  # partners share a score: one seat per unit
            if ws[layout.GAME_SCORE + unit] + ws[layout.IMMEDIATE + unit] >= limit:
                return False
    return True
