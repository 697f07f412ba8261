"""Helpers shared by the test files (imported as ``from conftest import ...``; no test file
imports another): crafted decks, scripted strategies, hand-built positions and piles,
positions recorded from real play, random positions with §6 builds, and the command line
through click's runner.

A crafted deal is a deck list (index 0 dealt first, R-DEAL pattern) plus strategies whose
choices are scripted, so every play of the deal is known and the score can be worked out by
hand from the rule book.
"""

from __future__ import annotations

import random
import random as stdlib_random
from collections.abc import Iterable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

import simcasino
from simcasino.cli import main
from simcasino.core.cards import card_code, is_ace, is_spade, parse_card, parse_cards
from simcasino.core.protocol import Move, Stream, View
from simcasino.core.rules import Rules
from simcasino.core.table import Build, item_cards
from simcasino.reference.deal import Carry, DealResult, Tally, score_deal
from simcasino.reference.referee import play_deal
from simcasino.reference.state import DealState


def quick_tier(values: Iterable, quick: Iterable, *, unpack: bool = False) -> list:
    """A parametrization whose values outside ``quick`` are marked slow: the quick tier
    (``-m "not slow"``, the edit-test loop) runs the representatives, the full suite (CI)
    every value. ``unpack`` when the parametrization has several names (tuple values)."""
    keep = list(quick)
    return [value if value in keep else
            pytest.param(*(value if unpack else (value,)), marks=pytest.mark.slow) for value in values]


def cards(codes: str | Iterable[str]) -> list[int]:
    return parse_cards(codes)


def ids(text: str) -> list[int]:
    """Card ids of codes; a trailing ' names the second deck's copy (R-DECK: kind + 52)."""
    return [parse_card(c.rstrip("'")) + 52 * c.endswith("'") for c in text.replace(",", " ").split()]


def codes(ids: Iterable[int]) -> list[str]:
    return [card_code(c) for c in ids]


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


def find_move(view: View, card: str, took: str = "") -> Move:
    """The move playing ``card`` and taking the table cards ``took`` (empty: a trail)."""
    played = parse_card(card)
    assert played in view.hand, f"{card} not in hand {codes(view.hand)}"
    mask = 0
    for c in cards(took):
        assert c in view.table, f"{card_code(c)} not on table {codes(view.table)}"
        mask |= 1 << view.table.index(c)
    index = view.hand.index(played)
    return Move.capture(index, played, mask) if mask else Move.trail(index, played)


class TrailFirst:
    """Always trails the first card in hand (legal on every turn: R-OPTIONAL)."""

    def choose(self, view: View) -> Move:
        return Move.trail(0, view.hand[0])


class Sweeper:
    """Sweeps the table when some card can (first such move in canonical order), else
    trails the first card in hand."""

    def choose(self, view: View) -> Move:
        if view.table:
            for move in view.moves:
                if move.sweeps(view.table):
                    return move
        return Move.trail(0, view.hand[0])


class Scripted:
    """Plays the scripted step for the deal's play number (1-based: len(view.played) + 1),
    ``{play: (seat, card, took)}``; other plays go to ``fallback``. Records every view."""

    def __init__(self, steps: dict[int, tuple[int, str, str]], fallback) -> None:
        self.steps = steps
        self.fallback = fallback
        self.views: list[View] = []

    def choose(self, view: View) -> Move:
        self.views.append(view)
        number = len(view.played) + 1
        if number in self.steps:
            seat, card, took = self.steps[number]
            assert view.seat == seat, f"play {number}: seat {view.seat} is to play, script says {seat}"
            move = find_move(view, card, took)
            assert move in view.moves, f"play {number}: {card} taking {took!r} is not legal"
            return move
        return self.fallback.choose(view)


class Recorder:
    """Wraps a strategy and logs (view, move) of every decision in a shared list."""

    def __init__(self, inner, log: list) -> None:
        self.inner, self.log = inner, log

    def choose(self, view: View) -> Move:
        move = self.inner.choose(view)
        self.log.append((view, move))
        return move


