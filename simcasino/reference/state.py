"""The public state of one deal: whose turn, what may be played and why not, what a move did.

Why a state object (pokerkit's `State`, OpenSpiel's `State`): everything that plays a deal —
the reference engine's deal loop, a person at the terminal, a bot asking the kernel, a
record played back, a test — drives the same object through the same few calls, and
anything that needs to know about the deal (a bot's hidden cards, a review, a log) reads it
there instead of rebuilding it. The state follows docs/rules.md §2–§4 and §6 step by step,
rule ids cited in place; it is the reference engine, the oracle the kernel is held to.

A deal is dealt as both engines deal it (`new`: random stream (seed key, index, 0), the
last seat dealing, as `simulate` plays deal ``index``), then `apply` plays one decision at a
time for the seat `to_move`: a `Move` of `legal_moves` (anything else raises, with
`why_illegal`'s reason), returning a frozen `Action` that the `history` keeps. Under §6
Misère a capture with several allowed forms waits for the next seat's pick: that seat is
then `to_move` and its legal moves are the captures of the card. `observation` is what one
seat may see (the `View` strategies decide from); `result` scores the finished deal. Only
the state's own methods change it; the random stream the seats draw from is the referee's
(`reference.referee`), begun at the state's `rng`.

>>> state = DealState.new(Rules(), seed=1)
>>> state.to_move, len(state.legal_moves())
(0, 5)
>>> action = state.apply(state.legal_moves()[1])
>>> from simcasino.core.notation import move_name
>>> move_name(action.move, action.table), state.to_move
('10C takes 10H', 1)
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from simcasino.core.cards import card_ids
from simcasino.core.protocol import Move, MoveKind, View
from simcasino.core.rng import draw_below, seed_key, shuffled_deck
from simcasino.core.rules import Rules, from_table
from simcasino.core.table import Build, is_build, item_cards
from simcasino.reference.builds import build_onto, held_values
from simcasino.reference.captures import is_mulle, mask_cards, mulle_score
from simcasino.reference.deal import (
    SEAT_COUNTS,
    Carry,
    DealResult,
    Tally,
    partial_result,
    score_deal,
)
from simcasino.reference.moves import legal_moves, why_not

JSON_FORMAT = "simcasino-deal-state"
JSON_VERSION = 1


@dataclass(frozen=True)
class Action:
    """One decision applied to a deal, and what it did.

    ``seat`` decided; ``player`` is the seat whose card it is (the same seat, but for a §6
    Misère ``pick``, where ``seat`` chose which capture the previous seat's card makes).
    ``table`` is the table the move was made on and ``round`` the dealing round (from 1).
    ``taken`` are the table cards it took, ``sweep`` whether it emptied the table (R-TABBE),
    ``tabbes`` the tabbe points that sweep scored (0 past the mökki limits, 2 for a §6
    double sweep) and ``points`` the points scored at once (§5 Finnish immediate scoring).
    ``pending``: the card's capture waits for the next seat's pick (that `Action` says what
    it took).
    """

    seat: int
    player: int
    move: Move
    table: tuple[int | Build, ...]
    round: int
    taken: tuple[int, ...] = ()
    sweep: bool = False
    tabbes: int = 0
    points: int = 0
    pick: bool = False
    pending: bool = False


@dataclass
class DealState:
    """One deal of Nordic Kasino as it stands; see the module docstring for its life."""

    rules: Rules
    deck: list[int]  # dealing order: index 0 is dealt first
    dealer: int
    start_scores: list[int]  # game points before this deal (R-MOKKI-10, the Finnish mid-deal win)
    carry_in: Carry = Carry()  # points tied deals postponed to this one
    # where the deal's random stream (the seats' draws) begins: the shuffle's stream after the deck
    rng: int = 0
    hands: list[list[int]] = field(default_factory=list)
    table: list[int | Build] = field(default_factory=list)
    tally: Tally = field(default_factory=Tally)
    played: list[tuple[int, int]] = field(default_factory=list)  # (seat, card) of every card played
    next_card: int = 0  # deck[next_card:] is the stock
    rounds: int = 0  # dealing rounds dealt (R-REDEAL)
    last_round: bool = False  # R-LAST
    immediate: list[int] = field(default_factory=list)  # per unit: points scored at once this deal
    to_move: int = -1  # -1: the deal is over
    pending: Move | None = (
        None  # §6 Misère: the capture the seat before `to_move` made, to be picked
    )
    winner: int = -1  # a seat that won the game mid-deal (§5 Finnish)
    history: list[Action] = field(default_factory=list)
    _moves: tuple[Move, ...] | None = field(
        default=None, compare=False, repr=False
    )  # legal_moves, kept

    # --- making a deal ---------------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        rules: Rules,
        seed: int = 0,
        index: int = 0,
        *,
        dealer: int | None = None,
        scores: Sequence[int] | None = None,
        carry: Carry = Carry(),
        stream: tuple[int, int] | None = None,
    ) -> DealState:
        """Deal ``index`` of ``seed`` as `simulate` plays it: the deck of random stream
        (seed key, index, 0), the last seat dealing. A game's deal gives its ``stream``
        (game, deal number), its ``dealer``, the game ``scores`` before it and the points
        tied deals ``carry`` into it.

        >>> DealState.new(Rules(), seed=1, index=-1)
        Traceback (most recent call last):
        ValueError: index -1: a deal's index is a whole number from 0
        """
        if isinstance(index, bool) or not isinstance(index, int) or index < 0:
            raise ValueError(f"index {index!r}: a deal's index is a whole number from 0")
        return cls.shuffled(rules, seed_key(seed), stream or (index, 0), dealer, scores, carry)

    @classmethod
    def shuffled(
        cls,
        rules: Rules,
        key: int,
        stream: tuple[int, int],
        dealer: int | None = None,
        scores: Sequence[int] | None = None,
        carry: Carry = Carry(),
    ) -> DealState:
        """`new` by the stream key itself (`core.rng.seed_key` of the seed), as the engines keep
        it."""
        deck, rng = shuffled_deck(key, *stream, rules.deck_size)
        return cls.dealt(rules, deck, rng, dealer, scores, carry)

    @classmethod
    def dealt(
        cls,
        rules: Rules,
        deck: Sequence[int],
        rng: int = 0,
        dealer: int | None = None,
        scores: Sequence[int] | None = None,
        carry: Carry = Carry(),
    ) -> DealState:
        """A deal of this ``deck`` (index 0 dealt first), its first round dealt (R-DEAL);
        ValueError naming a deck that is not the rules' deck, a dealer or scores off the table."""
        n = rules.players
        if sorted(deck) != list(range(rules.deck_size)):
            raise ValueError(
                f"deck: {len(deck)} cards, not each of the card ids 0-{rules.deck_size - 1} once"
            )
        if dealer is not None and not (isinstance(dealer, int) and 0 <= dealer < n):
            raise ValueError(f"dealer {dealer!r}: this table has seats 0-{n - 1}")
        if scores is not None and len(scores) != n:
            raise ValueError(f"scores {list(scores)!r}: this table has {n} seats, one score each")
        state = cls(
            rules,
            list(deck),
            n - 1 if dealer is None else dealer,
            list(scores or [0] * n),
            carry,
            rng,
            hands=[[] for _ in range(n)],
            tally=Tally.start(n),
            immediate=[0] * rules.units,
        )
        state._deal_round()
        return state

    @classmethod
    def position(
        cls,
        rules: Rules,
        hands: Sequence[Sequence[int]],
        table: Sequence[int | Build],
        piles: Mapping[int, int] | None = None,
        *,
        to_move: int = 0,
        last_round: bool = False,
        scores: Sequence[int] | None = None,
    ) -> DealState:
        """A hand-built position (card ids): each seat's hand, the table items, the cards in
        the piles (card -> seat); every other card is the stock, in id order. ``to_move``
        plays next; in the ``last_round`` no more cards are dealt (for `analyze` and tests)."""
        n = rules.players
        named = [c for hand in hands for c in hand] + [
            c for item in table for c in item_cards(item)
        ]
        named += list(piles or {})
        deck = named + sorted(set(range(rules.deck_size)) - set(named))
        held = [list(hands[s]) if s < len(hands) else [] for s in range(n)]
        state = cls(
            rules,
            deck,
            n - 1,
            list(scores or [0] * n),
            hands=held,
            table=list(table),
            tally=Tally.start(n),
            next_card=len(named),
            last_round=last_round,
            rounds=rules.deal_rounds if last_round else 1,
            immediate=[0] * rules.units,
            to_move=to_move,
        )
        state.tally.owner.update(piles or {})
        return state

    # --- the game's questions ---------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.to_move < 0

    @property
    def stock(self) -> list[int]:
        """The cards not dealt yet, in dealing order."""
        return self.deck[self.next_card :]

    def legal_moves(self) -> tuple[Move, ...]:
        """The moves `to_move` may make, in canonical order (under a §6 Misère pick: the
        captures the previous seat's card may make).

        >>> DealState.new(Rules(), seed=1).legal_moves()[:2]
        (Move.trail(0, 48), Move.capture(0, 48, 0b10))
        """
        if self._moves is None and self.is_over:
            self._moves = ()
        elif self._moves is None:
            hand = self.hands[self.to_move]
            self._moves = (
                self._pick_options()
                if self.pending
                else legal_moves(hand, self.table, self.rules, self.to_move)
            )
        return self._moves

    def why_illegal(self, move: object) -> str | None:
        """None if `to_move` may make ``move``, else why not, naming the rule (docs/rules.md)
        and the cards (`reference.moves.why_not`, the one explainer).

        >>> state = DealState.new(Rules(), seed=1)
        >>> state.why_illegal(Move.trail(0, state.hands[1][0]))
        'R-TURN: seat 0 holds no 2C (its hand: 10C 4C 5C 6H)'
        """
        if self.is_over:
            return "R-TURN: the deal is over, nobody is to move"
        if isinstance(move, Move) and move in self.legal_moves():
            return None
        return why_not(self.observation(self.to_move), move)

    def observation(self, seat: int) -> View:
        """What ``seat`` may see: its hand, the table, everything played and captured, the
        scores; the legal moves when it is to move (see `View`).

        >>> state = DealState.new(Rules(), seed=1)
        >>> view = state.observation(1)
        >>> len(view.hand), view.moves, view.stock_left
        (4, (), 40)
        >>> state.observation(5)
        Traceback (most recent call last):
        ValueError: seat 5: this table has seats 0-1
        """
        self._check_seat(seat)
        deciding = seat == self.to_move
        captured_by = [-1] * len(self.deck)
        for card, owner in self.tally.owner.items():
            captured_by[card] = owner
        return View(
            rules=self.rules,
            seat=seat,
            hand=tuple(self.hands[seat]),
            table=tuple(self.table),
            moves=self.legal_moves() if deciding else (),
            sweep_scores=self.sweep_scores(),
            last_round=self.last_round,
            stock_left=len(self.deck) - self.next_card,
            played=tuple(self.played),
            captured_by=tuple(captured_by),
            scores=tuple(self.live_scores()),
            chooser_for=self._player_before(seat) if deciding and self.pending else -1,
        )

    def result(self) -> DealResult:
        """The finished deal's score (§4; cut short by a §5 Finnish mid-deal win: only the
        points scored at once).

        >>> state = DealState.new(Rules(), seed=1)
        >>> while not state.is_over:
        ...     _ = state.apply(state.legal_moves()[-1])
        >>> [seat.points for seat in state.result().seats]
        [10, 2]
        """
        if not self.is_over:
            raise ValueError("the deal is not over: nothing to score yet")
        if self.winner >= 0:
            return partial_result(self.rules, self.immediate, self.winner)
        return score_deal(self.rules, self.tally, self.carry_in)

    def live_scores(self) -> list[int]:
        """Game points of each seat now: before the deal plus its unit's immediate points."""
        units = self.rules.units
        return [g + self.immediate[seat % units] for seat, g in enumerate(self.start_scores)]

    def sweep_scores(self) -> bool:
        """Would a sweep made now score? R-TABBE with R-MOKKI-LAST and R-MOKKI-10."""
        rules = self.rules
        if rules.mokki_last_round and self.last_round:
            return False
        return not (rules.mokki_limit and max(self.live_scores()) >= rules.mokki_limit)

    def _check_seat(self, seat: object) -> None:
        players = self.rules.players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise ValueError(f"seat {seat!r}: this table has seats 0-{players - 1}")

    # --- playing ---------------------------------------------------------------------------------

    def apply(self, move: Move) -> Action:
        """Play `to_move`'s decision (ValueError, with the rule it breaks, if it is not legal).

        >>> state = DealState.new(Rules(), seed=1)
        >>> action = state.apply(state.legal_moves()[1])
        >>> action.seat, action.taken, action.sweep, len(state.history)
        (0, (22,), False, 1)
        >>> state.apply(Move.trail(0, 48))
        Traceback (most recent call last):
        ValueError: seat 1 made an illegal move Move.trail(0, 48): R-TURN: seat 1 holds no 10C (its hand: 2C KS 6D 7H)
        """  # noqa: E501 (a doctest's expected output)
        reason = self.why_illegal(move)
        if reason:
            raise ValueError(f"seat {self.to_move} made an illegal move {move!r}: {reason}")
        seat, pick = self.to_move, self.pending is not None
        waits = (
            not pick
            and move.is_capture
            and self.rules.opponent_chooses
            and len(self._captures_of(move)) > 1
        )
        self._moves = None
        if waits:
            self.pending, self.to_move = (
                move,
                (seat + 1) % self.rules.players,
            )  # §6 Misère: the next seat picks
            action = Action(seat, seat, move, tuple(self.table), self.rounds, pending=True)
        else:
            player = self._player_before(seat) if pick else seat
            self.pending = None
            action = self._play(seat, player, move)
            self._next_turn(player)
        self.history.append(action)
        return action

    def clone(self) -> DealState:
        """An independent copy: applying moves to it leaves this state as it is (what a
        state holds but lists and the tally is immutable, so only those are copied).

        >>> state = DealState.new(Rules(), seed=1)
        >>> copy = state.clone()
        >>> _ = copy.apply(copy.legal_moves()[0])
        >>> len(copy.history), len(state.history)
        (1, 0)
        """
        return dataclasses.replace(
            self,
            deck=list(self.deck),
            start_scores=list(self.start_scores),
            hands=[list(h) for h in self.hands],
            table=list(self.table),
            tally=self.tally.copy(),
            played=list(self.played),
            immediate=list(self.immediate),
            history=list(self.history),
        )

    def determinize(self, seat: int, seed: int, shown: Sequence[int] = ()) -> DealState:
        """A copy identical in everything ``seat`` can see (its `observation`), the cards it
        cannot see (the other hands and the stock) dealt again uniformly from random stream
        (seed key of ``seed``), each hand keeping its size; a card in another hand that every
        seat has seen stays where it is: a §6 Misère card awaiting its pick, and the ``shown``
        cards (a card a seat has chosen to play). The deck order is rewritten to match.

        >>> state = DealState.new(Rules(), seed=1)
        >>> world = state.determinize(seat=0, seed=7)
        >>> world.hands[0] == state.hands[0], world.hands[1] == state.hands[1]
        (True, False)
        """
        self._check_seat(seat)
        state = self.clone()
        kept = {self._pending_slot()} | {
            (s, i) for s, hand in enumerate(self.hands) for i, c in enumerate(hand) if c in shown
        }
        places = [
            (s, i)
            for s in range(self.rules.players)
            if s != seat
            for i in range(len(self.hands[s]))
            if (s, i) not in kept
        ]
        unseen = [self.hands[s][i] for s, i in places] + self.stock
        fresh = _shuffled(unseen, seed_key(seed))
        for (s, i), card in zip(places, fresh):
            state.hands[s][i] = card
        position = {card: i for i, card in enumerate(self.deck)}
        for old, new in zip(unseen, fresh):
            state.deck[position[old]] = new
        state._moves = None
        return state

    def end_now(self) -> None:
        """End the deal where it stands, as it ends when the cards run out (R-SISTAN): the last
        capturer (the dealer if nobody captured) takes every card not in a pile, on the table,
        in the hands and in the stock, and the deal is scored (`result`). For game-AI toolkits,
        whose games may not throw: a position too large to list its moves (`core.limits`,
        reached only by near-random play) ends the deal this way (docs/interop.md, Limits)."""
        taker = self.tally.last_capturer if self.tally.last_capturer >= 0 else self.dealer
        for card in [c for hand in self.hands for c in hand] + self.stock:
            self.tally.owner[card] = taker
        self.hands = [[] for _ in self.hands]
        self.next_card, self.pending, self._moves = len(self.deck), None, None
        self._collect_leftovers()
        self.to_move = -1

    # --- JSON ------------------------------------------------------------------------------------

    def to_json(self) -> str:
        """The whole state as JSON text (versioned: ``format``, ``version``); `from_json` reads it
        back.

        >>> state = DealState.new(Rules(), seed=1)
        >>> DealState.from_json(state.to_json()) == state
        True
        """
        data = {
            "format": JSON_FORMAT,
            "version": JSON_VERSION,
            "rules": self.rules.to_table(),
            "deck": self.deck,
            "dealer": self.dealer,
            "start_scores": self.start_scores,
            "carry_in": list(self.carry_in),
            "rng": self.rng,
            "hands": self.hands,
            "table": [_item_json(item) for item in self.table],
            "tally": {
                "owner": sorted(self.tally.owner.items()),
                "last_capturer": self.tally.last_capturer,
                **{name: getattr(self.tally, name) for name in SEAT_COUNTS},
            },
            "played": self.played,
            "next_card": self.next_card,
            "rounds": self.rounds,
            "last_round": self.last_round,
            "immediate": self.immediate,
            "to_move": self.to_move,
            "pending": _move_json(self.pending),
            "winner": self.winner,
            "history": [_action_json(a) for a in self.history],
        }
        return json.dumps(data)

    @classmethod
    def from_json(cls, text: str) -> DealState:
        """A state from `to_json`'s text; ValueError if it is not one this version reads."""
        data = versioned(text, JSON_FORMAT, JSON_VERSION, "deal state")
        try:
            return _state_from(data)
        except (KeyError, TypeError, ValueError) as err:
            raise ValueError(f"a damaged deal state: {type(err).__name__}: {err}") from None

    # --- the mechanics ----------------------------------------------------------------------------

    def _deal_round(self) -> None:
        """R-DEAL / R-REDEAL: two cards at a time (the last of five alone), leader first, the
        table after the hands in the first round only. When the stock cannot fill every hand
        (two decks), the rest goes out one card at a time from the leader. R-LAST: the round
        after which the stock is empty is the last."""
        rules, first, leaders = self.rules, self.rounds == 0, self._leaders()
        left = len(self.deck) - self.next_card
        if not first and left < rules.players * rules.hand_cards:
            for i in range(left):
                self.hands[leaders[i % rules.players]].extend(self._take(1))
        else:
            for given in range(0, max(rules.hand_cards, rules.table_cards), 2):
                for seat in leaders:
                    self.hands[seat].extend(self._take(max(0, min(2, rules.hand_cards - given))))
                if first:
                    self.table.extend(self._take(max(0, min(2, rules.table_cards - given))))
        self.rounds += 1
        self.last_round = self.next_card == len(self.deck)
        self.to_move = next(s for s in leaders if self.hands[s])

    def _take(self, count: int) -> list[int]:
        cards = self.deck[self.next_card : self.next_card + count]
        self.next_card += count
        return cards

    def _leaders(self) -> list[int]:
        """R-ROTATE: the seats in turn order, the one left of the dealer first."""
        n = self.rules.players
        return [(self.dealer + 1 + i) % n for i in range(n)]

    def _player_before(self, seat: int) -> int:
        return (seat - 1) % self.rules.players

    def _captures_of(self, move: Move) -> tuple[Move, ...]:
        """The legal captures of the card ``move`` plays."""
        return tuple(
            m for m in self.legal_moves() if m.hand_index == move.hand_index and m.is_capture
        )

    def _pick_options(self) -> tuple[Move, ...]:
        """§6 Misère: the captures the pending card may make (the mover's legal moves)."""
        mover = self._player_before(self.to_move)
        moves = legal_moves(self.hands[mover], self.table, self.rules, mover)
        return tuple(m for m in moves if m.hand_index == self.pending.hand_index and m.is_capture)

    def _pending_slot(self) -> tuple[int, int] | None:
        """(seat, hand position) of a card awaiting its §6 Misère pick, else None."""
        return (
            (self._player_before(self.to_move), self.pending.hand_index) if self.pending else None
        )

    def _next_turn(self, player: int) -> None:
        """The next seat holding cards after ``player`` (R-TURN, R-ROTATE); a new round when the
        hands are empty and cards are left (R-REDEAL); else the end of the deal (R-SISTAN)."""
        n = self.rules.players
        if self.winner >= 0:
            self.to_move = -1
            return
        following = [(player + k) % n for k in range(1, n + 1)]
        holding = [s for s in following if self.hands[s]]
        if holding:
            self.to_move = holding[0]
        elif self.rounds < self.rules.deal_rounds and self.next_card < len(self.deck):
            self._deal_round()
        else:
            self._collect_leftovers()
            self.to_move = -1

    def _collect_leftovers(self) -> None:
        """R-SISTAN: the last capturer (the dealer if nobody captured) takes what is left on the
        table, the cards of any builds (§6) included."""
        taker = self.tally.last_capturer if self.tally.last_capturer >= 0 else self.dealer
        for c in (card for item in self.table for card in item_cards(item)):
            self.tally.owner[c] = taker
        self.table = []

    def _play(self, seat: int, player: int, move: Move) -> Action:
        """``player`` plays ``move`` (R-PILE, R-TABBE, §6 Builds, §5 Finnish points at once)."""
        table = tuple(self.table)
        card = self.hands[player].pop(move.hand_index)
        self.played.append((player, card))
        if move.is_trail:
            self.table.append(card)
            return Action(seat, player, move, table, self.rounds)
        if move.is_build:
            self._build(player, move, card)
            return Action(seat, player, move, table, self.rounds)
        return self._capture(seat, player, move, card)

    def _build(self, player: int, move: Move, card: int) -> None:
        """§6 Builds: the card goes onto one table item."""
        held = held_values(self.hands[player] + [card], len(self.hands[player]), self.rules)
        self.table[move.target] = build_onto(self.table[move.target], card, move.value, player)
        self.tally.builds[player] += 1
        self.tally.unheld[player] += move.value not in held

    def _capture(self, seat: int, player: int, move: Move, card: int) -> Action:
        rules, tally, table = self.rules, self.tally, tuple(self.table)
        tally.mulles[player] += is_mulle(card, move.taken, table, rules.mulle_within)
        tally.mulle_scores[player] += mulle_score(card, move.taken, table, rules)
        taken = mask_cards(move.taken, table)
        self.table = [c for i, c in enumerate(table) if not move.taken >> i & 1]
        for c in [*taken, card]:
            tally.owner[c] = player
        tally.last_capturer = player
        tabbes = 0
        if not self.table:
            tally.sweeps[player] += 1
            if self.sweep_scores():  # §6 Misère double sweep; Krypkasino: the seat before pays
                tabbes = 2 if rules.double_sweep and len(table) == 1 else 1
                tally.scored_sweeps[player] += tabbes
                tally.given[(player - 1) % rules.players] += tabbes
        points = sum(rules.card_points(c) for c in [*taken, card]) if rules.immediate_scoring else 0
        self._score_at_once(player, points)
        return Action(
            seat,
            player,
            move,
            table,
            self.rounds,
            tuple(taken),
            not self.table,
            tabbes,
            points,
            pick=seat != player,
        )

    def _score_at_once(self, player: int, points: int) -> None:
        """§5 Finnish: the points of aces and kasinos count at capture; reaching the target
        strictly ahead of every other side wins the game on the spot."""
        if not self.rules.immediate_scoring:
            return
        units = self.rules.units
        self.immediate[player % units] += points
        live = self.live_scores()
        others = max(s for i, s in enumerate(live) if i % units != player % units)
        if live[player] >= self.rules.target and live[player] > others:
            self.winner = player


def versioned(text: str, form: str, version: int, what: str) -> dict[str, Any]:
    """The JSON object of ``text`` if it is ``form`` at ``version`` (the game states' JSON),
    else ValueError saying what it is not."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise ValueError(f"not a {what}: not JSON ({err.msg})") from None
    if not isinstance(data, dict) or data.get("format") != form:
        raise ValueError(f'not a {what} (no "format": "{form}")')
    if data.get("version") != version:
        raise ValueError(
            f"{what} version {data.get('version')!r}; this simcasino reads version {version}"
        )
    return data


def position_view(
    rules: Rules,
    hand: Sequence[int],
    table: Sequence[int | Build],
    seen: Sequence[int] = (),
    last_round: bool = False,
    scores: Sequence[int] | None = None,
) -> View:
    """Seat 0's view of a position: ``hand`` to play on ``table`` (card kinds, and §6 builds
    of card kinds); ``seen`` cards lie in another seat's pile (played and captured, so
    visible); every other card is unseen. For `simcasino analyze` and for tests of strategies
    on hand-built positions."""
    used: set[int] = set()
    held = card_ids(hand, rules.decks, used)
    items = [_item_copies(item, rules, used) for item in table]
    piles = {card: 1 for card in card_ids(seen, rules.decks, used)}
    state = DealState.position(rules, [held], items, piles, last_round=last_round, scores=scores)
    return state.observation(0)


def _item_copies(item: int | Build, rules: Rules, used: set[int]) -> int | Build:
    """A table item with card ids for its card kinds (see `cards.card_ids`)."""
    if not is_build(item):
        return card_ids([item], rules.decks, used)[0]
    return dataclasses.replace(item, cards=tuple(card_ids(item.cards, rules.decks, used)))


def _shuffled(cards: list[int], key: int) -> list[int]:
    """``cards`` in the order of a Fisher-Yates shuffle drawn from the stream of ``key``."""
    out, state = list(cards), key
    for i in range(len(out) - 1, 0, -1):
        state, j = draw_below(state, i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def _item_json(item: int | Build) -> Any:
    return (
        {"cards": list(item.cards), "value": item.value, "owner": item.owner, "double": item.double}
        if is_build(item)
        else item
    )


def _item_from(data: Any) -> int | Build:
    return (
        Build(tuple(data["cards"]), data["value"], data["owner"], data["double"])
        if isinstance(data, dict)
        else int(data)
    )


def _move_json(move: Move | None) -> list[int] | None:
    return (
        None
        if move is None
        else [move.hand_index, move.card, int(move.kind), move.taken, move.target, move.value]
    )


def _move_from(data: list[int] | None) -> Move | None:
    if data is None:
        return None
    hand_index, card, kind, taken, target, value = data
    return Move(hand_index, card, MoveKind(kind), taken, target, value)


def _action_json(action: Action) -> dict[str, Any]:
    return {
        "seat": action.seat,
        "player": action.player,
        "move": _move_json(action.move),
        "table": [_item_json(item) for item in action.table],
        "round": action.round,
        "taken": list(action.taken),
        "sweep": action.sweep,
        "tabbes": action.tabbes,
        "points": action.points,
        "pick": action.pick,
        "pending": action.pending,
    }


def _action_from(data: dict[str, Any]) -> Action:
    return Action(
        data["seat"],
        data["player"],
        _move_from(data["move"]),
        tuple(map(_item_from, data["table"])),
        data["round"],
        tuple(data["taken"]),
        data["sweep"],
        data["tabbes"],
        data["points"],
        data["pick"],
        data["pending"],
    )


def _state_from(data: dict[str, Any]) -> DealState:
    tally = data["tally"]
    return DealState(
        rules=from_table(data["rules"], where="deal state rules"),
        deck=list(data["deck"]),
        dealer=data["dealer"],
        start_scores=list(data["start_scores"]),
        carry_in=Carry(*data["carry_in"]),
        rng=data["rng"],
        hands=[list(h) for h in data["hands"]],
        table=[_item_from(i) for i in data["table"]],
        tally=Tally(
            owner={card: seat for card, seat in tally["owner"]},
            last_capturer=tally["last_capturer"],
            **{name: list(tally[name]) for name in SEAT_COUNTS},
        ),
        played=[(seat, card) for seat, card in data["played"]],
        next_card=data["next_card"],
        rounds=data["rounds"],
        last_round=data["last_round"],
        immediate=list(data["immediate"]),
        to_move=data["to_move"],
        pending=_move_from(data["pending"]),
        winner=data["winner"],
        history=[_action_from(a) for a in data["history"]],
    )
