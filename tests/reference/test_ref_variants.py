"""§6 variants on the reference engine, rule by rule: Överspader, target scores, Mulle,
Misère, Krypkasino and partnerships (docs/rules.md §6 rows cited as "§6 <variant>")."""

from __future__ import annotations

import pytest
from helpers.cards import codes, ids
from helpers.piles import score_piles
from helpers.positions import position, position_deal
from helpers.scripted import Recorder

from simcasino.core.protocol import Move
from simcasino.core.rng import seed_key
from simcasino.core.rules import FINNISH, KRYPKASINO, MISERE, MULLE, OVERSPADER, SWEDISH, Rules
from simcasino.reference.captures import allowed_captures, is_mulle
from simcasino.reference.deal import score_deal
from simcasino.reference.game import decide_winner, single_deal
from simcasino.strategies.greedy import Greedy


def moves_of(view) -> list[tuple[str, list[str]]]:
    """(card played, table cards taken) of every legal move, in canonical order."""
    return [(codes([m.card])[0], codes(c for i, c in enumerate(view.table) if m.taken >> i & 1)) for m in view.moves]


def record_deal(rules: Rules, seed: int = 1) -> list:
    """Every (view, move) of one greedy deal."""
    log: list = []
    single_deal(rules, [Recorder(Greedy(), log) for _ in range(rules.players)], seed_key(seed), 0)
    return log


# --- Överspader and target scores ----------------------------------------------------------


def test_overspader_one_point_per_spade_beyond_six():
    """§6 Överspader: no 'most spades 2'; each player 1 point per spade beyond 6."""
    result = score_piles(OVERSPADER, {0: "AS 2S 3S 4S 5S 6S 7S 8S 9S"}, rest_to=1, last_capturer=1)
    s0, s1 = result.seats
    assert (s0.spades, s1.spades) == (9, 4)
    assert s0.points == 3 + 1 + 1  # 3 spades beyond 6, A♠, 2♠
    assert s1.points == 1 + 3 + 2 + 1  # most cards, three aces, 10♦, sistan
    seven = score_piles(OVERSPADER, {0: "AS 2S 3S 4S 5S 6S 7S"}, rest_to=1, last_capturer=1)
    assert seven.seats[0].points == 1 + 1 + 1  # 7 spades = 1
    assert seven.seats[1].points == 1 + 3 + 2 + 1  # 6 spades = nothing


def test_overspader_target_21_and_other_targets():
    """§6 Överspader: target usually 21; target scores 11, 16, 21, 50 (R-TARGET)."""
    last = score_piles(OVERSPADER, {}, rest_to=0)
    assert OVERSPADER.target == 21
    assert decide_winner(OVERSPADER, [20, 19], last) == -1
    assert decide_winner(OVERSPADER, [22, 19], last) == 0
    for target in (11, 16, 21, 50):
        rules = OVERSPADER.replace(target=target)
        assert decide_winner(rules, [target - 1, 0], last) == -1
        assert decide_winner(rules, [target, 0], last) == 0


def test_target_tie_at_the_top_extra_deals():
    """§6 Target scores: optional extra deals to break a tie at the top (tie_break play_on)."""
    rules = OVERSPADER.replace(tie_break="play_on")
    last = score_piles(rules, {0: "AS 2S 3S 4S 5S 6S 7S 8S"}, rest_to=1)
    assert decide_winner(rules, [23, 23], last) == -1
    assert decide_winner(rules.replace(tie_break="spades"), [23, 23], last) == 0


# --- Mulle ------------------------------------------------------------------------------------


