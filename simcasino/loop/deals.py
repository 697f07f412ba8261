"""The turn loop of one deal in the kernel: deal, ask each seat's strategy for its move (and in
§6 Misère the next seat for its pick among the captures), play it, score.

Mirrors `simcasino.reference.deal.play_deal`; the tests hold the two to identical results.
"""

from __future__ import annotations

import numpy as np

from simcasino.core.jit import kernel
from simcasino.engine.captures import find_groups
from simcasino.engine.dealing import next_turn, reset_deal
from simcasino.engine.layout import workspace_pointer
from simcasino.engine.playing import finish_deal, take_turn
from simcasino.loop.dispatch import choose_move
from simcasino.strategies.capture_choice import picked_mask


@kernel
def play_deal(workspace: np.ndarray, dealer: np.int64, every: bool | None) -> np.int64:
    """Deal the shuffled deck and play it out; RESULT holds the scores. Returns the seat that
    won the game mid-deal (Finnish immediate scoring), else -1. ``every``: see `dispatch`."""
    ws = workspace_pointer(workspace)
    reset_deal(ws, dealer)
    seat = next_turn(ws)
    while seat >= 0:
        find_groups(ws, seat)
        slot = choose_move(ws, seat, every)
        if take_turn(ws, seat, slot, picked_mask(ws, seat, slot)):
            return seat
        seat = next_turn(ws)
    finish_deal(ws)
    return -1
