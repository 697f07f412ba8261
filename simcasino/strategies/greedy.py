"""`greedy`: take the most immediate points now, else trail the lowest non-point card.

Immediate points are the aces and kasinos in the capture (the played card included) and a
tabbe if the capture empties the table and a sweep scores now. Ties: most cards, then most
spades, then the first move in canonical order (hand position, then ascending mask). With no
capture it trails the lowest-ranked non-point card (point cards last, lower kind id first).
"""

from __future__ import annotations

from simcasino.cards import is_spade, rank_of
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
