"""`interop.lean`: the faster listing of the legal moves lists the reference's moves, in the
reference's order, at every position of whole random deals of every preset (the game-AI
interfaces rely on it: an action is a move's place in that order)."""

from __future__ import annotations

import pytest

from simcasino.core.cards import parse_cards
from simcasino.core.protocol import Stream
from simcasino.core.rules import PRESETS, Rules
from simcasino.interop.lean import LeanDeal, value_groups
from simcasino.reference.state import DealState


@pytest.mark.parametrize("preset", list(PRESETS))
def test_lean_moves_are_the_reference_moves(preset: str) -> None:
    for players in (2, 3, 4):
        rules = Rules.preset(preset).replace(players=players)
        for seed in range(3):
            deal = DealState.new(rules, seed, 0)
            stream = Stream(deal.rng)
            while not deal.is_over:
                lean = LeanDeal.of(deal)
                assert lean.legal_moves() == deal.legal_moves()
                moves = deal.legal_moves()
                deal.apply(moves[stream.draw(len(moves))])


def test_table_aces_sum_as_one_or_fourteen() -> None:
    """R-ACE-SE: table A, 5, 8 make 14 as A(1)+5+8, and a lone ace makes 1 and 14."""
    rules = Rules.preset("swedish")
    groups = value_groups(parse_cards("AH 5C 8D"), rules, 14)
    assert 0b111 in groups[14] and 0b001 in groups[14] and 0b001 in groups[1]
