"""The exact endgame solver against a brute-force minimax on the reference engine.

Positions: the stock empty (the last round), taken from reference deals played at random;
the whole deal state is kept. The brute force tries every line of play to the end of the
deal and scores it with the reference engine: the side of the player to move (its partner
too, §6 Partnerships) maximises its margin (its points minus the best other side's, or the
reverse where the fewest points win) and every other seat minimises it. The solver's move
must reach the best margin the brute force finds: the search's with two players (nothing is
hidden then), the clairvoyant's with any number (it sees every hand). As a best response to
the heuristic (``search:respond=1``), the brute force has the other seat play the heuristic's
plain-Python twin (its default weights, those of the search's playouts) and the mover try every
line of its own.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from helpers.kernel_probes import worlds_played

from simcasino.core.protocol import Move, Stream
from simcasino.core.rng import next_below
from simcasino.core.rules import Rules
from simcasino.loop.position import kernel_move
from simcasino.loop.seat import deal_history
from simcasino.reference.state import DealState
from simcasino.strategies import parse_strategy
from simcasino.strategies.heuristic import Heuristic


def _positions(rules: Rules, cards: int, deals: int) -> list[DealState]:
    """Deals of seed 9 played at random (the random strategy's draws); the whole state at
    decisions with the stock empty and at most ``cards`` cards left in all hands (small
    enough to brute-force)."""
    positions = []
    for index in range(deals):
        state = DealState.new(rules, seed=9, index=index)
        stream = Stream(state.rng)
        while not state.is_over:
            if not state.stock and sum(map(len, state.hands)) <= cards:
                positions.append(state.clone())
            view = state.observation(state.to_move)
            state.apply(view.moves[stream.draw(len(view.moves))])
    return positions


def _margin(state: DealState, root: int) -> int:
    points = [seat.points for seat in state.result().seats]
    units = state.rules.units
    others = [p for seat, p in enumerate(points) if seat % units != root % units]
    if state.rules.low_wins:
        return min(others) - points[root]
    return points[root] - max(others)


def best_margin(state: DealState, root: int) -> int:
    """Brute force: the margin for ``root`` with its side maximising and the others minimising."""
    if state.is_over:
        return _margin(state, root)
    values = [_value_of(state, move, root) for move in state.legal_moves()]
    ours = state.to_move % state.rules.units == root % state.rules.units
    return max(values) if ours else min(values)


def _value_of(state: DealState, move: Move, root: int) -> int:
    after = state.clone()
    after.apply(move)
    assert after.winner < 0, "no mid-deal wins from a zero score"
    return best_margin(after, root)


def _solver_move(state: DealState, strategy: str) -> Move:
    return kernel_move(state.observation(state.to_move), parse_strategy(strategy), state.hands, [],
                       deal_history(state))


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
    for state in positions:
        move, seat = _solver_move(state, "search:worlds=1"), state.to_move
        assert _value_of(state, move, seat) == best_margin(state, seat), (state.hands, state.table, move)


@pytest.mark.parametrize("name", quick_first(MORE_PLAYERS, "finnish-3"))
def test_multiplayer_solver_finds_the_best_margin_against_every_other_side(name: str) -> None:
    """Three and four players, partners as one side: the clairvoyant sees every hand, so with
    the stock empty the solver decides its move."""
    rules, cards = MORE_PLAYERS[name]
    positions = _positions(rules, cards=cards, deals=6)
    assert len(positions) >= 15
    for state in positions:
        move, seat = _solver_move(state, "clairvoyant"), state.to_move
        assert _value_of(state, move, seat) == best_margin(state, seat), (state.hands, state.table, move)


def best_response(state: DealState, root: int) -> int:
    """Brute force: the margin for ``root`` trying all its moves, the other seat playing the heuristic."""
    if state.is_over:
        return _margin(state, root)
    if state.to_move != root:
        return _response_after(state, Heuristic().choose(state.observation(state.to_move)), root)
    return max(_response_after(state, move, root) for move in state.legal_moves())


def _response_after(state: DealState, move: Move, root: int) -> int:
    after = state.clone()
    after.apply(move)
    return best_response(after, root)


@pytest.mark.parametrize("name", quick_first(TWO_PLAYERS, "swedish"))
def test_the_best_response_reaches_the_brute_forces_margin(name: str) -> None:
    """Up to 6 cards left, wherever the solve fits its node budget (all but one of these);
    somewhere the minimax's move is a worse response than the best, so the test tells the two
    solves apart (where the fewest points win, none of these positions does)."""
    positions = [s for s in _positions(TWO_PLAYERS[name], cards=6, deals=24) if _solved(s, "search:worlds=1,respond=1")]
    assert len(positions) >= 60
    worse = 0
    for state in positions:
        move, seat = _solver_move(state, "search:worlds=1,respond=1"), state.to_move
        imagined = as_imagined(state, seat)
        best = best_response(imagined, seat)
        assert _response_after(imagined, move, seat) == best, (state.hands, state.table, move)
        worse += _response_after(imagined, _solver_move(state, "search:worlds=1,respond=0"), seat) < best
    assert worse or TWO_PLAYERS[name].low_wins


@pytest.mark.parametrize("name", quick_first(TWO_PLAYERS, "finnish"))
def test_minimax_with_ties_broken_by_the_best_response(name: str) -> None:
    """``respond=2``: a move of the best minimax margin, and of those the best response to the
    heuristic, wherever the minimax solved the position within its node budget (up to 5 cards
    left, all but a few)."""
    solved = [s for s in _positions(TWO_PLAYERS[name], cards=5, deals=8) if _solved(s, "search:worlds=1,respond=2")]
    assert len(solved) >= 30
    for state in solved:
        move, seat = _solver_move(state, "search:worlds=1,respond=2"), state.to_move
        imagined, best = as_imagined(state, seat), best_margin(state, seat)
        assert _value_of(state, move, seat) == best, (state.hands, state.table, move)
        optimal = [m for m in state.legal_moves() if _value_of(state, m, seat) == best]
        response = _response_after(imagined, move, seat)
        assert response == max(_response_after(imagined, m, seat) for m in optimal), (state.hands, state.table, move)


def test_the_tie_break_is_a_better_response_somewhere() -> None:
    """Where several moves share the best minimax margin, ``respond=2`` takes the one the
    heuristic answers worst; the plain minimax takes the first (two of these 48 positions)."""
    better = 0
    for state in _positions(TWO_PLAYERS["swedish"], cards=6, deals=8):
        seat = state.to_move
        imagined = as_imagined(state, seat)
        better += (_response_after(imagined, _solver_move(state, "search:worlds=1,respond=2"), seat)
                   > _response_after(imagined, _solver_move(state, "search:worlds=1,respond=0"), seat))
    assert better


def _solved(state: DealState, strategy: str) -> bool:
    view = state.observation(state.to_move)
    return worlds_played(view, parse_strategy(strategy), state.hands, []) == 0


def as_imagined(state: DealState, seat: int) -> DealState:
    """The state with the other hand in the order the search's one world deals it (the cards it
    cannot see in card order, shuffled by the world's stream, `monte_carlo._deal_hidden`): the
    heuristic breaks ties by hand order, which no player at the table can know."""
    hidden, stream = sorted(state.hands[1 - seat]), np.uint64(0)
    for i in range(len(hidden) - 1, 0, -1):
        stream, j = next_below(stream, np.int64(i + 1))
        hidden[i], hidden[j] = hidden[j], hidden[i]
    hands = [list(hand) for hand in state.hands]
    hands[1 - seat] = hidden
    return dataclasses.replace(state.clone(), hands=hands)
