"""The heuristic in plain Python: the obviously-correct twin the kernel form is tested against,
term by term, and the form the reference engine plays.

Each weight of `weights.PARAMS` has one method of the same name giving the move's feature in
milli-units (what the weight, in milli-points, multiplies); `fixed` is what no weight
scales. What the table offers is asked of the reference engine's captures (`groups`,
`group_unions`), never worked out here a second time.
"""

from __future__ import annotations

from dataclasses import dataclass

from simcasino.advice.left import Table, can_sweep, has_group, left_after
from simcasino.advice.sight import Seen, unseen_cards
from simcasino.core.cards import (
    BIG_KASINO,
    DIAMONDS,
    SMALL_KASINO,
    SPADES,
    is_spade,
    rank_of,
    suit_of,
)
from simcasino.core.protocol import Move, View
from simcasino.core.rules import Rules
from simcasino.core.table import is_build, item_cards
from simcasino.reference.builds import held_values
from simcasino.reference.captures import mask_cards, mulle_score
from simcasino.strategies.greedy import Greedy
from simcasino.strategies.heuristic.weights import MILLI, NO_BUILD, ORDER, weights_milli


@dataclass(frozen=True)
class Play:
    """A move in its position: what every term looks at."""

    view: View
    move: Move
    seen: Seen

    @property
    def rules(self) -> Rules:
        return self.view.rules

    @property
    def taken(self) -> list[int]:
        """The cards a capture takes, the played card included (none for other moves)."""
        return (
            mask_cards(self.move.taken, self.view.table) + [self.move.card]
            if self.move.is_capture
            else []
        )

    @property
    def left(self) -> Table:
        return left_after(self.view, self.move)

    @property
    def hand_left(self) -> list[int]:
        return [c for i, c in enumerate(self.view.hand) if i != self.move.hand_index]

    @property
    def is_trail(self) -> bool:
        return self.move.is_trail


