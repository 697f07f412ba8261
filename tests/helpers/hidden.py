"""The cards a seat cannot see: which they are, a world dealing them again, and the chance a
card lies in a hand when hands are weighed (what the search's belief and inference hold)."""

from __future__ import annotations

import random

from simcasino.core.protocol import View
from simcasino.core.table import item_cards


def hidden_cards(view: View) -> list[int]:
    """The cards ``view``'s player cannot see (a §6 build's cards are seen)."""
    visible = set(view.hand) | {c for item in view.table for c in item_cards(item)} | {card for _, card in view.played}
    visible |= {card for card, owner in enumerate(view.captured_by) if owner >= 0}
    return [card for card in range(len(view.captured_by)) if card not in visible]


def deal_hidden(view: View, order: int) -> tuple[list[list[int]], list[int]]:
    """The unseen cards in a shuffled order: other hands as big as the player's, the rest stock."""
    cards = hidden_cards(view)
    random.Random(order).shuffle(cards)
    hands: list[list[int]] = []
    for _ in range(view.rules.players):
        size = min(len(view.hand), len(cards))
        hands.append(cards[:size])
        cards = cards[size:]
    return hands, cards


def chance_in_hand(weights: list[float], size: int, index: int) -> float:
    """P(card ``index`` is in a hand of ``size``) when a hand's chance is the product of its
    cards' weights: its weight times the sets of the others that complete it, over all sets."""
    rest = weights[:index] + weights[index + 1:]
    return weights[index] * elementary(rest, size - 1) / elementary(weights, size)


def elementary(weights: list[float], k: int) -> float:
    """The sum over every k of the weights of their product."""
    sums = [1.0] + [0.0] * k
    for w in weights:
        for r in range(k, 0, -1):
            sums[r] += w * sums[r - 1]
    return sums[k]
