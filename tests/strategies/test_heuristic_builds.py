"""The heuristic and the search with §6 builds (docs/rules.md §6 "Builds", Rakennuskasino): each
builds term changes the decision where it names, the kernel form values every move as the
plain-Python form does (random positions with builds on the table, the builder's obligation
included) without seeing hidden cards, and the search plays whole deals within the rules."""

from __future__ import annotations

import random

import pytest
from helpers.hidden import deal_hidden
from helpers.positions import BUILD_RULE_SETS, random_build_position
from helpers.tiers import quick_tier

import simcasino
from simcasino.advice.sight import unseen_cards
from simcasino.analyze import analyze
from simcasino.core.cards import parse_cards
from simcasino.core.protocol import Move, View
from simcasino.core.rules import Rules
from simcasino.core.table import parse_item
from simcasino.loop.position import kernel_move
from simcasino.reference.state import position_view
from simcasino.strategies import StrategySpec, parse_strategy
from simcasino.strategies.heuristic import PARAMS, Heuristic, miss_milli, take_risk

BUILDS = Rules.preset("rakennuskasino")


def position(hand: str, table: str, seen: str = "") -> View:
    """Seat 0 to play ``hand`` on ``table`` (builds as ``3C+4D=7@1``: owner seat 1 unless
    given); ``seen`` cards lie in a pile; the rest is unseen."""
    return position_view(BUILDS, parse_cards(hand), [parse_item(t) for t in table.split()], parse_cards(seen))


def only(name: str, **changes: float) -> dict[str, float]:
    """Every tactic off but material and ``name``, then ``changes``."""
    tactics = [p for p in PARAMS if p not in ("ace_value", "spade_value", "card_value")]
    return {**{p: 0.0 for p in tactics if p != name}, **changes}


def choice(view: View, **params: float) -> Move:
    """The Python form's move, checked against the kernel form's (hidden cards dealt out)."""
    move = Heuristic(params).choose(view)
    hands, stock = deal_hidden(view, 1)
    assert kernel_move(view, parse_strategy(_label(params)), hands, stock) == move
    return move


def _label(params: dict[str, float]) -> str:
    return "heuristic" + (":" + ",".join(f"{k}={v}" for k, v in params.items()) if params else "")


def test_builds_a_build_it_can_take_next_turn() -> None:
    """§6: 5♥ onto 4♦ building 9 while holding 9♣ (take 4+5+9 next turn); weight 0 trails."""
    view = position("5H 9C", "4D KS")
    assert choice(view, **only("builds")) == Move.build(0, view.hand[0], 0, 9)
    assert choice(view) == Move.build(0, view.hand[0], 0, 9)  # the default weights build too
    assert not choice(view, **only("builds", builds=0)).is_build


def test_weight_zero_builds_only_when_obliged() -> None:
    """§6 obligation: owning a build and nothing to take, the only moves raise it."""
    view = position("2H 9C", "3C+4D=7@0 KS")
    assert all(m.is_build for m in view.moves)
    assert choice(view, **only("builds", builds=0)) == Move.build(0, view.hand[0], 0, 9)


def test_raises_an_opponents_build_when_holding_the_new_value() -> None:
    """§6: any player may raise a single build holding the new value: 3♥ onto the opponent's
    [3♣+4♦=7] makes it ours at 10, with 10♠ in hand to take it."""
    view = position("3H 10S", "3C+4D=7@1 KS")
    raise_it = Move.build(0, view.hand[0], 0, 10)
    assert choice(view, **only("builds")) == raise_it
    assert choice(view) == raise_it
    assert not choice(view, **only("builds", builds=0)).is_build


def test_tabbe_denial_takes_the_opponents_build_rather_than_leave_it() -> None:
    """§7.4 for builds: the opponent's [A♣+6♦=7] left on the table is as good as theirs, so
    7♥ takes it (with 7♠) rather than Q♣ taking four spades and leaving it."""
    view = position("7H QC", "AC+6D=7@1 5S 7S 3S 9S KD")
    assert choice(view, **only("tabbe_denial")) == Move.capture(0, view.hand[0], 0b101)
    assert choice(view, **only("tabbe_denial", tabbe_denial=0)) == Move.capture(1, view.hand[1], 0b11110)


