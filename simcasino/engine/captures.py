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
from simcasino.engine.builds import build_twin_slots, file_builds
from simcasino.engine.layout import (
    BEST_CARDS,
    BEST_KEY,
    BEST_MASK,
    BUCKET,
    BUCKET_CAP,
    BUCKET_KEY,
    BUCKET_N,
    BUCKET_STRIDE,
    BUILD_BITS,
    BUILD_CAP,
    CARD_KEY,
    CARD_POINTS,
    CARD_RANK,
    CARD_TALLY,
    CARD_VALUES,
    DECK_CAP,
    DECK_N,
    GROUP_VALUES,
    GROUPS_LISTED,
    HAND,
    HAND_BITS,
    HAND_N,
    HAND_NEED,
    HAND_VALUE,
    HAND_VALUE2,
    KEY_CARDS,
    KEY_POINTS,
    KINDS,
    MAX_VALUE,
    N_FACTS,
    OPTION_CAP,
    OPTIONS,
    OPTIONS_N,
    PLAYABLE_BITS,
    R_DECKS,
    R_LOW_WINS,
    R_MAX_CAPTURE,
    R_MULLE_PTS,
    R_MULLE_VALUE,
    R_MULLE_WITHIN,
    R_MUST_MAX,
    RANK_ORDER,
    REACH,
    SMALL_TABLE,
    STACK,
    SUBSET,
    TABLE,
    TABLE_CAP,
    TABLE_HIGH,
    TABLE_N,
    TABLE_VALUE,
    TWIN,
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
    for card in range(DECK_CAP):
        kind = card % KINDS
        rank = kind % 13 + 1
        facts = CARD_VALUES + kind * N_FACTS
        hand, hand2, table, high, points = ws[facts], ws[facts + 1], ws[facts + 2], ws[facts + 3], ws[facts + 4]
        ws[HAND_VALUE + card] = hand
        ws[HAND_VALUE2 + card] = hand2
        ws[HAND_BITS + card] = (np.int64(1) << hand | np.int64(1) << hand2) & ~np.int64(1)
        ws[TABLE_VALUE + card] = table
        ws[TABLE_HIGH + card] = high
        ws[CARD_POINTS + card] = points
        ws[CARD_KEY + card] = points * KEY_POINTS + KEY_CARDS + (kind < 13)
        ws[RANK_ORDER + card] = rank * KINDS + kind
        ws[CARD_RANK + card] = rank - 1
        ws[CARD_TALLY + card] = _tally(1, kind < 13, rank == ACE, kind == BIG_KASINO, kind == SMALL_KASINO)
    ws[PLAYABLE_BITS] = 0
    for card in range(KINDS):
        ws[PLAYABLE_BITS] |= ws[HAND_BITS + card]
    for b in range(BUILD_CAP):  # §6 build ids: in no sum of loose cards, twin of nothing
        item = DECK_CAP + b
        ws[TABLE_VALUE + item], ws[TABLE_HIGH + item], ws[RANK_ORDER + item] = MAX_VALUE + 1, 0, -1 - b
        ws[CARD_POINTS + item], ws[CARD_KEY + item] = 0, 0


@kernel
def _tally(cards: np.int64, spades: bool, aces: bool, big: bool, small: bool) -> np.int64:
    """Counts for C_CARDS, C_SPADES, C_ACES, C_BIG, C_SMALL packed a byte each, in that order."""
    return cards | np.int64(spades) << 8 | np.int64(aces) << 16 | np.int64(big) << 24 | np.int64(small) << 32


@kernel(inline="always")
def popcount(mask: np.int64) -> np.int64:
    """The number of set bits, a step per bit (the masks counted hold a few)."""
    count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


@kernel
def _record_group(ws: WsPointer, mask: np.int64, key: np.int64, low: np.int64, highs: np.int64, need: np.int64) -> None:
    """File a subset under every needed value it can make: its low sum plus 13 per high ace."""
    value = low
    for _ in range(highs + 1):
        if value > MAX_VALUE:
            return
        if need >> value & 1:
            n = ws[BUCKET_N + value]
            if n >= BUCKET_CAP:
                raise RuntimeError("too many capture groups on one table")
            ws[BUCKET + value * BUCKET_STRIDE + n] = mask
            ws[BUCKET_KEY + value * BUCKET_STRIDE + n] = key
            ws[BUCKET_N + value] = n + 1
        value += 13


@kernel
def hand_need(ws: WsPointer, seat: np.int64) -> np.int64:
    """HAND_NEED of ``seat`` computed afresh: bit v set if a card in its hand can be played as v."""
    need = np.int64(0)
    for slot in range(hand_size(ws, seat)):
        need |= ws[HAND_BITS + hand_card(ws, seat, slot)]
    return need


@kernel
def grow_reach(ws: WsPointer, reach: np.int64, card: np.int64) -> np.int64:
    """REACH after ``card`` joins the table: every old sum, and every old sum plus its value."""
    return reach | grown_sums(ws, reach, card)


@kernel
def grown_sums(ws: WsPointer, sums: np.int64, card: np.int64) -> np.int64:
    """Bits of the sums (up to MAX_VALUE) of a group with sums ``sums`` joined by ``card``."""
    value = ws[TABLE_VALUE + card]
    grown = sums << value
    if ws[TABLE_HIGH + card]:
        grown |= sums << (value + 13)
    return grown & ((np.int64(1) << (MAX_VALUE + 1)) - 1)


@kernel
def table_reach(ws: WsPointer) -> np.int64:
    """REACH computed afresh: bit s set if some table subset can sum to s ≤ MAX_VALUE.
    A cheap test that skips the group search on the many turns no card in hand can capture."""
    reach = np.int64(1)
    for i in range(ws[TABLE_N]):
        reach = grow_reach(ws, reach, ws[TABLE + i])
    return reach


@kernel
def find_groups(ws: WsPointer, seat: np.int64) -> None:
    """The values the hand of ``seat`` can capture with (GROUP_VALUES) from the reachable
    sums, and the groups filed by value. When the fewest points win, the groups are filed
    on first use instead (`list_groups_once`): a turn that needs only to know which cards
    can capture (a misère trail) never lists them; otherwise listing here, in a function
    small enough for LLVM to inline into the turn loop, was measured faster."""
    need = ws[HAND_NEED + seat] & (ws[REACH] | ws[BUILD_BITS])
    ws[GROUP_VALUES] = need
    ws[GROUPS_LISTED] = 0
    if need and not ws[R_LOW_WINS]:
        _list_groups(ws, need)
        ws[GROUPS_LISTED] = 1


@kernel
def list_groups_once(ws: WsPointer) -> None:
    """File every table subset under each value of GROUP_VALUES it sums to, once a turn."""
    if ws[GROUP_VALUES] and not ws[GROUPS_LISTED]:
        _list_groups(ws, ws[GROUP_VALUES])
    ws[GROUPS_LISTED] = 1


@kernel
def _list_groups(ws: WsPointer, need: np.int64) -> None:
    """Small tables work from a table of all subset sums, larger ones search depth-first."""
    for v in range(MAX_VALUE + 1):
        ws[BUCKET_N + v] = 0
    if ws[TABLE_N] <= SMALL_TABLE:
        _groups_from_subset_sums(ws, need)
    else:
        _groups_by_search(ws, need)
    if ws[BUILD_BITS] & need:
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
    ws[SUBSET] = 0
    ws[SUBSET + 1] = 0
    ws[SUBSET + 2] = 0
    hits = np.int64(0)
    for mask in range(1, np.int64(1) << ws[TABLE_N]):
        i = 63 - leading_zeros(mask)
        card = ws[TABLE + i]
        at = SUBSET + 3 * (mask ^ np.int64(1) << i)
        low = ws[at] + ws[TABLE_VALUE + card]
        highs = ws[at + 1] + ws[TABLE_HIGH + card]
        total_key = ws[at + 2] + ws[CARD_KEY + card]
        at = SUBSET + 3 * mask
        ws[at] = low
        ws[at + 1] = highs
        ws[at + 2] = total_key
        makes = need >> min(low, 63) | (need >> min(low + 13, 63)) * (highs > 0)
        hits |= (makes & 1) << mask
    while hits:
        mask = trailing_zeros(hits)
        hits &= hits - 1
        at = SUBSET + 3 * mask
        _record_group(ws, mask, ws[at + 2], ws[at], ws[at + 1], need)


@kernel
def _groups_by_search(ws: WsPointer, need: np.int64) -> None:
    """Depth-first over the subsets whose low sum stays within the largest needed value."""
    limit = 63 - leading_zeros(need)
    n = ws[TABLE_N]
    depth, i, low, highs, mask, key = 0, 0, 0, 0, np.int64(0), np.int64(0)
    while True:
        if i < n:
            card = ws[TABLE + i]
            value = ws[TABLE_VALUE + card]
            if low + value <= limit:
                ws[STACK + depth] = i
                depth += 1
                low += value
                highs += ws[TABLE_HIGH + card]
                mask |= np.int64(1) << i
                key += ws[CARD_KEY + card]
                _record_group(ws, mask, key, low, highs, need)
            i += 1
            continue
        if depth == 0:
            return
        depth -= 1
        j = ws[STACK + depth]
        card = ws[TABLE + j]
        low -= ws[TABLE_VALUE + card]
        highs -= ws[TABLE_HIGH + card]
        mask ^= np.int64(1) << j
        key -= ws[CARD_KEY + card]
        i = j + 1


@kernel
def _insert_option(ws: WsPointer, mask: np.int64) -> None:
    """Insert into the ascending option list unless already there."""
    n = ws[OPTIONS_N]
    pos = n
    while pos > 0 and ws[OPTIONS + pos - 1] > mask:
        pos -= 1
    if pos > 0 and ws[OPTIONS + pos - 1] == mask:
        return
    if n >= OPTION_CAP:
        raise RuntimeError("too many captures for one card")
    for k in range(n, pos, -1):
        ws[OPTIONS + k] = ws[OPTIONS + k - 1]
    ws[OPTIONS + pos] = mask
    ws[OPTIONS_N] = n + 1


@kernel
def _walk_unions(ws: WsPointer, value: np.int64, collect: bool, sweep_key: np.int64, must_max: bool,
                 mulle_and: np.int64, mulle_eq: np.int64, mulle_key: np.int64, maximal: bool) -> None:
    """Visit every union of pairwise disjoint groups of ``value``, each with its summed key.

    ``collect``: insert each union into the ascending option list (with ``maximal`` only
    those no further group can join: the others cannot be maximal captures). Otherwise keep the best
    in BEST_CARDS, BEST_KEY, BEST_MASK (cards only if ``must_max``, else 0): most cards
    first when captures must be largest, then highest key, then smallest mask; a union that
    empties the table gets ``sweep_key`` added, and a mulle (§6: ``union & mulle_and ==
    mulle_eq``, see `best_capture`) ``mulle_key``.
    """
    m = ws[BUCKET_N + value]
    base = value * BUCKET_STRIDE
    full = (np.int64(1) << ws[TABLE_N]) - 1
    stack = STACK + TABLE_CAP + 1  # the stack's second part: 3 words a level
    best_cards, best_key, best_mask = ws[BEST_CARDS], ws[BEST_KEY], ws[BEST_MASK]
    depth, i, union, key = 0, 0, np.int64(0), np.int64(0)
    while True:
        if i < m:
            group = ws[BUCKET + base + i]
            if group & union == 0:
                ws[stack + 3 * depth] = i
                ws[stack + 3 * depth + 1] = union
                ws[stack + 3 * depth + 2] = key
                depth += 1
                union |= group
                key += ws[BUCKET_KEY + base + i]
                if collect:
                    if not maximal or not _extendable(ws, base, m, union):
                        _insert_option(ws, union)
                else:
                    total = (key + (sweep_key if union == full else 0)
                             + (mulle_key if union & mulle_and == mulle_eq else 0))
                    cards = total // KEY_CARDS % 256 if must_max else 0
                    if cards > best_cards or (cards == best_cards
                                              and (total > best_key or (total == best_key and union < best_mask))):
                        best_cards, best_key, best_mask = cards, total, union
            i += 1
            continue
        if depth == 0:
            ws[BEST_CARDS], ws[BEST_KEY], ws[BEST_MASK] = best_cards, best_key, best_mask
            return
        depth -= 1
        i = ws[stack + 3 * depth] + 1
        union = ws[stack + 3 * depth + 1]
        key = ws[stack + 3 * depth + 2]


@kernel
def _extendable(ws: WsPointer, base: np.int64, m: np.int64, union: np.int64) -> bool:
    """Is some group of the bucket at ``base`` (``m`` groups) disjoint from ``union``?"""
    for i in range(m):
        if ws[BUCKET + base + i] & union == 0:
            return True
    return False


@kernel(inline='always')
def card_options(ws: WsPointer, card: np.int64) -> np.int64:
    """The captures ``card`` may make on the current table (after `find_groups`), ascending in
    OPTIONS: one per set of kinds taken (two decks), and under ``must_capture_max`` only the
    largest (``max_capture``). Returns the count. Inlined by numba into its callers: most
    calls end in one of the two cases up front (no capture; one group, one capture), and a
    call costs more than they do (the heuristic lists every move of every turn)."""
    if ws[HAND_BITS + card] & ws[GROUP_VALUES] == 0:  # most cards capture nothing: skip the setup
        ws[OPTIONS_N] = 0
        return 0
    list_groups_once(ws)
    values = ws[HAND_BITS + card] & ws[GROUP_VALUES]
    value = trailing_zeros(values)
    if values & (values - 1) == 0 and ws[BUCKET_N + value] == 1:  # the common case:
        ws[OPTIONS] = ws[BUCKET + value * BUCKET_STRIDE]  # one group, one capture
        ws[OPTIONS_N] = 1
        return 1
    return _unions_as_options(ws, card)


@kernel
def _unions_as_options(ws: WsPointer, card: np.int64) -> np.int64:
    """`card_options` where a value has several groups (or the card two values)."""
    maximal = ws[R_MUST_MAX] != 0 and ws[R_MAX_CAPTURE] != 0
    ws[OPTIONS_N] = 0
    for value in (ws[HAND_VALUE + card], ws[HAND_VALUE2 + card]):
        if ws[GROUP_VALUES] >> value & 1:
            # constant arguments: a compiled version of its own, measured faster than one for both callers
            _walk_unions(ws, value, True, 0, False, 0, -1, 0, maximal)
    n = ws[OPTIONS_N]
    if ws[DECK_N] > KINDS and n > 1:
        n = _keep_distinct(ws, n)
    if ws[R_MUST_MAX] and n > 1:
        n = _keep_maximal(ws, n) if ws[R_MAX_CAPTURE] else _keep_largest(ws, n)
    return n


@kernel
def best_capture(ws: WsPointer, card: np.int64, sweep_key: np.int64) -> np.int64:
    """The legal capture of ``card`` with the highest packed key (the table cards' points,
    cards and spades, plus ``sweep_key`` if it empties the table and the mulle points if it
    is a mulle), smallest mask on ties: returns its key, or -1 if the card cannot capture;
    its mask is left in BEST_MASK. Faster than listing the options; it knows the "most
    cards" rule but not "maximal" captures, for which greedy lists the moves. Call
    `list_groups_once` first."""
    ws[BEST_CARDS], ws[BEST_KEY], ws[BEST_MASK] = -1, -1, 0
    must_max = ws[R_MUST_MAX] != 0
    # §6 a mulle: the union is the twin's slot, or (``mulle_within``) holds it; no twin: none is
    points = mulle_points(ws, card) if ws[DECK_N] > KINDS else 0
    twin = twin_slots(ws, card) if points else 0
    mulle_and = twin if ws[R_MULLE_WITHIN] else np.int64(-1)
    mulle_eq = twin if twin else np.int64(-1)
    for value in (ws[HAND_VALUE + card], ws[HAND_VALUE2 + card]):
        if ws[GROUP_VALUES] >> value & 1:
            _walk_unions(ws, value, False, sweep_key, must_max, mulle_and, mulle_eq, points * KEY_POINTS, False)
    return ws[BEST_KEY]


@kernel
def mulle_points(ws: WsPointer, card: np.int64) -> np.int64:
    """What a mulle made with ``card`` scores (§6): ``mulle_points``, or with ``mulle_value``
    the card's capture value (its highest)."""
    if ws[R_MULLE_VALUE]:
        return max(ws[HAND_VALUE + card], ws[HAND_VALUE2 + card])
    return ws[R_MULLE_PTS]


@kernel
def is_mulle(ws: WsPointer, card: np.int64, mask: np.int64) -> bool:
    """Is ``card`` capturing ``mask`` a mulle (§6: one identical card alone, or with
    ``mulle_within`` any capture including one)? Two decks only."""
    if ws[DECK_N] <= KINDS:
        return False
    twin = twin_slots(ws, card)
    return (mask & twin) != 0 if ws[R_MULLE_WITHIN] else twin != 0 and mask == twin


@kernel
def twin_slots(ws: WsPointer, card: np.int64) -> np.int64:
    """The slots a mulle with ``card`` must take (§6): the loose card identical to it, and with
    ``mulle_within`` also a build holding one."""
    slots = identical_slot(ws, card)
    if ws[R_MULLE_WITHIN] and ws[BUILD_BITS]:
        slots |= build_twin_slots(ws, card)
    return slots


@kernel
def identical_slot(ws: WsPointer, card: np.int64) -> np.int64:
    """The mask of the loose table slot holding a card identical to ``card`` (R-DECK), or 0."""
    for i in range(ws[TABLE_N]):
        if ws[RANK_ORDER + ws[TABLE + i]] == ws[RANK_ORDER + card]:
            return np.int64(1) << i
    return np.int64(0)


@kernel
def _keep_distinct(ws: WsPointer, n: np.int64) -> np.int64:
    """Two identical table cards are interchangeable (R-DECK): a capture may take the later
    one only together with the earlier, which keeps one option per set of kinds."""
    kinds, repeated = np.int64(0), False
    for j in range(ws[TABLE_N]):  # most tables hold no twin: one pass over kind bits tells
        card = ws[TABLE + j]
        bit = np.int64(1) << (card - KINDS if card >= KINDS else card)
        repeated = repeated or (kinds & bit) != 0
        kinds |= bit
    if not repeated:
        return n
    twins = np.int64(0)
    for j in range(ws[TABLE_N]):
        ws[TWIN + j] = -1
        for i in range(j):
            if ws[RANK_ORDER + ws[TABLE + i]] == ws[RANK_ORDER + ws[TABLE + j]]:
                ws[TWIN + j] = i
                twins |= np.int64(1) << j
    if twins == 0:
        return n
    kept = 0
    for k in range(n):
        mask = ws[OPTIONS + k]
        later = mask & twins
        ok = True
        while later:
            j = trailing_zeros(later)
            later &= later - 1
            ok = ok and (mask >> ws[TWIN + j] & 1) == 1
        if ok:
            ws[OPTIONS + kept] = mask
            kept += 1
    ws[OPTIONS_N] = kept
    return kept


@kernel
def _keep_maximal(ws: WsPointer, n: np.int64) -> np.int64:
    """§6 Misère: keep the captures no other capture of the card contains (those found
    contained are first marked by a minus sign, then dropped)."""
    for k in range(n):
        mask = ws[OPTIONS + k]
        for o in range(n):
            other = abs(ws[OPTIONS + o])
            if other != mask and other & mask == mask:
                ws[OPTIONS + k] = -mask
                break
    kept = 0
    for k in range(n):
        if ws[OPTIONS + k] > 0:
            ws[OPTIONS + kept] = ws[OPTIONS + k]
            kept += 1
    ws[OPTIONS_N] = kept
    return kept


@kernel
def _keep_largest(ws: WsPointer, n: np.int64) -> np.int64:
    most = 0
    for k in range(n):
        most = max(most, popcount(ws[OPTIONS + k]))
    kept = 0
    for k in range(n):
        if popcount(ws[OPTIONS + k]) == most:
            ws[OPTIONS + kept] = ws[OPTIONS + k]
            kept += 1
    ws[OPTIONS_N] = kept
    return kept


@kernel
def _options_for(workspace: np.ndarray, card: np.int64, table: np.ndarray) -> np.ndarray:
    ws = workspace_pointer(workspace)
    prepare_values(ws)
    ws[DECK_N] = KINDS * ws[R_DECKS]
    n = table.shape[0]
    for i in range(n):
        ws[TABLE + i] = table[i]
    ws[TABLE_N] = n
    ws[REACH] = table_reach(ws)
    ws[HAND] = card
    ws[HAND_N] = 1
    ws[HAND_NEED] = hand_need(ws, 0)
    find_groups(ws, 0)
    count = card_options(ws, card)
    return workspace[OPTIONS : OPTIONS + count].copy()


def capture_masks_of(card: int, table: list[int], rules: Rules) -> list[int]:
    """Python entry for tests and the API: the captures the kernel allows, ascending masks."""
    if len(table) > TABLE_CAP:
        raise PositionTooLarge(f"{len(table)} cards on the table")
    ws = new_workspace(rules.to_array())
    with refusals():
        return [int(m) for m in _options_for(ws, card, np.asarray(table, dtype=np.int64))]
