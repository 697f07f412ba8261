"""The numba kernel against the reference engine: same captures, same deals, same games.

Decks come from the same counter-based stream and both engines order legal moves the same
way, so with the same strategies (random included: it draws from the deal's own stream)
the frames must be identical, row for row.
"""

from __future__ import annotations

import random

import polars as pl
import pytest
from helpers.tiers import quick_tier
from hypothesis import given, settings
from hypothesis import strategies as st

import simcasino
from simcasino.core.rules import Rules
from simcasino.engine.captures import capture_masks_of
from simcasino.reference.captures import capture_masks

RULE_SETS = {
    "swedish": Rules.preset("swedish"),
    "finnish": Rules.preset("finnish"),
    "swedish-max": Rules.preset("swedish").replace(must_capture_max=True),
    "finnish-max": Rules.preset("finnish").replace(must_capture_max=True),
    "mixed-aces": Rules.preset("swedish").replace(ace_hand=(14,), ace_table=(1, 14), big_kasino_hand=16),
}


def _largest_only(masks: list[int]) -> list[int]:
    if not masks:
        return masks
    most = max(m.bit_count() for m in masks)
    return [m for m in masks if m.bit_count() == most]


@pytest.mark.parametrize("name", RULE_SETS)
def test_capture_options_agree_on_random_positions(name: str) -> None:
    """R-CAPTURE / R-ACE-SE / R-VAL-FI: thousands of random positions, tables of 0 to 12 cards."""
    rules = RULE_SETS[name]
    rng = random.Random(name)
    for _ in range(1500):
        cards = rng.sample(range(52), rng.randint(1, 13))
        expected = capture_masks(cards[0], cards[1:], rules)
        if rules.must_capture_max:
            expected = _largest_only(expected)
        assert capture_masks_of(cards[0], cards[1:], rules) == expected, (cards[0], cards[1:])


@settings(max_examples=300, deadline=None)
@given(cards=st.lists(st.integers(0, 51), min_size=1, max_size=11, unique=True), finnish=st.booleans())
def test_capture_options_agree_hypothesis(cards: list[int], finnish: bool) -> None:
    rules = RULE_SETS["finnish" if finnish else "swedish"]
    assert capture_masks_of(cards[0], cards[1:], rules) == capture_masks(cards[0], cards[1:], rules)


def test_public_capture_options_same_from_both_engines() -> None:
    table = ["AS", "5C", "8H", "9D", "4C", "AH"]
    for rules in ("swedish", "finnish"):
        for card in ("AD", "KC", "10D", "2S", "9S"):
            numba = simcasino.capture_options(card, table, rules)
            assert numba == simcasino.capture_options(card, table, rules, engine="reference")


LINEUPS = [
    ("greedy", "greedy"),
    ("random", "greedy"),
    ("greedy", "random", "greedy"),
    ("random", "greedy", "random", "greedy"),
    ("heuristic", "greedy"),
    ("heuristic", "random", "heuristic:tabbe_denial=0,hold_twos=2"),
]


@pytest.mark.parametrize("name", quick_tier(["swedish", "finnish", "swedish-max"], ["finnish"]))
@pytest.mark.parametrize("lineup", LINEUPS, ids=lambda s: "-".join(s))
def test_whole_deals_identical(name: str, lineup: tuple[str, ...]) -> None:
    rules = RULE_SETS[name]
    fast = simcasino.simulate(rules, lineup, deals=40, seed=11)
    slow = simcasino.simulate(rules, lineup, deals=40, seed=11, engine="reference")
    assert fast.equals(slow)


@pytest.mark.parametrize("name", quick_tier(["swedish", "finnish"], ["swedish"]))
@pytest.mark.parametrize("lineup", LINEUPS, ids=lambda s: "-".join(s))
def test_whole_games_identical(name: str, lineup: tuple[str, ...]) -> None:
    rules = RULE_SETS[name]
    fast = simcasino.play_games(rules, lineup, games=8, seed=5)
    slow = simcasino.play_games(rules, lineup, games=8, seed=5, engine="reference")
    assert fast.equals(slow)


def test_house_rules_games_identical() -> None:
    """Carry, play_on, spade split and the mökki knobs through whole games."""
    rules = Rules.preset("finnish").replace(players=3, cards_tie="carry", tie_break="play_on", target=11)
    lineup = ("greedy", "random", "greedy")
    fast = simcasino.play_games(rules, lineup, games=10, seed=2)
    assert fast.equals(simcasino.play_games(rules, lineup, games=10, seed=2, engine="reference"))


def test_spade_tie_carry_identical() -> None:
    """§4 spades_tie = carry through whole games (two decks: 2 players tie at 13 spades now and
    then); the carried points change the games, so the ties did happen."""
    rules = Rules.preset("finnish").replace(decks=2, spades_tie="carry", target=21)
    lineup = ("greedy", "greedy")
    fast = simcasino.play_games(rules, lineup, games=10, seed=4)
    assert fast.equals(simcasino.play_games(rules, lineup, games=10, seed=4, engine="reference"))
    assert not fast.equals(simcasino.play_games(rules.replace(spades_tie="nobody"), lineup, games=10, seed=4))


def test_spade_tie_split_identical() -> None:
    """§4 spades_tie = split with 3 players, on deals where two players tie for most spades."""
    rules = Rules.preset("finnish").replace(players=3)
    fast = simcasino.simulate(rules, ("greedy", "random", "greedy"), deals=60, seed=4)
    assert fast.equals(simcasino.simulate(rules, ("greedy", "random", "greedy"), deals=60, seed=4, engine="reference"))
    top = fast.group_by("deal").agg((pl.col("spades") == pl.col("spades").max()).sum().alias("leaders"))
    assert (top["leaders"] == 2).any()
