"""§4 scoring in the reference engine: every line of the table for Swedish and Finnish with
2, 3 and 4 players (on hand-built piles), R-SISTAN, R-TABBE, the Finnish mökki limits
(R-MOKKI-LAST, R-MOKKI-10, R-MOKKI-CANCEL) and the Finnish mid-deal win on crafted deals."""

from __future__ import annotations

import pytest
from helpers.cards import cards
from helpers.decks import C_STEPS, deal_c, deal_p, play
from helpers.piles import SPADE_ORDER, piles_with, score_piles
from helpers.scripted import Scripted, Sweeper, TrailFirst

from simcasino.core.cards import parse_card
from simcasino.core.rules import FINNISH, SWEDISH
from simcasino.reference.deal import Carry, award_unique_max
from simcasino.reference.game import single_deal
from simcasino.strategies.greedy import Greedy
from simcasino.strategies.random import Random


def majority_points(rules, result, piles, last_capturer):
    """Each seat's points minus what its cards, sistan and tabbes score: the 'most …' awards."""
    out = []
    for seat, s in enumerate(result.seats):
        own = sum(rules.card_points(c) for c in piles[seat])
        own += rules.sistan_points * (seat == last_capturer) + rules.tabbe_points * s.tabbes
        out.append(s.points - own)
    return out


# --- §4 line by line on hand-built piles --------------------------------------------------------


@pytest.mark.parametrize("rules, sistan", [(SWEDISH, 1), (FINNISH, 0)], ids=["swedish", "finnish"])
def test_every_line_two_players(rules, sistan):
    """§4, 2 players: most spades 2, most cards 1, each ace 1, 10♦ 2, 2♠ 1, sistan 1 (Finnish 0)."""
    pile0 = "AS 2S 3S 4S 5S 6S 7S 10D AH"
    result = score_piles(rules, {0: pile0}, rest_to=1, last_capturer=1)
    s0, s1 = result.seats
    assert (s0.cards, s0.spades, s0.aces, s0.big_kasino, s0.small_kasino, s0.sistan) == (9, 7, 2, 1, 1, 0)
    assert (s1.cards, s1.spades, s1.aces, s1.big_kasino, s1.small_kasino, s1.sistan) == (43, 6, 2, 0, 0, 1)
    assert s0.points == 2 + 2 + 2 + 1  # spades, two aces, 10♦, 2♠
    assert s1.points == 1 + 2 + sistan  # cards, two aces, sistan
    assert s0.points + s1.points == (11 if rules is SWEDISH else 10)  # fixed total without tabbes


def test_fixed_totals_one_player_takes_all():
    for rules, total in ((SWEDISH, 11), (FINNISH, 10)):
        for players in (2, 3, 4):
            r = rules.replace(players=players)
            result = score_piles(r, {}, rest_to=0, last_capturer=0)
            assert [s.points for s in result.seats] == [total] + [0] * (players - 1)


@pytest.mark.parametrize("rules", [SWEDISH, FINNISH], ids=["swedish", "finnish"])
def test_most_cards_tie_nobody(rules):
    """§4: most cards 1, a tie: nobody (26-26)."""
    piles = piles_with([7, 6], [26, 26])
    result = score_piles(rules, piles, last_capturer=0)
    assert majority_points(rules, result, piles, 0) == [2, 0]
    assert result.carry_out == Carry()


def test_most_cards_unique_leader_gets_one():
    piles = piles_with([7, 6], [25, 27])
    result = score_piles(SWEDISH, piles, last_capturer=0)
    assert majority_points(SWEDISH, result, piles, 0) == [2, 1]


@pytest.mark.parametrize("rules", [SWEDISH, FINNISH], ids=["swedish", "finnish"])
def test_cards_tie_carry(rules):
    """§4 house rule cards_tie = carry: a tied most-cards point is postponed to the next deal,
    and keeps adding up while deals tie."""
    rules = rules.replace(cards_tie="carry")
    tie = piles_with([7, 6], [26, 26])
    first = score_piles(rules, tie, last_capturer=0)
    assert first.carry_out == Carry(cards=1) and majority_points(rules, first, tie, 0) == [2, 0]
    second = score_piles(rules, tie, last_capturer=0, carry_in=first.carry_out)
    assert second.carry_out == Carry(cards=2) and majority_points(rules, second, tie, 0) == [2, 0]
    won = piles_with([7, 6], [25, 27])
    third = score_piles(rules, won, last_capturer=0, carry_in=second.carry_out)
    assert third.carry_out == Carry() and majority_points(rules, third, won, 0) == [2, 3]