def test_take_risk_reads_owner_and_unseen_cards() -> None:
    """An opponent's build is taken for sure while a card of its value is unseen; ours with
    the chance that the opponent's hand (as large as ours) holds one; none once all are seen."""
    view = position("5H 9C", "4D KS")
    seen = unseen_cards(view)
    assert take_risk(9, 1, seen, view) == 1000
    assert take_risk(9, 0, seen, view) == 1000 - miss_milli(len(seen.unseen), 3, 2)
    gone = position("5H 9C", "4D KS", seen="9S 9H 9D")
    assert take_risk(9, 0, unseen_cards(gone), gone) == take_risk(9, 1, unseen_cards(gone), gone) == 0
    assert miss_milli(10, 0, 4) == 1000 and miss_milli(4, 4, 1) == 0


WEIGHTS = ["heuristic", "heuristic:builds=0",
           "heuristic:builds=2.5,tabbe_denial=3,finnish_threats=1,lone_ace=0.5,storan_early=0.5",
           "heuristic:builds=-1,tabbe_denial=-1,ace_value=0.2"]


@pytest.mark.parametrize("name", quick_tier(BUILD_RULE_SETS, ["rakennuskasino"]))
@pytest.mark.parametrize("strategy", WEIGHTS)
def test_kernel_matches_python_on_random_positions_with_builds(name: str, strategy: str) -> None:
    """Builds onto cards and builds, raises, doubles, captures of builds (Glimne's mulle
    within one), the obligation: the same move in both forms, whatever the hidden cards."""
    rules, spec = BUILD_RULE_SETS[name], parse_strategy(strategy)
    python = spec.python()
    rng = random.Random(strategy + name)
    built = 0
    for _ in range(150):
        deal, seat = random_build_position(rules, rng)
        view = deal.observation(seat)
        expected = python.choose(view)
        built += expected.is_build
        for order in (1, 2):
            hands, stock = deal_hidden(view, order)
            assert kernel_move(view, spec, hands, stock) == expected, (deal.hands[seat], deal.table)
    assert built > 0 or "builds=0" in strategy


@pytest.mark.parametrize("stock", [False, True], ids=["exact", "sampled"])
def test_search_respects_the_obligation(stock: bool) -> None:
    """The search's move (exact endgame, or sampled worlds) is always legal, on positions
    where the player owns a build too."""
    rules, rng = BUILD_RULE_SETS["rakennuskasino"], random.Random(5)
    spec = parse_strategy("search:worlds=4")
    obliged = 0
    for _ in range(60):
        deal, seat = random_build_position(rules, rng)
        view = deal.observation(seat)
        hands, rest = deal_hidden(view, 1)
        move = kernel_move(view, spec, hands, rest if stock else [])
        assert move in view.moves, (deal.hands[seat], deal.table)
        obliged += all(not m.is_trail for m in view.moves)
    assert obliged > 5


@pytest.mark.parametrize("name", ["rakennuskasino", "mulle_glimne"])
def test_search_and_heuristic_play_whole_deals_with_builds(name: str) -> None:
    frame = simcasino.simulate(Rules.preset(name), ("search:worlds=4", "heuristic"), deals=3, seed=2)
    assert frame.height == 6 and frame["builds"].sum() > 0
    assert frame["unheld_builds"].sum() == 0  # every build's value held, as the rules ask


def test_analyze_judges_build_moves() -> None:
    rows = analyze("5H 9C", "4D KS", rules="rakennuskasino").to_dicts()
    assert rows[0]["move"].startswith("build 5H on 4D to ")
    assert all(r["heuristic"] is not None for r in rows)
    assert StrategySpec("search").plays_builds and StrategySpec("heuristic").plays_builds
