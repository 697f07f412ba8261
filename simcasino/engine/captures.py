"""Capture enumeration in the kernel (R-CAPTURE, R-ACE-SE, R-VAL-FI), allocation-free.

Once per turn, one depth-first pass over the table lists every *group* — a set of table
slots whose values can sum to some v ≤ 16 — into a bucket per value. A card's captures are
then the unions of pairwise disjoint groups of its value(s), deduplicated and kept in
ascending mask order, which is the canonical order both engines share. Values on the table
are ≥ 1, so the pass only walks subsets whose low sum stays ≤ 16; a Swedish ace on the table
adds 13 when counted high.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simcasino.cards import ACE, BIG_KASINO, SMALL_KASINO
from simcasino.engine.layout import (
    BUCKET,
    BUCKET_CAP,
    BUCKET_KEY,
    CARD_KEY,
    GROUP_VALUES,
    BUCKET_N,
    CARD_POINTS,
    HAND,
    HAND_CAP,
    HAND_N,
    HAND_VALUE,
    HAND_VALUE2,
    KEY_CARDS,
    KEY_POINTS,
    KINDS,
    MAX_VALUE,
    OPTION_CAP,
    OPTIONS,
    OPTIONS_N,
    R_ACE_HAND,
    R_ACE_PTS,
    R_ACE_TABLE,
    R_BIG_HAND,
    R_BIG_PTS,
    R_MUST_MAX,
    R_SMALL_HAND,
    R_SMALL_PTS,
    SMALL_TABLE,
    STACK,
    SUBSET_HIGH,
    SUBSET_KEY,
    SUBSET_SUM,
    TABLE,
    TABLE_CAP,
    TABLE_HIGH,
    TABLE_N,
    TABLE_VALUE,
    new_workspace,
)
from simcasino.rules import Rules


@njit(cache=True)
def prepare_values(ws: np.ndarray) -> None:
    """Fill the per-kind value and point tables from the rules knobs at the workspace front."""
    for kind in range(KINDS):
        rank = kind % 13 + 1
        ws[HAND_VALUE + kind] = rank
        ws[HAND_VALUE2 + kind] = 0
        ws[TABLE_VALUE + kind] = rank
        ws[TABLE_HIGH + kind] = 0
        ws[CARD_POINTS + kind] = 0
        if rank == ACE:
            hand_bits, table_bits = ws[R_ACE_HAND], ws[R_ACE_TABLE]
            ws[HAND_VALUE + kind] = 1 if hand_bits & 1 else 14
            ws[HAND_VALUE2 + kind] = 14 if hand_bits == 3 else 0
            ws[TABLE_VALUE + kind] = 1 if table_bits & 1 else 14
            ws[TABLE_HIGH + kind] = 1 if table_bits == 3 else 0
            ws[CARD_POINTS + kind] = ws[R_ACE_PTS]
    ws[HAND_VALUE + SMALL_KASINO] = ws[R_SMALL_HAND]
    ws[HAND_VALUE + BIG_KASINO] = ws[R_BIG_HAND]
    ws[CARD_POINTS + SMALL_KASINO] = ws[R_SMALL_PTS]
    ws[CARD_POINTS + BIG_KASINO] = ws[R_BIG_PTS]
    for kind in range(KINDS):
        ws[CARD_KEY + kind] = ws[CARD_POINTS + kind] * KEY_POINTS + KEY_CARDS + (kind < 13)


@njit(cache=True)
def popcount(mask: np.int64) -> np.int64:
    count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


@njit(cache=True)
def _record_group(ws: np.ndarray, mask: np.int64, key: np.int64, low: np.int64, highs: np.int64, need: np.int64) -> None:
    """File a subset under every needed value it can make: its low sum plus 13 per high ace."""
    value = low
    for _ in range(highs + 1):
        if value > MAX_VALUE:
            return
        if need >> value & 1:
            n = ws[BUCKET_N + value]
            if n >= BUCKET_CAP:
                raise RuntimeError("too many capture groups on one table")
            ws[BUCKET + value * BUCKET_CAP + n] = mask
            ws[BUCKET_KEY + value * BUCKET_CAP + n] = key
            ws[BUCKET_N + value] = n + 1
        value += 13


@njit(cache=True)
def _needed_values(ws: np.ndarray, seat: np.int64) -> np.int64:
    """Bit v set if a card in the hand of ``seat`` can be played as value v."""
    need = np.int64(0)
    for slot in range(hand_size(ws, seat)):
        kind = hand_card(ws, seat, slot) % KINDS
        need |= np.int64(1) << ws[HAND_VALUE + kind]
        need |= np.int64(1) << ws[HAND_VALUE2 + kind]
    return need & ~np.int64(1)


@njit(cache=True)
def _reachable_sums(ws: np.ndarray) -> np.int64:
    """Bit s set if some table subset can sum to s ≤ 16: a cheap test that skips the search
    on the many turns when no card in hand can capture."""
    reach = np.int64(1)
    full = (np.int64(1) << (MAX_VALUE + 1)) - 1
    for i in range(ws[TABLE_N]):
        kind = ws[TABLE + i] % KINDS
        value = ws[TABLE_VALUE + kind]
        grown = reach << value
        if ws[TABLE_HIGH + kind]:
            grown |= reach << (value + 13)
        reach = (reach | grown) & full
    return reach


@njit(cache=True)
def find_groups(ws: np.ndarray, seat: np.int64) -> None:
    """File every table subset under each value it sums to, for the values the hand of
    ``seat`` can play. Most turns stop at the reachable-sums test; small tables then walk a
    table of all subset sums (branch-light), larger ones a depth-first search."""
    need = _needed_values(ws, seat) & _reachable_sums(ws)
    ws[GROUP_VALUES] = need
    if need == 0:
        return
    for v in range(MAX_VALUE + 1):
        ws[BUCKET_N + v] = 0
    if ws[TABLE_N] <= SMALL_TABLE:
        _groups_from_subset_sums(ws, need)
    else:
        _groups_by_search(ws, need)


@njit(cache=True)
def _groups_from_subset_sums(ws: np.ndarray, need: np.int64) -> None:
    """Subset sums built up one card at a time: subset(mask) = subset(mask less its top card)
    + that card, visiting masks in ascending order."""
    ws[SUBSET_SUM] = 0
    ws[SUBSET_HIGH] = 0
    ws[SUBSET_KEY] = 0
    for i in range(ws[TABLE_N]):
        kind = ws[TABLE + i] % KINDS
        value, high, key = ws[TABLE_VALUE + kind], ws[TABLE_HIGH + kind], ws[CARD_KEY + kind]
        top = np.int64(1) << i
        for rest in range(top):
            low = ws[SUBSET_SUM + rest] + value
            highs = ws[SUBSET_HIGH + rest] + high
            total_key = ws[SUBSET_KEY + rest] + key
            ws[SUBSET_SUM + top + rest] = low
            ws[SUBSET_HIGH + top + rest] = highs
            ws[SUBSET_KEY + top + rest] = total_key
            _record_group(ws, top + rest, total_key, low, highs, need)


@njit(cache=True)
def _groups_by_search(ws: np.ndarray, need: np.int64) -> None:
    """Depth-first over the subsets whose low sum stays within the largest needed value."""
    limit = 63 - _leading_zeros(need)
    n = ws[TABLE_N]
    depth, i, low, highs, mask, key = 0, 0, 0, 0, np.int64(0), np.int64(0)
    while True:
        if i < n:
            kind = ws[TABLE + i] % KINDS
            value = ws[TABLE_VALUE + kind]
            if low + value <= limit:
                ws[STACK + depth] = i
                depth += 1
                low += value
                highs += ws[TABLE_HIGH + kind]
                mask |= np.int64(1) << i
                key += ws[CARD_KEY + kind]
                _record_group(ws, mask, key, low, highs, need)
            i += 1
            continue
        if depth == 0:
            return
        depth -= 1
        j = ws[STACK + depth]
        kind = ws[TABLE + j] % KINDS
        low -= ws[TABLE_VALUE + kind]
        highs -= ws[TABLE_HIGH + kind]
        mask ^= np.int64(1) << j
        key -= ws[CARD_KEY + kind]
        i = j + 1


@njit(cache=True)
def _leading_zeros(x: np.int64) -> np.int64:
    count = 0
    probe = np.int64(1) << 62
    while probe and not x & probe:
        probe >>= 1
        count += 1
    return count + 1


@njit(cache=True)
def _insert_option(ws: np.ndarray, mask: np.int64) -> None:
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


@njit(cache=True)
def _walk_unions(ws: np.ndarray, value: np.int64, collect: bool, sweep_key: np.int64, must_max: bool,
                 best: tuple[np.int64, np.int64, np.int64]) -> tuple[np.int64, np.int64, np.int64]:
    """Visit every union of pairwise disjoint groups of ``value``, each with its summed key.

    ``collect``: insert each union into the ascending option list. Otherwise keep the best
    in ``best`` = (cards if ``must_max`` else 0, packed key, mask): most cards first when
    captures must be largest, then highest key, then smallest mask; a union that empties
    the table gets ``sweep_key`` added.
    """
    m = ws[BUCKET_N + value]
    base = value * BUCKET_CAP
    full = (np.int64(1) << ws[TABLE_N]) - 1
    stack = STACK + TABLE_CAP + 1  # the stack's second part: 3 words a level
    best_cards, best_key, best_mask = best
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
                    _insert_option(ws, union)
                else:
                    total = key + (sweep_key if union == full else 0)
                    cards = total // KEY_CARDS % 256 if must_max else 0
                    if cards > best_cards or (cards == best_cards and (total > best_key or (total == best_key and union < best_mask))):
                        best_cards, best_key, best_mask = cards, total, union
            i += 1
            continue
        if depth == 0:
            return best_cards, best_key, best_mask
        depth -= 1
        i = ws[stack + 3 * depth] + 1
        union = ws[stack + 3 * depth + 1]
        key = ws[stack + 3 * depth + 2]


@njit(cache=True)
def card_options(ws: np.ndarray, card: np.int64) -> np.int64:
    """The distinct captures of ``card`` on the current table (after `find_groups`), ascending
    in OPTIONS; under ``must_capture_max`` only those taking the most cards. Returns the count."""
    ws[OPTIONS_N] = 0
    kind = card % KINDS
    none = (np.int64(0), np.int64(0), np.int64(0))
    for value in (ws[HAND_VALUE + kind], ws[HAND_VALUE2 + kind]):
        if ws[GROUP_VALUES] >> value & 1:
            _walk_unions(ws, value, True, 0, False, none)
    n = ws[OPTIONS_N]
    if ws[R_MUST_MAX] and n > 1:
        n = _keep_largest(ws, n)
    return n


@njit(cache=True)
def best_capture(ws: np.ndarray, card: np.int64, sweep_key: np.int64) -> tuple[np.int64, np.int64]:
    """The legal capture of ``card`` with the highest packed key (the table cards' points,
    cards and spades, plus ``sweep_key`` if it empties the table), smallest mask on ties:
    (key, mask), or (-1, 0) if the card cannot capture. Faster than listing the options."""
    kind = card % KINDS
    best = (np.int64(-1), np.int64(-1), np.int64(0))
    must_max = ws[R_MUST_MAX] != 0
    for value in (ws[HAND_VALUE + kind], ws[HAND_VALUE2 + kind]):
        if ws[GROUP_VALUES] >> value & 1:
            best = _walk_unions(ws, value, False, sweep_key, must_max, best)
    return best[1], best[2]


@njit(cache=True)
def _keep_largest(ws: np.ndarray, n: np.int64) -> np.int64:
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


@njit(cache=True)
def hand_card(ws: np.ndarray, seat: np.int64, slot: np.int64) -> np.int64:
    return ws[HAND + seat * HAND_CAP + slot]


@njit(cache=True)
def hand_size(ws: np.ndarray, seat: np.int64) -> np.int64:
    return ws[HAND_N + seat]


@njit(cache=True)
def _options_for(ws: np.ndarray, card: np.int64, table: np.ndarray) -> np.ndarray:
    n = table.shape[0]
    for i in range(n):
        ws[TABLE + i] = table[i]
    ws[TABLE_N] = n
    ws[HAND] = card
    ws[HAND_N] = 1
    prepare_values(ws)
    find_groups(ws, 0)
    count = card_options(ws, card)
    return ws[OPTIONS : OPTIONS + count].copy()


def capture_masks_of(card: int, table: list[int], rules: Rules) -> list[int]:
    """Python entry for tests and the API: the kernel's captures as ascending masks."""
    if len(table) > TABLE_CAP:
        raise ValueError(f"a table holds at most {TABLE_CAP} cards; got {len(table)}")
    ws = new_workspace(rules.to_array())
    return [int(m) for m in _options_for(ws, card, np.asarray(table, dtype=np.int64))]
