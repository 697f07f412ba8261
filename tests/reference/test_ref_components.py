"""§4 scoring split by component: the `cards_points` and `spades_points` columns hold what
a seat got for most cards and most spades, so a deal's points are exactly the sum of their
parts (the 'anatomy' an experiment reports). Reference engine; the numba kernel is held to
the same columns by test_engine_agreement."""

from __future__ import annotations

import pytest
from helpers.piles import piles_with, score_piles

import simcasino
from simcasino.core.rules import FINNISH, SWEDISH
from simcasino.reference.deal import Carry
from simcasino.reference.game import single_deal
from simcasino.strategies.greedy import Greedy
from simcasino.strategies.random import Random


def components(result) -> list[tuple[int, int]]:
    return [(s.cards_points, s.spades_points) for s in result.seats]


def test_two_players_unique_leaders():
    """§4: most spades 2 to seat 0 (7 of 13), most cards 1 to seat 1 (27 of 52)."""
    result = score_piles(SWEDISH, piles_with([7, 6], [25, 27]), last_capturer=0)
    assert components(result) == [(0, 2), (1, 0)]


@pytest.mark.parametrize("rules, expected", [(SWEDISH, [(1, 0), (0, 0), (0, 0)]),
                                             (FINNISH, [(1, 1), (0, 1), (0, 0)])], ids=["swedish", "finnish"])
def test_three_players_spade_tie(rules, expected):
    """§4 most spades, 3 players, two tied at 5: Swedish nobody, Finnish 1 each."""
    result = score_piles(rules.replace(players=3), piles_with([5, 5, 3], [18, 17, 17]), last_capturer=0)
    assert components(result) == expected


def test_two_players_spade_tie_is_not_split():
    """§4 Finnish: the split is granted with 3–4 players only; two players on two decks tied at
    13 spades each (and 52 cards each) score neither item."""
    rules = FINNISH.replace(decks=2)
    result = score_piles(rules, {0: list(range(52)), 1: list(range(52, 104))}, last_capturer=0)
    assert components(result) == [(0, 0), (0, 0)]


def test_spades_tie_carry():
    """§4, the published Finnish reading spades_tie = carry: a tied most-spades item is added to
    the next deal's, and the cards item is left alone."""
    rules = FINNISH.replace(players=3, spades_tie="carry")
    tied = score_piles(rules, piles_with([5, 5, 3], [18, 17, 17]), last_capturer=0)
    assert components(tied) == [(1, 0), (0, 0), (0, 0)] and tied.carry_out == Carry(cards=0, spades=2)
    again = score_piles(rules, piles_with([5, 5, 3], [18, 17, 17]), last_capturer=0, carry_in=tied.carry_out)
    assert again.carry_out == Carry(cards=0, spades=4)
    won = score_piles(rules, piles_with([6, 4, 3], [18, 17, 17]), last_capturer=0, carry_in=again.carry_out)
    assert components(won) == [(1, 6), (0, 0), (0, 0)] and won.carry_out == Carry()


def test_cards_tie_carry_lands_in_cards_points():
    """§4 house rule cards_tie = carry: the postponed point is part of the next most-cards award."""
    rules = SWEDISH.replace(cards_tie="carry")
    tied = score_piles(rules, piles_with([7, 6], [26, 26]), last_capturer=0)
    assert components(tied) == [(0, 2), (0, 0)]
    won = score_piles(rules, piles_with([7, 6], [25, 27]), last_capturer=0, carry_in=tied.carry_out)
    assert components(won) == [(0, 2), (2, 0)]


def parts(rules, seat) -> int:
    return (seat.cards_points + seat.spades_points + seat.aces * rules.ace_points
            + seat.big_kasino * rules.big_kasino_points + seat.small_kasino * rules.small_kasino_points
            + seat.sistan * rules.sistan_points + seat.tabbes * rules.tabbe_points)


@pytest.mark.parametrize("rules", [SWEDISH, FINNISH], ids=["swedish", "finnish"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_points_are_the_sum_of_components(rules, players):
    """§4: points = most cards + most spades + aces + 10♦ + 2♠ + sistan + tabbes, deal by deal."""
    r = rules.replace(players=players)
    for deal in range(6):
        result = single_deal(r, [Greedy(), Random(), Greedy(), Random()][:players], 7, deal)
        assert [s.points for s in result.seats] == [parts(r, s) for s in result.seats]


def test_kernel_frame_points_are_the_sum_of_components():
    """The same identity on the numba kernel's frame (both 2 and 4 players, Finnish)."""
    for players in (2, 4):
        rules = FINNISH.replace(players=players)
        frame = simcasino.simulate(rules, ["greedy", "random"] * (players // 2), deals=300, seed=3)
        total = sum(frame[c] * w for c, w in (("aces", 1), ("big_kasino", 2), ("small_kasino", 1),
                                              ("sistan", 0), ("tabbes", 1)))
        assert (frame["points"] == total + frame["cards_points"] + frame["spades_points"]).all()
