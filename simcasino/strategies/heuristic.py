"""`heuristic`: a weighted evaluation of every legal move; its features are the tactics of
RULES.md §7, each with a named weight, so an experiment can switch one off (weight 0).

A move's value (in micro-points: weights in milli-points times features in milli-units,
integers, so both engines agree exactly):

- material taken, capture only: ``ace_value`` × the rule points of the cards taken (aces,
  kasinos), ``spade_value`` × spades, ``card_value`` × cards (the played card included),
  plus the tabbe points if the capture empties the table and a sweep scores now;
- ``trail_safety`` (§7.1), trail only: minus the trailed card's rule points, a little for
  a spade, a little less if its rank is dead (every other card of the rank is seen);
- ``trail_rank``, trail only: minus rank/13 of the trailed card, so low cards go first (a
  low card on the table is more often taken back by the one who trailed it; measured: worth
  about half a point per deal against greedy);
- ``hold_twos`` / ``hold_tens`` (§7.2): minus one point for playing a non-spade 2 while
  2♠ is unseen (a non-diamond 10 while 10♦ is unseen), unless the move takes that kasino;
- ``tabbe_denial`` (§7.4): minus the tabbe and the rule points on the table if the table
  left behind (1 to 3 cards) can be swept whole by one unseen card;
- ``finnish_avoid`` (§7.6): minus one point per unseen ace, 2♠ or 10♦ whose value from
  hand is 14 or more and which could capture something on the table left behind; plus half
  a point for a capture made with 10♦ played as 16 (bank it early); minus half a point if
  the move leaves an ace as the last card in hand;
- ``risky_storan`` (§7.5): for trailing a non-diamond 10 while holding 10♦ when no unseen
  card could take that 10 and 10♦ could take it next turn, plus the material of 10♦ and
  that 10 (what the plan takes next turn);
- ``builds`` (§6 Builds), build moves only: plus ``builds`` times the material of the
  build's cards (as a capture of them would count it) when another card in hand can take it
  next turn (a new build, a raise of anyone's build, a double); weight 0 never builds unless
  nothing else is legal (the builder's obligation).

With builds a build on the table is a group of one (its value only) in every term that asks
what the table offers, a capture of a build takes the material of its cards, and
``tabbe_denial`` also weighs each build left on the table: its material times the chance
an opponent takes it (one whose owner is an opponent: certain if a card of its value is
unseen, as the owner must hold one; our own: the chance the opponents' hands, as large as
ours, hold one of the unseen cards of its value). That is §7.4's "leave the next player
nothing to take" for builds, and it keeps ``builds=0`` a pure "building off" switch. The
kernel form of builds rules is `simcasino.strategies.heuristic_builds`.

A mulle (§6, two decks: a card taking exactly one identical card; with builds rules as the
engines score it, Glimne's mulle within a capture too) adds its points to the material,
weighed as ``ace_value``. Where the fewest points win (§6 Misère, Krypkasino) the
whole value changes sign: the heuristic avoids what it would otherwise seek.

"Unseen" means what this player cannot see: not in its hand, not on the table, not played
or captured. The best value wins; ties go to the first move in canonical order.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from simcasino.core.cards import BIG_KASINO, DIAMONDS, SMALL_KASINO, SPADES, is_spade, rank_of, suit_of
from simcasino.core.jit import kernel
from simcasino.core.protocol import Move, View
from simcasino.core.table import is_build, item_cards
from simcasino.engine.builds import build_has_kind, table_bits
from simcasino.engine.captures import card_options, grow_reach, grown_sums, popcount
from simcasino.engine.layout import (
    BUILD_BITS,
    CARD_HINTS,
    CARD_POINTS,
    CARD_RANK,
    CARD_VALUE_NIBBLES,
    CHOSEN_MASK,
    DECK_CAP,
    DECK_N,
    GROUP_VALUES,
    HAND_BITS,
    HAND_NEED,
    HAND_RANKS,
    HAND_VALUE_NS,
    HIDDEN_RANK_N,
    HIDDEN_THREATS,
    HIDDEN_VALUE_N,
    HIDDEN_VALUES,
    KINDS,
    MAX_VALUE,
    MOVE_CAP,
    MOVE_KEY,
    MOVE_MASK,
    MOVE_SLOT,
    MOVE_VALUE,
    N_PARAMS,
    OPTIONS,
    R_BIG_HAND,
    R_LOW_WINS,
    R_MULLE_PTS,
    R_MUST_CAPTURE,
    R_TABBE_PTS,
    RANK_ORDER,
    REACH,
    SEAT_CARD_VALUES,
    SEAT_PARAMS,
    SEEN,
    TABLE,
    TABLE_N,
    THREATS,
    UNSEEN_BIG,
    UNSEEN_BITS,
    UNSEEN_SMALL,
    WsPointer,
    hand_card,
    hand_size,
)
from simcasino.engine.moves import sweep_scores
from simcasino.reference.builds import build_onto, held_values
from simcasino.reference.captures import hand_values, mask_cards, mulle_score, table_values
from simcasino.strategies.greedy import Greedy

NAME = "heuristic"
DESCRIPTION = "weighs material and the §7 tactics (each a named weight: set 0 to switch it off)"
COUNTS_CARDS = True  # reads what nobody has seen yet (deal.count_hidden)

# weight name -> (default, what it weighs); weights are in points per unit
PARAMS: dict[str, tuple[float, str]] = {
    "ace_value": (1.5, "rule points (aces, kasinos) a capture takes"),
    "spade_value": (0.9, "each spade a capture takes (most spades)"),
    "card_value": (0.125, "each card a capture takes (most cards)"),
    "trail_safety": (2.5, "cost of trailing point cards and spades; dead ranks are cheaper"),
    "hold_twos": (0.3, "cost of playing a non-spade 2 while 2♠ is unseen"),
    "hold_tens": (0.5, "cost of playing a non-diamond 10 while 10♦ is unseen"),
    "tabbe_denial": (1.0, "cost of leaving a table one unseen card can sweep (§6: or a build it can take)"),
    "finnish_avoid": (0.5, "cost of leaving 14/15/16 for an unseen A/2♠/10♦; 10♦ early; no lone ace"),
    "risky_storan": (1.0, "bonus for trailing a ten to catch it with 10♦ when no one else can"),
    "trail_rank": (1.5, "cost per rank of the trailed card, in 13ths (negative: trail high cards)"),
    "builds": (0.5, "§6: worth of a build it can take next turn, per its cards' material; 0: never build unless obliged"),
}
ORDER = tuple(PARAMS)  # the kernel's parameter slots
MILLI = 1000
NO_BUILD = 1 << 50  # micro-points off every build move when the ``builds`` weight is 0
PLAYS_BUILDS = True  # §6: see the module docstring


def weights_milli(params: dict[str, float]) -> list[int]:
    """Weights in milli-points, in `ORDER`, defaults filled in."""
    return [round(params.get(name, default) * MILLI) for name, (default, _) in PARAMS.items()]


@dataclass(frozen=True)
class _Seen:
    """What the deciding player cannot see, by kind."""

    unseen: tuple[int, ...]  # card ids

    def has(self, kind: int) -> bool:
        return any(c % 52 == kind for c in self.unseen)


def unseen_cards(view: View) -> _Seen:
    visible = set(view.hand) | {c for item in view.table for c in item_cards(item)} | {card for _, card in view.played}
    visible |= {card for card, owner in enumerate(view.captured_by) if owner >= 0}
    return _Seen(tuple(c for c in range(len(view.captured_by)) if c not in visible))


def _is_mulle(move: Move, view: View) -> bool:
    """§6 Mulle: the card takes exactly one identical card (two decks)."""
    return len(view.captured_by) > 52 and move.mask.bit_count() == 1 and \
        view.table[move.mask.bit_length() - 1] % 52 == move.card % 52


def _dead(card: int, view: View, seen: _Seen) -> bool:
    return not any(rank_of(c) == rank_of(card) for c in seen.unseen)


def _can_sweep(table: list, value: int, rules) -> bool:
    """Can one card of ``value`` take all of ``table`` (1-3 items) as disjoint groups? A
    build (§6) is a group of one: every build must be of ``value``."""
    if not table or any(is_build(item) and item.value != value for item in table):
        return False

    def covers(cards: list[int]) -> bool:
        if not cards:
            return True
        first, rest = cards[0], cards[1:]
        for pick in range(1 << len(rest)):
            group = [first] + [c for i, c in enumerate(rest) if pick >> i & 1]
            others = [c for i, c in enumerate(rest) if not pick >> i & 1]
            if _sums_to(group, value, rules) and covers(others):
                return True
        return False

    return covers([item for item in table if not is_build(item)])


def _sums_to(cards: list[int], value: int, rules) -> bool:
    sums = {0}
    for c in cards:
        sums = {s + v for s in sums for v in table_values(c, rules)}
    return value in sums


def _has_group(table: list, value: int, rules) -> bool:
    """Does some subset of ``table``'s loose cards sum to ``value``, or a build (§6: a group
    of one) have that value?"""
    sums = {0}
    for c in table:
        if not is_build(c):
            sums |= {s + v for s in sums for v in table_values(c, rules)}
    return value in sums or any(is_build(c) and c.value == value for c in table)


def left_after(view: View, move: Move) -> list:
    """The table items a move leaves: what a capture leaves, the table and the trailed card,
    or (§6) the table with the build the move makes in place of its target."""
    if move.build:
        target = move.mask.bit_length() - 1
        build = build_onto(view.table[target], move.card, move.build, view.seat)
        return [build if i == target else item for i, item in enumerate(view.table)]
    if move.mask:
        return [item for i, item in enumerate(view.table) if not move.mask >> i & 1]
    return [*view.table, move.card]


def take_risk(value: int, owner: int, seen: _Seen, view: View) -> int:
    """In thousandths: the chance an opponent takes a build of ``value`` owned by ``owner``
    before our next turn (§6). An opponent's build: certain if a card of its value is unseen
    (its owner must hold one). Ours or a partner's: the chance that the opponents' hands,
    each as large as ours, dealt from the unseen cards, hold one of those of its value."""
    ways = sum(value in hand_values(c, view.rules) for c in seen.unseen)
    if ways == 0:
        return 0
    if owner % view.rules.units != view.seat % view.rules.units:
        return MILLI
    return MILLI - miss_milli(len(seen.unseen), ways, (view.rules.players - 1) * len(view.hand))


def miss_milli(unseen: int, ways: int, hands: int) -> int:
    """In thousandths, rounded down step by step (both forms agree exactly): the chance that
    ``hands`` cards drawn from ``unseen`` miss all ``ways`` of them."""
    chance = MILLI
    for i in range(min(hands, unseen)):
        chance = chance * max(unseen - ways - i, 0) // (unseen - i)
    return chance


class Heuristic:
    """Plain-Python form, the reference for the kernel form."""

    def __init__(self, params: dict[str, float] | None = None) -> None:
        self.w = dict(zip(ORDER, weights_milli(params or {})))

    def choose(self, view: View) -> Move:
        if view.chooser_for >= 0:  # §6 Misère: picking another's capture, as greedy does (so does the kernel)
            return Greedy().choose(view)
        seen = unseen_cards(view)
        return max(view.moves, key=lambda m: self.value(view, m, seen))  # max keeps the first of ties

    def value(self, view: View, move: Move, seen: _Seen) -> int:
        """The move's value in micro-points (see the module docstring)."""
        rules, card = view.rules, move.card
        taken = mask_cards(move.mask, view.table) + [card] if move.is_capture else []
        left = left_after(view, move)
        hand_left = [c for i, c in enumerate(view.hand) if i != move.hand_index]
        total = 0
        if move.is_capture:
            total += self.material(taken, rules) + self.term("ace_value", MILLI * self._mulle(move, view))
            if not left and view.sweep_scores:
                total += MILLI * MILLI * rules.tabbe_points
        elif move.build:
            total += self._build_value(view, move, left)
        else:
            dead = _dead(card, view, seen)
            total -= self.term("trail_safety", MILLI * rules.card_points(card) + 200 * is_spade(card) - 100 * dead)
            total -= self.term("trail_rank", MILLI * rank_of(card) // 13)
        total -= self.term("hold_twos", MILLI * self._holds(card, taken, seen, rank=2, kasino=SMALL_KASINO, suit=SPADES))
        total -= self.term("hold_tens", MILLI * self._holds(card, taken, seen, rank=10, kasino=BIG_KASINO, suit=DIAMONDS))
        total -= self.term("tabbe_denial", MILLI * self._sweep_threat(left, seen, view) + self._build_threat(left, seen, view))
        total -= self.term("finnish_avoid", MILLI * self._special_threat(left, seen, view))
        total += self.term("finnish_avoid", self._finnish_bonus(move, taken, hand_left, view))
        if self._storan_gambit(move, left, hand_left, seen, view):
            total += self.term("risky_storan", self.material([card, BIG_KASINO], rules) // MILLI)
        return -total if rules.low_wins else total  # §6 Misère, Krypkasino: points are bad

    def _build_value(self, view: View, move: Move, left: list) -> int:
        """§6: the ``builds`` term of a build move: the material of the build's cards if
        another card in hand takes it next turn (else, under ``build_penalty``, that cost)."""
        if self.w["builds"] == 0:
            return -NO_BUILD
        if move.build not in held_values(view.hand, move.hand_index, view.rules):
            return MILLI * MILLI * view.rules.build_penalty
        build = left[move.mask.bit_length() - 1]
        return self.term("builds", self.material(list(build.cards), view.rules) // MILLI)

    def _build_threat(self, left: list, seen: _Seen, view: View) -> int:
        """In milli-units, for ``tabbe_denial``: each build left (§6) at its material times
        the chance an opponent takes it (`take_risk`)."""
        total = 0
        for item in left:
            if is_build(item):
                risk = take_risk(item.value, item.owner, seen, view)
                total += self.material(list(item.cards), view.rules) * risk // (MILLI * MILLI)
        return total

    @staticmethod
    def _mulle(move: Move, view: View) -> int:
        """The mulle points of a capture (§6): with builds rules as the engines score them
        (Glimne's mulle within a capture, scored as the card's value)."""
        if view.rules.builds:
            return mulle_score(move.card, move.mask, view.table, view.rules)
        return view.rules.mulle_points * _is_mulle(move, view)

    def material(self, cards: list[int], rules) -> int:
        """Micro-points of taking ``cards``: weighted rule points, spades and cards."""
        total = self.term("ace_value", MILLI * sum(rules.card_points(c) for c in cards))
        total += self.term("spade_value", MILLI * sum(is_spade(c) for c in cards))
        return total + self.term("card_value", MILLI * len(cards))

    def term(self, name: str, units_milli: int) -> int:
        """Weight (milli-points per unit) times a feature in milli-units: micro-points, exact
        (no rounding, so the kernel may sum the terms in any order)."""
        return self.w[name] * units_milli

    @staticmethod
    def _holds(card: int, taken: list[int], seen: _Seen, rank: int, kasino: int, suit: int) -> int:
        """1 if this plays a ``rank`` of another suit while the kasino is unseen and not taken."""
        other = rank_of(card) == rank and suit_of(card) != suit
        return int(other and seen.has(kasino) and all(c % 52 != kasino for c in taken))

    @staticmethod
    def _sweep_threat(left: list[int], seen: _Seen, view: View) -> int:
        """Tabbe plus rule points on the table, if one unseen card can take all of it (1-3 cards)."""
        if not 1 <= len(left) <= 3:
            return 0
        values = {v for c in seen.unseen for v in hand_values(c, view.rules)}
        if not any(_can_sweep(left, v, view.rules) for v in sorted(values)):
            return 0
        return view.rules.tabbe_points + sum(view.rules.card_points(c) for item in left for c in item_cards(item))

    @staticmethod
    def _special_threat(left: list[int], seen: _Seen, view: View) -> int:
        """Unseen aces, 2♠ and 10♦ worth 14+ from hand that could capture from ``left``."""
        count = 0
        for c in seen.unseen:
            if view.rules.card_points(c) > 0:
                count += any(v >= 14 and _has_group(left, v, view.rules) for v in hand_values(c, view.rules))
        return count

    @staticmethod
    def _finnish_bonus(move: Move, taken: list[int], hand_left: list[int], view: View) -> int:
        """In milli-units: +500 for capturing with 10♦ played as 16; -500 for keeping a lone ace."""
        bonus = 0
        if taken and move.card % 52 == BIG_KASINO and view.rules.big_kasino_hand >= 14:
            bonus += MILLI // 2
        if len(hand_left) == 1 and rank_of(hand_left[0]) == 1:
            bonus -= MILLI // 2
        return bonus

    @staticmethod
    def _storan_gambit(move: Move, left: list[int], hand_left: list[int], seen: _Seen, view: View) -> bool:
        """Is this a trail of a non-diamond 10 that only our 10♦ can take next turn?"""
        card = move.card
        if move.mask or rank_of(card) != 10 or suit_of(card) == DIAMONDS:
            return False
        if not any(c % 52 == BIG_KASINO for c in hand_left):
            return False
        if any(10 in hand_values(c, view.rules) for c in seen.unseen):
            return False
        rest = list(left)
        rest.remove(card)
        need = view.rules.big_kasino_hand - 10
        return need == 0 or _has_group(rest, need, view.rules)


def make(params: dict[str, float]) -> Heuristic:
    """The plain-Python strategy for the reference engine."""
    return Heuristic(params)


def kernel_params(params: dict[str, float]) -> list[int]:
    """The weights as the kernel reads them (PARAMS region, in `ORDER`)."""
    return weights_milli(params)


# --- kernel form ---------------------------------------------------------------------------------
# The same evaluation on the workspace; the tests hold it to the plain-Python form move for move.
# Why it is shaped this way (heuristic play must stay within a small factor of greedy's speed):
# a move's main terms come from per-seat card values (`prepare_seat`), a load per card; what the
# player cannot see is worked out per decision only when a move first asks for it (most
# decisions never need the 2♠/10♦ or sweep-value answers); and a move's costly terms are
# worked out only if its cheap terms leave it a chance to be the best (`choose_kernel`).
# One decision is one compiled function: the helpers below are inlined by numba
# (inline='always'), as most are too big for LLVM to inline, and a numba call (status word,
# result through the stack) stalls the caller; measured on the clock: 9.45 -> 7.9 us a heuristic
# deal, while a cold compile of the heuristic path grew from 58 to about 80 s.

W_ACE, W_SPADE, W_CARD, W_TRAIL, W_TWOS, W_TENS, W_TABBE, W_FINNISH, W_STORAN, W_RANK, W_BUILDS = range(len(ORDER))
assert len(ORDER) <= N_PARAMS
_NEVER = np.int64(-(1 << 62))  # below every value: no pruning
_ALL_VALUES = (np.int64(1) << (MAX_VALUE + 1)) - 1
_HINT_TWO, _HINT_TEN, _HINT_ACE, _HINT_BIG = 1, 2, 4, 8  # CARD_HINTS: a non-spade 2, a non-diamond 10, an ace, 10♦
_RARE = _HINT_TWO | _HINT_TEN | _HINT_BIG  # the cards `_rare_terms` weighs
_PAST_HIGH = np.int64(1) << (MAX_VALUE - 13)  # above HAND_BITS >> 14: trailing_zeros is never of 0


@kernel
def choose_kernel(ws: WsPointer, seat: np.int64) -> np.int64:
    """Kernel form of `Heuristic.choose`: the best value, the first in canonical order on ties.
    Returns the hand slot; the capture mask goes to CHOSEN_MASK.

    Every legal move gets its cheap terms first (`_cheap`); then the moves are finished
    (`_finish`) best bound first, until no bound left can beat the best value: most
    decisions finish one or two moves. (Exact only while the penalty terms cannot add,
    `_prunes`; otherwise every move is finished.)"""
    if hand_size(ws, seat) == 1 and ws[HAND_BITS + hand_card(ws, seat, 0)] & ws[GROUP_VALUES] == 0:
        ws[CHOSEN_MASK] = 0  # the last card, and it cannot capture: trailing it is the only move
        return 0
    best = _best_move(ws, seat)
    ws[CHOSEN_MASK] = ws[MOVE_MASK + best]
    return ws[MOVE_SLOT + best]


@kernel(inline='always')
def _best_move(ws: WsPointer, seat: np.int64) -> np.int64:
    """The index of the legal move of best value (the first on ties), listed by `_list_cheap`."""
    _forget_survey(ws)
    count, pick, runner_up = _list_cheap(ws, seat)
    if _prunes(ws, seat):
        return _best_first(ws, seat, count, pick, runner_up)
    best = 0
    for m in range(count):
        ws[MOVE_VALUE + m] = _finish(ws, seat, m, _NEVER)
        best = m if ws[MOVE_VALUE + m] > ws[MOVE_VALUE + best] else best
    return best


@kernel
def rank_moves(ws: WsPointer, seat: np.int64, count: np.int64, keep: np.int64) -> np.int64:
    """Order the first ``count`` moves in MOVE_SLOT/MOVE_MASK by the heuristic's value, best
    first (canonical order on ties), keeping the best ``keep``; returns how many were kept.
    The search tries only these (fewer noisy comparisons, more worlds each)."""
    _start_decision(ws, seat)
    _cheap_terms(ws, seat, count)
    for m in range(count):
        ws[MOVE_VALUE + m] = _finish(ws, seat, m, _NEVER)
    return keep_best(ws, count, keep)


@kernel
def keep_best(ws: WsPointer, count: np.int64, keep: np.int64) -> np.int64:
    """Sort the best ``keep`` of the first ``count`` moves by MOVE_VALUE to the front (the
    first in canonical order on ties); returns how many were kept."""
    kept = min(count, keep)
    for i in range(kept):  # selection sort of the best ``kept``: stable, and moves are few
        best = i
        for m in range(i + 1, count):
            if ws[MOVE_VALUE + m] > ws[MOVE_VALUE + best]:
                best = m
        for region in (MOVE_SLOT, MOVE_MASK, MOVE_VALUE):
            moved = ws[region + best]
            for m in range(best, i, -1):
                ws[region + m] = ws[region + m - 1]
            ws[region + i] = moved
    return kept


@kernel(inline='always')
def _start_decision(ws: WsPointer, seat: np.int64) -> None:
    """Forget the last decision's survey and count the hand (`_count_card`)."""
    _forget_survey(ws)
    ranks, values, threats = np.int64(0), np.int64(0), ws[HIDDEN_THREATS]
    for slot in range(hand_size(ws, seat)):
        ranks, values, threats = _count_card(ws, hand_card(ws, seat, slot), ranks, values, threats)
    ws[HAND_RANKS], ws[HAND_VALUE_NS], ws[THREATS] = ranks, values, threats


@kernel(inline='always')
def _forget_survey(ws: WsPointer) -> None:
    ws[UNSEEN_BITS], ws[UNSEEN_SMALL], ws[UNSEEN_BIG] = -1, -1, -1


@kernel(inline='always')
def _count_card(ws: WsPointer, card: np.int64, ranks: np.int64, values: np.int64,
                threats: np.int64) -> tuple[np.int64, np.int64, np.int64]:
    """What nearly every decision asks of the hand, counted branch-free card by card (in the
    loop that lists the moves, or in `_start_decision`): its cards per rank (HAND_RANKS, for
    `_rank_dead`), per value it can be played as (HAND_VALUE_NS, for `_unseen_bits`) and, of
    the point cards nobody has seen that play as 14 or more (HIDDEN_THREATS, a byte per
    value), those not in it (THREATS, for `_special_threats`). (Each worked out in a loop of
    its own when first asked: 3-4% slower a deal.)"""
    high = ws[HAND_BITS + card] >> 14  # bit 0: plays as 14, ...
    threat = np.int64(high != 0) & np.int64(ws[CARD_POINTS + card] != 0)
    ranks += np.int64(1) << (4 * ws[CARD_RANK + card])
    return ranks, values + ws[CARD_VALUE_NIBBLES + card], threats - (threat << (8 * trailing_zeros(high | _PAST_HIGH)))


@kernel(inline='always')
def _list_cheap(ws: WsPointer, seat: np.int64) -> tuple[np.int64, np.int64, np.int64]:
    """The legal moves into MOVE_SLOT/MOVE_MASK in canonical order, with `_bound`, and the
    hand counted as `_start_decision` counts it; returns how many, the move of best bound
    (the first of ties) and the best bound of the others. (Listing and weighing in one
    pass: `moves.list_moves` and a second pass measured slower.)"""
    count, ranks, values, threats = 0, np.int64(0), np.int64(0), ws[HIDDEN_THREATS]
    pick, bound, runner_up = np.int64(-1), _NEVER, _NEVER
    for slot in range(hand_size(ws, seat)):
        card = hand_card(ws, seat, slot)
        ranks, values, threats = _count_card(ws, card, ranks, values, threats)
        options = card_options(ws, card)
        if count + options + 1 > MOVE_CAP:
            raise RuntimeError("too many legal moves")
        if options == 0 or not ws[R_MUST_CAPTURE]:  # §6: a card that can capture must
            ws[MOVE_SLOT + count], ws[MOVE_MASK + count] = slot, 0
            _bound(ws, seat, count, card)
            pick, bound, runner_up = _ranked(ws[MOVE_VALUE + count], count, pick, bound, runner_up)
            count += 1
        for k in range(options):
            ws[MOVE_SLOT + count], ws[MOVE_MASK + count] = slot, ws[OPTIONS + k]
            _bound(ws, seat, count, card)
            pick, bound, runner_up = _ranked(ws[MOVE_VALUE + count], count, pick, bound, runner_up)
            count += 1
    ws[HAND_RANKS], ws[HAND_VALUE_NS], ws[THREATS] = ranks, values, threats
    return count, pick, runner_up


@kernel(inline='always')
def _ranked(value: np.int64, m: np.int64, pick: np.int64, bound: np.int64,
            runner_up: np.int64) -> tuple[np.int64, np.int64, np.int64]:
    """The best bound so far (``pick``, the first of ties; ``bound``) and the next best,
    after move ``m`` of bound ``value``."""
    if value > bound:
        return m, value, bound
    return pick, bound, max(runner_up, value)


@kernel
def _cheap_terms(ws: WsPointer, seat: np.int64, count: np.int64) -> None:
    """`_bound` of the first ``count`` listed moves."""
    for m in range(count):
        _bound(ws, seat, m, hand_card(ws, seat, ws[MOVE_SLOT + m]))


@kernel(inline='always')
def _bound(ws: WsPointer, seat: np.int64, m: np.int64, card: np.int64) -> None:
    """The cheap terms of listed move ``m`` (of ``card``) into MOVE_KEY, and in MOVE_VALUE the
    most its other terms can add (an upper bound of the value, when `_prunes`): a trail's
    dead-rank bonus."""
    mask = ws[MOVE_MASK + m]
    ws[MOVE_KEY + m] = _cheap(ws, seat, ws[MOVE_SLOT + m], card, mask)
    dead_bonus = max(0, 100 * ws[SEAT_PARAMS + seat * N_PARAMS + W_TRAIL]) if mask == 0 else 0
    ws[MOVE_VALUE + m] = ws[MOVE_KEY + m] + dead_bonus


@kernel(inline='always')
def _best_first(ws: WsPointer, seat: np.int64, count: np.int64, pick: np.int64, runner_up: np.int64) -> np.int64:
    """The move of best value (the first on ties), finishing moves in order of their bounds
    (MOVE_VALUE, overwritten as they are finished) until none left can beat it. ``pick``:
    the move of best bound (the first of ties), ``runner_up``: the best bound of the others."""
    ws[MOVE_VALUE + pick] = _NEVER
    best, best_value = pick, _finish(ws, seat, pick, _NEVER)
    if best_value > runner_up:  # no other move can reach it: no scan
        return best
    while True:
        pick, bound = np.int64(-1), _NEVER
        for m in range(count):
            if ws[MOVE_VALUE + m] > bound:
                pick, bound = m, ws[MOVE_VALUE + m]
        if pick < 0 or bound < best_value or (bound == best_value and pick > best):
            return best
        ws[MOVE_VALUE + pick] = _NEVER
        value = _finish(ws, seat, pick, best_value)
        if value > best_value or (value == best_value and pick < best):
            best, best_value = pick, value


@kernel
def _prunes(ws: WsPointer, seat: np.int64) -> bool:
    """Are the cheap terms plus the dead-rank bonus an upper bound of a move's value? Only if
    the other terms never add (their weights are not negative and the value is not
    negated for low-wins rules)."""
    w = SEAT_PARAMS + seat * N_PARAMS
    return not ws[R_LOW_WINS] and ws[w + W_TABBE] >= 0 and ws[w + W_FINNISH] >= 0


@kernel(inline='always')
def _finish(ws: WsPointer, seat: np.int64, m: np.int64, floor: np.int64) -> np.int64:
    """`Heuristic.value` of listed move ``m`` (its cheap terms in MOVE_KEY), in micro-points:
    those, a trail's dead-rank bonus, minus the tabbe and threat terms of the table the move
    leaves behind. Once the value is below ``floor`` the terms left are skipped: when
    `_prunes` they only subtract, so the move cannot be the best and needs no exact value."""
    slot, mask, w = ws[MOVE_SLOT + m], ws[MOVE_MASK + m], SEAT_PARAMS + seat * N_PARAMS
    card = hand_card(ws, seat, slot)
    total = ws[MOVE_KEY + m] + (100 * ws[w + W_TRAIL] if mask == 0 and _rank_dead(ws, card) else 0)
    if total >= floor:
        total -= ws[w + W_TABBE] * 1000 * _sweep_threat(ws, seat, card, mask)
    if total >= floor:
        total -= ws[w + W_FINNISH] * 1000 * _special_threats(ws, seat, card, mask)
    return -total if ws[R_LOW_WINS] else total


@kernel
def prepare_seat(ws: WsPointer, seat: np.int64) -> None:
    """Per card, from the weights of ``seat``: the value of trailing it (the trail_safety
    term with a live rank, and trail_rank) and of taking it (material), so that a move's
    main terms are a load per card; and the hints (shared) that send a card to `_rare_terms`."""
    w, values = SEAT_PARAMS + seat * N_PARAMS, SEAT_CARD_VALUES + seat * 2 * DECK_CAP
    for card in range(ws[DECK_N]):
        kind = card % KINDS
        rank, suit, points, spade = kind % 13 + 1, kind // 13, ws[CARD_POINTS + card], _is_spade(card)
        ws[values + card] = -ws[w + W_TRAIL] * (1000 * points + 200 * spade) - ws[w + W_RANK] * (1000 * rank // 13)
        ws[values + DECK_CAP + card] = 1000 * (ws[w + W_ACE] * points + ws[w + W_SPADE] * spade + ws[w + W_CARD])
        ws[CARD_VALUE_NIBBLES + card] = _nibbles(ws[HAND_BITS + card])
        ws[CARD_HINTS + card] = (
            _HINT_TWO * (rank == 2 and suit != SPADES) + _HINT_TEN * (rank == 10 and suit != DIAMONDS)
            + _HINT_ACE * (rank == 1) + _HINT_BIG * (kind == BIG_KASINO)
        )


@kernel
def _nibbles(bits: np.int64) -> np.int64:
    """A 4-bit count of 1 for each value v >= 1 in ``bits``, at bit 4 * (v - 1)."""
    packed = np.int64(0)
    for v in range(1, MAX_VALUE + 1):
        packed |= (bits >> v & 1) << (4 * (v - 1))
    return packed


@kernel(inline='always')
def _cheap(ws: WsPointer, seat: np.int64, slot: np.int64, card: np.int64, mask: np.int64) -> np.int64:
    """The terms of `Heuristic.value` that cost a few loads (all but a trail's dead-rank bonus
    and the tabbe and threat terms) of playing ``card`` (hand slot ``slot``) taking ``mask``
    (0: trail), in micro-points, not yet negated for low-wins rules."""
    values = SEAT_CARD_VALUES + seat * 2 * DECK_CAP
    if mask == 0:
        total = ws[values + card]
    else:
        take = values + DECK_CAP
        total = ws[take + card]
        rest = mask
        while rest:
            total += ws[take + ws[TABLE + trailing_zeros(rest)]]
            rest &= rest - 1
        if ws[DECK_N] > KINDS and mask & (mask - 1) == 0 and _same_kind(ws, ws[TABLE + trailing_zeros(mask)], card):
            total += ws[SEAT_PARAMS + seat * N_PARAMS + W_ACE] * 1000 * ws[R_MULLE_PTS]  # a mulle
        if mask == (np.int64(1) << ws[TABLE_N]) - 1 and sweep_scores(ws):
            total += 1000 * 1000 * ws[R_TABBE_PTS]
    if ws[CARD_HINTS + card] & _RARE:
        total += _rare_terms(ws, seat, card, mask)
    if hand_size(ws, seat) == 2 and ws[CARD_HINTS + hand_card(ws, seat, 1 - slot)] & _HINT_ACE:
        total -= ws[SEAT_PARAMS + seat * N_PARAMS + W_FINNISH] * 500  # §7.6: do not keep a lone ace
    return total


@kernel
def _same_kind(ws: WsPointer, a: np.int64, b: np.int64) -> bool:
    return ws[RANK_ORDER + a] == ws[RANK_ORDER + b]


@kernel(inline='always')
def _rare_terms(ws: WsPointer, seat: np.int64, card: np.int64, mask: np.int64) -> np.int64:
    """The terms only a non-spade 2, a ten or 10♦ can have: hold_twos and hold_tens (§7.2),
    risky_storan (§7.5), and the bonus for banking 10♦ played as 14 or more (§7.6)."""
    w, hint, total = SEAT_PARAMS + seat * N_PARAMS, ws[CARD_HINTS + card], np.int64(0)
    if hint & _HINT_TWO and _kasino_unseen(ws, seat, SMALL_KASINO, UNSEEN_SMALL) and not _takes_kind(ws, mask, SMALL_KASINO):
        total -= ws[w + W_TWOS] * 1000
    if hint & _HINT_TEN:
        if _kasino_unseen(ws, seat, BIG_KASINO, UNSEEN_BIG) and not _takes_kind(ws, mask, BIG_KASINO):
            total -= ws[w + W_TENS] * 1000
        if mask == 0 and _storan_plan(ws, seat):
            take = SEAT_CARD_VALUES + seat * 2 * DECK_CAP + DECK_CAP
            total += ws[w + W_STORAN] * ((ws[take + card] + ws[take + BIG_KASINO]) // 1000)
    if hint & _HINT_BIG and mask > 0 and ws[R_BIG_HAND] >= 14:
        total += ws[w + W_FINNISH] * 500
    return total


@kernel
def _takes_kind(ws: WsPointer, mask: np.int64, kind: np.int64) -> bool:
    """Does the capture ``mask`` take a card of this kind (a §6 build's cards too; a build
    move's negative code takes nothing)?"""
    while mask > 0:
        item = ws[TABLE + trailing_zeros(mask)]
        if (item == kind or item == kind + KINDS) if item < DECK_CAP else build_has_kind(ws, item, kind):
            return True
        mask &= mask - 1
    return False


@kernel(inline='always')
def _kasino_unseen(ws: WsPointer, seat: np.int64, kind: np.int64, at: np.int64) -> bool:
    """Can ``seat`` not see some card of this kind? Worked out once a decision, kept at ``at``."""
    if ws[at] < 0:
        unseen = False
        for card in range(kind, ws[DECK_N], KINDS):
            unseen = unseen or _unseen(ws, seat, card)
        ws[at] = unseen
    return ws[at] == 1


@kernel(inline='always')
def _unseen_bits(ws: WsPointer, seat: np.int64) -> np.int64:
    """Bit v: some card ``seat`` cannot see plays as v (once a decision, kept in UNSEEN_BITS):
    of the values nobody has seen (HIDDEN_VALUES), those with more hidden cards than the
    hand has (HAND_VALUE_NS, so not while the moves are being listed); only a value the hand
    plays as can have no more."""
    if ws[UNSEEN_BITS] >= 0:
        return ws[UNSEEN_BITS]
    bits, held = ws[HIDDEN_VALUES], ws[HAND_VALUE_NS]
    check = bits & ws[HAND_NEED + seat]
    while check:
        v = trailing_zeros(check)
        check &= check - 1
        all_held = ws[HIDDEN_VALUE_N + v] == held >> (4 * (v - 1)) & 15
        bits ^= np.int64(all_held) << v
    ws[UNSEEN_BITS] = bits
    return bits


@kernel
def _unseen_value(ws: WsPointer, seat: np.int64, value: np.int64) -> bool:
    """Does some card ``seat`` cannot see play as ``value``? (`_unseen_bits` for one value,
    for a move's cheap terms: those come before the listing has counted the hand.)"""
    count = ws[HIDDEN_VALUE_N + value]
    for slot in range(hand_size(ws, seat)):
        count -= ws[HAND_BITS + hand_card(ws, seat, slot)] >> value & 1
    return count > 0


@kernel
def _unseen(ws: WsPointer, seat: np.int64, card: np.int64) -> bool:
    if ws[SEEN + card]:
        return False
    for slot in range(hand_size(ws, seat)):
        if hand_card(ws, seat, slot) == card:
            return False
    return True


@kernel(inline='always')
def _rank_dead(ws: WsPointer, card: np.int64) -> bool:
    """No card of this rank is unseen: those nobody has seen are all in the hand."""
    rank = ws[CARD_RANK + card]
    return ws[HIDDEN_RANK_N + rank] == ws[HAND_RANKS] >> (4 * rank) & 15


@kernel
def _is_spade(card: np.int64) -> np.int64:
    return np.int64(card % KINDS < 13)


@kernel(inline='always')
def _sweep_threat(ws: WsPointer, seat: np.int64, card: np.int64, mask: np.int64) -> np.int64:
    """`Heuristic._sweep_threat`: tabbe plus rule points left, if one unseen card can take the
    whole table left behind (1-3 cards: what the capture leaves, or the table and the trailed
    card), else 0."""
    n = ws[TABLE_N]
    left_n = n + 1 if mask == 0 else n - popcount(mask)
    if not 1 <= left_n <= 3:
        return 0
    if mask == 0:
        a = ws[TABLE] if n > 0 else card
        b = ws[TABLE + 1] if n > 1 else card if n == 1 else np.int64(-1)
        c = card if n == 2 else np.int64(-1)
    else:
        left = ~mask & ((np.int64(1) << n) - 1)  # 1-3 slots
        a = ws[TABLE + trailing_zeros(left)]
        left &= left - 1
        b = ws[TABLE + trailing_zeros(left)] if left else np.int64(-1)
        left &= left - 1
        c = ws[TABLE + trailing_zeros(left)] if left else np.int64(-1)
    sweeps = _sweep_values(ws, a, b, c)
    if sweeps & _unseen_bits(ws, seat) == 0:
        return 0
    return ws[R_TABBE_PTS] + ws[CARD_POINTS + a] + (ws[CARD_POINTS + b] if b >= 0 else 0) + (ws[CARD_POINTS + c] if c >= 0 else 0)


@kernel(inline='always')
def _sweep_values(ws: WsPointer, a: np.int64, b: np.int64, c: np.int64) -> np.int64:
    """Bits of the values v with which one card takes all of 1-3 table cards (b, c: -1 when
    absent): some partition of them into groups each summing to v."""
    alone_a = table_bits(ws, a)
    if b < 0:
        return alone_a & _ALL_VALUES
    alone_b = table_bits(ws, b)
    if c < 0:
        return (grown_sums(ws, alone_a, b) | (alone_a & alone_b)) & _ALL_VALUES
    alone_c = table_bits(ws, c)
    ab = grown_sums(ws, alone_a, b)
    return (
        grown_sums(ws, ab, c)
        | (ab & alone_c)
        | (grown_sums(ws, alone_a, c) & alone_b)
        | (grown_sums(ws, alone_b, c) & alone_a)
        | (alone_a & alone_b & alone_c)
    ) & _ALL_VALUES


@kernel(inline='always')
def _special_threats(ws: WsPointer, seat: np.int64, card: np.int64, mask: np.int64) -> np.int64:
    """`Heuristic._special_threat`: the unseen point cards playable as 14+ that could capture
    from the table left behind (its reachable sums: the table's grown by a trailed card, or
    those of the cards a capture leaves)."""
    counts = ws[THREATS]
    if counts == 0:  # no such card is unseen: no need to grow the reach
        return 0
    if mask == 0:
        reach = grow_reach(ws, ws[REACH], card)
    else:
        reach, left = np.int64(1), ~mask & ((np.int64(1) << ws[TABLE_N]) - 1)
        while left:
            reach = grow_reach(ws, reach, ws[TABLE + trailing_zeros(left)])
            left &= left - 1
    count = np.int64(0)
    for value in range(14, MAX_VALUE + 1):
        count += (reach >> value & 1) * (counts >> (8 * (value - 14)) & 255)
    return count


@kernel(inline='always')
def _storan_plan(ws: WsPointer, seat: np.int64) -> bool:
    """`Heuristic._storan_gambit` for a trail of a non-diamond 10: we keep 10♦, no unseen card
    can take a 10, and 10♦ can take the ten (with a group making up its value) next turn."""
    holds_big = False
    for slot in range(hand_size(ws, seat)):
        holds_big |= (ws[CARD_HINTS + hand_card(ws, seat, slot)] & _HINT_BIG) != 0
    if not holds_big or _unseen_value(ws, seat, 10):
        return False
    need = ws[R_BIG_HAND] - 10
    return need == 0 or ((ws[REACH] | ws[BUILD_BITS]) >> need & 1) == 1  # §6: a build is a group of one