def test_cards_tie_carry_three_players():
    rules = SWEDISH.replace(players=3, cards_tie="carry")
    piles = piles_with([5, 4, 4], [20, 20, 12])
    result = score_piles(rules, piles, last_capturer=0)
    assert result.carry_out == Carry(cards=1) and majority_points(rules, result, piles, 0) == [2, 0, 0]


@pytest.mark.parametrize(
    "players, spades, counts, swedish, finnish",
    [
        (3, [5, 5, 3], [18, 17, 17], [1, 0, 0], [2, 1, 0]),  # two tied: Finnish 1 each
        (3, [5, 4, 4], [18, 17, 17], [3, 0, 0], [3, 0, 0]),
        (3, [4, 6, 3], [16, 18, 18], [0, 2, 0], [0, 2, 0]),  # cards tied between two: nobody
        (4, [4, 4, 4, 1], [13, 13, 13, 13], [0, 0, 0, 0], [0, 0, 0, 0]),  # three tied: nobody
        (4, [5, 5, 2, 1], [14, 13, 13, 12], [1, 0, 0, 0], [2, 1, 0, 0]),
        (4, [1, 5, 2, 5], [12, 13, 13, 14], [0, 0, 0, 1], [0, 1, 0, 2]),
        (4, [4, 3, 3, 3], [13, 14, 13, 12], [2, 1, 0, 0], [2, 1, 0, 0]),
    ],
)
def test_most_spades_and_cards_three_four_players(players, spades, counts, swedish, finnish):
    """§4: most spades 2 (Swedish tie: nobody; Finnish 3-4 players: two tied get 1 each,
    three or more tied nobody — the rules.py reading); most cards 1, tie nobody."""
    piles = piles_with(spades, counts)
    for rules, expected in ((SWEDISH, swedish), (FINNISH, finnish)):
        r = rules.replace(players=players)
        result = score_piles(r, piles, last_capturer=0)
        assert [s.spades for s in result.seats] == spades
        assert [s.cards for s in result.seats] == counts
        assert majority_points(r, result, piles, 0) == expected


def test_award_unique_max():
    assert award_unique_max([7, 6], 2, False) == [2, 0]
    assert award_unique_max([5, 5, 3], 2, False) == [0, 0, 0]
    assert award_unique_max([5, 5, 3], 2, True) == [1, 1, 0]
    assert award_unique_max([4, 4, 4, 1], 2, True) == [0, 0, 0, 0]
    assert award_unique_max([20, 20, 12], 3, False) == [0, 0, 0]


def test_aces_and_kasinos_three_four_players():
    """§4: each ace 1, 10♦ 2, 2♠ 1 to whoever holds them, any number of players."""
    r = FINNISH.replace(players=4)
    piles = {0: cards("AS AH"), 1: cards("AD 10D"), 2: cards("AC 2S"), 3: []}
    result = score_piles(r, piles, rest_to=3, last_capturer=3)
    assert ([(s.aces, s.big_kasino, s.small_kasino) for s in result.seats]
            == [(2, 0, 0), (1, 1, 0), (1, 0, 1), (0, 0, 0)])
    assert [s.points for s in result.seats] == [2, 3, 2, 2 + 1]  # seat 3: most spades, most cards


# --- R-TABBE points and R-MOKKI-CANCEL on hand-built piles ----------------------------------------


@pytest.mark.parametrize(
    "players, scored, after",
    [
        (2, [3, 1], [2, 0]),
        (2, [2, 2], [0, 0]),
        (2, [1, 0], [1, 0]),
        (2, [5, 2], [3, 0]),  # repeatedly: each loses one twice
        (3, [2, 1, 3], [1, 0, 2]),
        (3, [2, 0, 3], [2, 0, 3]),
        (4, [1, 1, 1, 0], [1, 1, 1, 0]),
        (4, [2, 3, 2, 4], [0, 1, 0, 2]),
    ],
)
def test_r_mokki_cancel(players, scored, after):
    """R-MOKKI-CANCEL: if every player has a mökki, each loses one, repeatedly, until someone
    has none. R-TABBE: each remaining mökki is 1 point. Swedish never cancels."""
    fin = FINNISH.replace(players=players)
    result = score_piles(fin, {}, rest_to=0, last_capturer=0, sweeps=scored)
    assert [s.tabbes for s in result.seats] == after
    assert [s.sweeps for s in result.seats] == scored
    assert sum(s.points for s in result.seats) == 10 + sum(after)
    swe = SWEDISH.replace(players=players)
    result = score_piles(swe, {}, rest_to=0, last_capturer=0, sweeps=scored)
    assert [s.tabbes for s in result.seats] == scored
    assert sum(s.points for s in result.seats) == 11 + sum(scored)


