"""The turn loop of one deal in the kernel: turn after turn (`strategies.turn`), each seat's
strategy asked for its move (and in §6 Misère the next seat for its pick among the
captures), until the deal is scored.

Mirrors `simcasino.reference.referee.play_deal`; the tests hold the two to identical results.
"""

from __future__ import annotations

import numpy as np

from simcasino.core.jit import kernel
from simcasino.engine.dealing import reset_deal
from simcasino.engine.layout import WsPointer
from simcasino.loop.dispatch import choose
from simcasino.strategies.search import value
from simcasino.strategies.turn import end_turn, start_turn


@kernel(inline="always")  # one call site (`games.play_batch`): no compile of its own
def play_deal(
    ws: WsPointer,
    dealer: np.int64,
    advises: bool | None,
    weighs: bool | None,
    searches: bool | None,
    sees: bool | None,
    rows: np.ndarray,
    first_row: np.int64,
    end_row: np.int64,
) -> np.int64:
    """Deal the shuffled deck and play it out; RESULT holds the scores. Returns the seat that won
    the game mid-deal (Finnish immediate scoring), else -1. ``advises``, ``weighs``, ``searches``,
    ``sees``: which strategies the job compiles (`dispatch`). Where ``rows`` has room
    (``first_row .. end_row``), each round's end is recorded in it for learning (`value.note`)."""
    reset_deal(ws, dealer)
    row = first_row
    seat = start_turn(ws)
    while seat >= 0:
        if end_turn(ws, seat, choose(ws, seat, advises, weighs, searches, sees)):
            return seat
        if row < end_row and value.at_boundary(ws):
            row = value.note(ws, rows, row, end_row)
        seat = start_turn(ws)
    return -1
