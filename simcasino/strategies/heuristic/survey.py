"""What the deciding player cannot see, in the kernel: the heuristic's survey of one decision.

"Unseen" is what this player cannot see: not in its hand, not on the table, not played or
captured. The deal keeps public counts of the cards nobody has seen (HIDDEN_*, see
`engine.dealing.count_hidden`); a decision subtracts its own hand from them. The hand is
counted once a decision, branch-free card by card (`count_card`: in the loop that lists the
moves, or in `start_decision`), and the rarer answers (is 2♠ unseen? which values can an
unseen card be played as?) are worked out on first use and kept for the decision.

Order matters: the hand counts (HAND_RANKS, HAND_VALUE_NS, THREATS) are complete only once
the listing has passed every card, so the cheap terms weighed while listing use
`value_unseen` and `kasino_unseen`, which look at the hand themselves; `rank_dead`,
`unseen_bits` and the threat counts serve the terms worked out after the listing.
"""

from __future__ import annotations

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from simcasino.advice.sight import is_unseen
from simcasino.core.jit import kernel
from simcasino.engine import layout
from simcasino.engine.layout import WsPointer, hand_card, hand_size
from simcasino.strategies.heuristic.regions import (
    CARD_VALUE_NIBBLES,
    HAND_RANKS,
    HAND_VALUE_NS,
    THREATS,
    UNSEEN_BIG,
    UNSEEN_BITS,
    UNSEEN_SMALL,
)
from simcasino.strategies.heuristic.weights import MILLI

_PAST_HIGH = np.int64(1) << (
    layout.MAX_VALUE - 13
)  # above HAND_BITS >> 14: trailing_zeros is never of 0


@kernel(inline="always")
def start_decision(ws: WsPointer, seat: np.int64) -> None:
    """Forget the last decision's survey and count the hand (`count_card`)."""
    forget_survey(ws)
    ranks, values, threats = np.int64(0), np.int64(0), ws[layout.HIDDEN_THREATS]
    for slot in range(hand_size(ws, seat)):
        ranks, values, threats = count_card(ws, hand_card(ws, seat, slot), ranks, values, threats)
    ws[HAND_RANKS], ws[HAND_VALUE_NS], ws[THREATS] = ranks, values, threats


@kernel(inline="always")
def forget_survey(ws: WsPointer) -> None:
    ws[UNSEEN_BITS], ws[UNSEEN_SMALL], ws[UNSEEN_BIG] = -1, -1, -1


@kernel(inline="always")
def count_card(
    ws: WsPointer, card: np.int64, ranks: np.int64, values: np.int64, threats: np.int64
) -> tuple[np.int64, np.int64, np.int64]:
    """A hand card added to the counts a decision asks of the hand: its cards per rank
    (HAND_RANKS, for `rank_dead`), per value it can be played as (HAND_VALUE_NS, for
    `unseen_bits`) and, of the point cards nobody has seen that play as 14 or more
    (HIDDEN_THREATS, a byte per value), those not in it (THREATS, for the finnish_threats
    threats). (Each worked out in a loop of its own when first asked: 3-4% slower a deal.)"""
    high = ws[layout.HAND_BITS + card] >> 14  # bit 0: plays as 14, ...
    threat = np.int64(high != 0) & np.int64(ws[layout.CARD_POINTS + card] != 0)
    ranks += np.int64(1) << (4 * ws[layout.CARD_RANK + card])
    return (
        ranks,
        values + ws[CARD_VALUE_NIBBLES + card],
        threats - (threat << (8 * trailing_zeros(high | _PAST_HIGH))),
    )


@kernel
def value_nibbles(bits: np.int64) -> np.int64:
    """A 4-bit count of 1 for each value v >= 1 in ``bits``, at bit 4 * (v - 1)
    (CARD_VALUE_NIBBLES)."""
    packed = np.int64(0)
    for v in range(1, layout.MAX_VALUE + 1):
        packed |= (bits >> v & 1) << (4 * (v - 1))
    return packed


@kernel(inline="always")
def kasino_unseen(ws: WsPointer, seat: np.int64, kind: np.int64, at: np.int64) -> bool:
    """Can ``seat`` not see some card of this kind? Worked out once a decision, kept at ``at``."""
    if ws[at] < 0:
        unseen = False
        for card in range(kind, ws[layout.DECK_N], layout.KINDS):
            unseen = unseen or is_unseen(ws, seat, card)
        ws[at] = unseen
    return ws[at] == 1


@kernel(inline="always")
def unseen_bits(ws: WsPointer, seat: np.int64) -> np.int64:
    """Bit v: some card ``seat`` cannot see plays as v (once a decision, kept in UNSEEN_BITS):
    of the values nobody has seen (HIDDEN_VALUES), those with more hidden cards than the
    hand has (HAND_VALUE_NS, so not while the moves are being listed); only a value the hand
    plays as can have no more."""
    if ws[UNSEEN_BITS] >= 0:
        return ws[UNSEEN_BITS]
    bits, held = ws[layout.HIDDEN_VALUES], ws[HAND_VALUE_NS]
    check = bits & ws[layout.HAND_NEED + seat]
    while check:
        v = trailing_zeros(check)
        check &= check - 1
        all_held = ws[layout.HIDDEN_VALUE_N + v] == held >> (4 * (v - 1)) & 15
        bits ^= np.int64(all_held) << v
    ws[UNSEEN_BITS] = bits
    return bits


@kernel
def value_unseen(ws: WsPointer, seat: np.int64, value: np.int64) -> bool:
    """Does some card ``seat`` cannot see play as ``value``? (`unseen_bits` for one value,
    for a move's cheap terms: those come before the listing has counted the hand.)"""
    return _unseen_of_value(ws, seat, value) > 0


@kernel
def _unseen_of_value(ws: WsPointer, seat: np.int64, value: np.int64) -> np.int64:
    count = ws[layout.HIDDEN_VALUE_N + value]
    for slot in range(hand_size(ws, seat)):
        count -= ws[layout.HAND_BITS + hand_card(ws, seat, slot)] >> value & 1
    return count


@kernel(inline="always")
def rank_dead(ws: WsPointer, card: np.int64) -> bool:
    """No card of this rank is unseen: those nobody has seen are all in the hand."""
    rank = ws[layout.CARD_RANK + card]
    return ws[layout.HIDDEN_RANK_N + rank] == ws[HAND_RANKS] >> (4 * rank) & 15


@kernel
def take_risk(ws: WsPointer, seat: np.int64, value: np.int64, owner: np.int64) -> np.int64:
    """`python.take_risk`: the chance (thousandths) an opponent takes a build of ``value``."""
    ways, unseen, hand_n = _unseen_of_value(ws, seat, value), np.int64(0), hand_size(ws, seat)
    for rank in range(13):
        unseen += ws[layout.HIDDEN_RANK_N + rank]
    if ways == 0:
        return 0
    if ws[layout.UNIT + owner] != ws[layout.UNIT + seat]:
        return MILLI
    return MILLI - miss_milli(unseen - hand_n, ways, (ws[layout.R_PLAYERS] - 1) * hand_n)


@kernel
def miss_milli(unseen: np.int64, ways: np.int64, hands: np.int64) -> np.int64:
    """`python.miss_milli`."""
    chance = np.int64(MILLI)
    for i in range(min(hands, unseen)):
        chance = chance * max(unseen - ways - i, 0) // (unseen - i)
    return chance
