"""The clairvoyant ceiling and the hand-seer (the search shown the other hands): they read where
the hidden cards lie (the fair players never do), repeat from the seed on any number of
threads, play only in the kernel, and `strategies list` marks them as seeing hidden cards."""

from __future__ import annotations

import pytest
from helpers.cli import run
from helpers.hidden import deal_hidden
from helpers.positions import recorded_views

import simcasino
from simcasino.core.rules import Rules
from simcasino.loop.position import kernel_move
from simcasino.strategies import KERNEL_ORDER, PLUGINS, StrategySpec, parse_strategy

FAIR = ("greedy", "heuristic", "search:worlds=3", "search:worlds=3,belief=0")
SEEING = ("clairvoyant", "hand-seer:budget=256")
MARK = "[sees hidden cards]"


@pytest.mark.parametrize("seeing", SEEING)
@pytest.mark.parametrize("rules", [Rules.preset("swedish"), Rules.preset("finnish").replace(players=3)],
                         ids=["swedish-2", "finnish-3"])
def test_reshuffled_hidden_cards_move_a_seeing_strategy_and_never_a_fair_player(rules: Rules, seeing: str) -> None:
    """The same positions with the unseen cards dealt two ways: every fair strategy plays the
    same move in both; the clairvoyant (the true deal) and the hand-seer (the true hands)
    change their moves in some."""
    views = recorded_views(rules, deals=3)[::3]
    fair = [parse_strategy(name) for name in FAIR]
    seer = parse_strategy(seeing)
    changed = 0
    for view in views:
        one, two = deal_hidden(view, 1), deal_hidden(view, 2)
        for spec in fair:
            assert kernel_move(view, spec, *one) == kernel_move(view, spec, *two), spec.label
        changed += kernel_move(view, seer, *one) != kernel_move(view, seer, *two)
    assert changed >= 2


def test_same_seed_same_deals_on_any_number_of_threads() -> None:
    lineup = ("clairvoyant", "search:worlds=2", "heuristic")
    rules = Rules.preset("swedish").replace(players=3)
    one = simcasino.simulate(rules, lineup, deals=8, seed=4, threads=1)
    assert one.equals(simcasino.simulate(rules, lineup, deals=8, seed=4, threads=2))


def test_reference_engine_refuses_the_clairvoyant() -> None:
    with pytest.raises(ValueError, match="has no Python form: it plays in the kernel"):
        simcasino.simulate("swedish", ("clairvoyant", "greedy"), deals=1, engine="reference")


def test_only_the_measuring_sticks_see_hidden_cards() -> None:
    assert [name for name in KERNEL_ORDER if StrategySpec(name).sees_hidden] == ["clairvoyant", "hand-seer"]


def test_the_hand_seer_keeps_the_hands_and_deals_the_stock_anew() -> None:
    """Dealing only the stock anew leaves the hand-seer's move where the hands stay (the stock's
    order is hidden from it too); dealing the hands anew moves it (see the test above)."""
    rules = Rules.preset("swedish")
    seer, moved = parse_strategy("hand-seer:budget=256"), 0
    for view in recorded_views(rules, deals=3)[::3]:
        hands, stock = deal_hidden(view, 1)
        if len(stock) > 1:
            moved += kernel_move(view, seer, hands, stock) != kernel_move(view, seer, hands, stock[::-1])
    assert moved == 0


def test_strategies_list_marks_the_strategies_that_see_hidden_cards() -> None:
    result = run("strategies", "list")
    assert result.exit_code == 0
    listing = result.stdout.split("\n\n")[0]  # the strategies, then after a blank line what follow= takes
    named = {line.split()[0]: line for line in listing.splitlines() if line[:1].strip()}
    assert set(named) == set(KERNEL_ORDER) | set(PLUGINS)  # the plug-ins (OpenSpiel's bots) listed after
    assert {name for name, line in named.items() if MARK in line} == {"clairvoyant", "hand-seer"}