def take_risk(value: int, owner: int, seen: Seen, view: View) -> int:
    """In thousandths: the chance an opponent takes a build of ``value`` owned by ``owner``
    before our next turn (§6). An opponent's build: certain if a card of its value is unseen
    (its owner must hold one). Ours or a partner's: the chance that the opponents' hands,
    each as large as ours, dealt from the unseen cards, hold one of those of its value."""
    ways = sum(value in view.rules.hand_values(c) for c in seen.unseen)
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
    """The best value wins (ties: the first move in canonical order); see `terms` for the value."""

    def __init__(self, params: dict[str, float] | None = None) -> None:
        self.w = dict(zip(ORDER, weights_milli(params or {})))

    def choose(self, view: View) -> Move:
        if (
            view.chooser_for >= 0
        ):  # §6 Misère: picking another's capture, as greedy does (so does the kernel)
            return Greedy().choose(view)
        seen = unseen_cards(view)
        return max(
            view.moves, key=lambda m: self.value(view, m, seen)
        )  # max keeps the first of ties

    def value(self, view: View, move: Move, seen: Seen) -> int:
        """The move's value in micro-points: each weight times its feature, plus `fixed`;
        negated where the fewest points win (§6 Misère, Krypkasino: points are bad)."""
        play = Play(view, move, seen)
        total = sum(
            self.w[name] * feature for name, feature in self.terms(play).items()
        ) + self.fixed(play)
        return -total if view.rules.low_wins else total

    def terms(self, play: Play) -> dict[str, int]:
        """Every weight's feature of the move, in milli-units."""
        return {name: getattr(self, name)(play) for name in ORDER}

    def material(self, cards: list[int], rules: Rules, mulle: int = 0) -> int:
        """Micro-points of taking ``cards`` (and a mulle's points, weighed as rule points)."""
        points = sum(rules.card_points(c) for c in cards) + mulle
        spades = sum(is_spade(c) for c in cards)
        w = self.w
        return MILLI * (
            w["ace_value"] * points + w["spade_value"] * spades + w["card_value"] * len(cards)
        )

    # --- the terms, one per weight --------------------------------------------------------------

    @staticmethod
    def ace_value(play: Play) -> int:
        """A capture's rule points (aces, kasinos; a §6 mulle's points count as such)."""
        if not play.move.is_capture:
            return 0
        return MILLI * (sum(play.rules.card_points(c) for c in play.taken) + mulle_points(play))

    @staticmethod
    def spade_value(play: Play) -> int:
        """A capture's spades (most spades)."""
        return MILLI * sum(is_spade(c) for c in play.taken)

    @staticmethod
    def card_value(play: Play) -> int:
        """A capture's cards (most cards)."""
        return MILLI * len(play.taken)

    @staticmethod
    def trail_points(play: Play) -> int:
        """S1 (§7.1), a trail: minus its rule points (an ace, 2♠, 10♦)."""
        return -MILLI * play.rules.card_points(play.move.card) if play.is_trail else 0

    @staticmethod
    def trail_spades(play: Play) -> int:
        """S2 (§7.1), a trail: minus one for a spade."""
        return -MILLI * is_spade(play.move.card) if play.is_trail else 0

    @staticmethod
    def trail_dead_rank(play: Play) -> int:
        """S3 (§7.1), a trail: one if its rank is dead (every other card of the rank is seen)."""
        if not play.is_trail:
            return 0
        return MILLI * (not any(rank_of(c) == rank_of(play.move.card) for c in play.seen.unseen))

    @staticmethod
    def trail_rank(play: Play) -> int:
        """A trail: minus rank/13 of the card, so low cards go first (a low card on the table
        is more often taken back by the one who trailed it)."""
        return -(MILLI * rank_of(play.move.card) // 13) if play.is_trail else 0

    @staticmethod
    def hold_twos(play: Play) -> int:
        """S4 (§7.2): minus a point for playing a non-spade 2 while 2♠ is unseen (not taking it)."""
        return -MILLI * _gives_up_catch(play, rank=2, kasino=SMALL_KASINO, suit=SPADES)

    @staticmethod
    def hold_tens(play: Play) -> int:
        """S5 (§7.2): minus a point for playing a non-diamond 10 while 10♦ is unseen."""
        return -MILLI * _gives_up_catch(play, rank=10, kasino=BIG_KASINO, suit=DIAMONDS)

    def tabbe_denial(self, play: Play) -> int:
        """S6 (§7.4): minus the tabbe and the rule points on the table left (1-3 items) if one
        unseen card can sweep it; with §6 builds, minus each build left at its material times
        the chance an opponent takes it."""
        return -(MILLI * _sweep_threat(play) + self._build_threat(play))

    @staticmethod
    def finnish_threats(play: Play) -> int:
        """F1 (§7.6): minus one per unseen ace, 2♠ or 10♦ worth 14+ from hand that could
        capture from the table left (an opponent's point card takes the 14, 15 or 16)."""
        rules, left = play.rules, play.left
        return -MILLI * sum(
            any(v >= 14 and has_group(left, v, rules) for v in rules.hand_values(c))
            for c in play.seen.unseen
            if rules.card_points(c) > 0
        )

    @staticmethod
    def lone_ace(play: Play) -> int:
        """F3 (§7.6): minus one for keeping an ace as the last card."""
        return -MILLI * (len(play.hand_left) == 1 and rank_of(play.hand_left[0]) == 1)

    @staticmethod
    def storan_early(play: Play) -> int:
        """F5 (§7.6): one for a capture with 10♦ played as 14+ (bank it early)."""
        return MILLI * (
            bool(play.taken)
            and play.move.card % 52 == BIG_KASINO
            and play.rules.big_kasino_hand >= 14
        )

    def risky_storan(self, play: Play) -> int:
        """S7 (§7.5): for trailing a non-diamond 10 that only our 10♦ can take next turn (no
        unseen card plays as 10), the material of that 10 and 10♦, in milli-points."""
        return (
            self.material([play.move.card, BIG_KASINO], play.rules) // MILLI
            if _storan_gambit(play)
            else 0
        )

    def builds(self, play: Play) -> int:
        """§6 Builds, a build move another card in hand can take next turn: the material of the
        build's cards, in milli-points."""
        if not play.move.is_build or not _holds_build_value(play):
            return 0
        build = play.left[play.move.target]
        return self.material(list(build.cards), play.rules) // MILLI

    def fixed(self, play: Play) -> int:
        """What no weight scales, in micro-points: a capture's scoring tabbe; §6 a build whose
        value the builder does not hold (``build_penalty``), and with weight ``builds`` 0
        the guard that never builds unless nothing else is legal."""
        rules, move = play.rules, play.move
        if move.is_capture:
            return (
                MILLI * MILLI * rules.tabbe_points
                if not play.left and play.view.sweep_scores
                else 0
            )
        if not move.is_build:
            return 0
        if self.w["builds"] == 0:
            return -NO_BUILD
        return 0 if _holds_build_value(play) else MILLI * MILLI * rules.build_penalty

    def _build_threat(self, play: Play) -> int:
        """In milli-units: each build left (§6) at its material times the chance an opponent
        takes it (`take_risk`)."""
        total = 0
        for item in play.left:
            if is_build(item):
                risk = take_risk(item.value, item.owner, play.seen, play.view)
                total += self.material(list(item.cards), play.rules) * risk // (MILLI * MILLI)
        return total


def mulle_points(play: Play) -> int:
    """The mulle points of a capture (§6): with builds rules as the engines score them
    (Glimne's mulle within a capture, scored as the card's value)."""
    move, view = play.move, play.view
    if view.rules.builds:
        return mulle_score(move.card, move.taken, view.table, view.rules)
    taken = mask_cards(move.taken, view.table)
    exactly_one_twin = (
        len(view.captured_by) > 52 and len(taken) == 1 and taken[0] % 52 == move.card % 52
    )
    return view.rules.mulle_points * exactly_one_twin


def _gives_up_catch(play: Play, rank: int, kasino: int, suit: int) -> int:
    """1 if this plays a ``rank`` of another suit than the kasino's while the kasino is unseen
    and the move does not take it."""
    card = play.move.card
    other = rank_of(card) == rank and suit_of(card) != suit
    return int(other and play.seen.has(kasino) and all(c % 52 != kasino for c in play.taken))


def _sweep_threat(play: Play) -> int:
    """Tabbe plus rule points on the table left, if one unseen card can take all of it (1-3
    items)."""
    rules, left = play.rules, play.left
    if not 1 <= len(left) <= 3:
        return 0
    values = {v for c in play.seen.unseen for v in rules.hand_values(c)}
    if not any(can_sweep(left, v, rules) for v in sorted(values)):
        return 0
    return rules.tabbe_points + sum(rules.card_points(c) for item in left for c in item_cards(item))


def _storan_gambit(play: Play) -> bool:
    """Is this a trail of a non-diamond 10 that only our 10♦ can take next turn?"""
    card, rules = play.move.card, play.rules
    if not play.is_trail or rank_of(card) != 10 or suit_of(card) == DIAMONDS:
        return False
    if not any(c % 52 == BIG_KASINO for c in play.hand_left):
        return False
    if any(10 in rules.hand_values(c) for c in play.seen.unseen):
        return False
    rest = list(play.left)
    rest.remove(card)
    need = rules.big_kasino_hand - 10
    return need == 0 or has_group(rest, need, rules)


def _holds_build_value(play: Play) -> bool:
    return play.move.value in held_values(play.view.hand, play.move.hand_index, play.rules)
