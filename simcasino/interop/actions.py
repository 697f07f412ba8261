"""The fixed action space of Kasino for game-AI toolkits: the card first, then what it does.

Why two steps: a move is a card and a capture (or a trail, or a §6 build), and the captures
of one card are unions of groups of table items, so one action per move would need an action
for every subset of the table. Instead a seat first names the card (actions 0-51: the card
kind; with two decks, identical cards are one move), then, when that card can be played in
more than one way, picks one of its moves in canonical order (`core.protocol.Move`): option
actions ``OPTION_BASE + j``. A card's moves can run to hundreds on a cluttered table (seen in
random play), so they come in pages of ``PAGE - 1``, and the last option action, ``MORE``,
turns the page. Under §6 Misère, when a capture has several allowed forms the next seat
picks one of them with option actions too. Both the OpenSpiel game and the PettingZoo
environment step through a `Decision`, so they play the same game.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from simcasino.core.cards import KINDS
from simcasino.core.limits import OPTION_LIMIT
from simcasino.core.protocol import Move
from simcasino.reference.state import DealState

CARD_ACTIONS = KINDS  # action k < 52: play the card of kind k
PAGE = 16  # option actions: 15 moves a page, then MORE
OPTION_BASE = CARD_ACTIONS
MORE = OPTION_BASE + PAGE - 1  # the next page of the card's moves
NUM_ACTIONS = CARD_ACTIONS + PAGE
PAGES = -(-(OPTION_LIMIT + 1) // (PAGE - 1))  # pages a card's moves can fill (its captures, a trail, builds)


@dataclass
class Decision:
    """A deal between the two steps of a decision: ``card`` is the kind chosen (-1: a card is
    to be chosen), ``page`` the page of its moves on show."""

    deal: DealState
    card: int = -1
    page: int = 0
    _legal: list[int] | None = field(default=None, repr=False, compare=False)  # legal_actions, kept until a step

    def __deepcopy__(self, memo: dict) -> Decision:
        """A fast independent copy (OpenSpiel clones a state by deep-copying its attributes)."""
        return Decision(self.deal.clone(), self.card, self.page)

    @property
    def choosing_option(self) -> bool:
        """Is the seat to move choosing among moves (a card chosen, or a §6 Misère pick)?"""
        return self.card >= 0 or self.deal.pending is not None

    def options(self) -> tuple[Move, ...]:
        """The moves the option step chooses among, in canonical order."""
        moves = self.deal.legal_moves()
        if self.deal.pending is not None:
            return moves
        return tuple(m for m in moves if m.card % KINDS == self.card)

    def legal_actions(self) -> list[int]:
        """The legal actions, ascending (none once the deal is over)."""
        if self._legal is None:
            self._legal = self._list_actions()
        return self._legal

    def _list_actions(self) -> list[int]:
        if self.deal.is_over:
            return []
        if not self.choosing_option:
            return sorted({m.card % KINDS for m in self.deal.legal_moves()})
        shown = len(self.options()) - self.page * (PAGE - 1)
        return [OPTION_BASE + j for j in range(min(shown, PAGE - 1))] + ([MORE] if shown > PAGE - 1 else [])

    def move_of(self, action: int) -> Move | None:
        """The move ``action`` makes, or None when it only chooses the card or turns the page
        (ValueError if it is not legal)."""
        if action not in self.legal_actions():
            raise ValueError(f"action {action} is not legal here (legal: {self.legal_actions()})")
        if action == MORE:
            return None
        if self.choosing_option:
            return self.options()[self.page * (PAGE - 1) + action - OPTION_BASE]
        moves = [m for m in self.deal.legal_moves() if m.card % KINDS == action]
        return moves[0] if len(moves) == 1 else None

    def apply(self, action: int) -> Move | None:
        """Take ``action``; the move it completes (applied to the deal), else None."""
        move = self.move_of(action)
        self._legal = None
        if move is not None:
            self.deal.apply(move)
            self.card, self.page = -1, 0
        elif action == MORE:
            self.page += 1
        else:
            self.card = action
        return move


def actions_of(deal: DealState, move: Move) -> list[int]:
    """The actions that make ``move`` (a legal move of ``deal``) from a fresh decision."""
    actions = [] if deal.pending is not None else [move.card % KINDS]
    if actions and Decision(deal).move_of(actions[0]) is not None:
        return actions
    index = Decision(deal, -1 if deal.pending is not None else move.card % KINDS).options().index(move)
    return actions + [MORE] * (index // (PAGE - 1)) + [OPTION_BASE + index % (PAGE - 1)]
