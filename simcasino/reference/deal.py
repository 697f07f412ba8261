"""Reference engine: one deal of Nordic Kasino, played and scored, written for clarity.

This is the oracle the numba kernel is tested against and the baseline its speed is
measured by. It follows docs/rules.md §2–§4 step by step; rule ids are cited in place.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import NamedTuple

from simcasino.core.cards import (
    ACE_OF_SPADES,
    BIG_KASINO,
    SMALL_KASINO,
    card_code,
    card_codes,
    card_ids,
    is_ace,
    is_spade,
)
from simcasino.core.protocol import Move, Strategy, View
from simcasino.core.rng import draw_below
from simcasino.core.rules import SPLIT_PLAYERS, Rules
from simcasino.core.table import Build, item_cards, item_code
from simcasino.reference.builds import build_onto, build_options, held_values, oblige
from simcasino.reference.captures import allowed_captures, is_mulle, mask_cards, mulle_score

COLUMNS = ("points", "cards", "spades", "aces", "big_kasino", "small_kasino", "sistan", "tabbes", "sweeps",
           "cards_points", "spades_points", "mulles", "tabbes_given", "mulles_points", "builds", "unheld_builds")
VARIANT_COLUMNS = ("mulles", "mulles_points", "builds", "unheld_builds")  # columns that only some variants fill


@dataclass
class SeatResult:
    """What one seat took and scored in one deal (the `simulate` frame's columns)."""

    points: int = 0
    cards: int = 0
    spades: int = 0
    aces: int = 0
    big_kasino: int = 0
    small_kasino: int = 0
    sistan: int = 0
    tabbes: int = 0  # sweeps that scored, after the mökki limits and cancellation
    sweeps: int = 0  # every capture that emptied the table
    cards_points: int = 0  # points for most cards (with any carried-in points)
    spades_points: int = 0  # points for spades: most spades, and per spade where a variant counts them
    mulles: int = 0  # §6 Mulle: captures of exactly one identical card
    tabbes_given: int = 0  # scored tabbes the next player made right after this seat's play
    mulles_points: int = 0  # §6 points for mulles (mulle_points each, or the played card's value)
    builds: int = 0  # §6 Builds: build moves made (new builds, raises, doubles)
    unheld_builds: int = 0  # §6 Builds: builds made without holding their value (build_penalty each)

    def row(self) -> tuple[int, ...]:
        return tuple(getattr(self, c) for c in COLUMNS)


class Carry(NamedTuple):
    """Points a tied deal postpones to the next (``cards_tie`` / ``spades_tie`` = "carry")."""

    cards: int = 0
    spades: int = 0


@dataclass
class DealResult:
    seats: list[SeatResult]
    carry_out: Carry = Carry()  # points postponed to the next deal
    winner: int = -1  # a seat that won the game mid-deal (Finnish immediate scoring), else -1
    plays: list[str] = field(default_factory=list)  # a move-by-move log, when asked for


@dataclass
class _Deal:
    rules: Rules
    deck: list[int]
    dealer: int
    game_scores: list[int]
    rng_state: int
    hands: list[list[int]] = field(default_factory=list)
    table: list[int | Build] = field(default_factory=list)  # loose cards and (§6) builds
    owner: dict[int, int] = field(default_factory=dict)
    played: list[tuple[int, int]] = field(default_factory=list)
    next_card: int = 0
    last_capturer: int = -1
    sweeps: list[int] = field(default_factory=list)  # per seat
    scored_sweeps: list[int] = field(default_factory=list)  # per seat
    given: list[int] = field(default_factory=list)  # per seat: tabbes_given
    mulles: list[int] = field(default_factory=list)  # per seat
    mulle_scores: list[int] = field(default_factory=list)  # per seat: points for mulles
    builds: list[int] = field(default_factory=list)  # per seat: build moves made
    unheld: list[int] = field(default_factory=list)  # per seat: builds made without holding the value
    immediate: list[int] = field(default_factory=list)  # per unit (team or player)
    last_round: bool = False

    def start_counts(self) -> None:
        n = self.rules.players
        self.sweeps, self.scored_sweeps, self.given, self.mulles = [0] * n, [0] * n, [0] * n, [0] * n
        self.mulle_scores, self.builds, self.unheld = [0] * n, [0] * n, [0] * n
        self.immediate = [0] * self.rules.units

    def draw(self, n: int) -> int:
        self.rng_state, value = draw_below(self.rng_state, n)
        return value

    def take(self, count: int) -> list[int]:
        cards = self.deck[self.next_card : self.next_card + count]
        self.next_card += count
        return cards

    def seats_from_leader(self) -> list[int]:
        n = self.rules.players
        return [(self.dealer + 1 + i) % n for i in range(n)]

    def live_scores(self) -> list[int]:
        """Game points of each seat now: before the deal plus its unit's immediate points."""
        units = self.rules.units
        return [g + self.immediate[seat % units] for seat, g in enumerate(self.game_scores)]


def deal_round(deal: _Deal, first: bool) -> None:
    """R-DEAL / R-REDEAL: two cards at a time (the last of five alone), leader first, the
    table after the hands in the first round only. When the stock cannot fill every hand
    (two decks), the rest goes out one card at a time from the leader."""
    rules = deal.rules
    left = len(deal.deck) - deal.next_card
    if not first and left < rules.players * rules.hand_cards:
        for i in range(left):
            deal.hands[deal.seats_from_leader()[i % rules.players]].extend(deal.take(1))
        return
    for given in range(0, max(rules.hand_cards, rules.table_cards), 2):
        for seat in deal.seats_from_leader():
            deal.hands[seat].extend(deal.take(max(0, min(2, rules.hand_cards - given))))
        if first:
            deal.table.extend(deal.take(max(0, min(2, rules.table_cards - given))))


def sweep_scores(deal: _Deal) -> bool:
    """Would a sweep made now score? R-TABBE with R-MOKKI-LAST and R-MOKKI-10."""
    rules = deal.rules
    if rules.mokki_last_round and deal.last_round:
        return False
    return not (rules.mokki_limit and max(deal.live_scores()) >= rules.mokki_limit)


def legal_moves(deal: _Deal, seat: int) -> tuple[Move, ...]:
    """R-TURN, R-OPTIONAL (and §6 must_capture, §6 Builds): trail, capture or build with any
    card; a card identical to an earlier one in hand adds no moves; canonical order (see View)."""
    moves = []
    hand, rules = deal.hands[seat], deal.rules
    for index, card in enumerate(hand):
        if any(c % 52 == card % 52 for c in hand[:index]):
            continue
        captures = allowed_captures(card, deal.table, rules)
        if not (captures and rules.must_capture):
            moves.append(Move(index, card, 0))
        moves.extend(Move(index, card, m) for m in captures)
        if rules.builds:
            moves.extend(Move(index, card, 1 << t, v) for t, v in build_options(hand, index, deal.table, rules))
    return oblige(tuple(moves), deal.table, seat) if rules.builds else tuple(moves)


def view_of(deal: _Deal, seat: int, choice: tuple[int, tuple[Move, ...]] | None = None) -> View:
    """``seat``'s view: its own turn, or with ``choice`` = (mover, captures) the §6 Misère
    choice it makes among the captures of the card the mover plays."""
    captured_by = [-1] * len(deal.deck)
    for card, owner in deal.owner.items():
        captured_by[card] = owner
    return View(
        rules=deal.rules,
        seat=seat,
        hand=tuple(deal.hands[seat]),
        table=tuple(deal.table),
        moves=choice[1] if choice else legal_moves(deal, seat),
        chooser_for=choice[0] if choice else -1,
        sweep_scores=sweep_scores(deal),
        last_round=deal.last_round,
        stock_left=len(deal.deck) - deal.next_card,
        played=tuple(deal.played),
        captured_by=tuple(captured_by),
        scores=tuple(deal.live_scores()),
        draw=deal.draw,
    )


def position_view(rules: Rules, hand: list[int], table: list[int | Build], seen: list[int] = (),
                  last_round: bool = False, scores: list[int] | None = None) -> View:
    """Seat 0's view of a position: ``hand`` to play on ``table`` (card kinds, and §6 builds
    of card kinds); ``seen`` cards lie in another seat's pile (played and captured, so
    visible); every other card is unseen. For `simcasino analyze` and for tests of strategies
    on hand-built positions."""
    n = rules.players
    used: set[int] = set()
    hand = card_ids(hand, rules.decks, used)
    table = [_item_copies(item, rules, used) for item in table]
    seen = card_ids(seen, rules.decks, used)
    named = hand + [c for item in table for c in item_cards(item)] + seen
    deck = named + [c for c in range(rules.deck_size) if c not in named]
    deal = _Deal(rules, deck, n - 1, list(scores or [0] * n), 0)
    deal.hands = [hand] + [[] for _ in range(n - 1)]
    deal.table = table
    deal.owner = {c: 1 for c in seen}
    deal.start_counts()
    deal.next_card = len(named)
    deal.last_round = last_round
    return view_of(deal, 0)


def _item_copies(item: int | Build, rules: Rules, used: set[int]) -> int | Build:
    """A table item with card ids for its card kinds (see `cards.card_ids`)."""
    if not isinstance(item, Build):
        return card_ids([item], rules.decks, used)[0]
    return dataclasses.replace(item, cards=tuple(card_ids(item.cards, rules.decks, used)))


def apply_move(deal: _Deal, seat: int, move: Move) -> bool:
    """Play a move (R-PILE, R-TABBE). Returns True if it won the game on the spot (§5 Finnish)."""
    held = held_values(deal.hands[seat], move.hand_index, deal.rules) if move.build else set()
    card = deal.hands[seat].pop(move.hand_index)
    deal.played.append((seat, card))
    if move.is_trail:
        deal.table.append(card)
        return False
    if move.build:  # §6 Builds: the card goes onto one table item
        target = move.mask.bit_length() - 1
        deal.table[target] = build_onto(deal.table[target], card, move.build, seat)
        deal.builds[seat] += 1
        deal.unheld[seat] += move.build not in held
        return False
    rules = deal.rules
    deal.mulles[seat] += is_mulle(card, move.mask, deal.table, rules.mulle_within)
    deal.mulle_scores[seat] += mulle_score(card, move.mask, deal.table, rules)
    taken = mask_cards(move.mask, deal.table) + [card]
    single = len(deal.table) == 1
    deal.table = [c for i, c in enumerate(deal.table) if not move.mask >> i & 1]
    for c in taken:
        deal.owner[c] = seat
    deal.last_capturer = seat
    if not deal.table:
        deal.sweeps[seat] += 1
        if sweep_scores(deal):  # §6 Misère double sweep; Krypkasino: the seat before pays
            tabbes = 2 if rules.double_sweep and single else 1
            deal.scored_sweeps[seat] += tabbes
            deal.given[(seat - 1) % rules.players] += tabbes
    if not rules.immediate_scoring:
        return False
    units = rules.units
    deal.immediate[seat % units] += sum(rules.card_points(c) for c in taken)
    live = deal.live_scores()
    others = max(s for i, s in enumerate(live) if i % units != seat % units)
    return live[seat] >= rules.target and live[seat] > others


def award_unique_max(counts: list[int], points: int, split: bool) -> list[int]:
    """§4 'most …' items: the unique leader gets ``points``; with ``split``, exactly two
    tied leaders get half each (Finnish spades for 3–4 players); otherwise nobody."""
    best = max(counts)
    leaders = [i for i, c in enumerate(counts) if c == best]
    award = [0] * len(counts)
    if len(leaders) == 1:
        award[leaders[0]] = points
    elif split and len(leaders) == 2:
        for i in leaders:
            award[i] = points // 2
    return award


def per_unit(counts: list[int], units: int) -> list[int]:
    """Per-seat counts summed per scoring unit (§6 Partnerships: seat % units)."""
    return [sum(counts[u::units]) for u in range(units)]


def score_deal(deal: _Deal, carry_in: Carry = Carry()) -> DealResult:
    """§4 (and the §6 variants): count every pile and score the deal, per unit (team or
    player); every seat gets its unit's row."""
    rules = deal.rules
    units = rules.units
    rows = [SeatResult() for _ in range(units)]
    aces_of_spades = [0] * units
    for card, owner in deal.owner.items():
        kind = card % 52
        s = rows[owner % units]
        aces_of_spades[owner % units] += kind == ACE_OF_SPADES
        s.cards += 1
        s.spades += is_spade(kind)
        s.aces += is_ace(kind)
        s.big_kasino += kind == BIG_KASINO
        s.small_kasino += kind == SMALL_KASINO
    if deal.last_capturer >= 0:
        rows[deal.last_capturer % units].sistan = 1
    scored = per_unit(deal.scored_sweeps, units)
    if rules.mokki_cancel and min(scored) > 0:  # R-MOKKI-CANCEL
        scored = [t - min(scored) for t in scored]
    split = rules.spades_tie == "split" and rules.players >= SPLIT_PLAYERS
    spades, spades_carry = _most_of(rules.spades_tie, [s.spades for s in rows],
                                    rules.most_spades_points + carry_in.spades, split)
    cards, cards_carry = _most_of(rules.cards_tie, [s.cards for s in rows],
                                  rules.most_cards_points + carry_in.cards, False)
    for s, sweeps, tabbes, mulles, given in zip(rows, per_unit(deal.sweeps, units), scored,
                                                per_unit(deal.mulles, units), per_unit(deal.given, units)):
        s.sweeps, s.tabbes, s.mulles, s.tabbes_given = sweeps, tabbes, mulles, given
    for s, mulle_points, builds, unheld in zip(rows, per_unit(deal.mulle_scores, units),
                                               per_unit(deal.builds, units), per_unit(deal.unheld, units)):
        s.mulles_points, s.builds, s.unheld_builds = mulle_points, builds, unheld
    for i, s in enumerate(rows):
        s.cards_points = cards[i]
        s.spades_points = spades[i] + spade_count_points(rules, s) + rules.ace_of_spades_points * aces_of_spades[i]
        s.points = s.cards_points + s.spades_points + item_points(rules, s)
    seats = [dataclasses.replace(rows[seat % units]) for seat in range(rules.players)]
    return DealResult(seats=seats, carry_out=Carry(cards_carry, spades_carry))


def _most_of(tie: str, counts: list[int], points: int, split: bool) -> tuple[list[int], int]:
    """§4 a most-cards or most-spades item: each unit's award, and what a tie carries on
    (``tie`` = "carry": the whole item, else nothing)."""
    tied = counts.count(max(counts)) > 1
    return award_unique_max(counts, points, split), points if tied and tie == "carry" else 0


def spade_count_points(rules: Rules, s: SeatResult) -> int:
    """Points a variant gives per spade (Krypkasino) or per spade beyond a count (Överspader)."""
    over = max(0, s.spades - rules.spades_over) if rules.spades_over else 0
    return s.spades * rules.spade_points + over


def item_points(rules: Rules, s: SeatResult) -> int:
    """A row's points from everything but the spades and most-cards items (§4, §6)."""
    return (
        s.aces * rules.ace_points
        + s.big_kasino * rules.big_kasino_points
        + s.small_kasino * rules.small_kasino_points
        + s.sistan * rules.sistan_points
        + s.tabbes * rules.tabbe_points
        + s.tabbes_given * rules.tabbe_previous_points
        + s.mulles_points
        + s.unheld_builds * rules.build_penalty
    )


def play_deal(
    rules: Rules,
    strategies: list[Strategy],
    deck: list[int],
    dealer: int,
    rng_state: int,
    game_scores: list[int] | None = None,
    carry_in: Carry = Carry(),
    log: bool = False,
) -> DealResult:
    """Deal ``deck`` (index 0 first) and play it out. ``game_scores`` are the points each
    player had before this deal (they matter for R-MOKKI-10 and the Finnish mid-deal win)."""
    n = rules.players
    deal = _Deal(rules, list(deck), dealer, list(game_scores or [0] * n), rng_state)
    deal.hands = [[] for _ in range(n)]
    deal.start_counts()
    plays: list[str] = []
    for round_no in range(rules.deal_rounds):
        deal_round(deal, first=round_no == 0)
        deal.last_round = deal.next_card == len(deal.deck)  # R-LAST
        while any(deal.hands):
            for seat in deal.seats_from_leader():
                if not deal.hands[seat]:
                    continue  # a short last hand (two decks)
                view = view_of(deal, seat)
                move = opponent_choice(deal, strategies, seat, view, _checked(strategies[seat], view))
                if log:
                    plays.append(describe_move(seat, view, move))
                if apply_move(deal, seat, move):
                    result = _partial_result(deal)
                    result.winner, result.plays = seat, plays
                    return result
    collect_leftovers(deal)
    result = score_deal(deal, carry_in)
    result.plays = plays
    return result


def collect_leftovers(deal: _Deal) -> None:
    """R-SISTAN: the last capturer (the dealer if nobody captured) takes what is left on the
    table, the cards of any builds (§6) included."""
    taker = deal.last_capturer if deal.last_capturer >= 0 else deal.dealer
    for c in (card for item in deal.table for card in item_cards(item)):
        deal.owner[c] = taker
    deal.table = []


def _checked(strategy: Strategy, view: View) -> Move:
    move = strategy.choose(view)
    if move not in view.moves:
        raise ValueError(f"strategy of seat {view.seat} returned an illegal move {move}")
    return move


def opponent_choice(deal: _Deal, strategies: list[Strategy], seat: int, view: View, move: Move) -> Move:
    """§6 Misère: when the played card has several allowed captures, the next player's
    strategy picks which one it makes."""
    if not move.is_capture or not deal.rules.opponent_chooses:
        return move
    captures = tuple(m for m in view.moves if m.hand_index == move.hand_index and m.is_capture)
    if len(captures) < 2:
        return move
    chooser = (seat + 1) % deal.rules.players
    return _checked(strategies[chooser], view_of(deal, chooser, (seat, captures)))


def _partial_result(deal: _Deal) -> DealResult:
    """A deal cut short by a Finnish mid-deal win: only the immediate points were scored."""
    units = deal.rules.units
    seats = [SeatResult(points=deal.immediate[seat % units]) for seat in range(deal.rules.players)]
    return DealResult(seats=seats)


def describe_build(seat: int, view: View, move: Move) -> str:
    """A §6 build move in words: a new build, a raise, a double (or a card added to one)."""
    target = view.table[move.mask.bit_length() - 1]
    made = build_onto(target, move.card, move.build, seat)
    card, was, now = card_code(move.card), item_code(target), item_code(made)
    if not isinstance(target, Build):
        return f"builds {card} onto {was}: {now}"
    return f"{'doubles' if made.double else 'raises'} {was} with {card}: {now}"


def describe_move(seat: int, view: View, move: Move) -> str:
    hand = " ".join(card_codes(view.hand))
    table = " ".join(item_code(item) for item in view.table) or "-"
    if move.is_trail:
        what = f"trails {card_code(move.card)}"
    elif move.build:
        what = describe_build(seat, view, move)
    else:
        taken = [item_code(item) for i, item in enumerate(view.table) if move.mask >> i & 1]
        what = f"plays {card_code(move.card)} taking {' '.join(taken)}"
        if move.mask == (1 << len(view.table)) - 1:
            what += " — tabbe" + ("" if view.sweep_scores else " (no point)")
    return f"seat {seat} [{hand}] table [{table}]: {what}"
