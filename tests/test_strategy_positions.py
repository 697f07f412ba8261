"""Jitted strategies on single positions: the same move as their plain-Python form, and
blind to what the player cannot see (other hands, the stock order).

Positions come from reference deals played at random; at each, the cards the player cannot
see are dealt to the other hands and the stock twice, in two different orders (the issue's
"shuffle the hidden cards" test), and the jitted strategy must answer the same both times.
"""

from __future__ import annotations

import random as stdlib_random

import pytest

import simcasino
from simcasino.engine.position import kernel_move
from simcasino.rules import Rules
from simcasino.strategies import parse_strategy
from simcasino.strategies.protocol import Move, View


class _Recorder:
    """Plays uniformly at random and keeps every view it is shown."""

    name = "recorder"

    def __init__(self) -> None:
        self.views: list[View] = []

    def choose(self, view: View) -> Move:
        self.views.append(view)
        return view.moves[view.draw(len(view.moves))]


def _views(rules: Rules, deals: int) -> list[View]:
    recorder = _Recorder()
    simcasino.simulate(rules, [recorder] * rules.players, deals=deals, seed=3, engine="reference")
    return recorder.views


def _hidden(view: View) -> list[int]:
    visible = set(view.hand) | set(view.table) | {card for _, card in view.played}
    visible |= {card for card, owner in enumerate(view.captured_by) if owner >= 0}
    return [card for card in range(52) if card not in visible]


def _deal_hidden(view: View, order: int) -> tuple[list[list[int]], list[int]]:
    """The unseen cards in a shuffled order: other hands as big as the player's, the rest stock."""
    cards = _hidden(view)
    stdlib_random.Random(order).shuffle(cards)
    hands: list[list[int]] = []
    for _ in range(view.rules.players):
        size = min(len(view.hand), len(cards))
        hands.append(cards[:size])
        cards = cards[size:]
    return hands, cards


RULE_SETS = {
    "swedish-2": Rules.preset("swedish"),
    "finnish-2": Rules.preset("finnish"),
    "finnish-3": Rules.preset("finnish").replace(players=3),
    "swedish-4-max": Rules.preset("swedish").replace(players=4, must_capture_max=True),
}
STRATEGIES = ["greedy", "heuristic", "heuristic:tabbe_denial=0,hold_twos=3,trail_safety=0.5"]


@pytest.mark.parametrize("name", RULE_SETS)
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_kernel_move_matches_python_and_ignores_hidden_cards(name: str, strategy: str) -> None:
    spec = parse_strategy(strategy)
    python = spec.python()
    views = _views(RULE_SETS[name], deals=6)
    assert len(views) > 100
    for view in views:
        expected = python.choose(view)
        for order in (1, 2):
            hands, stock = _deal_hidden(view, order)
            assert kernel_move(view, spec, hands, stock) == expected, (view.hand, view.table)


def test_hidden_cards_change_the_deal_not_the_choice() -> None:
    """The two orders really differ (else the test above could not fail)."""
    view = _views(RULE_SETS["swedish-2"], deals=1)[0]
    assert _deal_hidden(view, 1) != _deal_hidden(view, 2)


def test_kernel_dispatch_follows_the_registry() -> None:
    """`dispatch.choose_move` branches on registry numbers in KERNEL_ORDER."""
    from simcasino.strategies import KERNEL_ID
    from simcasino.strategies.dispatch import KERNEL_ORDER

    assert tuple(KERNEL_ID) == KERNEL_ORDER
