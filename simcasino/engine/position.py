"""A kernel strategy's decision at one position given from Python.

The kernel normally decides inside `deal.play_deal`; this entry loads a position (one
player's view plus whatever the other hands and the stock hold) into a workspace and asks
the seat's jitted strategy for its move. The tests use it to hold each jitted strategy to
its plain-Python form position by position, and to show that a strategy's choice does not
change when the cards it cannot see are dealt differently.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit

from simcasino.engine.batch import seat_arrays
from simcasino.engine.captures import find_groups, hand_need, table_reach
from simcasino.engine.deal import count_hidden, make_workspace
from simcasino.engine.layout import (
    CHOSEN_MASK, DECK, DECK_N, GAME_SCORE, HAND, HAND_CAP, HAND_N, HAND_NEED, LAST_ROUND, NEXT_CARD,
    OWNER, R_PLAYERS, REACH, SEEN, TABLE, TABLE_N, workspace_pointer,
)
from simcasino.strategies import StrategySpec
from simcasino.strategies.dispatch import choose_move
from simcasino.strategies.protocol import Move, View


@njit(cache=True)
def _decide(workspace: np.ndarray, seat: np.int64) -> tuple[np.int64, np.int64]:
    ws = workspace_pointer(workspace)
    for card in range(ws[DECK_N]):
        count_hidden(ws, card, 1 - ws[SEEN + card])
    ws[REACH] = table_reach(ws)
    for other in range(ws[R_PLAYERS]):
        ws[HAND_NEED + other] = hand_need(ws, other)
    find_groups(ws, seat)
    slot = choose_move(ws, seat)
    return slot, ws[CHOSEN_MASK]


def kernel_move(view: View, spec: StrategySpec, hands: Sequence[Sequence[int]], stock: Sequence[int]) -> Move:
    """The move ``spec``'s jitted form makes in ``view``; ``hands[s]`` is seat s's hand (the
    viewer's own is taken from the view) and ``stock`` the undealt cards in dealing order."""
    n = view.rules.players
    specs = [spec] * n
    workspace = make_workspace(view.rules.to_array(), *seat_arrays(specs))
    for seat in range(n):
        hand = view.hand if seat == view.seat else hands[seat]
        workspace[HAND + seat * HAND_CAP : HAND + seat * HAND_CAP + len(hand)] = hand
        workspace[HAND_N + seat] = len(hand)
        workspace[GAME_SCORE + seat] = view.scores[seat]  # immediate points included
    workspace[TABLE : TABLE + len(view.table)] = view.table
    workspace[TABLE_N] = len(view.table)
    first = 52 - len(stock)
    workspace[DECK + first : DECK + 52] = stock
    workspace[NEXT_CARD] = first
    workspace[LAST_ROUND] = view.last_round
    workspace[OWNER : OWNER + len(view.captured_by)] = view.captured_by
    captured = [card for card, owner in enumerate(view.captured_by) if owner >= 0]
    for card in [*view.table, *(card for _, card in view.played), *captured]:
        workspace[SEEN + card] = 1  # what every player has seen
    slot, mask = _decide(workspace, view.seat)
    return Move(int(slot), view.hand[slot], int(mask))

