"""The search's belief (`simcasino.strategies.search.belief`): what it notes of the others' turns,
the evidence it draws from them, the worlds it deals by it, and that it stays blind to where
the hidden cards really lie."""

from __future__ import annotations

import math

import pytest
from helpers.cards import cards
from helpers.hidden import chance_in_hand, deal_hidden, hidden_cards
from helpers.kernel_probes import belief_evidence, believed_hands, believed_move, noted_turns
from helpers.positions import position, recorded_views

from simcasino.core.cards import card_code, parse_card
from simcasino.core.rules import Rules
from simcasino.loop.position import DealHistory, SeenTurn
from simcasino.strategies import parse_strategy

SWEDISH = Rules.preset("swedish")
SEARCH = parse_strategy("search:worlds=2")


def bits(*values: int) -> int:
    return sum(1 << v for v in values)


def test_passing_up_a_capture_is_evidence_against_every_card_that_could_have_made_it() -> None:
    """Seat 1 trailed 9D on 5H 3C (it could have taken 3, 5 or 8): every unseen 3, 5 and 8
    is evidence against, once; nothing else is, and our own and the seen cards never."""
    view = position(SWEDISH, "KH 3S", "5H 3C 9D")
    turns = [SeenTurn(1, False, tuple(cards("5H 3C")))]
    evidence = belief_evidence(view, SEARCH, turns)[1]
    unseen = set(hidden_cards(view))
    assert set(evidence) == {c for c in unseen if card_code(c)[:-1] in ("3", "5", "8")}
    assert set(evidence.values()) == {1} and parse_card("3S") not in evidence


def test_a_capture_says_nothing_and_two_trails_count_twice() -> None:
    view = position(SWEDISH, "KH", "5H 3C 9D 2D")
    turns = [SeenTurn(1, True, tuple(cards("6H"))),  # took 6H with a 6: no evidence
             SeenTurn(1, False, tuple(cards("5H 3C"))),  # 3, 5, 8
             SeenTurn(1, False, tuple(cards("5H 3C 9D")))]  # 3, 5, 8, 9, 12, 14, 17
    evidence = belief_evidence(view, SEARCH, turns)[1]
    assert {evidence[c] for c in cards("8S 5S 3S")} == {2}
    assert {evidence[c] for c in cards("9S QS AS")} == {1}  # Swedish aces play as 14 too
    assert not set(cards("6S 7S 4S KS")) & set(evidence)


def test_where_the_fewest_points_win_a_capture_is_evidence_against_the_cards_that_capture_nothing() -> None:
    """§6 Misère: a player who took cards probably held nothing it could have played harmlessly."""
    rules = Rules.preset("misere")
    view = position(rules, "KH", "5H 3C 9D")
    evidence = belief_evidence(view, SEARCH, [SeenTurn(1, True, tuple(cards("5H 3C")))])[1]
    unseen = set(hidden_cards(view))
    assert set(evidence) == {c for c in unseen if card_code(c)[:-1] not in ("3", "5", "8")}
    assert not belief_evidence(view, SEARCH, [SeenTurn(1, False, tuple(cards("5H 3C")))])[1]


@pytest.mark.parametrize("sure", [0.0, 0.9])
def test_the_worlds_deal_a_card_that_passed_up_a_capture_less_often(sure: float) -> None:
    """The law of the dealt hand: a hand's chance is the product of (1 - belief) per card
    and turn of evidence. Over 4,000 worlds seat 1's share of 8s (which could have taken
    5H + 3C when it trailed) matches that law, far below the 4/48 of a uniform deal; with
    belief=0 every card is as likely."""
    view = position(SWEDISH, "KH", "5H 3C 9D")
    unseen = hidden_cards(view)
    hands, stock = [[], unseen[:4]], unseen[4:]
    turns = [SeenTurn(1, False, tuple(cards("5H 3C")))]
    worlds = believed_hands(view, parse_strategy(f"search:belief={sure}"), hands, stock, turns, 4000)
    held = [card for world in worlds for card in world[1]]
    assert all(len(world[1]) == 4 and not set(world[1]) & set(view.hand) for world in worlds)
    could = {c for c in unseen if card_code(c)[:-1] in ("3", "5", "8")}
    weights = [1 - sure if c in could else 1.0 for c in unseen]
    for rank in ("8", "K"):
        group = [i for i, c in enumerate(unseen) if card_code(c)[:-1] == rank]
        expected = sum(chance_in_hand(weights, 4, i) for i in group)
        seen = sum(card_code(c)[:-1] == rank for c in held) / len(worlds)
        assert seen == pytest.approx(expected, abs=4 * math.sqrt(expected / len(worlds)))
    eights = sum(card_code(c)[:-1] == "8" for c in held) / len(worlds)
    assert (eights < 0.5 * 4 * 4 / 48) == (sure > 0)