def test_mulle_deal_five_and_five_then_uneven_last_hands():
    """§6 Mulle, R-DECK: 104 cards; 5 to each player and 5 to the table, then 5 each; the last
    round deals as far as the cards go: the leader gets 5, the dealer 4 (R-LAST)."""
    log = record_deal(MULLE)
    assert len(log) == 104 - 5
    first = log[0][0]
    assert (len(first.hand), len(first.table), first.last_round) == (5, 5, False)
    starts = {len(view.played): view for view, _ in log if len(view.played) % 10 in (0, 1)}
    for played in range(0, 90, 10):
        assert (len(starts[played].hand), len(starts[played + 1].hand)) == (5, 5)
        assert not starts[played].last_round
    assert (len(starts[90].hand), len(starts[91].hand)) == (5, 4)
    assert starts[90].last_round and starts[90].seat == 0
    assert len({move.card for _, move in log}) == 99  # every card played once


def test_mulle_is_one_identical_card_and_nothing_else():
    """§6 Mulle: a played card capturing exactly one identical card (same rank and suit)
    and nothing else is a mulle; 7♠ taking 7♥, or 7♥ taking 7♥ plus 3+4, is not."""
    table = ids("7H 3C 4D 7S")
    assert is_mulle(ids("7H'")[0], 0b0001, table)
    assert not is_mulle(ids("7H'")[0], 0b0111, table)
    assert not is_mulle(ids("7S'")[0], 0b0001, table)
    assert is_mulle(ids("7S'")[0], 0b1000, table)
    deal = position_deal(MULLE, "7H'", "7H 3C 4D")
    deal.apply(Move.capture(0, ids("7H'")[0], 0b001))
    assert deal.tally.mulles == [1, 0]


def test_mulle_scoring_double_deck_totals():
    """§6 Mulle: mulle 5 each; most spades 1; no point for most cards; otherwise Swedish:
    8 aces, two 10♦ (2 each), two 2♠ (1 each), sistan 1: 16 a deal besides tabbes and mulles."""
    result = score_piles(MULLE, {}, rest_to=0, last_capturer=0, mulles=[2, 0])
    s0 = result.seats[0]
    assert (s0.cards, s0.spades, s0.aces, s0.big_kasino, s0.small_kasino, s0.mulles) == (104, 26, 8, 2, 2, 2)
    assert s0.points == 8 + 2 * 2 + 2 * 1 + 1 + 1 + 2 * 5
    split = score_piles(MULLE, {0: "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS'"}, rest_to=1, last_capturer=1)
    assert [s.spades for s in split.seats] == [14, 12]
    assert split.seats[0].points == 1 + 2 + 1  # most spades 1, two aces, 2♠ (no most cards point)


def test_two_identical_table_cards_give_distinct_captures():
    """R-DECK: two identical cards on the table are interchangeable: a capture that takes
    one of them appears once, and the options stay correct."""
    rules = MULLE
    assert allowed_captures(ids("5C")[0], ids("5H 5H'"), rules) == [0b01, 0b11]
    assert allowed_captures(ids("10C")[0], ids("5H 5H' 5D"), rules) == [0b011, 0b101]
    view = position(rules, "5C", "5H 2D 5H' 3S")
    assert moves_of(view) == [("5C", []), ("5C", ["5H"]), ("5C", ["5H", "5H"]), ("5C", ["2D", "3S"]),
                              ("5C", ["5H", "2D", "3S"]), ("5C", ["5H", "2D", "5H", "3S"])]


def test_identical_cards_in_hand_add_no_moves():
    """R-DECK: playing either of two identical cards is the same move; it is listed once."""
    view = position(MULLE, "5C 5C' 9H", "5H")
    assert [(m.hand_index, m.taken) for m in view.moves] == [(0, 0), (0, 1), (2, 0)]


def test_greedy_values_the_mulle():
    """§6 Mulle: greedy counts the mulle's 5 points: 7♥ taking 7♥ beats 7♥ taking 3+4 + A."""
    view = position(MULLE, "7H'", "7H 3C 4D 2H 5H")
    move = Greedy().choose(view)
    assert codes(c for i, c in enumerate(view.table) if move.taken >> i & 1) == ["7H"]


# --- Misère -------------------------------------------------------------------------------------


