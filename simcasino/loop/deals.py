"""The turn loop of one deal in the kernel: turn after turn (`strategies.turn`), each seat's
strategy asked for its move (and in §6 Misère the next seat for its pick among the
captures), until the deal is scored.

Mirrors `simcasino.reference.referee.play_deal`; the tests hold the two to identical results.
"""

from __future__ import annotations

import numpy as np

from simcasino.core.jit import kernel
from simcasino.engine.dealing import reset_deal
from simcasino.engine.layout import workspace_pointer
from simcasino.loop.dispatch import choose_every, choose_plain
from simcasino.strategies.turn import end_turn, start_turn


@kernel
def play_deal(workspace: np.ndarray, dealer: np.int64, every: bool | None) -> np.int64:
    """Deal the shuffled deck and play it out; RESULT holds the scores. Returns the seat that
    won the game mid-deal (Finnish immediate scoring), else -1. ``every``: see `dispatch`."""
    ws = workspace_pointer(workspace)
    reset_deal(ws, dealer)
    seat = start_turn(ws)
    while seat >= 0:
        if every is None:  # pruned by type: a plain table never compiles the other strategies
            slot = choose_plain(ws, seat)
        else:
            slot = choose_every(ws, seat)
        if end_turn(ws, seat, slot):
            return seat
        seat = start_turn(ws)
    return -1