def test_the_search_notes_each_turn_since_its_move_with_the_table_it_faced() -> None:
    """Three players: we trail a king on 5H 3C, seat 1 trails 9D, seat 2 trails 4C. The table
    can be followed, so both turns are noted, each with what its table offered."""
    rules = SWEDISH.replace(players=3)
    view = position(rules, "KH KD", "5H 3C")
    hands = [[], cards("9D 7S"), cards("4C 6H")]
    noted = noted_turns(view, SEARCH, hands, [], [(parse_card("9D"), ()), (parse_card("4C"), ())])
    first = bits(3, 5, 8, 13, 16)  # 5H 3C K
    second = first | bits(9, 12, 14)  # and 9D (17+ are no values)
    assert noted == [(1, False, first), (2, False, second)]


def test_a_trail_taken_since_stops_the_table_from_being_followed() -> None:
    """Seat 2 takes the 9D seat 1 trailed: which new card was seat 1's is no longer certain
    from the table alone, so only seat 1's turn (on the table our move left) is noted."""
    rules = SWEDISH.replace(players=3)
    view = position(rules, "KH KD", "5H 3C")
    hands = [[], cards("9D 7S"), cards("9C 6H")]
    noted = noted_turns(view, SEARCH, hands, [], [(parse_card("9D"), ()), (parse_card("9C"), tuple(cards("9D")))])
    assert noted == [(1, False, bits(3, 5, 8, 13, 16))]


def test_a_new_round_keeps_only_its_own_turns() -> None:
    """Our last card ends the round; seat 1 leads the new one (we dealt) and takes 5H 3C with
    an 8: that turn is noted, as a capture on the table our king left."""
    view = position(SWEDISH, "KH", "5H 3C")
    unseen = [c for c in hidden_cards(view) if c != parse_card("8D")]
    stock = [parse_card("8D"), *unseen[:1], *unseen[1:]]  # seat 1, the leader, is dealt 8D first
    history = DealHistory(dealer=0, last_capturer=-1, sweeps=(0, 0), scored_sweeps=(0, 0), immediate=(0, 0))
    noted = noted_turns(view, SEARCH, [[], []], stock, [(parse_card("8D"), tuple(cards("5H 3C")))], history)
    assert noted == [(1, True, bits(3, 5, 8, 13, 16))]


def test_noted_turns_leave_the_search_blind_to_where_the_hidden_cards_lie() -> None:
    """With a turn of the next seat noted (it trailed on the table as it is now), the move is
    the same however the unseen cards are dealt."""
    for view in recorded_views(SWEDISH, deals=2)[::4]:
        other = (view.seat + 1) % view.rules.players
        loose = tuple(item for item in view.table if isinstance(item, int))
        turns = [SeenTurn(other, False, loose)]
        assert (believed_move(view, SEARCH, *deal_hidden(view, 1), turns)
                == believed_move(view, SEARCH, *deal_hidden(view, 2), turns))


def test_without_turns_the_belief_changes_no_world() -> None:
    """No evidence: the worlds are the uniform ones, so belief on or off decides alike."""
    off = parse_strategy("search:worlds=3,belief=0,endgame=0")
    on = parse_strategy("search:worlds=3,endgame=0")
    for view in recorded_views(SWEDISH, deals=1)[::3]:
        hidden = deal_hidden(view, 1)
        assert believed_move(view, on, *hidden, []) == believed_move(view, off, *hidden, [])
