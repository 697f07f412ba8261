"""The one deal loop: each seat decides in turn, the `DealState` referees.

Why seats decide from the state and not from a view: the referee holds the whole deal, and
a seat that needs more than a player's view to *compute* its decision (the kernel's
strategies load the position into their workspace, `loop.seat`) must be able to read it,
as OpenSpiel's bots get the state. A fair seat reads only ``state.observation(seat)``: a
plain-Python strategy (``choose(view)``) sits at the table through `PlainSeat`.

Why the referee hands each decision the random stream: the seats of a table draw from one
stream, begun where the deal's shuffle left it (`DealState.rng`), in turn, as the kernel's
own play loop draws, so a table plays the same moves from the same seed; the stream is an
argument of the decision, so no seat writes into the state.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from simcasino.core.protocol import Move, Strategy, Stream, View, takes_stream
from simcasino.reference.deal import DealResult
from simcasino.reference.state import Action, DealState

Watch = Callable[
    [View, Action], None
]  # told every decision: the decider's view before it, and what it did


class Seat(Protocol):
    """Whoever decides for a seat, asked with the state when it is ``state.to_move`` and the
    table's random stream."""

    def decide(self, state: DealState, stream: Stream) -> Move: ...


class PlainSeat:
    """A plain-Python strategy (an object with ``choose``, or a function of the view) at the
    table: it sees its seat's observation only (and the random stream, if it takes one:
    `core.protocol.takes_stream`)."""

    def __init__(self, strategy: Strategy | Callable[..., Move]) -> None:
        self.strategy = strategy
        self.choose = getattr(strategy, "choose", strategy)
        self.draws = takes_stream(self.choose)

    def decide(self, state: DealState, stream: Stream) -> Move:
        view = state.observation(state.to_move)
        return self.choose(view, stream) if self.draws else self.choose(view)


def seated(player: Seat | Strategy) -> Seat:
    """A seat for ``player``: a `Seat` as it is, a strategy (``choose(view)``, or a function of
    the view) as a `PlainSeat`."""
    return player if hasattr(player, "decide") else PlainSeat(player)


def play_deal(
    state: DealState,
    players: Sequence[Seat | Strategy],
    watch: Watch | None = None,
    stream: Stream | None = None,
) -> DealResult:
    """Play ``state`` to its end, each decision asked of the player of `state.to_move` with
    the table's random stream (``stream``, else one begun at `DealState.rng`; ValueError on
    an illegal move), and score it."""
    seats = [seated(p) for p in players]
    stream = stream or Stream(state.rng)
    while not state.is_over:
        seat = state.to_move
        move = seats[seat].decide(state, stream)
        view = state.observation(seat) if watch else None
        action = state.apply(move)
        if watch:
            watch(view, action)
    return state.result()
