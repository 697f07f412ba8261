"""The search's exact endgame solver against a brute-force minimax on the reference engine.

Positions: two players, stock empty (the last round), taken from reference deals played at
random; the whole deal state is kept. The brute force tries every line of play to the end
of the deal and scores it with the reference engine; the solver's move must reach the best
margin (our points minus the opponent's) that the brute force finds.
"""

from __future__ import annotations

import copy

import pytest

import simcasino
from simcasino.core.protocol import Move, View
from simcasino.core.rules import Rules
from simcasino.loop.position import DealHistory, kernel_move
from simcasino.reference.deal import _Deal, apply_move, legal_moves, score_deal, view_of
from simcasino.strategies import parse_strategy


class _EndgameRecorder:
    """Plays at random; keeps the whole deal at decisions with the stock empty and at most
    ``cards`` cards left in both hands (small enough to brute-force)."""

    name = "endgame-recorder"

    def __init__(self, cards: int) -> None:
        self.cards, self.positions = cards, []

    def choose(self, view: View) -> Move:
        deal = view.draw.__self__  # the reference deal behind the view (test access only)
        if view.stock_left == 0 and sum(map(len, deal.hands)) <= self.cards:
            self.positions.append((view.seat, copy.deepcopy(deal)))
        return view.moves[view.draw(len(view.moves))]


def _margin(deal: _Deal, root: int) -> int:
    points = [seat.points for seat in score_deal(deal, 0).seats]
    ahead = points[root] - points[1 - root]
    return -ahead if deal.rules.low_wins else ahead


def _finish(deal: _Deal) -> None:
    taker = deal.last_capturer if deal.last_capturer >= 0 else deal.dealer
    for card in deal.table:
        deal.owner[card] = taker
    deal.table = []


def best_margin(deal: _Deal, seat: int, root: int) -> int:
    """Brute force: the margin for ``root`` with both sides playing their best."""
    if not any(deal.hands):
        _finish(deal)
        return _margin(deal, root)
    values = [_value_of(deal, seat, move, root) for move in legal_moves(deal, seat)]
    return max(values) if seat == root else min(values)


def _value_of(deal: _Deal, seat: int, move: Move, root: int) -> int:
    after = copy.deepcopy(deal)
    assert not apply_move(after, seat, move), "no mid-deal wins from a zero score"
    other = 1 - seat
    return best_margin(after, other if after.hands[other] else seat, root)


RULE_SETS = {
    "swedish": Rules.preset("swedish"),
    "finnish": Rules.preset("finnish"),
    "swedish-low-wins": Rules.preset("swedish").replace(low_wins=True, tie_break="play_on"),
}


@pytest.mark.parametrize("name", RULE_SETS)
def test_solver_finds_the_best_margin(name: str) -> None:
    rules = RULE_SETS[name]
    recorder = _EndgameRecorder(cards=5)
    simcasino.simulate(rules, [recorder, recorder], deals=8, seed=9, engine="reference")
    assert len(recorder.positions) >= 20
    search = parse_strategy("search:worlds=1")
    for seat, deal in recorder.positions:
        view = view_of(deal, seat)
        history = DealHistory(deal.dealer, deal.last_capturer, tuple(deal.sweeps), tuple(deal.scored_sweeps),
                              tuple(deal.immediate))
        move = kernel_move(view, search, deal.hands, [], history)
        best = best_margin(copy.deepcopy(deal), seat, seat)
        assert _value_of(deal, seat, move, seat) == best, (view.hand, view.table, move)
