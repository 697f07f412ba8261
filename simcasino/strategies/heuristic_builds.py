"""The heuristic's kernel form under §6 builds rules (Rakennuskasino, Glimne's Mulle), and the
entry points that pick it or the form without builds.

`heuristic.choose_kernel` is shaped for speed on tables of loose cards (per-card values,
best-first pruning); with builds a table slot may hold a build (id DECK_CAP + b), which its
per-card tables do not cover. Here every legal move from `moves.list_moves` (builds and the
builder's obligation included) is valued in full, item by item, exactly as
`heuristic.Heuristic.value` values it (the tests hold the two forms equal move for move).
A table is described as the slots it keeps of the current table (``keep``) plus at most one
new item: a trailed card (``extra``) or the build a move makes (``value``, ``key``; ours).
"""

from __future__ import annotations

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from simcasino.core.jit import kernel
from simcasino.engine.builds import build_slot, build_value, held_bits, is_build_id, item_key
from simcasino.engine.captures import grow_reach, is_mulle, mulle_points
from simcasino.engine.layout import (
    BUILD_KEY,
    BUILD_OWNER,
    BUILD_POINTS,
    BUILD_VALUE,
    CARD_HINTS,
    CARD_KEY,
    CARD_POINTS,
    CHOSEN_MASK,
    DECK_CAP,
    HAND_BITS,
    HIDDEN_RANK_N,
    HIDDEN_VALUE_N,
    KEY_CARDS,
    KEY_POINTS,
    MAX_VALUE,
    MOVE_MASK,
    MOVE_SLOT,
    MOVE_VALUE,
    N_PARAMS,
    R_BUILD_PENALTY,
    R_BUILDS,
    R_LOW_WINS,
    R_PLAYERS,
    R_TABBE_PTS,
    SEAT_CARD_VALUES,
    SEAT_PARAMS,
    TABLE,
    TABLE_N,
    THREATS,
    UNIT,
    WsPointer,
    hand_card,
    hand_size,
)
from simcasino.engine.moves import list_moves, sweep_scores
from simcasino.strategies import heuristic
from simcasino.strategies.heuristic import (
    _ALL_VALUES,
    _HINT_ACE,
    MILLI,
    NO_BUILD,
    W_ACE,
    W_BUILDS,
    W_CARD,
    W_FINNISH,
    W_SPADE,
    W_TABBE,
    W_TRAIL,
    _rank_dead,
    _rare_terms,
    _start_decision,
    _sweep_values,
    _unseen_bits,
)


@kernel(inline='always')  # into the strategy switch: one call less a turn
def choose_kernel(ws: WsPointer, seat: np.int64) -> np.int64:
    """The heuristic's move (hand slot; mask in CHOSEN_MASK) under any rules: with builds the
    best value over the listed moves, the first in canonical order on ties."""
    if not ws[R_BUILDS]:
        return heuristic.choose_kernel(ws, seat)
    count = _value_moves(ws, seat, list_moves(ws, seat))
    best = 0
    for m in range(1, count):
        best = m if ws[MOVE_VALUE + m] > ws[MOVE_VALUE + best] else best
    ws[CHOSEN_MASK] = ws[MOVE_MASK + best]
    return ws[MOVE_SLOT + best]


@kernel
def rank_moves(ws: WsPointer, seat: np.int64, count: np.int64, keep: np.int64) -> np.int64:
    """`heuristic.rank_moves` under any rules (the search's candidates)."""
    if not ws[R_BUILDS]:
        return heuristic.rank_moves(ws, seat, count, keep)
    return heuristic.keep_best(ws, _value_moves(ws, seat, count), keep)


@kernel
def _value_moves(ws: WsPointer, seat: np.int64, count: np.int64) -> np.int64:
    """MOVE_VALUE of the first ``count`` listed moves; returns ``count``."""
    _start_decision(ws, seat)
    for m in range(count):
        value = _value(ws, seat, ws[MOVE_SLOT + m], ws[MOVE_MASK + m])
        ws[MOVE_VALUE + m] = -value if ws[R_LOW_WINS] else value
    return count