def test_cancel_counts_only_sweeps_that_scored():
    """R-MOKKI-CANCEL works on the mökkis left after R-MOKKI-LAST / R-MOKKI-10."""
    result = score_piles(FINNISH, {}, rest_to=0, last_capturer=0, sweeps=[3, 1], scored=[2, 0])
    assert [s.tabbes for s in result.seats] == [2, 0] and [s.sweeps for s in result.seats] == [3, 1]


# --- crafted deal P: R-TABBE, R-SISTAN, the mökki limits, the Finnish mid-deal win ----------------


def play_p(rules, game_scores=None, s1=None, steps=None, actions=None):
    """Deal P played (seat 0 trails, seat 1 sweeps, ``steps`` scripted); ``actions`` gets every decision."""
    steps = steps or {}
    watch = (lambda view, action: actions.append(action)) if actions is not None else None
    return play(rules, [Scripted(steps, TrailFirst()), Scripted(steps, s1 or Sweeper())], deal_p(), 1, game_scores,
                watch)


def test_deal_p_swedish_last_play_sweep_is_sistan_and_tabbe():
    """R-TABBE, R-SISTAN (Swedish): seat 1 sweeps 24 times, the last play included: that last
    play is both tabbe and sistan. 11 + 24 = 35 points."""
    result = play_p(SWEDISH)
    s0, s1 = result.seats
    assert (s1.cards, s1.spades, s1.aces, s1.big_kasino, s1.small_kasino) == (52, 13, 4, 1, 1)
    assert (s1.sweeps, s1.tabbes, s1.sistan) == (24, 24, 1)
    assert s1.points == 2 + 1 + 4 + 2 + 1 + 1 + 24
    assert s0.points == 0 and s0.cards == 0


class SweepButNotLast(Sweeper):
    """Sweeps, except that the very last card of the deal is trailed."""

    def choose(self, view):
        if view.stock_left == 0 and len(view.hand) == 1:
            return view.moves[0]
        return super().choose(view)


def test_deal_p_last_play_trail_leftovers_to_last_capturer():
    """R-SISTAN: when the last play is a trail, the leftovers (2 cards) go to the last capturer
    (sistan 1) but that is no tabbe: one point less than a last-play sweep."""
    result = play_p(SWEDISH, s1=SweepButNotLast())
    s0, s1 = result.seats
    assert (s1.cards, s1.sweeps, s1.tabbes, s1.sistan) == (52, 23, 23, 1)
    assert s1.points == 11 + 23 and s0.points == 0


S1_STEPS = {44: (1, "5H", ""), 45: (0, "5D", "5S 5H"), 48: (1, "KH", "KS")}
S2_STEPS = {44: (1, "5H", ""), 45: (0, "5D", "5S 5H")}


def test_r_sistan_last_capture_not_emptying_is_sistan_only():
    """R-SISTAN: a last capture that leaves a card (KH takes KS, 5C stays) is sistan only; the
    leftover 5C goes to that player. Seat 0's sweep at play 45 is a tabbe."""
    result = play_p(SWEDISH, steps=S1_STEPS)
    s0, s1 = result.seats
    assert (s0.cards, s0.spades, s0.sweeps, s0.tabbes, s0.sistan, s0.points) == (3, 1, 1, 1, 0, 1)
    assert (s1.cards, s1.spades, s1.sweeps, s1.tabbes, s1.sistan) == (49, 12, 21, 21, 1)
    assert s1.points == 2 + 1 + 4 + 2 + 1 + 1 + 21


