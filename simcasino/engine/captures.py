"""Capture enumeration in the kernel (R-CAPTURE, R-ACE-SE, R-VAL-FI), allocation-free.

Once per turn, the table's *groups* — sets of table slots whose values can sum to some
v ≤ 16 that the player to move can play — are listed into a bucket per value: from a table
of all subset sums on small tables, by a depth-first pass on larger ones. A card's captures
are then the unions of pairwise disjoint groups of its value(s), deduplicated and kept in
ascending mask order, which is the canonical order both engines share; with two decks one
option per set of kinds taken, and under the must-take-most rules only the largest or the
maximal ones (§6 Misère, Krypkasino). Values on the table are ≥ 1, so the search only walks
subsets whose low sum stays ≤ 16; a Swedish ace on the table adds 13 when counted high. Most
turns end at a test of two bitsets kept up to date as cards move (HAND_NEED, REACH): no card
in hand can capture.
"""

from __future__ import annotations

import numpy as np
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

from simcasino.core.cards import ACE, BIG_KASINO, SMALL_KASINO
from simcasino.core.jit import kernel
from simcasino.core.limits import PositionTooLarge, refusals
from simcasino.core.rules import Rules
from simcasino.engine import layout
from simcasino.engine.builds import build_twin_slots, file_builds
from simcasino.engine.layout import (
    WsPointer,
    hand_card,
    hand_size,
    new_workspace,
    workspace_pointer,
)


@kernel
def prepare_values(ws: WsPointer) -> None:
    """Fill the per-card value and point tables from the values of each kind of card that the
    rules array carries (`Rules.card_values`, the one definition of card values)."""
    for card in range(layout.DECK_CAP):
        kind = card % layout.KINDS
        rank = kind % 13 + 1
        facts = layout.CARD_VALUES + kind * layout.N_FACTS
        hand, hand2, table, high, points = (
            ws[facts],
            ws[facts + 1],
            ws[facts + 2],
            ws[facts + 3],
            ws[facts + 4],
        )
        ws[layout.HAND_VALUE + card] = hand
        ws[layout.HAND_VALUE2 + card] = hand2
        ws[layout.HAND_BITS + card] = (np.int64(1) << hand | np.int64(1) << hand2) & ~np.int64(1)
        ws[layout.TABLE_VALUE + card] = table
        ws[layout.TABLE_HIGH + card] = high
        ws[layout.CARD_POINTS + card] = points
        ws[layout.CARD_KEY + card] = points * layout.KEY_POINTS + layout.KEY_CARDS + (kind < 13)
        ws[layout.RANK_ORDER + card] = rank * layout.KINDS + kind
        ws[layout.CARD_RANK + card] = rank - 1
        ws[layout.CARD_TALLY + card] = _tally(
            1, kind < 13, rank == ACE, kind == BIG_KASINO, kind == SMALL_KASINO
        )
    ws[layout.PLAYABLE_BITS] = 0
    for card in range(layout.KINDS):
        ws[layout.PLAYABLE_BITS] |= ws[layout.HAND_BITS + card]
    for b in range(layout.BUILD_CAP):  # §6 build ids: in no sum of loose cards, twin of nothing
        item = layout.DECK_CAP + b
        ws[layout.TABLE_VALUE + item], ws[layout.TABLE_HIGH + item] = layout.MAX_VALUE + 1, 0
        ws[layout.RANK_ORDER + item] = -1 - b
        ws[layout.CARD_POINTS + item], ws[layout.CARD_KEY + item] = 0, 0


@kernel
def _tally(cards: np.int64, spades: bool, aces: bool, big: bool, small: bool) -> np.int64:
    """Counts for C_CARDS, C_SPADES, C_ACES, C_BIG, C_SMALL packed a byte each, in that order."""
    return (
        cards
        | np.int64(spades) << 8
        | np.int64(aces) << 16
        | np.int64(big) << 24
        | np.int64(small) << 32
    )


@kernel(inline="always")
def popcount(mask: np.int64) -> np.int64:
    """The number of set bits, a step per bit (the masks counted hold a few)."""
    count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


