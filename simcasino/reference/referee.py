"""The one deal loop: each seat decides in turn, the `DealState` referees.

Why seats decide from the state and not from a view: the referee holds the whole deal, and
a seat that needs more than a player's view to *compute* its decision (the kernel's
strategies load the position into their workspace, `loop.seat`) must be able to read it,
as OpenSpiel's bots get the state. A fair seat reads only ``state.observation(seat)``: a
plain-Python strategy (``choose(view)``) sits at the table through `PlainSeat`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from simcasino.core.protocol import Move, Strategy, View
from simcasino.reference.deal import DealResult
from simcasino.reference.state import Action, DealState

Watch = Callable[[View, Action], None]  # told every decision: the decider's view before it, and what it did


class Seat(Protocol):
    """Whoever decides for a seat, asked with the state when it is ``state.to_move``."""

    def decide(self, state: DealState) -> Move: ...


class PlainSeat:
    """A plain-Python strategy at the table: it sees its seat's observation only."""

    def __init__(self, strategy: Strategy) -> None:
        self.strategy = strategy

    def decide(self, state: DealState) -> Move:
        return self.strategy.choose(state.observation(state.to_move))


def seated(player: Seat | Strategy) -> Seat:
    """A seat for ``player``: a `Seat` as it is, a strategy (``choose(view)``) as a `PlainSeat`."""
    return player if hasattr(player, "decide") else PlainSeat(player)


def play_deal(state: DealState, players: Sequence[Seat | Strategy], watch: Watch | None = None) -> DealResult:
    """Play ``state`` to its end, each decision asked of the player of `state.to_move`
    (ValueError on an illegal move), and score it."""
    seats = [seated(p) for p in players]
    while not state.is_over:
        seat = state.to_move
        move = seats[seat].decide(state)
        view = state.observation(seat) if watch else None
        action = state.apply(move)
        if watch:
            watch(view, action)
    return state.result()
