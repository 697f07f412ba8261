"""Deal invariants on many numba deals per preset and player count.

Every card ends in exactly one pile (the per-seat counts add up to the deck: 52 cards,
13 spades, 4 aces, one 10♦, one 2♠, one sistan; twice that with two decks), and each deal's
points add up to the rules' fixed total plus the tabbes, less the most-spades / most-cards
points nobody got because of a tie (§4), plus the §6 items: spades beyond six, mulles,
Krypkasino's spades and the tabbe transfers (+5 to the sweeper, -5 to the player before:
always 42 a deal), Glimne's A♠ and the build penalties (§6 Builds). In partnerships every
seat shows its team's row, so one row per team is counted.
"""

from __future__ import annotations

import polars as pl
import pytest
from helpers.tiers import quick_tier

import simcasino
from simcasino.core.rules import Rules

DEALS = 100_000


def _expected_points(frame: pl.DataFrame, rules: Rules) -> pl.DataFrame:
    """Per deal: the points the rules must hand out, recomputed independently of the engine."""
    spade_leaders = (pl.col("spades") == pl.col("spades").max()).sum()
    card_leaders = (pl.col("cards") == pl.col("cards").max()).sum()
    split = rules.spades_tie == "split"
    spades_award = (
        pl.when(spade_leaders == 1)
        .then(rules.most_spades_points)
        .when((spade_leaders == 2) & split)
        .then(2 * (rules.most_spades_points // 2))
        .otherwise(0)
    )
    cards_award = pl.when(card_leaders == 1).then(rules.most_cards_points).otherwise(0)
    decks = rules.decks
    fixed = decks * (4 * rules.ace_points + rules.big_kasino_points + rules.small_kasino_points
                     + 13 * rules.spade_points + rules.ace_of_spades_points) + rules.sistan_points
    over = (pl.col("spades") - rules.spades_over).clip(lower_bound=0).sum() if rules.spades_over else 0
    frame = frame.filter(pl.col("seat") < rules.units)
    return frame.group_by("deal").agg(
        total=pl.col("points").sum(),
        expected=fixed + spades_award + cards_award + over
        + rules.tabbe_points * pl.col("tabbes").sum()
        + rules.tabbe_previous_points * pl.col("tabbes_given").sum()
        + pl.col("mulles_points").sum()
        + rules.build_penalty * pl.col("unheld_builds").sum(),
        mulle_points_counted=(pl.col("mulles_points") == rules.mulle_points * pl.col("mulles")).all(),
        given_is_tabbes=pl.col("tabbes_given").sum() == pl.col("tabbes").sum(),
        cards=pl.col("cards").sum(),
        spades=pl.col("spades").sum(),
        aces=pl.col("aces").sum(),
        big=pl.col("big_kasino").sum(),
        small=pl.col("small_kasino").sum(),
        sistan=pl.col("sistan").sum(),
        tabbes_within_sweeps=(pl.col("tabbes") <= pl.col("sweeps")).all(),
    )


CASES = [(preset, players, 0, DEALS) for preset in ("swedish", "finnish") for players in (2, 3, 4)]
CASES += [("overspader", players, 0, 20_000) for players in (2, 3, 4)]
CASES += [("mulle", players, 0, 20_000) for players in (2, 3, 4)] + [("mulle", 4, 2, 10_000)]
CASES += [("misere", 2, 0, 20_000), ("misere", 3, 0, 20_000), ("misere", 4, 2, 10_000)]
CASES += [("krypkasino", players, 0, 10_000) for players in (2, 3, 4, 5, 6)]
CASES += [("krypkasino", 4, 2, 10_000), ("krypkasino", 6, 2, 5_000), ("krypkasino", 6, 3, 5_000)]
CASES += [("swedish", 4, 2, 20_000), ("finnish", 4, 2, 20_000)]
CASES += [("rakennuskasino", players, 0, 20_000) for players in (2, 3, 4)] + [("rakennuskasino", 4, 2, 10_000)]
CASES += [("mulle_glimne", 2, 0, 20_000), ("mulle_glimne", 4, 2, 10_000)]
CASES += [("swedish-builds", 2, 0, 20_000), ("rakennuskasino-penalty", 2, 0, 20_000)]
OTHER_RULES = {  # §6 Builds with Swedish rules, and with the -5 penalty rule
    "swedish-builds": Rules.preset("swedish").replace(builds=True),
    "rakennuskasino-penalty": Rules.preset("rakennuskasino").replace(build_penalty=-5),
}


@pytest.mark.parametrize("preset, players, partnership, deals", quick_tier(CASES, CASES[:2], unpack=True),
                         ids=[f"{p}-{n}{'-teams' + str(t) if t else ''}" for p, n, t, _ in CASES])
def test_deal_invariants(preset: str, players: int, partnership: int, deals: int) -> None:
    rules = OTHER_RULES[preset] if preset in OTHER_RULES else Rules.preset(preset)
    rules = rules.replace(players=players, partnership=partnership)
    lineup = tuple("greedy" if seat % 2 == 0 else "random" for seat in range(players))
    frame = simcasino.simulate(rules, lineup, deals=deals, seed=players)
    per_deal = _expected_points(frame, rules)
    assert per_deal.height == deals
    decks = rules.decks
    totals = {"cards": 52, "spades": 13, "aces": 4, "big": 1, "small": 1}
    for column, count in totals.items():
        assert (per_deal[column] == decks * count).all(), column
    assert (per_deal["sistan"] == 1).all()
    assert (per_deal["total"] == per_deal["expected"]).all()
    assert per_deal["tabbes_within_sweeps"].all()
    if not rules.mulle_value:  # §6 Mulle: mulle_points each (Glimne: the played card's value, 2..16)
        assert per_deal["mulle_points_counted"].all()
    if rules.mokki_cancel:  # R-MOKKI-CANCEL: after cancelling, some team or player has no scored tabbe
        assert frame.group_by("deal").agg(pl.col("tabbes").min())["tabbes"].max() == 0
    if rules.tabbe_previous_points:  # §6 Krypkasino: every tabbe's -5 lands on another team
        assert per_deal["given_is_tabbes"].all()
        assert (per_deal["total"] == 42).all()
    if rules.builds:  # §6 Builds: greedy builds; an unheld build only where the penalty allows it
        assert frame["builds"].sum() > 0
        assert (frame["unheld_builds"] <= frame["builds"]).all()
        assert (frame["unheld_builds"].sum() > 0) == (rules.build_penalty != 0)
    else:
        assert (frame["builds"] == 0).all()
    if partnership:  # every seat shows its team's row
        counts = frame.drop("deal", "seat", "strategy").to_numpy().reshape(deals, players, -1)
        for seat in range(rules.units, players):
            assert (counts[:, seat] == counts[:, seat % rules.units]).all()


def test_points_match_fixed_total_without_ties_and_tabbes() -> None:
    """§4: 11 points a deal in Swedish and 10 in Finnish when nothing is tied or swept."""
    for preset, fixed in (("swedish", 11), ("finnish", 10)):
        frame = simcasino.simulate(preset, ("greedy", "greedy"), deals=2000, seed=9)
        per_deal = frame.group_by("deal").agg(
            pl.col("points").sum(), pl.col("tabbes").sum(), pl.col("cards").n_unique().alias("distinct_cards")
        )
        clean = per_deal.filter((pl.col("tabbes") == 0) & (pl.col("distinct_cards") == 2))
        assert clean.height > 100
        assert (clean["points"] == fixed).all()