@kernel
def _record_group(
    ws: WsPointer, mask: np.int64, key: np.int64, low: np.int64, highs: np.int64, need: np.int64
) -> None:
    """File a subset under every needed value it can make: its low sum plus 13 per high ace."""
    value = low
    for _ in range(highs + 1):
        if value > layout.MAX_VALUE:
            return
        if need >> value & 1:
            n = ws[layout.BUCKET_N + value]
            if n >= layout.BUCKET_CAP:
                raise RuntimeError("too many capture groups on one table")
            ws[layout.BUCKET + value * layout.BUCKET_STRIDE + n] = mask
            ws[layout.BUCKET_KEY + value * layout.BUCKET_STRIDE + n] = key
            ws[layout.BUCKET_N + value] = n + 1
        value += 13


@kernel
def hand_need(ws: WsPointer, seat: np.int64) -> np.int64:
    """HAND_NEED of ``seat`` computed afresh: bit v set if a card in its hand can be played as v."""
    need = np.int64(0)
    for slot in range(hand_size(ws, seat)):
        need |= ws[layout.HAND_BITS + hand_card(ws, seat, slot)]
    return need


@kernel
def grow_reach(ws: WsPointer, reach: np.int64, card: np.int64) -> np.int64:
    """REACH after ``card`` joins the table: every old sum, and every old sum plus its value."""
    return reach | grown_sums(ws, reach, card)


@kernel
def grown_sums(ws: WsPointer, sums: np.int64, card: np.int64) -> np.int64:
    """Bits of the sums (up to MAX_VALUE) of a group with sums ``sums`` joined by ``card``."""
    value = ws[layout.TABLE_VALUE + card]
    grown = sums << value
    if ws[layout.TABLE_HIGH + card]:
        grown |= sums << (value + 13)
    return grown & ((np.int64(1) << (layout.MAX_VALUE + 1)) - 1)


@kernel
def table_reach(ws: WsPointer) -> np.int64:
    """REACH computed afresh: bit s set if some table subset can sum to s ≤ MAX_VALUE.
    A cheap test that skips the group search on the many turns no card in hand can capture."""
    reach = np.int64(1)
    for i in range(ws[layout.TABLE_N]):
        reach = grow_reach(ws, reach, ws[layout.TABLE + i])
    return reach


@kernel
def find_groups(ws: WsPointer, seat: np.int64) -> None:
    """The values the hand of ``seat`` can capture with (GROUP_VALUES) from the reachable
    sums, and the groups filed by value. When the fewest points win, the groups are filed
    on first use instead (`list_groups_once`): a turn that needs only to know which cards
    can capture (a misère trail) never lists them; otherwise listing here, in a function
    small enough for LLVM to inline into the turn loop, was measured faster."""
    need = ws[layout.HAND_NEED + seat] & (ws[layout.REACH] | ws[layout.BUILD_BITS])
    ws[layout.GROUP_VALUES] = need
    ws[layout.GROUPS_LISTED] = 0
    if need and not ws[layout.R_LOW_WINS]:
        _list_groups(ws, need)
        ws[layout.GROUPS_LISTED] = 1


@kernel
def list_groups_once(ws: WsPointer) -> None:
    """File every table subset under each value of GROUP_VALUES it sums to, once a turn."""
    if ws[layout.GROUP_VALUES] and not ws[layout.GROUPS_LISTED]:
        _list_groups(ws, ws[layout.GROUP_VALUES])
    ws[layout.GROUPS_LISTED] = 1


@kernel
def _list_groups(ws: WsPointer, need: np.int64) -> None:
    """Small tables work from a table of all subset sums, larger ones search depth-first."""
    for v in range(layout.MAX_VALUE + 1):
        ws[layout.BUCKET_N + v] = 0
    if ws[layout.TABLE_N] <= layout.SMALL_TABLE:
        _groups_from_subset_sums(ws, need)
    else:
        _groups_by_search(ws, need)
    if ws[layout.BUILD_BITS] & need:
        file_builds(ws, need)


