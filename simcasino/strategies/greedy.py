"""`greedy`: take the most immediate points now, else trail the lowest non-point card.

Immediate points are the aces and kasinos in the capture (the played card included) and a
tabbe if the capture empties the table and a sweep scores now. Ties: most cards, then most
spades, then the first move in canonical order (hand position, then ascending mask). With no
capture it trails the lowest-ranked non-point card (point cards last, lower kind id first).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simcasino.cards import is_spade, rank_of
from simcasino.engine.captures import best_capture, hand_card, hand_size
from simcasino.engine.layout import (
    BEST_MASK, CARD_KEY, CARD_POINTS, CHOSEN_MASK, GROUP_VALUES, HAND_BITS, KEY_POINTS, KINDS, R_TABBE_PTS,
    RANK_ORDER, WsPointer,
)
from simcasino.engine.moves import sweep_scores
from simcasino.reference.captures import mask_cards
from simcasino.strategies.protocol import Move, View

NAME = "greedy"
DESCRIPTION = "the capture with the most immediate points, then most cards; else trail low"


def capture_key(view: View, move: Move) -> tuple[int, int, int]:
    """(immediate points, cards, spades) a capture takes, the played card included."""
    taken = mask_cards(move.mask, view.table) + [move.card]
    points = sum(view.rules.card_points(c) for c in taken)
    if move.mask == (1 << len(view.table)) - 1 and view.sweep_scores:
        points += view.rules.tabbe_points
    return points, len(taken), sum(is_spade(c) for c in taken)


def trail_key(view: View, move: Move) -> tuple[int, int, int]:
    return (view.rules.card_points(move.card) > 0, rank_of(move.card), move.card % 52)


@njit(cache=True)
def choose_kernel(ws: WsPointer, seat: np.int64) -> np.int64:
    """Kernel form of `Greedy.choose`: the first best capture in canonical order, else a trail
    (GROUP_VALUES is nonzero exactly when some card in hand can capture). Returns the hand
    slot; the mask goes to CHOSEN_MASK. Small, so that LLVM can inline it."""
    if ws[GROUP_VALUES]:
        return _best_capture_move(ws, seat)
    ws[CHOSEN_MASK] = 0
    return _lowest_trail(ws, seat)


@njit(cache=True)
def _best_capture_move(ws: WsPointer, seat: np.int64) -> np.int64:
    """The slot of the capture with the most immediate points (then cards, spades; the first
    in canonical order on ties); its mask goes to CHOSEN_MASK."""
    sweep_key = ws[R_TABBE_PTS] * KEY_POINTS if sweep_scores(ws) else 0
    best_key, best_slot, best_mask = np.int64(-1), np.int64(-1), np.int64(0)
    for slot in range(hand_size(ws, seat)):
        card = hand_card(ws, seat, slot)
        if ws[HAND_BITS + card] & ws[GROUP_VALUES] == 0:
            continue
        key = best_capture(ws, card, sweep_key) + ws[CARD_KEY + card]  # the played card is taken too
        if key > best_key:
            best_key, best_slot, best_mask = key, slot, ws[BEST_MASK]
    ws[CHOSEN_MASK] = best_mask
    return best_slot


@njit(cache=True)
def _lowest_trail(ws: WsPointer, seat: np.int64) -> np.int64:
    """The hand slot of the card to trail: non-point cards first, then lowest rank and kind."""
    best_trail, best_slot = np.int64(1 << 40), np.int64(-1)
    for slot in range(hand_size(ws, seat)):
        card = hand_card(ws, seat, slot)
        key = (ws[CARD_POINTS + card] > 0) * (14 * KINDS) + ws[RANK_ORDER + card]
        if key < best_trail:
            best_trail, best_slot = key, slot
    return best_slot


class Greedy:
    def choose(self, view: View) -> Move:
        captures = [m for m in view.moves if not m.is_trail]
        if captures:
            return max(captures, key=lambda m: capture_key(view, m))  # max keeps the first of ties
        trails = [m for m in view.moves if m.is_trail]
        return min(trails, key=lambda m: trail_key(view, m))


def make(params: dict[str, float]) -> Greedy:
    """The plain-Python strategy for the reference engine."""
    return Greedy()
