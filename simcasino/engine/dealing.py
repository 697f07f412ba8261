"""Dealing a deal in the kernel (R-DEAL, R-REDEAL, R-LAST, R-ROTATE): shuffling, the rounds,
whose turn comes next, and the public count of the cards nobody has seen yet.

Mirrors `simcasino.reference.deal` step by step; every function takes the flat workspace
(see `layout`). The deal can be resumed from any turn (the search does), so the turn order
is state (TURNS_LEFT, TO_PLAY), not a loop variable.
"""

from __future__ import annotations

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from simcasino.core.jit import kernel
from simcasino.core.rng import shuffle_into
from simcasino.engine import layout
from simcasino.engine.captures import hand_need, table_reach
from simcasino.engine.layout import WsPointer, hand_at


@kernel
def start_deck(workspace: np.ndarray, key: np.uint64, a: np.int64, b: np.int64) -> None:
    """Shuffle the deck of stream (key, a, b) into the workspace; random choices go on from it."""
    state = shuffle_into(workspace[layout.DECK : layout.DECK + workspace[layout.DECK_N]], key, a, b)
    workspace[layout.RNG] = np.int64(state)


@kernel
def reset_deal(ws: WsPointer, dealer: np.int64) -> None:
    for seat in range(layout.MAX_PLAYERS):
        ws[layout.HAND_N + seat] = 0
        ws[layout.SWEEPS + seat] = 0
        ws[layout.SCORED_SWEEPS + seat] = 0
        ws[layout.GIVEN + seat] = 0
        ws[layout.MULLES + seat] = 0
        ws[layout.MULLE_SCORES + seat] = 0
        ws[layout.BUILDS_MADE + seat] = 0
        ws[layout.UNHELD + seat] = 0
        ws[layout.IMMEDIATE + seat] = 0
    if ws[layout.COUNTS_CARDS]:
        for k in range(layout.HIDDEN_COUNTS_SIZE):
            ws[layout.HIDDEN_RANK_N + k] = ws[layout.HIDDEN_AT_START + k]
    for card in range(ws[layout.DECK_N]):
        ws[layout.OWNER + card] = -1
        ws[layout.SEEN + card] = 0
    if ws[layout.R_BUILDS]:  # a deal cut short (a Finnish mid-deal win) may have left builds
        for b in range(layout.BUILD_CAP):
            ws[layout.BUILD_N + b] = 0
        ws[layout.BUILD_BITS] = 0
    ws[layout.TABLE_N] = 0
    ws[layout.NEXT_CARD] = 0
    ws[layout.TURNS_LEFT] = 0
    ws[layout.LAST_CAPTURER] = -1
    ws[layout.DEALER] = dealer


@kernel
def count_hidden(ws: WsPointer, card: np.int64, step: np.int64) -> None:
    """Add ``step`` to the hidden counts of the card's rank, of each value it plays as, and
    (a point card playable as 14 or more: a Finnish threat) of its value above 13."""
    ws[layout.HIDDEN_RANK_N + ws[layout.CARD_RANK + card]] += step
    bits = ws[layout.HAND_BITS + card]
    high = bits >> 14
    if high and ws[layout.CARD_POINTS + card]:  # no card plays as two values above 13
        ws[layout.HIDDEN_THREATS] += step << (8 * trailing_zeros(high))
    while bits:
        low = bits & -bits
        value = trailing_zeros(low)
        ws[layout.HIDDEN_VALUE_N + value] += step
        if ws[layout.HIDDEN_VALUE_N + value] == 0:
            ws[layout.HIDDEN_VALUES] &= ~low
        else:
            ws[layout.HIDDEN_VALUES] |= low
        bits ^= low


@kernel
def see(ws: WsPointer, card: np.int64) -> None:
    """The card is on the table or played: every player has seen it (strategies count it)."""
    ws[layout.SEEN + card] = 1
    if ws[layout.COUNTS_CARDS]:
        count_hidden(ws, card, np.int64(-1))


@kernel(inline="always")  # tiny: inlined, so constant arguments make no specializations of its own
def _deal_cards(ws: WsPointer, to: np.int64, count_at: np.int64, count: np.int64) -> None:
    for _ in range(count):
        n = ws[count_at]
        ws[to + n] = ws[layout.DECK + ws[layout.NEXT_CARD]]
        ws[count_at] = n + 1
        ws[layout.NEXT_CARD] += 1


@kernel(inline="always")  # tiny: inlined, so constant arguments make no specializations of its own
def seat_after(seat: np.int64, k: np.int64, n: np.int64) -> np.int64:
    """(seat + k) % n for 0 <= seat < n and 0 <= k <= n, without the integer division ``%``
    needs when n is not a constant (tens of cycles, once a turn)."""
    later = seat + k
    return later - n if later >= n else later


@kernel
def deal_round(ws: WsPointer, first: bool) -> None:
    """R-DEAL / R-REDEAL: two at a time (the last of five alone), leader first, the table
    after the hands in the first round only; a stock too small to fill every hand (two
    decks) goes out one card at a time from the leader."""
    n, dealer, hand, table = (
        ws[layout.R_PLAYERS],
        ws[layout.DEALER],
        ws[layout.R_HAND_CARDS],
        ws[layout.R_TABLE_CARDS],
    )
    left = ws[layout.DECK_N] - ws[layout.NEXT_CARD]
    if not first and left < n * hand:
        for i in range(left):
            seat = seat_after(dealer, 1 + i % n, n)
            _deal_cards(ws, hand_at(seat), layout.HAND_N + seat, 1)
    else:
        for given in range(0, max(hand, table), 2):
            for i in range(1, n + 1):
                seat = seat_after(dealer, i, n)
                _deal_cards(ws, hand_at(seat), layout.HAND_N + seat, max(0, min(2, hand - given)))
            if first:
                _deal_cards(ws, layout.TABLE, layout.TABLE_N, max(0, min(2, table - given)))
    for seat in range(n):
        ws[layout.HAND_NEED + seat] = hand_need(ws, seat)
    if first:
        ws[layout.REACH] = table_reach(ws)
        for i in range(ws[layout.TABLE_N]):
            see(ws, ws[layout.TABLE + i])


@kernel
def next_turn(ws: WsPointer) -> np.int64:
    """The seat to play next, dealing a round when the hands are empty (R-DEAL, R-REDEAL) and
    passing over a short last hand (two decks); -1 when the deal is played out. The deal can
    be resumed from any turn (the search does)."""
    n = ws[layout.R_PLAYERS]
    while True:
        if ws[layout.TURNS_LEFT] == 0:
            if ws[layout.NEXT_CARD] == ws[layout.DECK_N]:
                return -1
            deal_round(ws, ws[layout.NEXT_CARD] == 0)
            ws[layout.LAST_ROUND] = ws[layout.NEXT_CARD] == ws[layout.DECK_N]  # R-LAST
            ws[layout.TURNS_LEFT] = ws[layout.R_HAND_CARDS] * n
            ws[layout.TO_PLAY] = seat_after(ws[layout.DEALER], 1, n)
        seat = ws[layout.TO_PLAY]
        ws[layout.TO_PLAY] = seat_after(seat, 1, n)
        ws[layout.TURNS_LEFT] -= 1
        if ws[layout.HAND_N + seat]:
            return seat