@kernel
def _groups_from_subset_sums(ws: WsPointer, need: np.int64) -> None:
    """Small tables: SUBSET for every table subset in ascending mask order, each from a
    smaller one (subset(mask) = subset(mask less its top card) + that card), with,
    branch-free on the way, a bitmap of the subsets that make a needed value; then those
    are filed. (Filing while building made every load wait for the store before it; one
    flat loop, which LLVM does not vectorize, beat nested ones on these small tables.)
    Values on the table are >= 1 and needed values <= MAX_VALUE < 27, so at most one high
    ace counts 13 more."""
    ws[layout.SUBSET] = 0
    ws[layout.SUBSET + 1] = 0
    ws[layout.SUBSET + 2] = 0
    hits = np.int64(0)
    for mask in range(1, np.int64(1) << ws[layout.TABLE_N]):
        i = 63 - leading_zeros(mask)
        card = ws[layout.TABLE + i]
        at = layout.SUBSET + 3 * (mask ^ np.int64(1) << i)
        low = ws[at] + ws[layout.TABLE_VALUE + card]
        highs = ws[at + 1] + ws[layout.TABLE_HIGH + card]
        total_key = ws[at + 2] + ws[layout.CARD_KEY + card]
        at = layout.SUBSET + 3 * mask
        ws[at] = low
        ws[at + 1] = highs
        ws[at + 2] = total_key
        makes = need >> min(low, 63) | (need >> min(low + 13, 63)) * (highs > 0)
        hits |= (makes & 1) << mask
    while hits:
        mask = trailing_zeros(hits)
        hits &= hits - 1
        at = layout.SUBSET + 3 * mask
        _record_group(ws, mask, ws[at + 2], ws[at], ws[at + 1], need)


@kernel
def _groups_by_search(ws: WsPointer, need: np.int64) -> None:
    """Depth-first over the subsets whose low sum stays within the largest needed value."""
    limit = 63 - leading_zeros(need)
    n = ws[layout.TABLE_N]
    depth, i, low, highs, mask, key = 0, 0, 0, 0, np.int64(0), np.int64(0)
    while True:
        if i < n:
            card = ws[layout.TABLE + i]
            value = ws[layout.TABLE_VALUE + card]
            if low + value <= limit:
                ws[layout.STACK + depth] = i
                depth += 1
                low += value
                highs += ws[layout.TABLE_HIGH + card]
                mask |= np.int64(1) << i
                key += ws[layout.CARD_KEY + card]
                _record_group(ws, mask, key, low, highs, need)
            i += 1
            continue
        if depth == 0:
            return
        depth -= 1
        j = ws[layout.STACK + depth]
        card = ws[layout.TABLE + j]
        low -= ws[layout.TABLE_VALUE + card]
        highs -= ws[layout.TABLE_HIGH + card]
        mask ^= np.int64(1) << j
        key -= ws[layout.CARD_KEY + card]
        i = j + 1


@kernel
def _insert_option(ws: WsPointer, mask: np.int64) -> None:
    """Insert into the ascending option list unless already there."""
    n = ws[layout.OPTIONS_N]
    pos = n
    while pos > 0 and ws[layout.OPTIONS + pos - 1] > mask:
        pos -= 1
    if pos > 0 and ws[layout.OPTIONS + pos - 1] == mask:
        return
    if n >= layout.OPTION_CAP:
        raise RuntimeError("too many captures for one card")
    for k in range(n, pos, -1):
        ws[layout.OPTIONS + k] = ws[layout.OPTIONS + k - 1]
    ws[layout.OPTIONS + pos] = mask
    ws[layout.OPTIONS_N] = n + 1


