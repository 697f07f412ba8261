"""§5 the game in the reference engine: R-TARGET, the Swedish tie-break by spades, play_on,
the Finnish tie chain and mid-deal win, R-ROTATE between deals, the most-cards carry."""

from __future__ import annotations

import pytest

import simcasino.reference.game as game_module
from simcasino.core.rules import FINNISH, SWEDISH
from simcasino.reference.deal import Carry, DealResult, SeatResult
from simcasino.reference.game import decide_winner, play_game, run_deal
from simcasino.strategies.greedy import Greedy
from simcasino.strategies.random import Random


def deal(points, spades=None, cards=None, aces=None, big=None, small=None, carry_out=Carry(), winner=-1):
    n = len(points)
    seats = [
        SeatResult(points=p, spades=(spades or [0] * n)[i], cards=(cards or [0] * n)[i], aces=(aces or [0] * n)[i],
                   big_kasino=(big or [0] * n)[i], small_kasino=(small or [0] * n)[i])
        for i, p in enumerate(points)
    ]
    return DealResult(seats=seats, carry_out=carry_out, winner=winner)


# --- decide_winner --------------------------------------------------------------------------------


def test_r_target_nobody_there_yet():
    """R-TARGET: play on until someone reaches the target."""
    assert decide_winner(SWEDISH, [15, 12], deal([5, 5])) == -1
    assert decide_winner(SWEDISH, [16, 3], deal([5, 5])) == 0  # reaching it is enough
    assert decide_winner(SWEDISH, [3, 20], deal([5, 5])) == 1


@pytest.mark.parametrize("target", [11, 21, 50])
def test_r_target_other_targets(target):
    rules = SWEDISH.replace(target=target)
    assert decide_winner(rules, [target - 1, 0], deal([1, 0])) == -1
    assert decide_winner(rules, [target, 0], deal([1, 0])) == 0


def test_swedish_several_over_target_highest_wins():
    """§5 Swedish: several at or over the target: the highest total wins (spades irrelevant)."""
    assert decide_winner(SWEDISH, [17, 18], deal([5, 5], spades=[9, 4])) == 1
    assert decide_winner(SWEDISH.replace(players=3), [16, 19, 18], deal([5, 5, 1])) == 1


def test_swedish_tie_broken_by_spades_of_last_deal():
    """§5 Swedish: still tied: most spades (in the last deal) wins; tied spades: deal again."""
    assert decide_winner(SWEDISH, [17, 17], deal([5, 5], spades=[8, 5])) == 0
    assert decide_winner(SWEDISH, [17, 17], deal([5, 5], spades=[5, 8])) == 1
    three = SWEDISH.replace(players=3)
    assert decide_winner(three, [17, 17, 12], deal([5, 5, 1], spades=[3, 4, 6])) == 1  # only the tied count
    assert decide_winner(three, [17, 17, 12], deal([5, 5, 1], spades=[4, 4, 5])) == -1


def test_play_on_keeps_dealing_until_unique_winner():
    """§5 house rule: keep dealing until there is a unique winner."""
    rules = SWEDISH.replace(tie_break="play_on")
    assert decide_winner(rules, [17, 17], deal([5, 5], spades=[8, 5])) == -1
    assert decide_winner(rules, [17, 18], deal([5, 5])) == 1


def test_finnish_tie_chain():
    """§5 Finnish: tie broken by aces and kasinos (points, in that deal), then most spades,
    then most cards; a tie left over: deal again."""
    f = FINNISH
    # aces+kasinos: 2 aces (2) against 10♦ (2): equal; spades decide
    assert decide_winner(f, [16, 16], deal([4, 4], aces=[2, 0], big=[0, 1], spades=[7, 6], cards=[20, 32])) == 0
    # 3 aces (3) beat ace + 2♠ (2) although seat 0 has more spades and cards
    assert decide_winner(f, [16, 16], deal([4, 4], aces=[1, 3], small=[1, 0], spades=[9, 4], cards=[30, 22])) == 1
    # kasinos and spades equal: most cards
    assert decide_winner(f, [18, 18], deal([4, 4], aces=[1, 1], spades=[6, 6], cards=[30, 22])) == 0
    # all equal: nobody yet
    assert decide_winner(f, [18, 18], deal([4, 4], aces=[1, 1], spades=[6, 6], cards=[26, 26])) == -1
    # only the tied players count (4 players)
    four = f.replace(players=4)
    last = deal([4, 4, 1, 1], aces=[1, 1, 2, 0], spades=[3, 5, 5, 0], cards=[12, 12, 20, 8])
    assert decide_winner(four, [17, 17, 10, 3], last) == 1


# --- play_game orchestration with scripted deal results -------------------------------------------


def scripted_deals(monkeypatch, results):
    calls = []

    def fake_run_deal(rules, strategies, key, game, deal_no, dealer, scores, carry):
        calls.append({"deal": deal_no, "dealer": dealer, "scores": list(scores), "carry": carry, "game": game})
        return results[deal_no] if deal_no < len(results) else deal([0] * rules.players)

    monkeypatch.setattr(game_module, "run_deal", fake_run_deal)
    return calls


