"""Deal invariants on 100,000 numba deals per preset and player count.

Every card ends in exactly one pile (the per-seat counts add up to the deck: 52 cards,
13 spades, 4 aces, one 10♦, one 2♠, one sistan), and each deal's points add up to the
rules' fixed total plus the tabbes, less the most-spades / most-cards points nobody got
because of a tie (§4).
"""

from __future__ import annotations

import polars as pl
import pytest

import simcasino
from simcasino.rules import Rules

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
    fixed = 4 * rules.ace_points + rules.big_kasino_points + rules.small_kasino_points + rules.sistan_points
    return frame.group_by("deal").agg(
        total=pl.col("points").sum(),
        expected=fixed + spades_award + cards_award + rules.tabbe_points * pl.col("tabbes").sum(),
        cards=pl.col("cards").sum(),
        spades=pl.col("spades").sum(),
        aces=pl.col("aces").sum(),
        big=pl.col("big_kasino").sum(),
        small=pl.col("small_kasino").sum(),
        sistan=pl.col("sistan").sum(),
        tabbes_within_sweeps=(pl.col("tabbes") <= pl.col("sweeps")).all(),
    )


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("preset", ["swedish", "finnish"])
def test_deal_invariants(preset: str, players: int) -> None:
    rules = Rules.preset(preset).replace(players=players)
    lineup = tuple("greedy" if seat % 2 == 0 else "random" for seat in range(players))
    frame = simcasino.simulate(rules, lineup, deals=DEALS, seed=players)
    per_deal = _expected_points(frame, rules)
    assert per_deal.height == DEALS
    for column, count in {"cards": 52, "spades": 13, "aces": 4, "big": 1, "small": 1, "sistan": 1}.items():
        assert (per_deal[column] == count).all(), column
    assert (per_deal["total"] == per_deal["expected"]).all()
    assert per_deal["tabbes_within_sweeps"].all()
    if rules.mokki_cancel:  # R-MOKKI-CANCEL: after cancelling, someone has no scored tabbe
        assert frame.group_by("deal").agg(pl.col("tabbes").min())["tabbes"].max() == 0


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