@kernel
def _walk_unions(
    ws: WsPointer,
    value: np.int64,
    collect: bool,
    sweep_key: np.int64,
    must_max: bool,
    mulle_and: np.int64,
    mulle_eq: np.int64,
    mulle_key: np.int64,
    maximal: bool,
) -> None:
    """Visit every union of pairwise disjoint groups of ``value``, each with its summed key.

    ``collect``: insert each union into the ascending option list (with ``maximal`` only
    those no further group can join: the others cannot be maximal captures). Otherwise keep the best
    in BEST_CARDS, BEST_KEY, BEST_MASK (cards only if ``must_max``, else 0): most cards
    first when captures must be largest, then highest key, then smallest mask; a union that
    empties the table gets ``sweep_key`` added, and a mulle (§6: ``union & mulle_and ==
    mulle_eq``, see `best_capture`) ``mulle_key``.
    """
    m = ws[layout.BUCKET_N + value]
    base = value * layout.BUCKET_STRIDE
    full = (np.int64(1) << ws[layout.TABLE_N]) - 1
    stack = layout.STACK + layout.TABLE_CAP + 1  # the stack's second part: 3 words a level
    best_cards, best_key, best_mask = (
        ws[layout.BEST_CARDS],
        ws[layout.BEST_KEY],
        ws[layout.BEST_MASK],
    )
    depth, i, union, key = 0, 0, np.int64(0), np.int64(0)
    while True:
        if i < m:
            group = ws[layout.BUCKET + base + i]
            if group & union == 0:
                ws[stack + 3 * depth] = i
                ws[stack + 3 * depth + 1] = union
                ws[stack + 3 * depth + 2] = key
                depth += 1
                union |= group
                key += ws[layout.BUCKET_KEY + base + i]
                if collect:
                    if not maximal or not _extendable(ws, base, m, union):
                        _insert_option(ws, union)
                else:
                    total = (
                        key
                        + (sweep_key if union == full else 0)
                        + (mulle_key if union & mulle_and == mulle_eq else 0)
                    )
                    cards = total // layout.KEY_CARDS % 256 if must_max else 0
                    if cards > best_cards or (
                        cards == best_cards
                        and (total > best_key or (total == best_key and union < best_mask))
                    ):
                        best_cards, best_key, best_mask = cards, total, union
            i += 1
            continue
        if depth == 0:
            ws[layout.BEST_CARDS], ws[layout.BEST_KEY], ws[layout.BEST_MASK] = (
                best_cards,
                best_key,
                best_mask,
            )
            return
        depth -= 1
        i = ws[stack + 3 * depth] + 1
        union = ws[stack + 3 * depth + 1]
        key = ws[stack + 3 * depth + 2]


@kernel
def _extendable(ws: WsPointer, base: np.int64, m: np.int64, union: np.int64) -> bool:
    """Is some group of the bucket at ``base`` (``m`` groups) disjoint from ``union``?"""
    for i in range(m):
        if ws[layout.BUCKET + base + i] & union == 0:
            return True
    return False


@kernel(inline="always")
def card_options(ws: WsPointer, card: np.int64) -> np.int64:
    """The captures ``card`` may make on the current table (after `find_groups`), ascending in
    OPTIONS: one per set of kinds taken (two decks), and under ``must_capture_max`` only the
    largest (``max_capture``). Returns the count. Inlined by numba into its callers: most
    calls end in one of the two cases up front (no capture; one group, one capture), and a
    call costs more than they do (the heuristic lists every move of every turn)."""
    if (
        ws[layout.HAND_BITS + card] & ws[layout.GROUP_VALUES] == 0
    ):  # most cards capture nothing: skip the setup
        ws[layout.OPTIONS_N] = 0
        return 0
    list_groups_once(ws)
    values = ws[layout.HAND_BITS + card] & ws[layout.GROUP_VALUES]
    value = trailing_zeros(values)
    if values & (values - 1) == 0 and ws[layout.BUCKET_N + value] == 1:  # the common case:
        ws[layout.OPTIONS] = ws[
            layout.BUCKET + value * layout.BUCKET_STRIDE
        ]  # one group, one capture
        ws[layout.OPTIONS_N] = 1
        return 1
    return _unions_as_options(ws, card)