def test_misere_no_trailing_a_card_that_can_capture():
    """§6 Misère: no trailing when the card can capture; a card that captures nothing trails."""
    view = position(MISERE, "5H 9C", "5S 3D")
    assert moves_of(view) == [("5H", ["5S"]), ("9C", [])]


@pytest.mark.parametrize("rules", [MISERE, KRYPKASINO], ids=["misere", "krypkasino"])
def test_misere_capture_takes_everything_it_can(rules):
    """§6 Misère / Krypkasino: a capture takes every group the card can take: table 2,4,6,8
    with a 10 only all four; table 2,3,5,7 with a 10: {2,3,5} and {3,7} (each maximal)."""
    assert moves_of(position(rules, "10H", "2C 4C 6C 8C")) == [("10H", ["2C", "4C", "6C", "8C"])]
    assert moves_of(position(rules, "10H", "2C 3C 5C 7C")) == [("10H", ["2C", "3C", "5C"]), ("10H", ["3C", "7C"])]
    assert moves_of(position(rules, "9H", "9C 4S 5D 2H")) == [("9H", ["9C", "4S", "5D"])]


class PickLast:
    def __init__(self) -> None:
        self.views = []

    def choose(self, view):
        self.views.append(view)
        return view.moves[-1]


def test_misere_opponent_chooses_among_maximal_captures():
    """§6 Misère: where several maximal captures exist, the opponent chooses which."""
    deal = position_deal(MISERE, "10H", "2C 3C 5C 7C", others={1: "KD"})
    view = deal.observation(0)
    mover = deal.apply(view.moves[0])
    assert mover.pending and not mover.taken and deal.to_move == 1  # the card waits for the pick
    chooser = PickLast()
    picked = deal.apply(chooser.choose(deal.observation(1)))
    seen = chooser.views[0]
    assert (seen.seat, seen.chooser_for, seen.hand) == (1, 0, tuple(ids("KD")))
    assert [m.taken for m in seen.moves] == [0b0111, 0b1010]
    assert (picked.seat, picked.player, picked.pick, picked.move) == (1, 0, True, view.moves[1])
    assert codes(picked.taken) == ["3C", "7C"] and codes(deal.table) == ["2C", "5C"]
    single = position_deal(MISERE, "5H", "5C 9D", others={1: "KD"})
    one = single.apply(single.legal_moves()[0])
    assert not one.pending and codes(one.taken) == ["5C"] and single.to_move == 1  # not asked


def test_greedy_in_misere_avoids_points_and_chooses_the_worst_for_the_mover():
    """§6 Misère: fewest points win, so greedy trails when it can, else takes the least; as
    the opponent choosing, it picks the capture that gives the mover the most."""
    assert Greedy().choose(position(MISERE, "5H 9C", "5S 3D")) == Move.trail(1, ids("9C")[0])
    move = Greedy().choose(position(MISERE, "5H 8C", "5S 3D AD"))
    assert (codes([move.card]), move.taken) == (["5H"], 0b001)
    deal = position_deal(MISERE, "10H", "2C 3C 5C 7C", others={1: "KD"})
    deal.apply(deal.legal_moves()[1])
    assert Greedy().choose(deal.observation(1)).taken == 0b0111  # 4 cards, not 3


def test_misere_double_sweep():
    """§6 Misère, optional double sweep: a sweep of a single table card is worth 2."""
    for double, tabbes in ((False, 1), (True, 2)):
        rules = MISERE.replace(double_sweep=double)
        deal = position_deal(rules, "9H", "9C")
        deal.apply(Move.capture(0, ids("9H")[0], 1))
        assert deal.tally.scored_sweeps == [tabbes, 0]
        two = position_deal(rules, "9H", "4C 5C")
        two.apply(Move.capture(0, ids("9H")[0], 0b11))
        assert two.tally.scored_sweeps == [1, 0]


