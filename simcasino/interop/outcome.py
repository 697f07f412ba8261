"""What a deal pays each seat in a game-AI toolkit, and the bounds of that pay.

Why points, sign-flipped where the fewest win: a toolkit's players maximise their return,
and the deal's points (`DealState.result`, the same scoring `simulate` reports) are what a
seat plays for; under §6 Misère and Krypkasino (``low_wins``) a seat plays for the fewest
points, so its return is minus its points. Partners (§6 Partnerships) share their team's.
"""

from __future__ import annotations

from simcasino.core.rules import Rules
from simcasino.reference.state import DealState


def returns(deal: DealState) -> list[float]:
    """Each seat's return: its points in the finished deal (negated when the fewest win), 0 before the end."""
    if not deal.is_over:
        return [0.0] * deal.rules.players
    sign = -1.0 if deal.rules.low_wins else 1.0
    return [sign * seat.points for seat in deal.result().seats]


def bounds(rules: Rules) -> tuple[float, float]:
    """A lowest and a highest return no deal under ``rules`` goes past (loose: every scoring
    item to one side at once, a sweep and a mulle at every play)."""
    plays = rules.deck_size - rules.table_cards
    spades = 13 * rules.decks
    gains = (sum(rules.card_points(card) for card in range(rules.deck_size)) + rules.most_spades_points
             + rules.most_cards_points + spades + rules.sistan_points
             + plays * (2 * rules.tabbe_points + max(rules.mulle_points, 16 * rules.mulle_value)))
    losses = plays * (2 * abs(rules.tabbe_previous_points) + abs(rules.build_penalty))
    low, high = -float(losses), float(gains)
    return (-high, -low) if rules.low_wins else (low, high)