@kernel
def _unions_as_options(ws: WsPointer, card: np.int64) -> np.int64:
    """`card_options` where a value has several groups (or the card two values)."""
    maximal = ws[layout.R_MUST_MAX] != 0 and ws[layout.R_MAX_CAPTURE] != 0
    ws[layout.OPTIONS_N] = 0
    for value in (ws[layout.HAND_VALUE + card], ws[layout.HAND_VALUE2 + card]):
        if ws[layout.GROUP_VALUES] >> value & 1:
            # constant arguments: a compiled version of its own, measured faster than one for both
            # callers
            _walk_unions(ws, value, True, 0, False, 0, -1, 0, maximal)
    n = ws[layout.OPTIONS_N]
    if ws[layout.DECK_N] > layout.KINDS and n > 1:
        n = _keep_distinct(ws, n)
    if ws[layout.R_MUST_MAX] and n > 1:
        n = _keep_maximal(ws, n) if ws[layout.R_MAX_CAPTURE] else _keep_largest(ws, n)
    return n


@kernel
def best_capture(ws: WsPointer, card: np.int64, sweep_key: np.int64) -> np.int64:
    """The legal capture of ``card`` with the highest packed key (the table cards' points,
    cards and spades, plus ``sweep_key`` if it empties the table and the mulle points if it
    is a mulle), smallest mask on ties: returns its key, or -1 if the card cannot capture;
    its mask is left in BEST_MASK. Faster than listing the options; it knows the "most
    cards" rule but not "maximal" captures, for which greedy lists the moves. Call
    `list_groups_once` first."""
    ws[layout.BEST_CARDS], ws[layout.BEST_KEY], ws[layout.BEST_MASK] = -1, -1, 0
    must_max = ws[layout.R_MUST_MAX] != 0
    # §6 a mulle: the union is the twin's slot, or (``mulle_within``) holds it; no twin: none is
    points = mulle_points(ws, card) if ws[layout.DECK_N] > layout.KINDS else 0
    twin = twin_slots(ws, card) if points else 0
    mulle_and = twin if ws[layout.R_MULLE_WITHIN] else np.int64(-1)
    mulle_eq = twin if twin else np.int64(-1)
    for value in (ws[layout.HAND_VALUE + card], ws[layout.HAND_VALUE2 + card]):
        if ws[layout.GROUP_VALUES] >> value & 1:
            _walk_unions(
                ws,
                value,
                False,
                sweep_key,
                must_max,
                mulle_and,
                mulle_eq,
                points * layout.KEY_POINTS,
                False,
            )
    return ws[layout.BEST_KEY]


@kernel
def mulle_points(ws: WsPointer, card: np.int64) -> np.int64:
    """What a mulle made with ``card`` scores (§6): ``mulle_points``, or with ``mulle_value``
    the card's capture value (its highest)."""
    if ws[layout.R_MULLE_VALUE]:
        return max(ws[layout.HAND_VALUE + card], ws[layout.HAND_VALUE2 + card])
    return ws[layout.R_MULLE_PTS]


@kernel
def is_mulle(ws: WsPointer, card: np.int64, mask: np.int64) -> bool:
    """Is ``card`` capturing ``mask`` a mulle (§6: one identical card alone, or with
    ``mulle_within`` any capture including one)? Two decks only."""
    if ws[layout.DECK_N] <= layout.KINDS:
        return False
    twin = twin_slots(ws, card)
    return (mask & twin) != 0 if ws[layout.R_MULLE_WITHIN] else twin != 0 and mask == twin


@kernel
def twin_slots(ws: WsPointer, card: np.int64) -> np.int64:
    """The slots a mulle with ``card`` must take (§6): the loose card identical to it, and with
    ``mulle_within`` also a build holding one."""
    slots = identical_slot(ws, card)
    if ws[layout.R_MULLE_WITHIN] and ws[layout.BUILD_BITS]:
        slots |= build_twin_slots(ws, card)
    return slots


@kernel
def identical_slot(ws: WsPointer, card: np.int64) -> np.int64:
    """The mask of the loose table slot holding a card identical to ``card`` (R-DECK), or 0."""
    for i in range(ws[layout.TABLE_N]):
        if ws[layout.RANK_ORDER + ws[layout.TABLE + i]] == ws[layout.RANK_ORDER + card]:
            return np.int64(1) << i
    return np.int64(0)