def test_low_score_wins():
    """§6 Misère, Krypkasino: aim as few points as possible: once someone reaches the target
    the lowest total wins; a tie at the bottom is played on."""
    last = score_piles(MISERE, {}, rest_to=0)
    assert decide_winner(MISERE, [17, 9], last) == 1
    assert decide_winner(MISERE, [12, 9], last) == -1
    three = MISERE.replace(players=3)
    assert decide_winner(three, [17, 9, 9], score_piles(three, {}, rest_to=0)) == -1
    with pytest.raises(ValueError, match="low_wins.*immediate_scoring"):
        MISERE.replace(immediate_scoring=True)


# --- Krypkasino ------------------------------------------------------------------------------


def test_krypkasino_ace_values():
    """§6 Krypkasino: values as Finnish for aces: 14 from hand, 1 on the table (R-VAL-FI)."""
    assert moves_of(position(KRYPKASINO, "AH", "9C 5D AS")) == [("AH", ["9C", "5D"])]
    assert moves_of(position(KRYPKASINO, "5H", "AS 4D")) == [("5H", ["AS", "4D"])]


def test_krypkasino_penalty_cards_42_per_deal():
    """§6 Krypkasino: only 10♦ 3, 2♠ 2, every ace and every other spade 1 (A♠ 2): 42 a deal;
    no most-spades, most-cards or sistan point."""
    everything = score_piles(KRYPKASINO, {}, rest_to=0, last_capturer=0)
    assert everything.seats[0].points == 42
    some = score_piles(KRYPKASINO, {0: "AS 2S 10D AH 3S KH"}, rest_to=1, last_capturer=0)
    assert some.seats[0].points == 2 + 2 + 3 + 1 + 1
    assert some.seats[1].points == 42 - 9


def test_krypkasino_tabbe_plus_five_minus_five_to_the_player_before():
    """§6 Krypkasino: a player forced to sweep gets +5, the player before them -5."""
    deal = position_deal(KRYPKASINO.replace(players=3), "9H", "9C", seat=2)
    deal.apply(Move.capture(0, ids("9H")[0], 1))
    assert (deal.tally.scored_sweeps, deal.tally.given) == ([0, 0, 1], [0, 1, 0])
    points = [s.points for s in score_deal(deal.rules, deal.tally).seats]
    assert points == [0, -5, 5]
    lead = position_deal(KRYPKASINO, "9H", "9C", seat=0)
    lead.apply(Move.capture(0, ids("9H")[0], 1))
    assert lead.tally.given == [0, 1]  # the player before the leader is the last seat


@pytest.mark.parametrize("players, last_hands", [(2, [2, 2]), (3, [2, 1, 1]), (5, []), (6, [1, 1, 1, 1, 0, 0])])
def test_krypkasino_deal_as_far_as_the_cards_go(players, last_hands):
    """§6 Krypkasino: 2–6 players, two decks; 4 each and 4 to the table, then 4 each as far
    as the cards go; the rest one at a time from the leader."""
    rules = KRYPKASINO.replace(players=players)
    log = record_deal(rules, seed=players)
    assert len(log) == 100
    full = 100 // (4 * players) * 4 * players
    last = {view.seat: len(view.hand) for view, _ in log[full : full + players] if len(view.played) >= full}
    assert [last.get(seat, 0) for seat in range(players)] == (last_hands or [0] * players)


def test_krypkasino_greedy_takes_the_fewest_points():
    """§6 Krypkasino: greedy avoids points: 5♥ taking 5♠ (1) rather than 8♣ taking 5♠+3♦."""
    move = Greedy().choose(position(KRYPKASINO, "5H 8C", "5S 3D"))
    assert (codes([move.card]), move.taken) == (["5H"], 0b01)


def test_krypkasino_game_is_four_deals_or_the_limit():
    """§6 Krypkasino: fewest points after the agreed deals (4), or when someone passes the
    agreed limit (100)."""
    last = score_piles(KRYPKASINO, {}, rest_to=0)
    assert decide_winner(KRYPKASINO, [30, 50], last, deals=3) == -1
    assert decide_winner(KRYPKASINO, [30, 50], last, deals=4) == 0
    assert decide_winner(KRYPKASINO, [101, 50], last, deals=1) == 1