@kernel
def _value(ws: WsPointer, seat: np.int64, slot: np.int64, code: np.int64) -> np.int64:
    """`Heuristic.value` of playing hand ``slot`` as ``code`` (a capture mask, 0 a trail, a
    negative build code), in micro-points, before the low-wins sign."""
    w, card = SEAT_PARAMS + seat * N_PARAMS, hand_card(ws, seat, slot)
    keep = (np.int64(1) << ws[TABLE_N]) - 1
    extra, value, key = np.int64(-1), np.int64(0), np.int64(0)
    if code > 0:
        total = _capture(ws, seat, card, code)
        keep &= ~code
    elif code == 0:
        total = ws[SEAT_CARD_VALUES + seat * 2 * DECK_CAP + card] + 100 * ws[w + W_TRAIL] * _rank_dead(ws, card)
        extra = card
    else:
        target = build_slot(code)
        value, key = build_value(code), item_key(ws, ws[TABLE + target]) + ws[CARD_KEY + card]
        total = _build_term(ws, seat, slot, value, key)
        keep &= ~(np.int64(1) << target)
    if ws[CARD_HINTS + card]:
        total += _rare_terms(ws, seat, card, code)
    if hand_size(ws, seat) == 2 and ws[CARD_HINTS + hand_card(ws, seat, 1 - slot)] & _HINT_ACE:
        total -= ws[w + W_FINNISH] * MILLI // 2  # §7.6: no lone ace last
    denial = MILLI * _sweep_threat(ws, seat, keep, extra, value, key) + _build_threats(ws, seat, keep, value, key)
    total -= ws[w + W_TABBE] * denial
    return total - ws[w + W_FINNISH] * MILLI * _special_threats(ws, seat, keep, extra, value)


@kernel
def _material(ws: WsPointer, seat: np.int64, key: np.int64) -> np.int64:
    """`Heuristic.material` of cards whose packed CARD_KEYs sum to ``key`` (points, cards,
    spades: the material is linear in them)."""
    w = SEAT_PARAMS + seat * N_PARAMS
    points, cards, spades = key // KEY_POINTS, key // KEY_CARDS % (KEY_POINTS // KEY_CARDS), key % KEY_CARDS
    return MILLI * (ws[w + W_ACE] * points + ws[w + W_CARD] * cards + ws[w + W_SPADE] * spades)


@kernel
def _capture(ws: WsPointer, seat: np.int64, card: np.int64, mask: np.int64) -> np.int64:
    """A capture's material (builds whole), mulle and tabbe."""
    key, rest = ws[CARD_KEY + card], mask
    while rest:
        key += item_key(ws, ws[TABLE + trailing_zeros(rest)])
        rest &= rest - 1
    total = _material(ws, seat, key)
    if is_mulle(ws, card, mask):
        total += ws[SEAT_PARAMS + seat * N_PARAMS + W_ACE] * MILLI * mulle_points(ws, card)
    if mask == (np.int64(1) << ws[TABLE_N]) - 1 and sweep_scores(ws):
        total += MILLI * MILLI * ws[R_TABBE_PTS]
    return total


