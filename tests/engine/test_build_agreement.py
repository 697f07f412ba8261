"""The numba kernel against the reference engine with §6 builds: the legal moves and greedy's
choice on random positions with builds on the table (the builder's obligation included), and
whole deals and games of Rakennuskasino, Glimne's Mulle and Swedish rules with builds (with
3 and 4 players and teams: test_variant_agreement)."""

from __future__ import annotations

import random

import pytest
from helpers.kernel_probes import kernel_moves
from helpers.positions import BUILD_RULE_SETS, random_build_position
from helpers.tiers import quick_tier

import simcasino
from simcasino.loop.position import kernel_move
from simcasino.strategies import StrategySpec
from simcasino.strategies.greedy import Greedy


@pytest.mark.parametrize("name", BUILD_RULE_SETS)
def test_legal_moves_and_greedy_agree_on_random_positions(name: str) -> None:
    """§6 Builds: builds onto cards and builds, raises, doubles, captures of builds, the
    obligation; greedy's choice among them (R-DECK: identical cards with two decks)."""
    rules = BUILD_RULE_SETS[name]
    rng = random.Random(name)
    obliged = built = 0
    for _ in range(400):
        deal, seat = random_build_position(rules, rng)
        view = deal.observation(seat)
        expected = deal.legal_moves()
        assert kernel_moves(view) == expected, (deal.hands[seat], deal.table)
        assert kernel_move(view, StrategySpec("greedy"), [[], []], []) == Greedy().choose(view), (
            deal.hands[seat],
            deal.table,
        )
        obliged += all(not m.is_trail for m in expected)
        built += any(m.is_build for m in expected)
    assert obliged > 40 and built > 50  # the positions do exercise the rules


LINEUPS = [("greedy", "random"), ("random", "greedy"), ("greedy", "greedy"), ("greedy:builds=0", "greedy"),
           ("heuristic", "greedy"), ("random", "heuristic:builds=0")]


@pytest.mark.parametrize("name", quick_tier(BUILD_RULE_SETS, ["rakennuskasino"]))
@pytest.mark.parametrize("lineup", LINEUPS, ids=lambda s: "-".join(s))
def test_whole_deals_identical(name: str, lineup: tuple[str, ...]) -> None:
    rules = BUILD_RULE_SETS[name]
    fast = simcasino.simulate(rules, lineup, deals=15, seed=7)
    assert fast.equals(simcasino.simulate(rules, lineup, deals=15, seed=7, engine="reference"))
    assert fast["builds"].sum() > 0


@pytest.mark.parametrize("name", ["rakennuskasino", "swedish-builds"])
def test_whole_games_identical(name: str) -> None:
    """Finnish games end mid-deal when the points taken at capture (builds too) reach 16."""
    rules = BUILD_RULE_SETS[name]
    fast = simcasino.play_games(rules, ("random", "greedy"), games=3, seed=5)
    assert fast.equals(simcasino.play_games(rules, ("random", "greedy"), games=3, seed=5, engine="reference"))
