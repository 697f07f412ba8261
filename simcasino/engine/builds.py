"""Builds in the kernel (§6 Builds: Rakennuskasino, Glimne's Mulle), mirroring
`simcasino.reference.builds` (whose docstring lists the readings).

A build occupies one table slot as id DECK_CAP + b; BUILD_VALUE, BUILD_OWNER, BUILD_DOUBLE,
BUILD_KEY and BUILD_POINTS hold what the captures and the strategies need, and its cards are
marked in OWNER as -2 - b. Its per-id table entries are constants that keep it out of every
sum of loose cards, so the group machinery lists a build only as a group of its own, filed
here by value (`file_builds`). A build move travels through the move lists and CHOSEN_MASK as
a negative code (`build_code`), so every path that handles (slot, mask) pairs carries it.
"""

from __future__ import annotations

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from simcasino.core.jit import kernel
from simcasino.engine import layout
from simcasino.engine.layout import WsPointer, hand_at

VALUE_BITS = 5  # a build code packs the declared value (<= MAX_VALUE) in 5 bits, the slot above
_VALUES = (np.int64(1) << (layout.MAX_VALUE + 1)) - 1


@kernel
def build_code(slot: np.int64, value: np.int64) -> np.int64:
    """The move mask of a build onto table ``slot`` declaring ``value``: negative, so that it
    is never a capture mask (those are >= 0) and 0 stays the trail."""
    return -1 - (slot << VALUE_BITS | value)


@kernel
def build_slot(code: np.int64) -> np.int64:
    return (-1 - code) >> VALUE_BITS


@kernel
def build_value(code: np.int64) -> np.int64:
    return (-1 - code) & ((1 << VALUE_BITS) - 1)


@kernel
def is_build_id(item: np.int64) -> bool:
    return item >= layout.DECK_CAP


@kernel
def table_bits(ws: WsPointer, card: np.int64) -> np.int64:
    """Bit v for each value ``card`` counts on the table (a Swedish ace: 1 and 14)."""
    value = ws[layout.TABLE_VALUE + card]
    return np.int64(1) << value | ws[layout.TABLE_HIGH + card] << (value + 13)


@kernel
def build_values(ws: WsPointer, card: np.int64, item: np.int64) -> np.int64:
    """Bit v for each build ``card`` can make on the table ``item``, before the holding rule:
    sums onto a loose card; onto a build its value (a double) or, unless double, the raises."""
    played = table_bits(ws, card)
    if not is_build_id(item):
        other, sums = table_bits(ws, item), np.int64(0)
        while other:
            sums |= played << trailing_zeros(other)
            other &= other - 1
        return sums & _VALUES
    b = item - layout.DECK_CAP
    value = ws[layout.BUILD_VALUE + b]
    doubles = played & (np.int64(1) << value)
    raises = 0 if ws[layout.BUILD_DOUBLE + b] else played << value
    return (doubles | raises) & _VALUES


@kernel
def held_bits(ws: WsPointer, seat: np.int64, slot: np.int64) -> np.int64:
    """Bit v for each value the cards in hand other than ``slot`` can be played as."""
    bits = np.int64(0)
    base = hand_at(seat)
    for k in range(ws[layout.HAND_N + seat]):
        if k != slot:
            bits |= ws[layout.HAND_BITS + ws[base + k]]
    return bits


@kernel
def declarable(ws: WsPointer, seat: np.int64, slot: np.int64) -> np.int64:
    """The values a build by the card in ``slot`` may declare: held in another card, or with
    ``build_penalty`` any value some card can be played as."""
    return ws[layout.PLAYABLE_BITS] if ws[layout.R_BUILD_PENALTY] else held_bits(ws, seat, slot)


@kernel
def owns_build(ws: WsPointer, seat: np.int64) -> bool:
    """Does ``seat`` own a build on the table (the builder's obligation)?"""
    for b in range(layout.BUILD_CAP):
        if ws[layout.BUILD_N + b] and ws[layout.BUILD_OWNER + b] == seat:
            return True
    return False


@kernel
def target_values(
    ws: WsPointer, card: np.int64, slot: np.int64, allowed: np.int64, obliged_seat: np.int64
) -> np.int64:
    """The values ``card`` may build with on table ``slot`` (bits), given the ``allowed``
    declarations; none onto a loose card identical to an earlier one (R-DECK), and, for an
    obliged seat (>= 0), none but onto its own builds."""
    item = ws[layout.TABLE + slot]
    owned = is_build_id(item) and ws[layout.BUILD_OWNER + item - layout.DECK_CAP] == obliged_seat
    if obliged_seat >= 0 and not owned:
        return 0
    if ws[layout.DECK_N] > layout.KINDS and not is_build_id(item):
        for i in range(slot):
            if ws[layout.RANK_ORDER + ws[layout.TABLE + i]] == ws[layout.RANK_ORDER + item]:
                return 0
    return build_values(ws, card, item) & allowed


@kernel
def item_key(ws: WsPointer, item: np.int64) -> np.int64:
    """The packed key of a table item's cards (see layout.KEY_POINTS)."""
    return (
        ws[layout.BUILD_KEY + item - layout.DECK_CAP]
        if is_build_id(item)
        else ws[layout.CARD_KEY + item]
    )


