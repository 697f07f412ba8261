"""The heuristic's terms in the kernel: one function per weight, named after it.

Each gives its feature of one move in milli-units, what the weight (milli-points) multiplies,
exactly as the method of the same name in `python` does; `kernel` adds them up. A move is
(seat, hand slot, card, code): code a capture mask, 0 a trail, or a negative §6 build code
(`engine.builds.build_code`). The terms that look at the table a move leaves take it as
``keep`` (the current slots it keeps), ``extra`` (a trailed card, or -1), ``value`` /
``key`` (the build the move makes, or 0) and ``builds`` (whether the rules have §6 builds:
without, the build cases fold away where a caller passes a constant False).

The material terms (ace_value, spade_value, card_value) read a packed key of the cards
taken (`layout.KEY_POINTS`); a §6 mulle's points count as rule points. The weights never
change within a deal, so the per-card parts of the material and trail terms are tabulated
per seat (`kernel.prepare_seat`) from these same functions.
"""

from __future__ import annotations

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from simcasino.advice.left import ALL_VALUES, left_reach, sweep_values
from simcasino.core.cards import BIG_KASINO, DIAMONDS, SMALL_KASINO, SPADES
from simcasino.core.jit import kernel
from simcasino.engine import layout
from simcasino.engine.builds import build_has_kind, held_bits, is_build_id
from simcasino.engine.captures import popcount
from simcasino.engine.layout import WsPointer, hand_card, hand_size, param
from simcasino.engine.moves import sweep_scores
from simcasino.strategies.heuristic.regions import CARD_HINTS, THREATS, UNSEEN_BIG, UNSEEN_SMALL
from simcasino.strategies.heuristic.survey import (
    kasino_unseen,
    take_risk,
    unseen_bits,
    value_unseen,
)
from simcasino.strategies.heuristic.weights import (
    ACE_VALUE,
    BUILDS,
    CARD_VALUE,
    MILLI,
    NO_BUILD,
    SPADE_VALUE,
)

# CARD_HINTS, per card: which of the rarer terms can apply to it (so most moves skip them)
HINT_TWO, HINT_TEN, HINT_ACE, HINT_BIG = 1, 2, 4, 8  # a non-spade 2, a non-diamond 10, an ace, 10♦
RARE_HINTS = HINT_TWO | HINT_TEN | HINT_BIG  # hold_twos, hold_tens, risky_storan, storan_early


@kernel
def card_hints(ws: WsPointer, card: np.int64) -> np.int64:
    """The CARD_HINTS of ``card``: a non-spade 2, a non-diamond 10, an ace, 10♦."""
    kind = card % layout.KINDS
    rank, suit = kind % 13 + 1, kind // 13
    return (
        HINT_TWO * (rank == 2 and suit != SPADES)
        + HINT_TEN * (rank == 10 and suit != DIAMONDS)
        + HINT_ACE * (rank == 1)
        + HINT_BIG * (kind == BIG_KASINO)
    )


# --- the material: what the cards a move takes are worth ----------------------------------------