def play(rules: Rules, strategies, deck: list[int], dealer: int, game_scores=None, watch=None) -> DealResult:
    """Deal ``deck`` (index 0 first) and play it out with ``strategies``."""
    return play_deal(DealState.dealt(rules, deck, 0, dealer, game_scores), strategies, watch)


def position(rules: Rules, hand: str, table: str, seat: int = 0, last_round: bool = False,
             game_scores: list[int] | None = None) -> View:
    """The view of ``seat`` holding ``hand`` with ``table`` on the table (no other history)."""
    return position_deal(rules, hand, table, seat, last_round, game_scores).observation(seat)


def position_deal(rules: Rules, hand: str, table: str, seat: int = 0, last_round: bool = False,
                  game_scores: list[int] | None = None, others: dict[int, str] | None = None) -> DealState:
    """The state behind `position` (codes as in `ids`), ``seat`` to move, to apply moves to
    and score; ``others`` are the other seats' hands."""
    hands = [ids((others or {}).get(s, "")) for s in range(rules.players)]
    hands[seat] = ids(hand)
    return DealState.position(rules, hands, ids(table), to_move=seat, last_round=last_round, scores=game_scores)


# cards that score nothing for their own sake and are not spades: hearts, diamonds, clubs 2..K
PLAIN = [c for c in range(13, 52) if not is_ace(c) and c != parse_card("10D")]


def score_piles(rules: Rules, piles: dict[int, str | list[int]], rest_to: int | None = None,
                last_capturer: int = 0, sweeps: list[int] | None = None,
                scored: list[int] | None = None, carry_in: Carry = Carry(), mulles: list[int] | None = None,
                given: list[int] | None = None) -> DealResult:
    """Score a deal (§4, §6) whose piles are given: ``piles[seat]`` codes (as in `ids`) or
    ids; every other card goes to ``rest_to``. ``sweeps``: captures that emptied the table;
    ``scored``: those that passed the mökki limits (default: all); ``mulles`` (worth
    ``mulle_points`` each) and ``given`` (tabbes_given) per seat."""
    n = rules.players
    tally = Tally.start(n)
    for seat, pile in piles.items():
        for c in ids(pile) if isinstance(pile, str) else pile:
            assert c not in tally.owner
            tally.owner[c] = seat
    if rest_to is not None:
        for c in range(rules.deck_size):
            tally.owner.setdefault(c, rest_to)
    tally.last_capturer = last_capturer
    tally.sweeps = list(sweeps or [0] * n)
    tally.scored_sweeps = list(scored if scored is not None else tally.sweeps)
    tally.mulles = list(mulles or [0] * n)
    tally.mulle_scores = [m * rules.mulle_points for m in tally.mulles]  # as each mulle scores
    tally.given = list(given or [0] * n)
    return score_deal(rules, tally, carry_in)


def spades_in(ids: Iterable[int]) -> int:
    return sum(is_spade(c) for c in ids)


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


class _Recorder:
    """Plays uniformly at random and keeps every view it is shown."""

    name = "recorder"

    def __init__(self) -> None:
        self.views: list[View] = []

    def choose(self, view: View, stream: Stream) -> Move:
        self.views.append(view)
        return view.moves[stream.draw(len(view.moves))]


def recorded_views(rules: Rules, deals: int) -> list[View]:
    """Every view shown to any seat in ``deals`` reference deals played at random."""
    recorder = _Recorder()
    simcasino.simulate(rules, [recorder] * rules.players, deals=deals, seed=3, engine="reference")
    return recorder.views


def hidden_cards(view: View) -> list[int]:
    """The cards ``view``'s player cannot see (a §6 build's cards are seen)."""
    visible = set(view.hand) | {c for item in view.table for c in item_cards(item)} | {card for _, card in view.played}
    visible |= {card for card, owner in enumerate(view.captured_by) if owner >= 0}
    return [card for card in range(len(view.captured_by)) if card not in visible]


def deal_hidden(view: View, order: int) -> tuple[list[list[int]], list[int]]:
    """The unseen cards in a shuffled order: other hands as big as the player's, the rest stock."""
    cards = hidden_cards(view)
    stdlib_random.Random(order).shuffle(cards)
    hands: list[list[int]] = []
    for _ in range(view.rules.players):
        size = min(len(view.hand), len(cards))
        hands.append(cards[:size])
        cards = cards[size:]
    return hands, cards