@kernel
def apply_build(ws: WsPointer, seat: np.int64, card: np.int64, code: np.int64) -> None:
    """Play ``card`` (already out of the hand) as the build ``code``: a new build on a loose
    card, or onto a build (a raise, a double). Counts the build, and whether its value was held
    (HAND_NEED is the hand without the card)."""
    slot, value = build_slot(code), build_value(code)
    item = ws[layout.TABLE + slot]
    if is_build_id(item):
        b = item - layout.DECK_CAP
        if value == ws[layout.BUILD_VALUE + b]:  # a card of its value joins it: a double build
            ws[layout.BUILD_DOUBLE + b] = 1
    else:
        b = _free_build(ws)
        ws[layout.BUILD_N + b], ws[layout.BUILD_KEY + b] = 0, 0
        ws[layout.BUILD_POINTS + b], ws[layout.BUILD_DOUBLE + b] = 0, 0
        _add_card(ws, b, item)
        ws[layout.TABLE + slot] = layout.DECK_CAP + b
    _add_card(ws, b, card)
    ws[layout.BUILD_VALUE + b], ws[layout.BUILD_OWNER + b] = value, seat
    ws[layout.BUILDS_MADE + seat] += 1
    ws[layout.UNHELD + seat] += (ws[layout.HAND_NEED + seat] >> value & 1) == 0
    ws[layout.BUILD_BITS] = build_bits(ws)


@kernel
def _free_build(ws: WsPointer) -> np.int64:
    for b in range(layout.BUILD_CAP):
        if ws[layout.BUILD_N + b] == 0:
            return b
    raise RuntimeError("too many builds on the table")


@kernel
def _add_card(ws: WsPointer, b: np.int64, card: np.int64) -> None:
    ws[layout.OWNER + card] = -2 - b
    ws[layout.BUILD_N + b] += 1
    ws[layout.BUILD_KEY + b] += ws[layout.CARD_KEY + card]
    ws[layout.BUILD_POINTS + b] += ws[layout.CARD_POINTS + card]


@kernel
def take_builds(ws: WsPointer, seat: np.int64, mask: np.int64) -> np.int64:
    """The builds in the table slots of ``mask`` go whole to ``seat``'s pile (a capture, or the
    leftovers at the end); their entries are freed and BUILD_BITS redone. Returns their cards'
    rule points."""
    points = np.int64(0)
    for slot in range(ws[layout.TABLE_N]):
        item = ws[layout.TABLE + slot]
        if mask >> slot & 1 and is_build_id(item):
            b = item - layout.DECK_CAP
            for card in range(ws[layout.DECK_N]):
                if ws[layout.OWNER + card] == -2 - b:
                    ws[layout.OWNER + card] = seat
            ws[layout.BUILD_N + b] = 0
            points += ws[layout.BUILD_POINTS + b]
    ws[layout.BUILD_BITS] = build_bits(ws)
    return points


@kernel
def build_bits(ws: WsPointer) -> np.int64:
    """BUILD_BITS computed afresh: bit v for each build of value v on the table."""
    bits = np.int64(0)
    for b in range(layout.BUILD_CAP):
        if ws[layout.BUILD_N + b]:
            bits |= np.int64(1) << ws[layout.BUILD_VALUE + b]
    return bits


@kernel
def file_builds(ws: WsPointer, need: np.int64) -> None:
    """File every build whose value is needed as a group of its own (a build is taken whole,
    only by a card of its value), with its cards' key."""
    for slot in range(ws[layout.TABLE_N]):
        item = ws[layout.TABLE + slot]
        if is_build_id(item) and need >> ws[layout.BUILD_VALUE + item - layout.DECK_CAP] & 1:
            value = ws[layout.BUILD_VALUE + item - layout.DECK_CAP]
            n = ws[layout.BUCKET_N + value]
            if n >= layout.BUCKET_CAP:
                raise RuntimeError("too many capture groups on one table")
            ws[layout.BUCKET + value * layout.BUCKET_STRIDE + n] = np.int64(1) << slot
            ws[layout.BUCKET_KEY + value * layout.BUCKET_STRIDE + n] = ws[
                layout.BUILD_KEY + item - layout.DECK_CAP
            ]
            ws[layout.BUCKET_N + value] = n + 1


@kernel
def build_twin_slots(ws: WsPointer, card: np.int64) -> np.int64:
    """The slots of builds holding a card identical to ``card`` (§6 Glimne's mulle within)."""
    slots = np.int64(0)
    for slot in range(ws[layout.TABLE_N]):
        item = ws[layout.TABLE + slot]
        if is_build_id(item) and build_has_kind(
            ws, item, card % layout.KINDS
        ):  # the played card is in hand
            slots |= np.int64(1) << slot
    return slots


@kernel
def build_has_kind(ws: WsPointer, item: np.int64, kind: np.int64) -> bool:
    """Does the build ``item`` (a table slot id) hold a card of this kind?"""
    for card in range(kind, ws[layout.DECK_N], layout.KINDS):
        if ws[layout.OWNER + card] == -2 - (item - layout.DECK_CAP):
            return True
    return False