@pytest.mark.parametrize("rules", [SWEDISH, FINNISH], ids=["swedish", "finnish"])
def test_r_sistan_leftovers_go_to_last_capturer_not_last_player(rules):
    """R-SISTAN: seat 1 plays last (a trail) but seat 0 captured last (play 45): the three
    leftovers 5C KS KH go to seat 0, with the sistan point in Swedish (0 in Finnish)."""
    result = play_p(rules, steps=S2_STEPS)
    s0, s1 = result.seats
    assert (s0.cards, s0.spades, s0.sweeps, s0.sistan) == (6, 2, 1, 1)
    assert (s1.cards, s1.spades, s1.sweeps, s1.sistan) == (46, 11, 21, 0)
    if rules is SWEDISH:
        assert (s0.points, s1.points) == (1 + 1, 2 + 1 + 4 + 2 + 1 + 21)
    else:  # the play-45 sweep is in the last round: no mökki (R-MOKKI-LAST); sistan 0
        assert (s0.tabbes, s0.points) == (0, 0)
        assert (s1.tabbes, s1.points) == (20, 2 + 1 + 4 + 2 + 1 + 20)


def test_deal_p_finnish_r_mokki_last():
    """R-MOKKI-LAST (Finnish): the 4 sweeps of the last round score nothing: 20 of 24;
    Finnish sistan 0: 10 + 20 = 30."""
    result = play_p(FINNISH)
    s0, s1 = result.seats
    assert (s1.sweeps, s1.tabbes, s1.sistan) == (24, 20, 1)
    assert s1.points == 10 + 20 and s0.points == 0
    assert result.winner == -1
    off = play_p(FINNISH.replace(mokki_last_round=False))
    assert off.seats[1].tabbes == 24 and off.seats[1].points == 34
    swedish_with_limit = play_p(SWEDISH.replace(mokki_last_round=True))
    assert swedish_with_limit.seats[1].tabbes == 20 and swedish_with_limit.seats[1].points == 11 + 20


@pytest.mark.parametrize(
    "game_scores, tabbes",
    [
        ([0, 0], 20),
        ([9, 0], 20),  # 9 is not yet the limit; seat 1 reaches only 7 in this deal
        ([10, 0], 0),  # another player already has 10: no mökki for anyone
        ([0, 10], 0),  # (target 21 here, so that seat 1 does not win mid-deal)
        ([0, 3], 5),  # 3 -> 7 (play 2) -> 8 (2♠, play 6) -> 10 (10♦, play 10): sweeps of plays 2..10
    ],
)
def test_deal_p_finnish_r_mokki_10(game_scores, tabbes):
    """R-MOKKI-10: no mökki points once any player has 10 game points, immediate points of
    this deal included. A sweep scores if nobody has 10 when it is made — the capture that
    itself brings the 10th point (play 10 with [0, 3]) still scores (rules.py reading)."""
    result = play_p(FINNISH.replace(target=21), game_scores)
    assert result.seats[1].sweeps == 24
    assert result.seats[1].tabbes == tabbes
    assert result.seats[1].points == 10 + tabbes
    assert result.winner == -1


def test_mokki_limit_off():
    result = play_p(FINNISH.replace(mokki_limit=0), [10, 0])
    assert result.seats[1].tabbes == 20


@pytest.mark.parametrize(
    "game_scores, plays, points",
    [
        ([0, 12], 2, 4),  # 12 + 4 aces = 16 at play 2
        ([0, 11], 6, 5),  # 15 after play 2, 16 with 2♠ at play 6
        ([0, 9], 10, 7),  # 16 with 10♦ at play 10
        ([17, 17], 2, 4),  # a tie left open: the first to get ahead wins
    ],
)
def test_finnish_mid_deal_win(game_scores, plays, points):
    """§5 Finnish: aces, 2♠ and 10♦ score when captured, so the game ends mid-deal as soon as
    a player reaches the target (ahead of everyone). Only the immediate points are scored."""
    actions = []
    result = play_p(FINNISH, game_scores, actions=actions)
    assert result.winner == 1
    assert len(actions) == plays
    assert [s.points for s in result.seats] == [0, points]


def test_finnish_no_mid_deal_win_when_not_ahead():
    """Reaching 16 is not enough while another player has as many or more (here 19)."""
    actions = []
    result = play_p(FINNISH, [19, 12], actions=actions)
    assert result.winner == -1 and len(actions) == 48
    assert result.seats[1].points == 10  # no mökki: a player has 10 or more


