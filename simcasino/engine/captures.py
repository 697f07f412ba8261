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
    BUCKET_N,
    CARD_POINTS,
    HAND,
    HAND_CAP,
    HAND_N,
    HAND_VALUE,
    HAND_VALUE2,
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
    STACK,
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


@njit(cache=True)
def popcount(mask: np.int64) -> np.int64:
    count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


@njit(cache=True)
def _record_group(ws: np.ndarray, mask: np.int64, low: np.int64, highs: np.int64, need: np.int64) -> None:
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
    """List the table subsets by the values they sum to, for the values the hand of ``seat``
    can play (depth-first over subsets whose low sum stays within the largest such value)."""
    for v in range(MAX_VALUE + 1):
        ws[BUCKET_N + v] = 0
    need = _needed_values(ws, seat) & _reachable_sums(ws)
    if need == 0:
        return
    limit = 63 - _leading_zeros(need)
    n = ws[TABLE_N]
    depth, i, low, highs, mask = 0, 0, 0, 0, np.int64(0)
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
                _record_group(ws, mask, low, highs, need)
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
def _add_unions(ws: np.ndarray, value: np.int64) -> None:
    """Every union of pairwise disjoint groups of ``value`` into the option list."""
    m = ws[BUCKET_N + value]
    base = BUCKET + value * BUCKET_CAP
    stack = STACK + TABLE_CAP + 1  # second half of the stack: (group index, union before)
    depth, i, union = 0, 0, np.int64(0)
    while True:
        if i < m:
            group = ws[base + i]
            if group & union == 0:
                ws[stack + 2 * depth] = i
                ws[stack + 2 * depth + 1] = union
                depth += 1
                union |= group
                _insert_option(ws, union)
            i += 1
            continue
        if depth == 0:
            return
        depth -= 1
        i = ws[stack + 2 * depth] + 1
        union = ws[stack + 2 * depth + 1]


@njit(cache=True)
def card_options(ws: np.ndarray, card: np.int64) -> np.int64:
    """The distinct captures of ``card`` on the current table (after `find_groups`), ascending
    in OPTIONS; under ``must_capture_max`` only those taking the most cards. Returns the count."""
    ws[OPTIONS_N] = 0
    kind = card % KINDS
    value = ws[HAND_VALUE + kind]
    if ws[BUCKET_N + value] > 0:
        _add_unions(ws, value)
    value2 = ws[HAND_VALUE2 + kind]
    if value2 > 0 and ws[BUCKET_N + value2] > 0:
        _add_unions(ws, value2)
    n = ws[OPTIONS_N]
    if ws[R_MUST_MAX] and n > 1:
        n = _keep_largest(ws, n)
    return n


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
