"""The `greedy` strategy's documented choice rules on hand-built positions (reference views):
most immediate points (aces, kasinos, a scoring tabbe), then most cards, then most spades,
then the first move in canonical order; with no capture, trail the lowest non-point card."""

from __future__ import annotations

import pytest
from helpers.cards import codes
from helpers.positions import position

from simcasino.core.rules import FINNISH, SWEDISH
from simcasino.reference.captures import mask_cards
from simcasino.strategies.greedy import Greedy


def choice(rules, hand, table, **kw):
    view = position(rules, hand, table, **kw)
    move = Greedy().choose(view)
    assert move in view.moves
    return view, codes([move.card])[0], " ".join(codes(mask_cards(move.taken, view.table)))


def test_points_before_cards():
    """§7.3: take A+3 with a 4 rather than 2+3+7 with a Q (1 point beats one card more)."""
    _, card, took = choice(SWEDISH, "QD 4H", "AS 3C 2D 7H")
    assert (card, took) == ("4H", "AS 3C")


def test_played_card_points_count_finnish():
    """Immediate points include the played card: 10♦ (16) taking 6+10♣ is 2 points, the ace
    taking 9+5 only 1."""
    _, card, took = choice(FINNISH, "AH 10D", "9C 5D 6H 10C")
    assert (card, took) == ("10D", "6H 10C")


@pytest.mark.parametrize("last_round, expected", [(False, ("JC", "6C 3D 2H")), (True, ("2S", "2H"))])
def test_tabbe_counts_only_when_it_scores(last_round, expected):
    """A sweep is worth a point to greedy only if a sweep scores now (view.sweep_scores):
    with R-MOKKI-LAST on, in the last round the sweep J (6+3+2) is worth nothing and 2♠ taking
    2♥ (1 point) wins; otherwise the sweep (1 point, 4 cards) beats 2♠ (1 point, 2 cards)."""
    rules = SWEDISH.replace(mokki_last_round=True)
    view, card, took = choice(rules, "9H 2S JC", "6C 3D 2H", last_round=last_round)
    assert view.sweep_scores is (not last_round)
    assert (card, took) == expected


def test_most_cards_breaks_point_ties():
    _, card, took = choice(SWEDISH, "QH", "5C 7S 3D 2H")
    assert (card, took) == ("QH", "7S 3D 2H")


def test_most_spades_breaks_card_ties():
    _, card, took = choice(SWEDISH, "6H 5H", "5S 6C")
    assert (card, took) == ("5H", "5S")


def test_first_canonical_move_breaks_full_ties():
    """Full ties: the first move in canonical order (hand position, then ascending mask)."""
    _, card, took = choice(SWEDISH, "6H 5H", "5C 6D")
    assert (card, took) == ("6H", "6D")
    _, card, took = choice(SWEDISH, "8H", "4C 4D 4S")  # {4C,4S} and {4D,4S}: lower mask
    assert (card, took) == ("8H", "4C 4S")


@pytest.mark.parametrize(
    "rules, hand, table, trailed",
    [
        (SWEDISH, "AH 2S 3D KC", "", "3D"),  # lowest non-point card
        (SWEDISH, "AH 10D KC", "", "KC"),  # point cards last, whatever their rank
        (SWEDISH, "2S AD", "", "AD"),  # only point cards: the lowest rank
        (SWEDISH, "3D 3H", "", "3H"),  # same rank: lower kind id (hearts before diamonds)
        (SWEDISH, "3C 2H", "KD", "2H"),  # nothing to capture on a non-empty table
        (FINNISH, "AH 5C", "AC", "5C"),  # R-VAL-FI: the ace cannot take the lone ace
    ],
)
def test_trail_lowest_non_point_card(rules, hand, table, trailed):
    view, card, took = choice(rules, hand, table)
    assert not any(not m.is_trail for m in view.moves)
    assert (card, took) == (trailed, "")


def test_greedy_always_captures_when_it_can():
    """Greedy captures whenever a capture exists, even one worth nothing."""
    _, card, took = choice(SWEDISH, "AH 2S KC", "KD")
    assert (card, took) == ("KC", "KD")