def test_swedish_never_wins_mid_deal():
    """§5 Swedish: checked after each deal only; no immediate scoring."""
    actions = []
    result = play_p(SWEDISH, [0, 15], actions=actions)
    assert result.winner == -1 and len(actions) == 48
    assert result.seats[1].points == 35


def test_finnish_immediate_points_not_counted_twice():
    """Immediate points are part of the deal's points once (30 = 10 + 20 mökki), not added again."""
    result = play_p(FINNISH, [0, 0])
    assert sum(s.points for s in result.seats) == 30


# --- crafted deal C: both players sweep: R-MOKKI-CANCEL in play ----------------------------------


def play_c(rules):
    return play(rules, [Scripted(C_STEPS, TrailFirst()), Scripted(C_STEPS, Sweeper())], deal_c(), 1)


def test_deal_c_finnish_mokki_cancel():
    """R-MOKKI-CANCEL: seat 0 has 2 mökkis (round 1), seat 1 18 scored (2 in round 1, 16 in rounds
    2-5; round 6 not, R-MOKKI-LAST): they cancel twice -> 0 and 16."""
    s0, s1 = play_c(FINNISH).seats
    assert (s0.sweeps, s1.sweeps) == (2, 22)
    assert (s0.tabbes, s1.tabbes) == (0, 16)
    assert (s0.cards, s0.spades, s0.aces) == (7, 1, 4)
    assert s0.points == 4
    assert s1.points == 2 + 1 + 2 + 1 + 0 + 16
    no_cancel = play_c(FINNISH.replace(mokki_cancel=False)).seats
    assert (no_cancel[0].tabbes, no_cancel[1].tabbes) == (2, 18)
    assert (no_cancel[0].points, no_cancel[1].points) == (6, 24)


def test_deal_c_swedish_every_tabbe_counts():
    """R-TABBE (Swedish): every sweep is a point, no limits: 2 and 22; sistan to seat 1."""
    s0, s1 = play_c(SWEDISH).seats
    assert (s0.tabbes, s1.tabbes) == (2, 22)
    assert (s0.points, s1.points) == (4 + 2, 2 + 1 + 2 + 1 + 1 + 22)


# --- the fixed totals on ordinary deals --------------------------------------------------------------


@pytest.mark.parametrize("rules", [SWEDISH, FINNISH], ids=["swedish", "finnish"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_fixed_totals_on_random_deals(rules, players):
    """§4 'fixed total without tabbes': 11 (Swedish) / 10 (Finnish) points a deal plus the
    tabbes, less a most-spades or most-cards award that a tie leaves unawarded. Every card,
    spade, ace and kasino ends in exactly one pile; one sistan."""
    r = rules.replace(players=players)
    strategies = [Greedy(), Random(), Greedy(), Random()][:players]
    for deal in range(4):
        result = single_deal(r, strategies, 99, deal)
        seats = result.seats
        assert sum(s.cards for s in seats) == 52 and sum(s.spades for s in seats) == 13
        assert sum(s.aces for s in seats) == 4
        assert sum(s.big_kasino for s in seats) == 1 and sum(s.small_kasino for s in seats) == 1
        assert sum(s.sistan for s in seats) == 1
        spade_leaders = [s.spades for s in seats].count(max(s.spades for s in seats))
        card_leaders = [s.cards for s in seats].count(max(s.cards for s in seats))
        lost = (0 if spade_leaders == 1 or (r.spades_tie == "split" and players >= 3 and spade_leaders == 2) else 2)
        lost += 0 if card_leaders == 1 else 1
        total = (11 if rules is SWEDISH else 10) - lost
        assert sum(s.points for s in seats) == total + sum(s.tabbes for s in seats)
        assert all(s.tabbes <= s.sweeps for s in seats)
        if rules is FINNISH:
            assert min(s.tabbes for s in seats) == 0  # R-MOKKI-CANCEL leaves someone without
        else:
            assert all(s.tabbes == s.sweeps for s in seats)


def test_small_kasino_spade_counts_as_spade():
    result = score_piles(SWEDISH, {0: "2S"}, rest_to=1, last_capturer=1)
    assert result.seats[0].spades == 1 and result.seats[0].points == 1
    assert parse_card("2S") in SPADE_ORDER
