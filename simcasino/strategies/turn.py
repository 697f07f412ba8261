"""One turn of a deal in the kernel, in two steps around the choice: `start_turn` (the seat to
play, a round dealt when the hands are empty, its groups listed) and `end_turn` (§6 Misère's
pick among the card's captures, then the move played).

Every loop that plays a deal goes through them: the batch loop (`loop.deals`), the search's
imagined deals (`search`) and the exact solver (`exact`), so the order the mechanics must be
called in lives here once. The choice between the two steps is the caller's: a strategy's
``choose_kernel(ws, seat)`` returns the hand slot and leaves the capture mask in CHOSEN_MASK
(0: a trail; a negative §6 build code). Why two steps and not one function taking the
chooser: numba's cache cannot hold a compiled function that takes another as an argument
(the cached code names it by its address in the process that compiled it).
"""

from __future__ import annotations

import numpy as np

from simcasino.core.jit import kernel
from simcasino.engine.captures import find_groups
from simcasino.engine.dealing import next_turn
from simcasino.engine.layout import WsPointer
from simcasino.engine.playing import finish_deal, take_turn
from simcasino.strategies.capture_choice import picked_mask


@kernel(inline="always")
def start_turn(ws: WsPointer) -> np.int64:
    """The seat to play next, its groups listed (what its choice and its moves read); or -1
    once the deal is played out, which is then finished and scored (R-SISTAN, §4)."""
    seat = next_turn(ws)
    if seat < 0:
        finish_deal(ws)
    else:
        find_groups(ws, seat)
    return seat


@kernel(inline="always")
def end_turn(ws: WsPointer, seat: np.int64, slot: np.int64) -> bool:
    """Play hand ``slot`` of ``seat`` (the chosen capture mask in CHOSEN_MASK), as the next
    seat's pick settles it under §6 Misère; True if it won the game on the spot (§5 Finnish),
    the deal then scored as cut short."""
    return take_turn(ws, seat, slot, picked_mask(ws, seat, slot))
