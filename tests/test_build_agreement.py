"""The numba kernel against the reference engine with §6 builds: the legal moves and greedy's
choice on random positions with builds on the table (the builder's obligation included), and
whole deals and games of Rakennuskasino, Glimne's Mulle and Swedish rules with builds (with
3 and 4 players and teams: test_variant_agreement)."""

from __future__ import annotations

import random

import pytest

import simcasino
from simcasino.core.rules import Rules
from simcasino.core.table import Build
from simcasino.loop.position import kernel_move, kernel_moves
from simcasino.reference.captures import table_values
from simcasino.reference.deal import _Deal, legal_moves, view_of
from simcasino.strategies import StrategySpec
from simcasino.strategies.greedy import Greedy

RULE_SETS = {
    "rakennuskasino": Rules.preset("rakennuskasino"),
    "mulle_glimne": Rules.preset("mulle_glimne"),
    "swedish-builds": Rules.preset("swedish").replace(builds=True),
    "rakennuskasino-penalty": Rules.preset("rakennuskasino").replace(build_penalty=-5),
}


def random_deal(rules: Rules, rng: random.Random) -> tuple[_Deal, int]:
    """A position of seat 0 or 1: 1-4 cards in hand, up to 8 table items of which some are
    builds (2-3 cards, the value one of their sums or a double) owned by either seat. Two decks
    draw from few kinds, so identical cards meet on the table, in hand and in builds."""
    if rules.decks == 2:
        kinds = rng.sample(range(52), 10)
        pool = rng.sample(kinds + [k + 52 for k in kinds], 20)
    else:
        pool = rng.sample(range(52), 30)
    seat = rng.randrange(2)
    deal = _Deal(rules, list(range(rules.deck_size)), 1, [0, 0], 0)
    deal.hands = [[], []]
    deal.hands[seat] = [pool.pop() for _ in range(rng.randint(1, 4))]
    deal.start_counts()
    for _ in range(rng.randint(1, 8)):
        if rng.random() < 0.35 and len(pool) >= 3:
            cards = tuple(pool.pop() for _ in range(rng.randint(2, 3)))
            sums = {0}
            for c in cards:
                sums = {s + v for s in sums for v in table_values(c, rules)}
            value = rng.choice(sorted(v for v in sums if v <= 16) or [16])
            deal.table.append(Build(cards, value, rng.randrange(2), rng.random() < 0.3))
        elif pool:
            deal.table.append(pool.pop())
    return deal, seat


@pytest.mark.parametrize("name", RULE_SETS)
def test_legal_moves_and_greedy_agree_on_random_positions(name: str) -> None:
    """§6 Builds: builds onto cards and builds, raises, doubles, captures of builds, the
    obligation; greedy's choice among them (R-DECK: identical cards with two decks)."""
    rules = RULE_SETS[name]
    rng = random.Random(name)
    obliged = built = 0
    for _ in range(400):
        deal, seat = random_deal(rules, rng)
        view = view_of(deal, seat)
        expected = legal_moves(deal, seat)
        assert kernel_moves(view) == expected, (deal.hands[seat], deal.table)
        assert kernel_move(view, StrategySpec("greedy"), [[], []], []) == Greedy().choose(view), (deal.hands[seat], deal.table)
        obliged += all(not m.is_trail for m in expected)
        built += any(m.build for m in expected)
    assert obliged > 40 and built > 50  # the positions do exercise the rules


LINEUPS = [("greedy", "random"), ("random", "greedy"), ("greedy", "greedy"), ("greedy:builds=0", "greedy"),
           ("heuristic", "greedy"), ("random", "heuristic:builds=0")]


@pytest.mark.parametrize("name", RULE_SETS)
@pytest.mark.parametrize("lineup", LINEUPS, ids=lambda s: "-".join(s))
def test_whole_deals_identical(name: str, lineup: tuple[str, ...]) -> None:
    rules = RULE_SETS[name]
    fast = simcasino.simulate(rules, lineup, deals=15, seed=7)
    assert fast.equals(simcasino.simulate(rules, lineup, deals=15, seed=7, engine="reference"))
    assert fast["builds"].sum() > 0


@pytest.mark.parametrize("name", ["rakennuskasino", "swedish-builds"])
def test_whole_games_identical(name: str) -> None:
    """Finnish games end mid-deal when the points taken at capture (builds too) reach 16."""
    rules = RULE_SETS[name]
    fast = simcasino.play_games(rules, ("random", "greedy"), games=3, seed=5)
    assert fast.equals(simcasino.play_games(rules, ("random", "greedy"), games=3, seed=5, engine="reference"))
