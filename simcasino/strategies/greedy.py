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
from simcasino.engine.layout import CARD_KEY, CARD_POINTS, GROUP_VALUES, KEY_POINTS, KINDS, R_TABBE_PTS
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
def choose_kernel(ws: np.ndarray, seat: np.int64) -> tuple[np.int64, np.int64]:
    """Kernel form of `Greedy.choose`: the first best capture in canonical order, else a trail."""
    sweep_key = ws[R_TABBE_PTS] * KEY_POINTS if sweep_scores(ws) else 0
    best_key, best_slot, best_mask = np.int64(-1), np.int64(-1), np.int64(0)
    for slot in range(hand_size(ws, seat) if ws[GROUP_VALUES] else 0):
        card = hand_card(ws, seat, slot)
        key, mask = best_capture(ws, card, sweep_key)
        if key >= 0:
            key += ws[CARD_KEY + card % KINDS]  # the played card goes to the pile too
            if key > best_key:
                best_key, best_slot, best_mask = key, slot, mask
    if best_slot >= 0:
        return best_slot, best_mask
    best_trail = np.int64(1 << 40)
    for slot in range(hand_size(ws, seat)):
        kind = hand_card(ws, seat, slot) % KINDS
        key = ((ws[CARD_POINTS + kind] > 0) * 100 + kind % 13 + 1) * 100 + kind
        if key < best_trail:
            best_trail, best_slot = key, slot
    return best_slot, np.int64(0)


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