# --- shared by several test files -------------------------------------------------------------


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def ok(*args: str) -> Result:
    result = run(*args)
    assert result.exit_code == 0, f"exit {result.exit_code}\n{result.output}\n{result.exception!r}"
    return result


def table(text: str) -> list[dict[str, str]]:
    """The rows of the (first) Markdown table in ``text``, as dicts of header -> cell."""
    lines = [line for line in text.splitlines() if line.startswith("|")]
    cells = [[c.strip() for c in line.strip("|").split("|")] for line in lines]
    header, rows = cells[0], cells[2:]
    return [dict(zip(header, row)) for row in rows]


def pdf_pages(path: Path) -> int:
    import pypdf  # the test extra; imported here so that the benchmarks can use the helpers above

    return len(pypdf.PdfReader(path).pages)


def pdf_text(path: Path) -> list[str]:
    """The text of each page of a PDF, with its runs of white space made single spaces."""
    import pypdf

    return [" ".join(page.extract_text().split()) for page in pypdf.PdfReader(path).pages]


SPADE_ORDER = cards("3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS 2S")
NON_SPADES = [c for c in range(52) if not is_spade(c)]


def piles_with(spades: list[int], counts: list[int]) -> dict[int, list[int]]:
    """Piles with the given spade and card counts (non-spades handed out in id order)."""
    assert sum(spades) == 13 and sum(counts) == 52
    piles, si, oi = {}, 0, 0
    for seat, (s, n) in enumerate(zip(spades, counts)):
        piles[seat] = SPADE_ORDER[si : si + s] + NON_SPADES[oi : oi + n - s]
        si, oi = si + s, oi + n - s
    return piles


BUILD_RULE_SETS = {
    "rakennuskasino": Rules.preset("rakennuskasino"),
    "mulle_glimne": Rules.preset("mulle_glimne"),
    "swedish-builds": Rules.preset("swedish").replace(builds=True),
    "rakennuskasino-penalty": Rules.preset("rakennuskasino").replace(build_penalty=-5),
}


def random_build_position(rules: Rules, rng: random.Random) -> tuple[DealState, int]:
    """A position of seat 0 or 1 (to move): 1-4 cards in hand, up to 8 table items of which
    some are builds (2-3 cards, the value one of their sums or a double) owned by either seat.
    Two decks draw from few kinds, so identical cards meet on the table, in hand and in builds."""
    if rules.decks == 2:
        kinds = rng.sample(range(52), 10)
        pool = rng.sample(kinds + [k + 52 for k in kinds], 20)
    else:
        pool = rng.sample(range(52), 30)
    seat = rng.randrange(2)
    hands: list[list[int]] = [[], []]
    hands[seat] = [pool.pop() for _ in range(rng.randint(1, 4))]
    table: list[int | Build] = []
    for _ in range(rng.randint(1, 8)):
        if rng.random() < 0.35 and len(pool) >= 3:
            cards = tuple(pool.pop() for _ in range(rng.randint(2, 3)))
            sums = {0}
            for c in cards:
                sums = {s + v for s in sums for v in rules.table_values(c)}
            value = rng.choice(sorted(v for v in sums if v <= 16) or [16])
            table.append(Build(cards, value, rng.randrange(2), rng.random() < 0.3))
        elif pool:
            table.append(pool.pop())
    return DealState.position(rules, hands, table, to_move=seat), seat


def chance_in_hand(weights: list[float], size: int, index: int) -> float:
    """P(card ``index`` is in a hand of ``size``) when a hand's chance is the product of its
    cards' weights: its weight times the sets of the others that complete it, over all sets."""
    rest = weights[:index] + weights[index + 1:]
    return weights[index] * elementary(rest, size - 1) / elementary(weights, size)


def elementary(weights: list[float], k: int) -> float:
    """The sum over every k of the weights of their product."""
    sums = [1.0] + [0.0] * k
    for w in weights:
        for r in range(k, 0, -1):
            sums[r] += w * sums[r - 1]
    return sums[k]