@kernel
def _keep_distinct(ws: WsPointer, n: np.int64) -> np.int64:
    """Two identical table cards are interchangeable (R-DECK): a capture may take the later
    one only together with the earlier, which keeps one option per set of kinds."""
    kinds, repeated = np.int64(0), False
    for j in range(ws[layout.TABLE_N]):  # most tables hold no twin: one pass over kind bits tells
        card = ws[layout.TABLE + j]
        bit = np.int64(1) << (card - layout.KINDS if card >= layout.KINDS else card)
        repeated = repeated or (kinds & bit) != 0
        kinds |= bit
    if not repeated:
        return n
    twins = np.int64(0)
    for j in range(ws[layout.TABLE_N]):
        ws[layout.TWIN + j] = -1
        for i in range(j):
            if (
                ws[layout.RANK_ORDER + ws[layout.TABLE + i]]
                == ws[layout.RANK_ORDER + ws[layout.TABLE + j]]
            ):
                ws[layout.TWIN + j] = i
                twins |= np.int64(1) << j
    if twins == 0:
        return n
    kept = 0
    for k in range(n):
        mask = ws[layout.OPTIONS + k]
        later = mask & twins
        ok = True
        while later:
            j = trailing_zeros(later)
            later &= later - 1
            ok = ok and (mask >> ws[layout.TWIN + j] & 1) == 1
        if ok:
            ws[layout.OPTIONS + kept] = mask
            kept += 1
    ws[layout.OPTIONS_N] = kept
    return kept


@kernel
def _keep_maximal(ws: WsPointer, n: np.int64) -> np.int64:
    """§6 Misère: keep the captures no other capture of the card contains (those found
    contained are first marked by a minus sign, then dropped)."""
    for k in range(n):
        mask = ws[layout.OPTIONS + k]
        for o in range(n):
            other = abs(ws[layout.OPTIONS + o])
            if other != mask and other & mask == mask:
                ws[layout.OPTIONS + k] = -mask
                break
    kept = 0
    for k in range(n):
        if ws[layout.OPTIONS + k] > 0:
            ws[layout.OPTIONS + kept] = ws[layout.OPTIONS + k]
            kept += 1
    ws[layout.OPTIONS_N] = kept
    return kept


@kernel
def _keep_largest(ws: WsPointer, n: np.int64) -> np.int64:
    most = 0
    for k in range(n):
        most = max(most, popcount(ws[layout.OPTIONS + k]))
    kept = 0
    for k in range(n):
        if popcount(ws[layout.OPTIONS + k]) == most:
            ws[layout.OPTIONS + kept] = ws[layout.OPTIONS + k]
            kept += 1
    ws[layout.OPTIONS_N] = kept
    return kept


@kernel
def _options_for(workspace: np.ndarray, card: np.int64, table: np.ndarray) -> np.ndarray:
    ws = workspace_pointer(workspace)
    prepare_values(ws)
    ws[layout.DECK_N] = layout.KINDS * ws[layout.R_DECKS]
    n = table.shape[0]
    for i in range(n):
        ws[layout.TABLE + i] = table[i]
    ws[layout.TABLE_N] = n
    ws[layout.REACH] = table_reach(ws)
    ws[layout.HAND] = card
    ws[layout.HAND_N] = 1
    ws[layout.HAND_NEED] = hand_need(ws, 0)
    find_groups(ws, 0)
    count = card_options(ws, card)
    return workspace[layout.OPTIONS : layout.OPTIONS + count].copy()


def capture_masks_of(card: int, table: list[int], rules: Rules) -> list[int]:
    """Python entry for tests and the API: the captures the kernel allows, ascending masks."""
    if len(table) > layout.TABLE_CAP:
        raise PositionTooLarge(f"{len(table)} cards on the table")
    ws = new_workspace(rules.to_array())
    with refusals():
        return [int(m) for m in _options_for(ws, card, np.asarray(table, dtype=np.int64))]