# --- Partnerships -----------------------------------------------------------------------------


def test_partnership_piles_and_points_pooled_per_team():
    """§6 Partnerships: partners sit opposite (0+2, 1+3) and pool piles and points; the most
    spades and cards are decided between teams; each seat's row is its team's."""
    rules = SWEDISH.replace(players=4, partnership=2)
    piles = {0: "2S 3S 4S 5S 6S", 2: "7S 8S 9S", 1: "10S JS QS KS AS"}
    result = score_piles(rules, piles, rest_to=3, last_capturer=3)
    rows = [s.row() for s in result.seats]
    assert rows[0] == rows[2] and rows[1] == rows[3]
    team0, team1 = result.seats[0], result.seats[1]
    assert (team0.spades, team1.spades, team0.cards, team1.cards) == (8, 5, 8, 44)
    assert team0.points == 2 + 1  # most spades, 2♠
    assert team1.points == 1 + 4 + 2 + 1  # most cards, four aces, 10♦, sistan


def test_partnership_mokki_cancel_per_team():
    """§6 Partnerships with R-MOKKI-CANCEL: every team with a mökki cancels, not every player."""
    rules = FINNISH.replace(players=4, partnership=2)
    teams = score_piles(rules, {}, rest_to=0, scored=[1, 0, 0, 1], sweeps=[1, 0, 0, 1])
    assert [s.tabbes for s in teams.seats] == [0, 0, 0, 0]
    alone = score_piles(FINNISH.replace(players=4), {}, rest_to=0, scored=[1, 0, 0, 1], sweeps=[1, 0, 0, 1])
    assert [s.tabbes for s in alone.seats] == [1, 0, 0, 1]


def test_partnership_game_won_by_the_team():
    """§6 Partnerships: teams share a score; the winner is a team (0: seats 0+2)."""
    rules = SWEDISH.replace(players=4, partnership=2)
    last = score_piles(rules, {0: "2S 3S 4S 5S 6S 7S 8S"}, rest_to=1)
    assert decide_winner(rules, [17, 12, 17, 12], last) == 0
    six = KRYPKASINO.replace(players=6, partnership=3)
    assert six.units == 2
    assert decide_winner(six, [40, 30, 40, 30, 40, 30], score_piles(six, {}, rest_to=0), deals=4) == 1


@pytest.mark.parametrize("changes, message", [
    ({"players": 4, "partnership": 3}, "'partnership' \\(3\\) must split 4 players"),
    ({"players": 2, "partnership": 2}, "must split 2 players into 2 or more"),
    ({"players": 3, "partnership": 2}, "must split 3 players"),
    ({"players": 6}, "6 players need two decks"),
])
def test_partnership_bad_teams_refused(changes, message):
    with pytest.raises(ValueError, match=message):
        SWEDISH.replace(**changes)


def test_position_names_second_copies_with_two_decks():
    """R-DECK: in a hand-built position (analyze) a card named again is its second copy."""
    from simcasino.analyze import analyze
    from simcasino.reference.state import position_view

    view = position_view(MULLE, ids("7H 5C"), ids("7H 3D"))
    assert (view.hand[0], view.table[0]) == (ids("7H")[0], ids("7H'")[0])
    frame = analyze("7H 5C", "7H 3D 4S", "mulle")
    assert frame.filter(frame["move"] == "7H takes 7H")["points"].to_list() == [5]  # a mulle
    with pytest.raises(ValueError, match=r"card 7H is given more than twice \(two decks\)"):
        position_view(MULLE, ids("7H"), ids("7H 7H"))
    with pytest.raises(ValueError, match=r"card 7H is given more than once \(one deck\)"):
        position_view(SWEDISH, ids("7H"), ids("7H"))
