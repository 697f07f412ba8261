"""Crafted deals: a deck list (index 0 dealt first, R-DEAL pattern) arranged so that each seat
gets the cards a test names, two such deals ready made, and a deck played out.

With strategies whose choices are scripted (`helpers.scripted`), every play of a crafted deal
is known and the score can be worked out by hand from the rule book.
"""

from __future__ import annotations

from helpers.cards import cards
from simcasino.core.rules import Rules
from simcasino.reference.deal import DealResult
from simcasino.reference.referee import play_deal
from simcasino.reference.state import DealState


def leader_order(players: int, dealer: int) -> list[int]:
    """R-ROTATE: the player left of the dealer first, the dealer last."""
    return [(dealer + 1 + i) % players for i in range(players)]


def deal_slots(players: int, dealer: int) -> list[tuple]:
    """Where each deck position goes under R-DEAL / R-REDEAL, in dealing order:
    ("hand", round, seat, position-in-hand) or ("table", 0, None, position-on-table)."""
    rounds = 48 // (4 * players)
    slots: list[tuple] = []
    for rnd in range(rounds):
        for half in range(2):
            for seat in leader_order(players, dealer):
                slots += [("hand", rnd, seat, 2 * half), ("hand", rnd, seat, 2 * half + 1)]
            if rnd == 0:
                slots += [("table", 0, None, 2 * half), ("table", 0, None, 2 * half + 1)]
    assert len(slots) == 52
    return slots


def arrange_deck(players: int, dealer: int, hands: list[dict[int, str]], table: str = "") -> list[int]:
    """A deck that deals ``table`` first-round table cards and ``hands[r][seat]`` (up to 4
    codes, in dealt order) to each seat in round r. Cards not named fill the remaining
    positions in ascending id order."""
    wanted: dict[tuple, int] = {}
    for rnd, spec in enumerate(hands):
        for seat, text in spec.items():
            ids = cards(text)
            assert len(ids) <= 4, text
            for i, c in enumerate(ids):
                wanted[("hand", rnd, seat, i)] = c
    for i, c in enumerate(cards(table)):
        wanted[("table", 0, None, i)] = c
    named = list(wanted.values())
    assert len(set(named)) == len(named), "a card is named twice"
    rest = iter(c for c in range(52) if c not in set(named))
    deck = [wanted[s] if s in wanted else next(rest) for s in deal_slots(players, dealer)]
    assert sorted(deck) == list(range(52))
    return deck


def pair_deck(table: str, pairs: list[tuple[str, str]], first: dict[int, str] | None = None) -> list[int]:
    """Two players, dealer seat 1, seat 0 leads. Round r gives seat 0 the first cards and
    seat 1 the second cards of ``pairs[4r : 4r + 4]``; ``first`` overrides round 1 hands
    (then ``pairs`` cover rounds 2.. only)."""
    hands: list[dict[int, str]] = []
    if first is not None:
        hands.append(first)
    for start in range(0, len(pairs), 4):
        chunk = pairs[start : start + 4]
        hands.append({0: " ".join(p[0] for p in chunk), 1: " ".join(p[1] for p in chunk)})
    deck = arrange_deck(2, 1, hands, table)
    return deck


def play(rules: Rules, strategies, deck: list[int], dealer: int, game_scores=None, watch=None) -> DealResult:
    """Deal ``deck`` (index 0 first) and play it out with ``strategies``."""
    return play_deal(DealState.dealt(rules, deck, 0, dealer, game_scores), strategies, watch)


# --- two crafted two-player deals (dealer seat 1, seat 0 leads) ---------------------------------
#
# Deal P: the table is the four aces. Seat 0 trails the first card of each pair (TrailFirst),
# seat 1 takes it with the second (Sweeper): play 2 is 4H taking 4S + A+A+A+A, then every
# seat-1 play is a sweep of the lone card seat 0 just trailed, the last play (48) included.
# 2♠ and 10♦ are trailed by seat 0 (plays 5 and 9) and taken by 2H / 10H (plays 6 and 10), so
# they work in Finnish too. Seat 1 ends with all 52 cards and 24 sweeps.
P_TABLE = "AS AH AD AC"
P_PAIRS = [
    ("4S", "4H"), ("4D", "4C"), ("2S", "2H"), ("3S", "3H"),  # round 1: plays 1-8
    ("10D", "10H"), ("6S", "6H"), ("7S", "7H"), ("8S", "8H"),  # round 2: plays 9-16
    ("9S", "9H"), ("10S", "10C"), ("JS", "JH"), ("QS", "QH"),
    ("2D", "2C"), ("3D", "3C"), ("6D", "6C"), ("7D", "7C"),
    ("8D", "8C"), ("9D", "9C"), ("JD", "JC"), ("QD", "QC"),
    ("KD", "KC"), ("5S", "5H"), ("5D", "5C"), ("KS", "KH"),  # round 6 (last): plays 41-48
]


def deal_p() -> list[int]:
    return pair_deck(P_TABLE, P_PAIRS)


# Deal C: round 1 is scripted so that both players sweep twice; rounds 2-6 are pairs as in P
# (seat 0 trails, seat 1 sweeps).
C_TABLE = "AS AH AD AC"
C_FIRST = {0: "4H 6H 4D 9C", 1: "6C 4S 4C 9D"}
C_STEPS = {
    1: (0, "4H", "AS AH AD AC"),  # sweep (seat 0)
    2: (1, "6C", ""),  # forced trail on the empty table
    3: (0, "6H", "6C"),  # sweep (seat 0)
    4: (1, "4S", ""),
    5: (0, "4D", ""),  # R-OPTIONAL: trails although 4D could take 4S
    6: (1, "4C", "4S 4D"),  # sweep (seat 1), two groups of one
    7: (0, "9C", ""),
    8: (1, "9D", "9C"),  # sweep (seat 1)
}
C_PAIRS = [
    ("2S", "2H"), ("2D", "2C"), ("3S", "3H"), ("3D", "3C"),
    ("5S", "5H"), ("5D", "5C"), ("6S", "6D"), ("7S", "7H"),
    ("7D", "7C"), ("8S", "8H"), ("8D", "8C"), ("9S", "9H"),
    ("10D", "10H"), ("10S", "10C"), ("JS", "JH"), ("JD", "JC"),
    ("QS", "QH"), ("QD", "QC"), ("KS", "KH"), ("KD", "KC"),
]


def deal_c() -> list[int]:
    return pair_deck(C_TABLE, C_PAIRS, first=C_FIRST)
