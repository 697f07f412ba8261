"""`random`: uniform over the legal moves — the floor of the strategy ladder."""

from __future__ import annotations

import numpy as np

from simcasino.core.jit import kernel
from simcasino.core.protocol import Move, Stream, View
from simcasino.core.rng import next_below
from simcasino.engine import layout
from simcasino.engine.layout import WsPointer
from simcasino.engine.moves import list_moves

NAME = "random"
DESCRIPTION = "uniform over the legal moves (trails, captures and builds alike)"
PLAYS_BUILDS = True  # §6: it draws from the legal moves, builds included


@kernel
def choose_kernel(ws: WsPointer, seat: np.int64) -> np.int64:
    """Kernel form: the same draw from the same stream over the same canonical move list.
    Returns the hand slot; the mask goes to CHOSEN_MASK."""
    return choose_listed(ws, seat, list_moves(ws, seat))


@kernel
def choose_listed(ws: WsPointer, seat: np.int64, count: np.int64) -> np.int64:
    """A uniform draw among the first ``count`` listed moves (every legal move, or those a
    move filter allows: `follow`)."""
    state, pick = next_below(np.uint64(ws[layout.RNG]), count)
    ws[layout.RNG] = np.int64(state)
    ws[layout.CHOSEN_MASK] = ws[layout.MOVE_MASK + pick]
    return ws[layout.MOVE_SLOT + pick]


@kernel
def choose_capture_kernel(ws: WsPointer, n: np.int64) -> np.int64:
    """§6 Misère, as the chooser: a uniform index among the ``n`` captures, as `Random.choose`
    draws among the moves it is offered."""
    state, pick = next_below(np.uint64(ws[layout.RNG]), n)
    ws[layout.RNG] = np.int64(state)
    return pick


class Random:
    """Plain-Python form: draws from the table's random stream, so it matches the kernel."""

    def choose(self, view: View, stream: Stream) -> Move:
        return view.moves[stream.draw(len(view.moves))]


def make(params: dict[str, float]) -> Random:
    """The plain-Python strategy for the reference engine."""
    return Random()
