"""The exact endgame solver against a brute-force minimax on the reference engine.

Positions: the stock empty (the last round), taken from reference deals played at random;
the whole deal state is kept. The brute force tries every line of play to the end of the
deal and scores it with the reference engine: the side of the player to move (its partner
too, §6 Partnerships) maximises its margin (its points minus the best other side's, or the
reverse where the fewest points win) and every other seat minimises it. The solver's move
must reach the best margin the brute force finds: the search's with two players (nothing is
hidden then), the clairvoyant's with any number (it sees every hand).
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
    ``cards`` cards left in all hands (small enough to brute-force)."""

    name = "endgame-recorder"

    def __init__(self, cards: int) -> None:
        self.cards, self.positions = cards, []

    def choose(self, view: View) -> Move:
        deal = view.draw.__self__  # the reference deal behind the view (test access only)
        if view.stock_left == 0 and sum(map(len, deal.hands)) <= self.cards:
            self.positions.append((view.seat, copy.deepcopy(deal)))
        return view.moves[view.draw(len(view.moves))]


def _margin(deal: _Deal, root: int) -> int:
    points = [seat.points for seat in score_deal(deal).seats]
    units = deal.rules.units
    others = [p for seat, p in enumerate(points) if seat % units != root % units]
    if deal.rules.low_wins:
        return min(others) - points[root]
    return points[root] - max(others)


def _finish(deal: _Deal) -> None:
    taker = deal.last_capturer if deal.last_capturer >= 0 else deal.dealer
    for card in deal.table:
        deal.owner[card] = taker
    deal.table = []


def best_margin(deal: _Deal, seat: int, root: int) -> int:
    """Brute force: the margin for ``root`` with its side maximising and the others minimising."""
    if not any(deal.hands):
        _finish(deal)
        return _margin(deal, root)
    values = [_value_of(deal, seat, move, root) for move in legal_moves(deal, seat)]
    ours = seat % deal.rules.units == root % deal.rules.units
    return max(values) if ours else min(values)


def _value_of(deal: _Deal, seat: int, move: Move, root: int) -> int:
    after = copy.deepcopy(deal)
    assert not apply_move(after, seat, move), "no mid-deal wins from a zero score"
    n = deal.rules.players
    following = [(seat + k) % n for k in range(1, n + 1)]
    return best_margin(after, next(s for s in following if after.hands[s] or s == seat), root)


def _positions(rules: Rules, cards: int, deals: int) -> list[tuple[int, _Deal]]:
    recorder = _EndgameRecorder(cards)
    simcasino.simulate(rules, [recorder] * rules.players, deals=deals, seed=9, engine="reference")
    return recorder.positions


def _solver_move(deal: _Deal, seat: int, strategy: str) -> Move:
    immediate = tuple(deal.immediate[s % deal.rules.units] for s in range(deal.rules.players))  # per seat
    history = DealHistory(deal.dealer, deal.last_capturer, tuple(deal.sweeps), tuple(deal.scored_sweeps), immediate)
    return kernel_move(view_of(deal, seat), parse_strategy(strategy), deal.hands, [], history)


TWO_PLAYERS = {
    "swedish": Rules.preset("swedish"),
    "finnish": Rules.preset("finnish"),
    "swedish-low-wins": Rules.preset("swedish").replace(low_wins=True, tie_break="play_on"),
}
MORE_PLAYERS = {  # (rules, cards left at most)
    "swedish-3": (Rules.preset("swedish").replace(players=3), 6),
    "finnish-3": (Rules.preset("finnish").replace(players=3), 6),
    "swedish-4": (Rules.preset("swedish").replace(players=4), 7),
    "swedish-4-partners": (Rules.preset("swedish").replace(players=4, partnership=2), 7),
    "swedish-3-low-wins": (Rules.preset("swedish").replace(players=3, low_wins=True, tie_break="play_on"), 6),
}


def quick_first(names: dict, quick: str) -> list:
    """Every case, all but ``quick`` marked slow: the brute force takes seconds a case."""
    return [name if name == quick else pytest.param(name, marks=pytest.mark.slow) for name in names]


@pytest.mark.parametrize("name", quick_first(TWO_PLAYERS, "finnish"))
def test_solver_finds_the_best_margin(name: str) -> None:
    positions = _positions(TWO_PLAYERS[name], cards=5, deals=8)
    assert len(positions) >= 20
    for seat, deal in positions:
        move = _solver_move(deal, seat, "search:worlds=1")
        best = best_margin(copy.deepcopy(deal), seat, seat)
        assert _value_of(deal, seat, move, seat) == best, (deal.hands, deal.table, move)


@pytest.mark.parametrize("name", quick_first(MORE_PLAYERS, "finnish-3"))
def test_multiplayer_solver_finds_the_best_margin_against_every_other_side(name: str) -> None:
    """Three and four players, partners as one side: the clairvoyant sees every hand, so with
    the stock empty the solver decides its move."""
    rules, cards = MORE_PLAYERS[name]
    positions = _positions(rules, cards=cards, deals=6)
    assert len(positions) >= 15
    for seat, deal in positions:
        move = _solver_move(deal, seat, "clairvoyant")
        best = best_margin(copy.deepcopy(deal), seat, seat)
        assert _value_of(deal, seat, move, seat) == best, (deal.hands, deal.table, move)