@kernel
def _build_term(ws: WsPointer, seat: np.int64, slot: np.int64, value: np.int64, key: np.int64) -> np.int64:
    """`Heuristic._build_value`: the build's material if another card in hand takes it."""
    weight = ws[SEAT_PARAMS + seat * N_PARAMS + W_BUILDS]
    if weight == 0:
        return -NO_BUILD
    if held_bits(ws, seat, slot) >> value & 1 == 0:
        return MILLI * MILLI * ws[R_BUILD_PENALTY]
    return weight * (_material(ws, seat, key) // MILLI)


@kernel
def _build_threats(ws: WsPointer, seat: np.int64, keep: np.int64, value: np.int64, key: np.int64) -> np.int64:
    """`Heuristic._build_threat` (milli-units): each build left at its material times the
    chance an opponent takes it; the move's own build (``value`` > 0) is ours."""
    total = np.int64(0)
    if value:
        total += _material(ws, seat, key) * _take_risk(ws, seat, value, seat) // (MILLI * MILLI)
    while keep:
        item = ws[TABLE + trailing_zeros(keep)]
        keep &= keep - 1
        if is_build_id(item):
            b = item - DECK_CAP
            risk = _take_risk(ws, seat, ws[BUILD_VALUE + b], ws[BUILD_OWNER + b])
            total += _material(ws, seat, ws[BUILD_KEY + b]) * risk // (MILLI * MILLI)
    return total


@kernel
def _take_risk(ws: WsPointer, seat: np.int64, value: np.int64, owner: np.int64) -> np.int64:
    """`heuristic.take_risk`: the chance (thousandths) an opponent takes a build of ``value``."""
    ways, unseen, hand_n = ws[HIDDEN_VALUE_N + value], np.int64(0), hand_size(ws, seat)
    for rank in range(13):
        unseen += ws[HIDDEN_RANK_N + rank]
    for k in range(hand_n):  # our own cards are hidden from the others, not from us
        ways -= ws[HAND_BITS + hand_card(ws, seat, k)] >> value & 1
    if ways == 0:
        return 0
    if ws[UNIT + owner] != ws[UNIT + seat]:
        return MILLI
    return MILLI - _miss_milli(unseen - hand_n, ways, (ws[R_PLAYERS] - 1) * hand_n)


@kernel
def _miss_milli(unseen: np.int64, ways: np.int64, hands: np.int64) -> np.int64:
    """`heuristic.miss_milli`."""
    chance = np.int64(MILLI)
    for i in range(min(hands, unseen)):
        chance = chance * max(unseen - ways - i, 0) // (unseen - i)
    return chance


@kernel
def _sweep_threat(ws: WsPointer, seat: np.int64, keep: np.int64, extra: np.int64, value: np.int64,
                  key: np.int64) -> np.int64:
    """`Heuristic._sweep_threat`: tabbe plus rule points left, if one unseen card can take the
    whole table left (1-3 items; every build, a group of one, must be of that card's value)."""
    n = (extra >= 0) + (value > 0)
    rest = keep
    while rest:
        n += 1
        rest &= rest - 1
    if not 1 <= n <= 3:
        return 0
    a, b, c = np.int64(-1), np.int64(-1), np.int64(-1)
    builds = np.int64(1) << value if value else np.int64(0)
    points = key // KEY_POINTS
    for i in range(ws[TABLE_N] + 1):
        item = extra if i == ws[TABLE_N] else ws[TABLE + i] if keep >> i & 1 else np.int64(-1)
        if item < 0:
            continue
        if is_build_id(item):
            builds |= np.int64(1) << ws[BUILD_VALUE + item - DECK_CAP]
            points += ws[BUILD_POINTS + item - DECK_CAP]
            continue
        points += ws[CARD_POINTS + item]
        a, b, c = (item, b, c) if a < 0 else (a, item, c) if b < 0 else (a, b, item)
    if builds & (builds - 1):  # builds of two values: no one card takes both
        return 0
    sweeps = (_sweep_values(ws, a, b, c) if a >= 0 else _ALL_VALUES) & (builds if builds else _ALL_VALUES)
    if sweeps & _unseen_bits(ws, seat) == 0:
        return 0
    return ws[R_TABBE_PTS] + points


@kernel
def _special_threats(ws: WsPointer, seat: np.int64, keep: np.int64, extra: np.int64, value: np.int64) -> np.int64:
    """`Heuristic._special_threat`: unseen point cards playable as 14+ that could capture from
    the table left: a sum of its loose cards or (a group of one) a build of their value."""
    reach, builds = np.int64(1), np.int64(1) << value if value else np.int64(0)
    if extra >= 0:
        reach = grow_reach(ws, reach, extra)
    while keep:
        item = ws[TABLE + trailing_zeros(keep)]
        keep &= keep - 1
        if is_build_id(item):
            builds |= np.int64(1) << ws[BUILD_VALUE + item - DECK_CAP]
        else:
            reach = grow_reach(ws, reach, item)
    reach |= builds
    counts, count = ws[THREATS], np.int64(0)
    for v in range(14, MAX_VALUE + 1):  # a byte per value from 14
        if reach >> v & 1:
            count += counts >> (8 * (v - 14)) & 255
    return count
