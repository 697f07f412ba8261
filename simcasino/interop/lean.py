"""A faster listing of the legal moves for the game-AI interfaces, held to the reference.

Why: listing the legal moves is most of a step's time in `DealState` (the reference engine
enumerates each card's groups from scratch, written to be obviously correct), and learners
and tree searches take millions of steps. `LeanDeal` is a `DealState` whose `legal_moves`
works out the table's subset sums once a position, as bit sets shared by every card in hand
(an ace on the table sums as 1 or 14), and reads each card's groups off them. It covers
tables of loose cards only (no §6 builds, at most `LOOSE_LIMIT` cards) and hands everything
else, and any position near the engines' limits (`core.limits`), to the reference listing,
so it lists the same moves in the same order; tests/interop/test_interop_lean.py holds the two to
each other move for move over whole random deals of every preset.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from simcasino.core.limits import GROUP_LIMIT, OPTION_LIMIT
from simcasino.core.protocol import Move
from simcasino.core.rules import Rules
from simcasino.reference.captures import distinct_captures, group_unions, largest_captures
from simcasino.reference.moves import legal_moves
from simcasino.reference.state import DealState

LOOSE_LIMIT = 11  # table cards whose 2**n subsets are listed; a bigger table goes to the reference


class LeanDeal(DealState):
    """A `DealState` listing its legal moves the faster way (the same moves, the same order)."""

    @classmethod
    def of(cls, deal: DealState) -> LeanDeal:
        """A lean copy of ``deal``."""
        return cls(**{f.name: getattr(deal, f.name) for f in dataclasses.fields(deal)}).clone()

    def legal_moves(self) -> tuple[Move, ...]:
        if self._moves is None and not self.is_over and self.pending is None:
            self._moves = lean_moves(self.hands[self.to_move], self.table, self.rules, self.to_move)
        return super().legal_moves()


def lean_moves(
    hand: Sequence[int], table: Sequence[int], rules: Rules, seat: int
) -> tuple[Move, ...]:
    """`reference.moves.legal_moves`, by the table's subset sums."""
    if rules.builds or len(table) > LOOSE_LIMIT:
        return legal_moves(hand, table, rules, seat)
    values = {card % 52: rules.hand_values(card) for card in hand}
    groups = value_groups(table, rules, max(max(v) for v in values.values()))
    moves, seen = [], set()
    for index, card in enumerate(hand):
        if card % 52 in seen:  # R-DECK: an identical card earlier in hand adds no moves
            continue
        seen.add(card % 52)
        captures = _captures(values[card % 52], table, rules, groups)
        if captures is None:
            return legal_moves(hand, table, rules, seat)
        if not (captures and rules.must_capture):
            moves.append(Move.trail(index, card))
        moves.extend(Move.capture(index, card, m) for m in captures)
    return tuple(moves)


def value_groups(table: Sequence[int], rules: Rules, top: int) -> dict[int, list[int]]:
    """The groups of the table by value up to ``top``: masks of the subsets of table cards
    that can sum to it (an ace as 1 or 14), in the order of one walk over the subsets whose
    least sum is at most ``top``."""
    cards = [(1 << i, rules.table_values(card)) for i, card in enumerate(table)]
    groups: dict[int, list[int]] = {}
    stack = [(0, 0, 1, 0)]  # next card, mask, the sums it can make as a bit set, its least sum
    while stack:
        start, mask, sums, low = stack.pop()
        for k in range(start, len(cards)):
            bit, values = cards[k]
            least = low + values[0]
            if least > top:
                continue
            reach = (
                sums << values[0] if len(values) == 1 else (sums << values[0]) | (sums << values[1])
            )
            grown, sums_in_range = mask | bit, reach >> least & (1 << top - least + 1) - 1
            while sums_in_range:
                lowest = sums_in_range & -sums_in_range
                groups.setdefault(least + lowest.bit_length() - 1, []).append(grown)
                sums_in_range ^= lowest
            stack.append((k + 1, grown, reach, least))
    return groups


def _captures(
    values: tuple[int, ...], table: Sequence[int], rules: Rules, groups: dict[int, list[int]]
) -> list[int] | None:
    """`reference.captures.allowed_captures` from the table's groups; None near the limits
    (the reference then lists it, and raises as it does)."""
    captures: set[int] = set()
    for value in values:
        found = groups.get(value, [])
        if len(found) > GROUP_LIMIT // 2:
            return None
        captures |= group_unions(found)
        if len(captures) > OPTION_LIMIT // 2:
            return None
    masks = distinct_captures(sorted(captures), table) if rules.decks > 1 else sorted(captures)
    return largest_captures(masks, rules) if rules.must_capture_max else masks
