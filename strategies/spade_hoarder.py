"""A plain-Python strategy in a few lines: take the most spades, else trail the lowest card.

Run it against the built-ins (at a mixed table: the reference engine referees, this seat
chooses in Python, the built-ins decide in the kernel):

    simcasino simulate -s strategies/spade_hoarder.py -s greedy --deals 200 --seed 1
"""

from simcasino.core.cards import is_spade, rank_of
from simcasino.reference.captures import mask_cards


def choose(view):
    """``view``: what this player may see (hand, table, moves, played cards, scores)."""

    def spades_taken(move):
        taken = mask_cards(move.taken, view.table) + [move.card]
        return sum(map(is_spade, taken)), len(taken)

    captures = [m for m in view.moves if not m.is_trail]
    if captures:
        return max(captures, key=spades_taken)
    return min((m for m in view.moves if m.is_trail), key=lambda m: (is_spade(m.card), rank_of(m.card)))
