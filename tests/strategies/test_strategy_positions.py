"""Jitted strategies on single positions: the same move as their plain-Python form, and
blind to what the player cannot see (other hands, the stock order).

Positions come from reference deals played at random; at each, the cards the player cannot
see are dealt to the other hands and the stock twice, in two different orders (the issue's
"shuffle the hidden cards" test), and the jitted strategy must answer the same both times.
"""

from __future__ import annotations

import pytest
from helpers.hidden import deal_hidden
from helpers.positions import recorded_views
from helpers.tiers import quick_tier

from simcasino.core.rules import Rules
from simcasino.loop.position import kernel_move
from simcasino.strategies import parse_strategy

RULE_SETS = {
    "swedish-2": Rules.preset("swedish"),
    "finnish-2": Rules.preset("finnish"),
    "finnish-3": Rules.preset("finnish").replace(players=3),
    "swedish-4-max": Rules.preset("swedish").replace(players=4, must_capture_max=True),
    "rakennuskasino": Rules.preset("rakennuskasino"),  # §6 builds
    "mulle_glimne": Rules.preset("mulle_glimne"),
}
STRATEGIES = ["greedy", "heuristic", "heuristic:tabbe_denial=0,hold_twos=3,trail_points=0.5"]


@pytest.mark.parametrize("name", quick_tier(RULE_SETS, ["finnish-3", "rakennuskasino"]))
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_kernel_move_matches_python_and_ignores_hidden_cards(name: str, strategy: str) -> None:
    spec = parse_strategy(strategy)
    python = spec.python()
    views = recorded_views(RULE_SETS[name], deals=6)
    assert len(views) > 100
    for view in views:
        expected = python.choose(view)
        for order in (1, 2):
            hands, stock = deal_hidden(view, order)
            assert kernel_move(view, spec, hands, stock) == expected, (view.hand, view.table)


def test_hidden_cards_change_the_deal_not_the_choice() -> None:
    """The two orders really differ (else the test above could not fail)."""
    view = recorded_views(RULE_SETS["swedish-2"], deals=1)[0]
    assert deal_hidden(view, 1) != deal_hidden(view, 2)
