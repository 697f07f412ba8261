"""Dealing and play in the reference engine: §2 (R-DEAL, R-REDEAL, R-LAST, R-ROTATE) and
§3 (R-TURN, R-OPTIONAL with must_capture_max, R-PILE, R-TABBE's forced trail)."""

from __future__ import annotations

import random

import pytest
from helpers.cards import cards, codes
from helpers.decks import arrange_deck, deal_p, deal_slots, leader_order, play
from helpers.positions import position
from helpers.scripted import Recorder, Scripted, Sweeper, TrailFirst

from simcasino.cli.deals import replay_line
from simcasino.core.cards import parse_card
from simcasino.core.protocol import Move
from simcasino.core.rules import FINNISH, SWEDISH
from simcasino.reference.captures import mask_cards
from simcasino.strategies.greedy import Greedy

CONFIGS = [(r, n) for r in (SWEDISH, FINNISH) for n in (2, 3, 4)]
IDS = [f"{r.name}-{n}p" for r, n in CONFIGS]


def first_views(log):
    """The first view of each seat (its hand as dealt) and the very first table."""
    seen = {}
    for view, _ in log:
        seen.setdefault(view.seat, view)
    return seen


def run_logged(rules, deck, dealer, make=Greedy):
    log: list = []
    result = play(rules, [Recorder(make(), log) for _ in range(rules.players)], deck, dealer)
    return log, result


# --- R-DEAL: the exact cards of the first round ---------------------------------------------------


@pytest.mark.parametrize(
    "players, dealer, hands, table",
    [
        (2, 1, {0: [0, 1, 6, 7], 1: [2, 3, 8, 9]}, [4, 5, 10, 11]),
        (2, 0, {1: [0, 1, 6, 7], 0: [2, 3, 8, 9]}, [4, 5, 10, 11]),
        (3, 2, {0: [0, 1, 8, 9], 1: [2, 3, 10, 11], 2: [4, 5, 12, 13]}, [6, 7, 14, 15]),
        (3, 0, {1: [0, 1, 8, 9], 2: [2, 3, 10, 11], 0: [4, 5, 12, 13]}, [6, 7, 14, 15]),
        (4, 3, {0: [0, 1, 10, 11], 1: [2, 3, 12, 13], 2: [4, 5, 14, 15], 3: [6, 7, 16, 17]}, [8, 9, 18, 19]),
        (4, 1, {2: [0, 1, 10, 11], 3: [2, 3, 12, 13], 0: [4, 5, 14, 15], 1: [6, 7, 16, 17]}, [8, 9, 18, 19]),
    ],
)
def test_r_deal_two_at_a_time_leader_first(players, dealer, hands, table):
    """R-DEAL: 2 to each player (left of the dealer first), 2 to the table, again 2 each and
    2 to the table: 4 in each hand, 4 on the table. Deck index 0 is dealt first."""
    log, _ = run_logged(SWEDISH.replace(players=players), list(range(52)), dealer)
    views = first_views(log)
    for seat, hand in hands.items():
        assert list(views[seat].hand) == hand
    assert list(log[0][0].table) == table
    assert log[0][0].seat == (dealer + 1) % players  # R-ROTATE: left of the dealer leads


def test_r_redeal_second_round_exact_cards():
    """R-REDEAL: 2 players, the second round gives 12,13,16,17 and 14,15,18,19 (nothing to the table)."""
    log, _ = run_logged(SWEDISH, list(range(52)), 1)
    round2 = [v for v, _ in log[8:10]]
    assert [v.seat for v in round2] == [0, 1]
    assert list(round2[0].hand) == [12, 13, 16, 17]
    assert list(round2[1].hand) == [14, 15, 18, 19]


# --- R-REDEAL / R-LAST / R-TURN over a whole deal ------------------------------------------------


