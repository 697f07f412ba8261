"""§6 Misère: when the played card has several allowed captures, the next seat picks which one
it makes. Random draws among them; every other strategy picks as greedy does, the capture
worst for the player of the card.

The play loop asks this after the mover's choice, and so do the search's playouts and the
exact solver, so an imagined deal treats the pick as the real one does.
"""

from __future__ import annotations

import numpy as np

from simcasino.core.jit import kernel
from simcasino.engine import layout
from simcasino.engine.captures import card_options
from simcasino.engine.dealing import seat_after
from simcasino.engine.layout import WsPointer, hand_card
from simcasino.strategies import RANDOM_ID, greedy, random


@kernel
def picked_mask(ws: WsPointer, seat: np.int64, slot: np.int64) -> np.int64:
    """The capture mask the chosen move of ``seat`` makes: its own (CHOSEN_MASK), unless the
    rules let the next seat pick among the card's captures."""
    mask = ws[layout.CHOSEN_MASK]
    if mask and ws[layout.R_OPPONENT_CHOOSES]:
        return _opponent_pick(ws, seat, slot, mask)
    return mask


@kernel
def _opponent_pick(ws: WsPointer, seat: np.int64, slot: np.int64, mask: np.int64) -> np.int64:
    card = hand_card(ws, seat, slot)
    n = card_options(ws, card)
    if n < 2:
        return mask
    chooser = seat_after(seat, 1, ws[layout.R_PLAYERS])
    return ws[layout.OPTIONS + choose_capture(ws, chooser, card, n)]


@kernel
def choose_capture(ws: WsPointer, chooser: np.int64, card: np.int64, n: np.int64) -> np.int64:
    """The index, among the ``n`` captures of ``card`` in OPTIONS, that the strategy of
    ``chooser`` picks."""
    if ws[layout.STRATEGY + chooser] == RANDOM_ID:
        return random.choose_capture_kernel(ws, n)
    return greedy.choose_capture_kernel(ws, card, n)
