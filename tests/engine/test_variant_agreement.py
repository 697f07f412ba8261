"""The numba kernel against the reference engine on every §6 preset and the variant knobs:
capture options on random positions (two decks: identical cards on the table and in hand),
whole deals and whole games, with every strategy, 2-6 players and partnerships."""

from __future__ import annotations

import random

import pytest
from helpers.tiers import quick_tier

import simcasino
from simcasino.core.rules import PRESETS, Rules
from simcasino.engine.captures import capture_masks_of
from simcasino.reference.captures import allowed_captures

VARIANTS = [name for name in PRESETS if name not in ("swedish", "finnish") and not PRESETS[name].builds]
KNOB_SETS = {
    **{name: PRESETS[name] for name in VARIANTS},
    # §6 Glimne's Mulle scoring: a mulle within a capture, worth the card's value; A♠ 2
    "glimne-without-builds": PRESETS["mulle_glimne"].replace(builds=False),
    # maximal captures with a Swedish ace's two values, and must-capture without "largest"
    "swedish-maximal": Rules.preset("swedish").replace(decks=2, must_capture_max=True, max_capture="maximal"),
    "swedish-must": Rules.preset("swedish").replace(must_capture=True),
}


@pytest.mark.parametrize("name", KNOB_SETS)
def test_capture_options_agree_on_random_positions(name: str) -> None:
    """R-CAPTURE, R-DECK, §6: the captures a card may make, on tables of up to 12 cards
    drawn from the preset's deck (two decks: identical cards side by side)."""
    rules = KNOB_SETS[name]
    rng = random.Random(name)
    for _ in range(800):
        if rules.decks == 2:  # both copies of a few kinds: identical cards are likely
            kinds = rng.sample(range(52), 8)
            cards = rng.sample(kinds + [k + 52 for k in kinds], rng.randint(1, 13))
        else:
            cards = rng.sample(range(52), rng.randint(1, 13))
        assert capture_masks_of(cards[0], cards[1:], rules) == allowed_captures(cards[0], cards[1:], rules), cards


LINEUPS = [("greedy", "greedy"), ("random", "greedy"), ("greedy", "random", "greedy"), ("heuristic", "greedy")]


@pytest.mark.parametrize("name", quick_tier(KNOB_SETS, ["mulle", "swedish-maximal"]))
@pytest.mark.parametrize("lineup", LINEUPS, ids=lambda s: "-".join(s))
def test_whole_deals_identical(name: str, lineup: tuple[str, ...]) -> None:
    rules = KNOB_SETS[name]
    fast = simcasino.simulate(rules, lineup, deals=12, seed=7)
    assert fast.equals(simcasino.simulate(rules, lineup, deals=12, seed=7, engine="reference"))


TABLES = {
    "swedish-4-teams": (Rules.preset("swedish").replace(players=4, partnership=2), ("greedy", "random") * 2),
    "finnish-4-teams": (Rules.preset("finnish").replace(players=4, partnership=2), ("random", "greedy") * 2),
    "misere-4-teams": (Rules.preset("misere").replace(players=4, partnership=2, double_sweep=True),
                       ("greedy", "random") * 2),
    "kryp-5": (Rules.preset("krypkasino").replace(players=5), ("greedy", "random", "greedy", "greedy", "random")),
    "kryp-6-pairs": (Rules.preset("krypkasino").replace(players=6, partnership=2), ("greedy", "random") * 3),
    "kryp-6-threes": (Rules.preset("krypkasino").replace(players=6, partnership=3), ("random", "greedy") * 3),
    "mulle-4-teams": (Rules.preset("mulle").replace(players=4, partnership=2), ("greedy", "random") * 2),
    # §6 Builds
    "rakennuskasino-3": (Rules.preset("rakennuskasino").replace(players=3), ("greedy", "random", "greedy")),
    "rakennuskasino-4-teams": (Rules.preset("rakennuskasino").replace(players=4, partnership=2),
                               ("random", "greedy") * 2),
    "glimne-4-teams": (Rules.preset("mulle_glimne").replace(players=4, partnership=2), ("greedy", "random") * 2),
    "rakennuskasino-4-teams-heuristic": (Rules.preset("rakennuskasino").replace(players=4, partnership=2),
                                         ("heuristic", "greedy") * 2),
    "glimne-3-heuristic": (Rules.preset("mulle_glimne").replace(players=3), ("heuristic", "random", "heuristic")),
}


@pytest.mark.parametrize("name", quick_tier(TABLES, ["kryp-5", "rakennuskasino-4-teams-heuristic",
                                                       "glimne-3-heuristic"]))
def test_more_players_and_teams_identical(name: str) -> None:
    rules, lineup = TABLES[name]
    fast = simcasino.simulate(rules, lineup, deals=8, seed=3)
    assert fast.equals(simcasino.simulate(rules, lineup, deals=8, seed=3, engine="reference"))
    games = simcasino.play_games(rules, lineup, games=2, seed=3)
    assert games.equals(simcasino.play_games(rules, lineup, games=2, seed=3, engine="reference"))


@pytest.mark.parametrize("name", VARIANTS)
def test_whole_games_identical(name: str) -> None:
    lineup = ("random", "greedy")
    fast = simcasino.play_games(name, lineup, games=3, seed=5)
    assert fast.equals(simcasino.play_games(name, lineup, games=3, seed=5, engine="reference"))