@pytest.mark.parametrize("rules, players", CONFIGS, ids=IDS)
def test_r_redeal_structure_whole_deal(rules, players):
    """R-REDEAL, R-LAST, R-TURN, R-ROTATE over a whole deal: 6/4/3 rounds of 4 cards to each
    hand, dealt 2 at a time and never to the table; one card per turn, clockwise from the
    leader; the last round is flagged; the table changes only by the plays."""
    rules = rules.replace(players=players)
    rounds = {2: 6, 3: 4, 4: 3}[players]
    deck = list(range(52))
    random.Random(players).shuffle(deck)
    dealer = players - 2
    log, result = run_logged(rules, deck, dealer)
    slots = deal_slots(players, dealer)

    def dealt(rnd, seat):
        return [deck[i] for i, s in enumerate(slots) if s[:3] == ("hand", rnd, seat)]

    assert len(log) == 48 == rounds * 4 * players
    assert [v.seat for v, _ in log] == leader_order(players, dealer) * (48 // players)
    table = [deck[i] for i, s in enumerate(slots) if s[0] == "table"]
    hands = {}
    for k, (view, move) in enumerate(log):
        rnd = k // (4 * players)
        if k % (4 * players) == 0:  # a new round: every hand gets 4 cards, the table none
            hands = {s: dealt(rnd, s) for s in range(players)}
        assert view.stock_left == 52 - 4 - 4 * players * (rnd + 1)
        assert view.last_round == (rnd == rounds - 1)
        assert list(view.table) == table
        assert list(view.hand) == hands[view.seat]
        assert len(view.hand) == 4 - (k % (4 * players)) // players
        assert move in view.moves
        hands[view.seat] = [c for c in hands[view.seat] if c != move.card]  # exactly one card
        if move.is_trail:
            table = table + [move.card]
        else:
            table = [c for i, c in enumerate(table) if not move.taken >> i & 1]
    assert sum(s.cards for s in result.seats) == 52  # R-PILE + R-SISTAN: every card ends in a pile
    assert len({c for _, m in log for c in [m.card]}) == 48


def test_r_rotate_leader_is_left_of_dealer():
    """R-ROTATE: the player left of the dealer (seat dealer+1) leads; play goes clockwise."""
    for players in (2, 3, 4):
        for dealer in range(players):
            log, _ = run_logged(SWEDISH.replace(players=players), list(range(52)), dealer)
            assert [v.seat for v, _ in log[:players]] == [(dealer + 1 + i) % players for i in range(players)]


# --- R-TURN ---------------------------------------------------------------------------------------


class Returns:
    def __init__(self, answer):
        self.answer = answer

    def choose(self, view):
        return self.answer(view)


@pytest.mark.parametrize(
    "answer",
    [
        lambda v: None,  # passing
        lambda v: Move.trail(1, v.hand[0]),  # wrong hand index for the card
        lambda v: Move.trail(0, parse_card("KD")),  # a card not in hand
        lambda v: Move.capture(0, v.hand[0], 1 << 10),  # a table card that is not there
        lambda v: Move.capture(0, v.hand[0], 0b1111),  # 2C "taking" 6C 7C 5S 6S: not a capture
    ],
)
def test_r_turn_illegal_moves_are_refused(answer):
    """R-TURN: a player must play exactly one card of the hand, legally; anything else is an error."""
    deck = arrange_deck(2, 1, [{0: "2C 3C AS 2S"}], "6C 7C 5S 6S")
    with pytest.raises(ValueError, match="illegal move"):
        play(SWEDISH, [Returns(answer), TrailFirst()], deck, 1)


def test_r_turn_every_card_can_be_trailed():
    """R-TURN / R-OPTIONAL: every card in hand has a trail, so there is always a legal move."""
    view = position(SWEDISH, "QH 5D 2S", "QC 9D 3S")
    trails = [m for m in view.moves if m.is_trail]
    assert [m.card for m in trails] == cards("QH 5D 2S")
    assert [m.hand_index for m in trails] == [0, 1, 2]


# --- R-OPTIONAL and must_capture_max ----------------------------------------------------------------


def test_r_optional_all_captures_and_trail_in_canonical_order():
    """R-OPTIONAL: trailing and taking fewer groups are legal; canonical order: hand position,
    trail first, then captures by ascending mask."""
    view = position(SWEDISH, "QH 5D", "QC 9D 3S")
    qh, d5 = cards("QH 5D")
    assert view.moves == (Move.trail(0, qh), Move.capture(0, qh, 0b001), Move.capture(0, qh, 0b110),
                          Move.capture(0, qh, 0b111), Move.trail(1, d5))
    assert list(view.moves) == sorted(view.moves)  # the canonical order is the moves' own order


@pytest.mark.parametrize(
    "hand, table, expected",
    [
        ("QH", "QC 9D 3S", ["QC 9D 3S"]),
        ("10H", "2C 3C 5C 7C", ["2C 3C 5C"]),
        ("5H", "5C 5D", ["5C 5D"]),
        ("8H", "4C 4D 4S", ["4C 4D", "4C 4S", "4D 4S"]),  # equally large captures all stay
        ("AH", "AC 5D 8S", ["AC 5D 8S"]),
    ],
)
def test_must_capture_max(hand, table, expected):
    """R-OPTIONAL house rule must_capture_max: if the card captures, it takes the largest
    possible capture (most cards); trailing stays legal."""
    view = position(SWEDISH.replace(must_capture_max=True), hand, table)
    captures = [" ".join(codes(mask_cards(m.taken, view.table))) for m in view.moves if not m.is_trail]
    assert captures == expected
    assert any(m.is_trail for m in view.moves)


def test_must_capture_max_in_a_deal():
    """must_capture_max in play: Q taking only Q (leaving 9+3) is refused; free play allows it."""
    deck = arrange_deck(2, 1, [{0: "QH 5D 6H 7H"}], "QC 9D 3S 2H")
    steps = {1: (0, "QH", "QC")}
    result = play(SWEDISH, [Scripted(steps, Greedy()), Greedy()], deck, 1)  # R-OPTIONAL: legal
    assert sum(s.cards for s in result.seats) == 52
    with pytest.raises(AssertionError, match="not legal"):
        play(SWEDISH.replace(must_capture_max=True), [Scripted(steps, Greedy()), Greedy()], deck, 1)


# --- R-TABBE: the next player must trail; R-PILE --------------------------------------------------



@pytest.mark.parametrize("rules", [SWEDISH, FINNISH], ids=["swedish", "finnish"])
def test_r_tabbe_next_player_must_trail(rules):
    """R-TABBE: after a sweep the next player faces an empty table and can only trail."""
    log: list = []
    deck = deal_p()
    play(rules, [Recorder(TrailFirst(), log), Recorder(Sweeper(), log)], deck, 1)
    after_sweep = [v for k, (v, _) in enumerate(log) if k and log[k - 1][1].sweeps(log[k - 1][0].table)]
    assert len(after_sweep) == 23  # seat 1 sweeps on every play; seat 0 then faces an empty table
    for view in after_sweep:
        assert view.table == () and view.seat == 0
        assert all(m.is_trail for m in view.moves) and len(view.moves) == len(view.hand)


def test_empty_table_only_trails():
    view = position(FINNISH, "AH 2S 10D KC", "")
    assert all(m.is_trail for m in view.moves) and len(view.moves) == 4


def test_r_pile_captured_cards_and_played_card_go_to_the_capturer():
    """R-PILE: the played card and what it took go to the player's pile (visible as captured_by)."""
    steps = {1: (0, "4S", ""), 2: (1, "4H", "AS AH AD AC 4S")}
    s0 = Scripted(steps, TrailFirst())
    s1 = Scripted(steps, Sweeper())
    play(SWEDISH, [s0, s1], deal_p(), 1)
    view = s0.views[1]  # seat 0's second decision, play 3
    owned = {c for c, owner in enumerate(view.captured_by) if owner == 1}
    assert owned == set(cards("AS AH AD AC 4S 4H"))
    assert all(owner in (-1, 1) for owner in view.captured_by)
    assert view.played == ((0, parse_card("4S")), (1, parse_card("4H")))
    assert view.table == ()


def logged(rules):
    """The replay's line of every decision of deal P."""
    lines: list[str] = []
    play(rules, [TrailFirst(), Sweeper()], deal_p(), 1, watch=lambda view, action: lines.append(
        replay_line(view, action)))
    return lines


def test_log_describes_moves_and_tabbes():
    plays = logged(SWEDISH)
    assert len(plays) == 48
    assert plays[0].endswith("trail 4S")
    assert plays[1].endswith("4H takes AS AH AD AC 4S — tabbe")
    assert logged(FINNISH)[-1].endswith("— tabbe (no point)")  # R-MOKKI-LAST
