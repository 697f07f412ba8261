"""The fixed action space of Kasino for game-AI toolkits: the card first, then what it does.

Why two steps: a move is a card and a capture (or a trail, or a §6 build), and the captures
of one card are unions of groups of table items, so one action per move would need an action
for every subset of the table. Instead a seat first names the card (actions 0-51: the card
kind; with two decks, identical cards are one move), then picks one of the card's *options*
(`PendingMove.options`): option actions ``OPTION_BASE + j``, j < ``OPTIONS``.

Why the options are every move the card could make, not its legal moves: once the card is
shown, every seat knows its options, but which of them are legal can depend on the rest of
the mover's hand (a §6 build must declare a value the builder holds). A step that existed
only when the card had two legal moves, or an option j that meant another move in another
hand, would tell the other seats about cards they cannot see. So the options are
`reference.moves.possible_moves` (under §6 Misère, a pick's options are the card's captures,
all public), the option step comes exactly when a card has two or more options, and the
mover's legal actions are the options that are legal for its hand (`legal_actions`).

Why blocks: a card on a cluttered table can have thousands of captures (seen in random
play; up to `core.limits.OPTION_LIMIT`), more than ``OPTIONS`` actions. Then each option
action picks a block of the list (16 blocks of equal size, the last ones shorter), and the
next step picks within it, until one move is left: ``DEPTH`` steps at most, which bounds the
length of a game (`max_actions`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from simcasino.core.cards import KINDS
from simcasino.core.limits import OPTION_LIMIT, TABLE_LIMIT, PositionTooLarge
from simcasino.core.protocol import Move
from simcasino.core.rules import Rules
from simcasino.reference.moves import possible_moves
from simcasino.reference.state import DealState

CARD_ACTIONS = KINDS  # action k < 52: play the card of kind k
OPTIONS = 16  # option actions: a move of the card, or a block of its moves
OPTION_BASE = CARD_ACTIONS
NUM_ACTIONS = CARD_ACTIONS + OPTIONS
BUILD_VALUES = (
    4  # the build values one card can make on one item (2 hand values x 2 table values, at most)
)


def steps_for(count: int) -> int:
    """Option steps that pick one of ``count`` options (0 for one: the card makes it)."""
    steps = 0
    while OPTIONS**steps < count:
        steps += 1
    return steps


def max_actions(rules: Rules) -> int:
    """The most actions one deal can take, a true bound (`openspiel_game` declares it).

    Every card dealt to a hand is played once (the deck less the first table), each by a
    card action and at most ``steps_for(options)`` option steps; a card's options are its
    trail, at most `OPTION_LIMIT` captures (past that the position ends the deal: docs/interop.md,
    Limits) and, under §6 Builds, at most ``BUILD_VALUES`` builds onto each of at most
    `TABLE_LIMIT` items. Under §6 Misère each play may wait for a pick among at most
    `OPTION_LIMIT` captures, ``steps_for`` of them more.
    """
    plays = rules.deck_size - rules.table_cards
    options = 1 + OPTION_LIMIT + (BUILD_VALUES * TABLE_LIMIT if rules.builds else 0)
    picks = steps_for(OPTION_LIMIT) if rules.opponent_chooses else 0
    return plays * (1 + steps_for(options) + picks)


@dataclass
class PendingMove:
    """A deal between the steps of a decision: ``card`` is the kind chosen (-1: a card is to
    be chosen), ``span`` the part of its options the steps so far have narrowed to."""

    deal: DealState
    card: int = -1
    span: tuple[int, int] = (0, 0)
    _legal: list[int] | None = field(
        default=None, repr=False, compare=False
    )  # legal_actions, kept until a step
    _options: tuple[Move, ...] | None = field(default=None, repr=False, compare=False)
    _chosen: tuple[int, tuple[Move, ...]] | None = field(
        default=None, repr=False, compare=False
    )  # a card's options

    def __deepcopy__(self, memo: dict) -> PendingMove:
        """A fast independent copy (OpenSpiel clones a state by deep-copying its attributes)."""
        return PendingMove(self.deal.clone(), self.card, self.span)

    @property
    def choosing_option(self) -> bool:
        """Is the seat to move choosing among options (a card chosen, or a §6 Misère pick)?"""
        return self.card >= 0 or self.deal.pending is not None

    @property
    def chosen(self) -> int:
        """The kind of the card whose options are on show (-1 when a card is to be chosen)."""
        return self.deal.pending.card % KINDS if self.deal.pending is not None else self.card

    def options(self) -> tuple[Move, ...]:
        """Every move the chosen card could make, in canonical order (a §6 Misère pick: its
        captures), whatever else the mover holds: the same for every seat."""
        if self._options is None:
            self._options = self._list_options()
        return self._options

    def _list_options(self) -> tuple[Move, ...]:
        deal = self.deal
        if deal.pending is not None:
            return deal.legal_moves()
        if not deal.rules.builds:  # without builds a card's options are its legal moves
            return tuple(m for m in deal.legal_moves() if m.card % KINDS == self.card)
        hand = deal.hands[deal.to_move]
        index = next(i for i, c in enumerate(hand) if c % KINDS == self.card)
        return possible_moves(index, hand[index], deal.table, deal.rules, deal.to_move)

    def span_now(self) -> tuple[int, int]:
        """The options still in play: all of them until a step narrows them."""
        return self.span if self.span != (0, 0) else (0, len(self.options()))

    def blocks(self) -> list[tuple[int, int]]:
        """What each option action picks now: ranges of `options`, one option each when few
        are left, else ``OPTIONS`` blocks of equal size (the last ones shorter, or empty)."""
        low, high = self.span_now()
        size = max(1, -(-(high - low) // OPTIONS))
        return [
            (min(high, low + j * size), min(high, low + (j + 1) * size)) for j in range(OPTIONS)
        ]

    def legal_actions(self) -> list[int]:
        """The legal actions, ascending (none once the deal is over); `PositionTooLarge` for a
        position whose moves cannot be listed (`too_large`)."""
        if self._legal is None:
            self._legal = self._list_actions()
        return self._legal

    def too_large(self) -> str | None:
        """Why the position's moves cannot be listed (`PositionTooLarge`), or None."""
        try:
            self.legal_actions()
        except PositionTooLarge as error:
            return str(error)
        return None

    def end_if_too_large(self) -> str | None:
        """End the deal where it stands (`DealState.end_now`: what is left goes to the last
        capturer, and the deal is scored) if its moves cannot be listed, and say why; None if
        they can. Every face ends such a deal this way (docs/interop.md, Limits)."""
        reason = self.too_large()
        if reason:
            self.deal.end_now()
            self.card, self.span, self._legal, self._options, self._chosen = (
                -1,
                (0, 0),
                None,
                None,
                None,
            )
        return reason

    def _list_actions(self) -> list[int]:
        if self.deal.is_over:
            return []
        legal = self.deal.legal_moves()
        if not self.choosing_option:
            return sorted({m.card % KINDS for m in legal})
        blocks = self.blocks()
        if not self.deal.rules.builds:  # the options are legal moves: every block that holds one
            return [OPTION_BASE + j for j, (low, high) in enumerate(blocks) if high > low]
        options, allowed = self.options(), set(legal)
        return [
            OPTION_BASE + j
            for j, (low, high) in enumerate(blocks)
            if any(options[i] in allowed for i in range(low, high))
        ]

    def move_of(self, action: int) -> Move | None:
        """The move ``action`` makes, or None when it only chooses the card or narrows the
        options (ValueError if it is not legal)."""
        if action not in self.legal_actions():
            raise ValueError(f"action {action} is not legal here (legal: {self.legal_actions()})")
        if not self.choosing_option:
            options = self._card_options(action)
            return options[0] if len(options) == 1 else None
        low, high = self.blocks()[action - OPTION_BASE]
        return self.options()[low] if high - low == 1 else None

    def _card_options(self, kind: int) -> tuple[Move, ...]:
        """The options of the card of ``kind`` (kept for the step that chooses it)."""
        if self._chosen is None or self._chosen[0] != kind:
            self._chosen = (kind, PendingMove(self.deal, kind).options())
        return self._chosen[1]

    def apply_move(self, move: Move) -> None:
        """Make ``move`` at once (a seat deciding by moves, not actions, between two decisions)."""
        if self.card >= 0 or self.span != (0, 0):
            raise ValueError("a move is made between decisions, not after a card is chosen")
        self.deal.apply(move)
        self._legal, self._options, self._chosen = None, None, None

    def apply(self, action: int) -> Move | None:
        """Take ``action``; the move it completes (applied to the deal), else None."""
        move = self.move_of(action)
        self._legal = None
        if move is not None:
            self.deal.apply(move)
            self.card, self.span, self._options, self._chosen = -1, (0, 0), None, None
        elif self.choosing_option:
            self.span = self.blocks()[action - OPTION_BASE]
        else:
            self.card, self._options, self._chosen = action, self._card_options(action), None
        return move


def actions_of(deal: DealState, move: Move) -> list[int]:
    """The actions that make ``move`` (a legal move of ``deal``) from a fresh decision."""
    decision = PendingMove(deal)
    actions = []
    if deal.pending is None:
        actions.append(move.card % KINDS)
        decision.card = move.card % KINDS
        if len(decision.options()) == 1:
            return actions
    index = decision.options().index(move)
    while True:
        step = next(j for j, (low, high) in enumerate(decision.blocks()) if low <= index < high)
        actions.append(OPTION_BASE + step)
        low, high = decision.blocks()[step]
        if high - low == 1:
            return actions
        decision.span = (low, high)