def test_play_game_r_target_and_r_rotate_two_players(monkeypatch):
    """R-TARGET: deals until someone reaches 16; R-ROTATE: seat 1 deals first, then the deal
    passes left; each deal sees the game scores before it (for R-MOKKI-10, mid-deal wins)."""
    calls = scripted_deals(monkeypatch, [deal([8, 3]), deal([5, 6]), deal([4, 2])])
    result = play_game(SWEDISH, [Greedy(), Greedy()], key=7, game=3)
    assert (result.scores, result.winner, result.deals) == ([17, 11], 0, 3)
    assert [c["dealer"] for c in calls] == [1, 0, 1]
    assert [c["scores"] for c in calls] == [[0, 0], [8, 3], [13, 9]]
    assert {c["game"] for c in calls} == {3}
    assert [c["deal"] for c in calls] == [0, 1, 2]


@pytest.mark.parametrize("players, dealers", [(3, [2, 0, 1, 2, 0]), (4, [3, 0, 1, 2, 3])])
def test_play_game_r_rotate_more_players(monkeypatch, players, dealers):
    results = [deal([3] * players) for _ in range(4)] + [deal([5] + [0] * (players - 1))]
    calls = scripted_deals(monkeypatch, results)
    result = play_game(SWEDISH.replace(players=players), [Greedy()] * players, key=1, game=0)
    assert [c["dealer"] for c in calls] == dealers
    assert result.winner == 0 and result.scores == [17] + [12] * (players - 1)


def test_play_game_swedish_tie_spades_then_again(monkeypatch):
    """§5 Swedish: tied at 17 with equal spades: another deal; it decides."""
    calls = scripted_deals(monkeypatch, [deal([10, 10]), deal([7, 7], spades=[6, 6]), deal([0, 1], spades=[5, 8])])
    result = play_game(SWEDISH, [Greedy(), Greedy()], 1, 0)
    assert (result.scores, result.winner, result.deals) == ([17, 18], 1, 3)
    assert len(calls) == 3


def test_play_game_swedish_tie_spades_decides(monkeypatch):
    scripted_deals(monkeypatch, [deal([10, 10]), deal([7, 7], spades=[7, 6])])
    result = play_game(SWEDISH, [Greedy(), Greedy()], 1, 0)
    assert (result.scores, result.winner, result.deals) == ([17, 17], 0, 2)


def test_play_game_play_on(monkeypatch):
    scripted_deals(monkeypatch, [deal([10, 10]), deal([7, 7], spades=[7, 6]), deal([1, 0], spades=[5, 8])])
    result = play_game(SWEDISH.replace(tie_break="play_on"), [Greedy(), Greedy()], 1, 0)
    assert (result.scores, result.winner, result.deals) == ([18, 17], 0, 3)


def test_play_game_cards_carry(monkeypatch):
    """§4 cards_tie = carry in games: a deal's carry_out is the next deal's carry_in."""
    calls = scripted_deals(monkeypatch, [deal([5, 5], carry_out=Carry(cards=1)), deal([5, 5], carry_out=Carry(cards=2)),
                                         deal([6, 0])])
    play_game(SWEDISH.replace(cards_tie="carry"), [Greedy(), Greedy()], 1, 0)
    assert [c["carry"] for c in calls] == [Carry(), Carry(cards=1), Carry(cards=2)]


def test_play_game_finnish_mid_deal_win_ends_the_game(monkeypatch):
    """§5 Finnish: a mid-deal win ends the game at once with that player as winner."""
    calls = scripted_deals(monkeypatch, [deal([9, 12]), deal([0, 4], winner=1), deal([20, 0])])
    result = play_game(FINNISH, [Greedy(), Greedy()], 1, 0)
    assert (result.scores, result.winner, result.deals) == ([9, 16], 1, 2)
    assert len(calls) == 2


def test_play_game_finnish_tie_chain_after_deal(monkeypatch):
    scripted_deals(monkeypatch, [deal([8, 8]), deal([9, 9], aces=[1, 3], spades=[9, 4])])
    result = play_game(FINNISH, [Greedy(), Greedy()], 1, 0)
    assert (result.scores, result.winner) == ([17, 17], 1)


def test_play_game_deal_limit(monkeypatch):
    scripted_deals(monkeypatch, [])
    result = play_game(SWEDISH, [Greedy(), Greedy()], 1, 0)
    assert (result.winner, result.deals) == (-1, game_module.MAX_DEALS_PER_GAME)


# --- real games -----------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", [SWEDISH, FINNISH], ids=["swedish", "finnish"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_real_games_end_by_the_rules(rules, players):
    """A whole game: the scores are the sum of its deals (stream (key, game, deal), dealer
    passing left from the last seat, carry and game scores passed on), and the winner is at
    or over the target with the highest score (strictly ahead when won mid-deal)."""
    r = rules.replace(players=players)
    strategies = [Greedy(), Random(), Random(), Greedy()][:players]
    key, game = 12345, players
    result = play_game(r, strategies, key, game)
    assert result.winner >= 0 and result.deals >= 1
    scores, carry, dealer = [0] * players, Carry(), players - 1
    for d in range(result.deals):
        one = run_deal(r, strategies, key, game, d, dealer, scores, carry)
        scores = [s + seat.points for s, seat in zip(scores, one.seats)]
        carry, dealer = one.carry_out, (dealer + 1) % players
        if d < result.deals - 1:
            assert one.winner == -1  # only the last deal can end mid-deal
    assert scores == result.scores
    assert result.scores[result.winner] >= r.target
    assert result.scores[result.winner] == max(result.scores)
    if one.winner >= 0:
        assert one.winner == result.winner
        assert sorted(result.scores)[-2] < result.scores[result.winner]
    assert play_game(r, strategies, key, game) == result  # reproducible
