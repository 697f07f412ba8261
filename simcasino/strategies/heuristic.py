"""`heuristic`: a weighted evaluation of every legal move; its features are the tactics of
RULES.md §7, each with a named weight, so an experiment can switch one off (weight 0).

A move's value (in milli-points, integers, so both engines agree exactly):

- material taken, capture only: ``ace_value`` × the rule points of the cards taken (aces,
  kasinos), ``spade_value`` × spades, ``card_value`` × cards (the played card included),
  plus the tabbe points if the capture empties the table and a sweep scores now;
- ``trail_safety`` (§7.1), trail only: minus the trailed card's rule points, a little for
  a spade, a little less if its rank is dead (every other card of the rank is seen);
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
  that 10 (what the plan takes next turn).

"Unseen" means what this player cannot see: not in its hand, not on the table, not played
or captured. The best value wins; ties go to the first move in canonical order.
"""

from __future__ import annotations

from dataclasses import dataclass

from simcasino.cards import BIG_KASINO, DIAMONDS, SMALL_KASINO, SPADES, is_spade, rank_of, suit_of
from simcasino.reference.captures import hand_values, mask_cards, table_values
from simcasino.strategies.protocol import Move, View

NAME = "heuristic"
DESCRIPTION = "weighs material and the §7 tactics (each a named weight: set 0 to switch it off)"

# weight name -> (default, what it weighs); weights are in points per unit
PARAMS: dict[str, tuple[float, str]] = {
    "ace_value": (1.0, "rule points (aces, kasinos) a capture takes"),
    "spade_value": (0.15, "each spade a capture takes (most spades)"),
    "card_value": (0.05, "each card a capture takes (most cards)"),
    "trail_safety": (1.0, "cost of trailing point cards and spades; dead ranks are cheaper"),
    "hold_twos": (0.3, "cost of playing a non-spade 2 while 2♠ is unseen"),
    "hold_tens": (0.5, "cost of playing a non-diamond 10 while 10♦ is unseen"),
    "tabbe_denial": (1.0, "cost of leaving a table one unseen card can sweep"),
    "finnish_avoid": (1.0, "cost of leaving 14/15/16 for an unseen A/2♠/10♦; 10♦ early; no lone ace"),
    "risky_storan": (1.0, "bonus for trailing a ten to catch it with 10♦ when no one else can"),
}
ORDER = tuple(PARAMS)  # the kernel's parameter slots
MILLI = 1000


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
    visible = set(view.hand) | set(view.table) | {card for _, card in view.played}
    visible |= {card for card, owner in enumerate(view.captured_by) if owner >= 0}
    return _Seen(tuple(c for c in range(len(view.captured_by)) if c not in visible))


def _dead(card: int, view: View, seen: _Seen) -> bool:
    return not any(rank_of(c) == rank_of(card) for c in seen.unseen)


def _can_sweep(table: list[int], value: int, rules) -> bool:
    """Can one card of ``value`` take all of ``table`` (1-3 cards) as disjoint groups?"""
    if not table:
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

    return covers(table)


def _sums_to(cards: list[int], value: int, rules) -> bool:
    sums = {0}
    for c in cards:
        sums = {s + v for s in sums for v in table_values(c, rules)}
    return value in sums


def _has_group(table: list[int], value: int, rules) -> bool:
    """Does some subset of ``table`` sum to ``value``?"""
    sums = {0}
    for c in table:
        sums |= {s + v for s in sums for v in table_values(c, rules)}
    return value in sums


class Heuristic:
    """Plain-Python form, the reference for the kernel form."""

    def __init__(self, params: dict[str, float] | None = None) -> None:
        self.w = dict(zip(ORDER, weights_milli(params or {})))

    def choose(self, view: View) -> Move:
        seen = unseen_cards(view)
        return max(view.moves, key=lambda m: self.value(view, m, seen))  # max keeps the first of ties

    def value(self, view: View, move: Move, seen: _Seen) -> int:
        """The move's value in milli-points (see the module docstring)."""
        rules, card = view.rules, move.card
        taken = mask_cards(move.mask, view.table) + ([card] if move.mask else [])
        left = [c for i, c in enumerate(view.table) if not move.mask >> i & 1] + ([] if move.mask else [card])
        hand_left = [c for i, c in enumerate(view.hand) if i != move.hand_index]
        total = 0
        if move.mask:
            total += self.material(taken, rules)
            if not left and view.sweep_scores:
                total += MILLI * rules.tabbe_points
        else:
            dead = _dead(card, view, seen)
            total -= self.term("trail_safety", MILLI * rules.card_points(card) + 200 * is_spade(card) - 100 * dead)
        total -= self.term("hold_twos", MILLI * self._holds(card, taken, seen, rank=2, kasino=SMALL_KASINO, suit=SPADES))
        total -= self.term("hold_tens", MILLI * self._holds(card, taken, seen, rank=10, kasino=BIG_KASINO, suit=DIAMONDS))
        total -= self.term("tabbe_denial", MILLI * self._sweep_threat(left, seen, view))
        total -= self.term("finnish_avoid", MILLI * self._special_threat(left, seen, view))
        total += self.term("finnish_avoid", self._finnish_bonus(move, taken, hand_left, view))
        if self._storan_gambit(move, left, hand_left, seen, view):
            total += self.term("risky_storan", self.material([card, BIG_KASINO], rules))
        return total

    def material(self, cards: list[int], rules) -> int:
        """Milli-points of taking ``cards``: weighted rule points, spades and cards."""
        total = self.term("ace_value", MILLI * sum(rules.card_points(c) for c in cards))
        total += self.term("spade_value", MILLI * sum(is_spade(c) for c in cards))
        return total + self.term("card_value", MILLI * len(cards))

    def term(self, name: str, units_milli: int) -> int:
        """Weight (milli-points per unit) times a feature in milli-units, in milli-points."""
        return self.w[name] * units_milli // MILLI

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
        return view.rules.tabbe_points + sum(view.rules.card_points(c) for c in left)

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
