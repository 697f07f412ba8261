"""A workspace for a table of seats: the rules, the per-card tables, each seat's strategy and
parameters, and what the strategies work out once from them.

Kept in the play loop because setting up a seat's strategy (`dispatch.prepare_strategies`)
is the loop's business; the mechanics below it see only the numbers it leaves.
"""

from __future__ import annotations

import numpy as np

from simcasino.core.jit import kernel
from simcasino.engine import layout
from simcasino.engine.captures import prepare_values
from simcasino.engine.dealing import count_hidden
from simcasino.engine.layout import WsPointer, params_at, workspace_pointer
from simcasino.engine.memory import BLOCK_SIZE, WORKSPACE_SIZE
from simcasino.loop.dispatch import prepare_strategies


@kernel
def make_workspace(
    rules_array: np.ndarray,
    strategy_ids: np.ndarray,
    params: np.ndarray,
    counts_cards: bool,
    weighs: bool | None,
) -> np.ndarray:
    """A workspace for these rules and seats (``params[seat]``: that seat's strategy parameters;
    ``counts_cards``: some seat's strategy reads the hidden-card counts, which otherwise are
    not kept; ``weighs``: see `dispatch`). The second block (for search playouts) gets the
    same rules, card tables and seats."""
    ws = np.zeros(WORKSPACE_SIZE, dtype=np.int64)
    for k in range(
        rules_array.shape[0]
    ):  # loops, not slices: a slice's shape check compiles a formatted error
        ws[k] = rules_array[k]
    ws[layout.COUNTS_CARDS] = counts_cards
    for seat in range(strategy_ids.shape[0]):
        ws[layout.STRATEGY + seat] = strategy_ids[seat]
        for k in range(params.shape[1]):
            ws[params_at(seat) + k] = params[seat, k]
    ws[layout.DECK_N] = layout.KINDS * ws[layout.R_DECKS]
    prepare_values(workspace_pointer(ws))
    _prepare_seats(workspace_pointer(ws))
    prepare_strategies(workspace_pointer(ws), weighs)
    for card in range(ws[layout.DECK_N]):
        count_hidden(workspace_pointer(ws), card, np.int64(1))
    for k in range(layout.HIDDEN_COUNTS_SIZE):
        ws[layout.HIDDEN_AT_START + k] = ws[layout.HIDDEN_RANK_N + k]
    for k in range(layout.DECK):
        ws[BLOCK_SIZE + k] = ws[k]
    ws[BLOCK_SIZE + layout.DECK_N] = ws[layout.DECK_N]
    return ws


@kernel
def _prepare_seats(ws: WsPointer) -> None:
    """Scoring units (§6 Partnerships: seat % units)."""
    n, size = ws[layout.R_PLAYERS], ws[layout.R_PARTNERSHIP]
    ws[layout.UNITS] = n // size if size else n
    for seat in range(layout.MAX_PLAYERS):
        ws[layout.UNIT + seat] = seat % ws[layout.UNITS]