@kernel(inline="always")
def ace_value(key: np.int64) -> np.int64:
    """The rule points (aces, kasinos, a mulle's points) of the cards of ``key``."""
    return MILLI * (key // layout.KEY_POINTS)


@kernel(inline="always")
def spade_value(key: np.int64) -> np.int64:
    """The spades of the cards of ``key`` (most spades)."""
    return MILLI * (key % layout.KEY_CARDS)


@kernel(inline="always")
def card_value(key: np.int64) -> np.int64:
    """The number of cards of ``key`` (most cards)."""
    return MILLI * (key // layout.KEY_CARDS % (layout.KEY_POINTS // layout.KEY_CARDS))


@kernel(inline="always")
def material(ws: WsPointer, seat: np.int64, key: np.int64) -> np.int64:
    """The three material terms weighed: micro-points of taking the cards of ``key``."""
    return (
        param(ws, seat, ACE_VALUE) * ace_value(key)
        + param(ws, seat, SPADE_VALUE) * spade_value(key)
        + param(ws, seat, CARD_VALUE) * card_value(key)
    )


# --- trailing (§7.1) ------------------------------------------------------------------------------


@kernel
def trail_points(ws: WsPointer, card: np.int64) -> np.int64:
    """S1 (§7.1), a trail: minus its rule points (an ace, 2♠, 10♦)."""
    return -MILLI * ws[layout.CARD_POINTS + card]


@kernel
def trail_spades(ws: WsPointer, card: np.int64) -> np.int64:
    """S2 (§7.1), a trail: minus one for a spade."""
    return -MILLI * np.int64(card % layout.KINDS < 13)


@kernel(inline="always")
def trail_dead_rank(dead: bool) -> np.int64:
    """S3 (§7.1), a trail: one if its rank is dead (every other card of the rank is seen)."""
    return MILLI * np.int64(dead)


@kernel
def trail_rank(ws: WsPointer, card: np.int64) -> np.int64:
    """A trail: minus rank/13 of the card, so low cards go first."""
    return -(MILLI * (ws[layout.CARD_RANK + card] + 1) // 13)


# --- the rarer terms: a non-spade 2, a ten, 10♦ ---------------------------------------------------


@kernel(inline="always")
def hold_twos(ws: WsPointer, seat: np.int64, code: np.int64, hints: np.int64) -> np.int64:
    """S4 (§7.2): minus a point for playing a non-spade 2 while 2♠ is unseen (not taking it)."""
    if (
        hints & HINT_TWO
        and kasino_unseen(ws, seat, SMALL_KASINO, UNSEEN_SMALL)
        and not takes_kind(ws, code, np.int64(SMALL_KASINO))
    ):
        return -MILLI
    return 0


@kernel(inline="always")
def hold_tens(ws: WsPointer, seat: np.int64, code: np.int64, hints: np.int64) -> np.int64:
    """S5 (§7.2): minus a point for playing a non-diamond 10 while 10♦ is unseen (not taking it)."""
    if (
        hints & HINT_TEN
        and kasino_unseen(ws, seat, BIG_KASINO, UNSEEN_BIG)
        and not takes_kind(ws, code, np.int64(BIG_KASINO))
    ):
        return -MILLI
    return 0


@kernel(inline="always")
def risky_storan(
    ws: WsPointer, seat: np.int64, card: np.int64, code: np.int64, hints: np.int64
) -> np.int64:
    """S7 (§7.5): for trailing a non-diamond 10 that only our 10♦ can take next turn, the
    material of that 10 and 10♦, in milli-points."""
    if hints & HINT_TEN and code == 0 and storan_plan(ws, seat):
        return (
            material(ws, seat, ws[layout.CARD_KEY + card] + ws[layout.CARD_KEY + BIG_KASINO])
            // MILLI
        )
    return 0


@kernel(inline="always")
def storan_early(ws: WsPointer, code: np.int64, hints: np.int64) -> np.int64:
    """F5 (§7.6): one for a capture with 10♦ played as 14 or more (bank it early)."""
    return MILLI if hints & HINT_BIG and code > 0 and ws[layout.R_BIG_HAND] >= 14 else 0


@kernel(inline="always")
def lone_ace(ws: WsPointer, seat: np.int64, slot: np.int64) -> np.int64:
    """F3 (§7.6): minus one for a move that leaves an ace as the last card in hand."""
    if hand_size(ws, seat) == 2 and ws[CARD_HINTS + hand_card(ws, seat, 1 - slot)] & HINT_ACE:
        return -MILLI
    return 0


@kernel(inline="always")
def finnish_threats(
    ws: WsPointer, keep: np.int64, extra: np.int64, value: np.int64, builds: bool
) -> np.int64:
    """F1 (§7.6): minus one per unseen point card playable as 14+ (THREATS, a count per value)
    that could capture from the table left."""
    counts = ws[THREATS]
    if counts == 0:  # no such card is unseen: no need to work out the table's sums
        return 0
    reach, count = left_reach(ws, keep, extra, value, builds), np.int64(0)
    for v in range(14, layout.MAX_VALUE + 1):  # a byte per value from 14
        count += (reach >> v & 1) * (counts >> (8 * (v - 14)) & 255)
    return -MILLI * count


# --- what the table left offers the next player (§7.4) --------------------------------------------


@kernel(inline="always")
def tabbe_denial(
    ws: WsPointer,
    seat: np.int64,
    keep: np.int64,
    extra: np.int64,
    value: np.int64,
    key: np.int64,
    builds: bool,
) -> np.int64:
    """S6 (§7.4): minus the tabbe and the rule points left if one unseen card can sweep the
    table left (1-3 items); with §6 builds, minus each build left at its material times the
    chance an opponent takes it (in micro-points, so divided by a thousand)."""
    threat = -MILLI * sweep_threat(ws, seat, keep, extra, value, key, builds)
    if builds:
        threat -= build_threats(ws, seat, keep, value, key)
    return threat


@kernel(inline="always")
def sweep_threat(
    ws: WsPointer,
    seat: np.int64,
    keep: np.int64,
    extra: np.int64,
    value: np.int64,
    key: np.int64,
    builds: bool,
) -> np.int64:
    """Tabbe plus rule points left, if one unseen card can take the whole table left (1-3
    items; a build, a group of one, must be of that card's value), else 0. Tables of loose
    cards (no build on the table, none made) take the short road: their 1-3 cards straight
    from the slots."""
    if builds:
        return _sweep_threat_with_builds(ws, seat, keep, extra, value, key)
    left = ws[layout.TABLE_N] - popcount(
        ((np.int64(1) << ws[layout.TABLE_N]) - 1) & ~keep
    )  # the slots kept
    if not 1 <= left + (extra >= 0) <= 3:
        return 0
    a = ws[layout.TABLE + trailing_zeros(keep)] if left else extra
    keep &= keep - 1
    b = (
        ws[layout.TABLE + trailing_zeros(keep)]
        if left > 1
        else extra
        if left == 1
        else np.int64(-1)
    )
    keep &= keep - 1
    c = (
        ws[layout.TABLE + trailing_zeros(keep)]
        if left > 2
        else extra
        if left == 2
        else np.int64(-1)
    )
    if sweep_values(ws, a, b, c) & unseen_bits(ws, seat) == 0:
        return 0
    return (
        ws[layout.R_TABBE_PTS]
        + ws[layout.CARD_POINTS + a]
        + (ws[layout.CARD_POINTS + b] if b >= 0 else 0)
        + (ws[layout.CARD_POINTS + c] if c >= 0 else 0)
    )


@kernel
def _sweep_threat_with_builds(
    ws: WsPointer, seat: np.int64, keep: np.int64, extra: np.int64, value: np.int64, key: np.int64
) -> np.int64:
    """`sweep_threat` where builds lie on the table left."""
    n = ws[layout.TABLE_N]
    left_n = n - popcount(((np.int64(1) << n) - 1) & ~keep) + (extra >= 0) + (value > 0)
    if not 1 <= left_n <= 3:
        return 0
    a, b, c = _first_three(ws, keep, extra)
    builds_left, points = np.int64(1) << value if value else np.int64(0), key // layout.KEY_POINTS
    a, b, c, builds_left, points = _builds_apart(ws, a, b, c, builds_left, points)
    if builds_left & (builds_left - 1):  # builds of two values: no one card takes both
        return 0
    sweeps = (sweep_values(ws, a, b, c) if a >= 0 else ALL_VALUES) & (
        builds_left if builds_left else ALL_VALUES
    )
    if sweeps & unseen_bits(ws, seat) == 0:
        return 0
    for item in (a, b, c):
        points += ws[layout.CARD_POINTS + item] if item >= 0 else 0
    return ws[layout.R_TABBE_PTS] + points


@kernel(inline="always")
def _first_three(
    ws: WsPointer, keep: np.int64, extra: np.int64
) -> tuple[np.int64, np.int64, np.int64]:
    """The first three items of a table left (the kept slots in order, then ``extra``), -1 where
    it has fewer."""
    a = ws[layout.TABLE + trailing_zeros(keep)] if keep else extra
    keep &= keep - 1
    b = ws[layout.TABLE + trailing_zeros(keep)] if keep else extra if a != extra else np.int64(-1)
    keep &= keep - 1
    c = (
        ws[layout.TABLE + trailing_zeros(keep)]
        if keep
        else extra
        if b != extra and a != extra
        else np.int64(-1)
    )
    return a, b, c


@kernel
def _builds_apart(
    ws: WsPointer, a: np.int64, b: np.int64, c: np.int64, builds_left: np.int64, points: np.int64
) -> tuple[np.int64, np.int64, np.int64, np.int64, np.int64]:
    """The loose cards among a, b, c (in order, -1 after them), with the builds among them added
    to ``builds_left`` (value bits) and ``points`` (their cards' rule points)."""
    first, second, third = np.int64(-1), np.int64(-1), np.int64(-1)
    for item in (a, b, c):
        if item >= 0 and is_build_id(item):
            builds_left |= np.int64(1) << ws[layout.BUILD_VALUE + item - layout.DECK_CAP]
            points += ws[layout.BUILD_POINTS + item - layout.DECK_CAP]
        elif item >= 0:
            first, second, third = (
                (item, second, third)
                if first < 0
                else (first, item, third)
                if second < 0
                else (first, second, item)
            )
    return first, second, third, builds_left, points


@kernel
def build_threats(
    ws: WsPointer, seat: np.int64, keep: np.int64, value: np.int64, key: np.int64
) -> np.int64:
    """In milli-units: each §6 build left at its material times the chance an opponent takes
    it (`survey.take_risk`); the move's own build (``value`` > 0) is ours."""
    total = np.int64(0)
    if value:
        total += material(ws, seat, key) * take_risk(ws, seat, value, seat) // (MILLI * MILLI)
    while keep:
        item = ws[layout.TABLE + trailing_zeros(keep)]
        keep &= keep - 1
        if is_build_id(item):
            b = item - layout.DECK_CAP
            risk = take_risk(ws, seat, ws[layout.BUILD_VALUE + b], ws[layout.BUILD_OWNER + b])
            total += material(ws, seat, ws[layout.BUILD_KEY + b]) * risk // (MILLI * MILLI)
    return total


# --- §6 builds ------------------------------------------------------------------------------------


@kernel
def builds(
    ws: WsPointer, seat: np.int64, slot: np.int64, value: np.int64, key: np.int64
) -> np.int64:
    """§6, a build move another card in hand can take next turn: the material of the build's
    cards (``key``), in milli-points."""
    if held_bits(ws, seat, slot) >> value & 1 == 0:
        return 0
    return material(ws, seat, key) // MILLI


@kernel
def fixed_build(ws: WsPointer, seat: np.int64, slot: np.int64, value: np.int64) -> np.int64:
    """What no weight scales in a build move, in micro-points: its ``build_penalty`` when the
    builder holds no card of its value; with weight ``builds`` 0, the guard that never builds
    unless nothing else is legal."""
    if param(ws, seat, BUILDS) == 0:
        return -NO_BUILD
    if held_bits(ws, seat, slot) >> value & 1 == 0:
        return MILLI * MILLI * ws[layout.R_BUILD_PENALTY]
    return 0


@kernel(inline="always")
def fixed_capture(ws: WsPointer, code: np.int64) -> np.int64:
    """What no weight scales in a capture, in micro-points: the tabbe of a capture that
    empties the table while a sweep scores."""
    if code == (np.int64(1) << ws[layout.TABLE_N]) - 1 and sweep_scores(ws):
        return MILLI * MILLI * ws[layout.R_TABBE_PTS]
    return 0


# --- what the terms ask of the table --------------------------------------------------------------


@kernel
def takes_kind(ws: WsPointer, code: np.int64, kind: np.int64) -> bool:
    """Does the capture ``code`` take a card of this kind (a §6 build's cards too; a build
    move's negative code takes nothing)?"""
    while code > 0:
        item = ws[layout.TABLE + trailing_zeros(code)]
        if (
            (item == kind or item == kind + layout.KINDS)
            if item < layout.DECK_CAP
            else build_has_kind(ws, item, kind)
        ):
            return True
        code &= code - 1
    return False


@kernel(inline="always")
def storan_plan(ws: WsPointer, seat: np.int64) -> bool:
    """risky_storan's plan for a trail of a non-diamond 10: we keep 10♦, no unseen card can
    take a 10, and 10♦ can take the ten (with a group making up its value) next turn."""
    holds_big = False
    for slot in range(hand_size(ws, seat)):
        holds_big |= (ws[CARD_HINTS + hand_card(ws, seat, slot)] & HINT_BIG) != 0
    if not holds_big or value_unseen(ws, seat, np.int64(10)):
        return False
    need = ws[layout.R_BIG_HAND] - 10
    return (
        need == 0 or ((ws[layout.REACH] | ws[layout.BUILD_BITS]) >> need & 1) == 1
    )  # §6: a build is a group of one
