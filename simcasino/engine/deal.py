"""One deal in the kernel: deal (R-DEAL, R-REDEAL), play (R-TURN … R-SISTAN), score (§4).

Mirrors `simcasino.reference.deal` step by step; the tests hold the two to identical
results. Every function takes the flat workspace only (see `layout`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from numba.cpython.unsafe.numbers import trailing_zeros

from simcasino.engine.captures import find_groups, grow_reach, hand_need, prepare_values, table_reach
from simcasino.engine.layout import (
    C_ACES, C_BIG, C_CARDS, C_CARDS_PTS, C_POINTS, C_SISTAN, C_SMALL, C_SPADES, C_SPADES_PTS, C_SWEEPS, C_TABBES,
    CARD_POINTS, CARD_TALLY, CARRY_IN, CARRY_OUT, CHOSEN_MASK, DEALER, DECK, DECK_N, GAME_SCORE, HAND,
    HAND_BITS, HAND_CAP, HAND_N, HAND_NEED, IMMEDIATE, LAST_CAPTURER, LAST_ROUND, MAX_PLAYERS,
    N_COLUMNS, N_PARAMS, SEAT_PARAMS, SEEN, POINT_CARD, POINT_N, HIDDEN_RANK_N, HIDDEN_VALUE_N, HIDDEN_VALUES, KINDS, MAX_VALUE, NEXT_CARD, OWNER, PILE_TALLY, TALLY_COLUMNS,
    R_ACE_PTS, R_BIG_PTS, R_CARDS_PTS, R_CARDS_TIE, R_IMMEDIATE, R_MOKKI_CANCEL, R_PLAYERS,
    R_SISTAN_PTS, R_SMALL_PTS, R_SPADES_PTS, R_SPADES_TIE, R_TABBE_PTS, R_TARGET, REACH, RESULT, RNG,
    SCORED_SWEEPS, SIZE, STRATEGY, TO_PLAY, TURNS_LEFT, WORKSPACE_SIZE, SWEEPS, TABLE, TABLE_CAP, TABLE_N, WsPointer, workspace_pointer,
)
from simcasino.engine.moves import sweep_scores
from simcasino.rng import shuffle_into
from simcasino.strategies.dispatch import choose_move


@njit(cache=True)
def make_workspace(rules_array: np.ndarray, strategy_ids: np.ndarray, params: np.ndarray) -> np.ndarray:
    """A workspace for these rules and seats (``params[seat]``: that seat's strategy parameters).
    The second block (for search playouts) gets the same rules and card tables."""
    ws = np.zeros(WORKSPACE_SIZE, dtype=np.int64)
    ws[: rules_array.shape[0]] = rules_array
    for seat in range(strategy_ids.shape[0]):
        ws[STRATEGY + seat] = strategy_ids[seat]
        for k in range(params.shape[1]):
            ws[SEAT_PARAMS + seat * N_PARAMS + k] = params[seat, k]
    ws[DECK_N] = 52
    prepare_values(workspace_pointer(ws))
    for card in range(ws[DECK_N]):
        if ws[CARD_POINTS + card]:
            ws[POINT_CARD + ws[POINT_N]] = card
            ws[POINT_N] += 1
    ws[SIZE : SIZE + DECK] = ws[:DECK]
    ws[SIZE + DECK_N] = ws[DECK_N]
    return ws


@njit(cache=True)
def start_deck(workspace: np.ndarray, key: np.uint64, a: np.int64, b: np.int64) -> None:
    """Shuffle the deck of stream (key, a, b) into the workspace; random choices go on from it."""
    state = shuffle_into(workspace[DECK : DECK + workspace[DECK_N]], key, a, b)
    workspace[RNG] = np.int64(state)


@njit(cache=True)
def _reset(ws: WsPointer, dealer: np.int64) -> None:
    for seat in range(MAX_PLAYERS):
        ws[HAND_N + seat] = 0
        ws[SWEEPS + seat] = 0
        ws[SCORED_SWEEPS + seat] = 0
        ws[IMMEDIATE + seat] = 0
    for rank in range(13):
        ws[HIDDEN_RANK_N + rank] = 0
    for value in range(MAX_VALUE + 1):
        ws[HIDDEN_VALUE_N + value] = 0
    ws[HIDDEN_VALUES] = 0
    for card in range(ws[DECK_N]):
        ws[OWNER + card] = -1
        ws[SEEN + card] = 0
        count_hidden(ws, card, 1)
    ws[TABLE_N] = 0
    ws[NEXT_CARD] = 0
    ws[TURNS_LEFT] = 0
    ws[LAST_CAPTURER] = -1
    ws[DEALER] = dealer


@njit(cache=True)
def count_hidden(ws: WsPointer, card: np.int64, step: np.int64) -> None:
    """Add ``step`` to the hidden counts of the card's rank and of each value it plays as."""
    ws[HIDDEN_RANK_N + card % KINDS % 13] += step
    bits = ws[HAND_BITS + card]
    while bits:
        low = bits & -bits
        value = trailing_zeros(low)
        ws[HIDDEN_VALUE_N + value] += step
        if ws[HIDDEN_VALUE_N + value] == 0:
            ws[HIDDEN_VALUES] &= ~low
        else:
            ws[HIDDEN_VALUES] |= low
        bits ^= low


@njit(cache=True)
def _see(ws: WsPointer, card: np.int64) -> None:
    """The card is on the table or played: every player has seen it (strategies count it)."""
    ws[SEEN + card] = 1
    count_hidden(ws, card, -1)


@njit(cache=True)
def _deal_two(ws: WsPointer, to: np.int64, count_at: np.int64) -> None:
    for _ in range(2):
        n = ws[count_at]
        ws[to + n] = ws[DECK + ws[NEXT_CARD]]
        ws[count_at] = n + 1
        ws[NEXT_CARD] += 1


@njit(cache=True)
def seat_after(seat: np.int64, k: np.int64, n: np.int64) -> np.int64:
    """(seat + k) % n for 0 <= seat < n and 0 <= k <= n, without the integer division ``%``
    needs when n is not a constant (tens of cycles, once a turn)."""
    later = seat + k
    return later - n if later >= n else later


@njit(cache=True)
def deal_round(ws: WsPointer, first: bool) -> None:
    """R-DEAL / R-REDEAL: two at a time, leader first; the table only in the first round."""
    n, dealer = ws[R_PLAYERS], ws[DEALER]
    for _ in range(2):
        for i in range(1, n + 1):
            seat = seat_after(dealer, i, n)
            _deal_two(ws, HAND + seat * HAND_CAP, HAND_N + seat)
        if first:
            _deal_two(ws, TABLE, TABLE_N)
    for seat in range(n):
        ws[HAND_NEED + seat] = hand_need(ws, seat)
    if first:
        ws[REACH] = table_reach(ws)
        for i in range(ws[TABLE_N]):
            _see(ws, ws[TABLE + i])


@njit(cache=True)
def _live(ws: WsPointer, seat: np.int64) -> np.int64:
    return ws[GAME_SCORE + seat] + ws[IMMEDIATE + seat]


@njit(cache=True)
def apply_move(ws: WsPointer, seat: np.int64, slot: np.int64, mask: np.int64) -> bool:
    """Play a move (R-PILE, R-TABBE). Returns True if it won the game on the spot (§5 Finnish)."""
    base = HAND + seat * HAND_CAP
    card = ws[base + slot]
    _see(ws, card)
    count = ws[HAND_N + seat] - 1
    need = np.int64(0)
    for k in range(count):  # close up over the played card, redoing HAND_NEED on the way
        kept = ws[base + k + (k >= slot)]
        ws[base + k] = kept
        need |= ws[HAND_BITS + kept]
    ws[HAND_N + seat] = count
    ws[HAND_NEED + seat] = need
    n = ws[TABLE_N]
    if mask == 0:
        if n >= TABLE_CAP:
            raise RuntimeError("table full")
        ws[TABLE + n] = card
        ws[TABLE_N] = n + 1
        ws[REACH] = grow_reach(ws, ws[REACH], card)
        return False
    ws[OWNER + card] = seat
    points = ws[CARD_POINTS + card]
    kept, reach = 0, np.int64(1)
    for i in range(n):
        c = ws[TABLE + i]
        if mask >> i & 1:
            ws[OWNER + c] = seat
            points += ws[CARD_POINTS + c]
        else:
            ws[TABLE + kept] = c
            kept += 1
            reach = grow_reach(ws, reach, c)
    ws[TABLE_N] = kept
    ws[REACH] = reach
    ws[LAST_CAPTURER] = seat
    if kept == 0:
        ws[SWEEPS + seat] += 1
        if sweep_scores(ws):
            ws[SCORED_SWEEPS + seat] += 1
    if not ws[R_IMMEDIATE]:
        return False
    ws[IMMEDIATE + seat] += points
    mine = _live(ws, seat)
    if mine < ws[R_TARGET]:
        return False
    for other in range(ws[R_PLAYERS]):
        if other != seat and _live(ws, other) >= mine:
            return False
    return True


@njit(cache=True)
def _award_unique_max(ws: WsPointer, column: np.int64, points: np.int64, split: bool, into: np.int64) -> bool:
    """Add ``points`` to the unique leader of ``column`` (into column ``into``); with ``split``
    exactly two tied leaders get half each. Returns True if the lead was tied."""
    n = ws[R_PLAYERS]
    best, leaders, first = -1, 0, -1
    for seat in range(n):
        v = ws[RESULT + seat * N_COLUMNS + column]
        if v > best:
            best, leaders, first = v, 1, seat
        elif v == best:
            leaders += 1
    if leaders == 1:
        ws[RESULT + first * N_COLUMNS + into] += points
    elif split and leaders == 2:
        for seat in range(n):
            if ws[RESULT + seat * N_COLUMNS + column] == best:
                ws[RESULT + seat * N_COLUMNS + into] += points // 2
    return leaders > 1


@njit(cache=True)
def score_deal(ws: WsPointer) -> None:
    """§4: count every pile into RESULT and score the deal (R-MOKKI-CANCEL, ties, carry)."""
    n = ws[R_PLAYERS]
    for k in range(MAX_PLAYERS * N_COLUMNS):
        ws[RESULT + k] = 0
    for seat in range(n):
        ws[PILE_TALLY + seat] = 0
    for card in range(ws[DECK_N]):  # one packed sum per card, not one per column
        owner = ws[OWNER + card]
        if owner >= 0:  # all are at the end of a deal; a search playout cut short scores its piles
            ws[PILE_TALLY + owner] += ws[CARD_TALLY + card]
    for seat in range(n):
        for j in range(TALLY_COLUMNS):
            ws[RESULT + seat * N_COLUMNS + C_CARDS + j] = ws[PILE_TALLY + seat] >> (8 * j) & 255
    if ws[LAST_CAPTURER] >= 0:
        ws[RESULT + ws[LAST_CAPTURER] * N_COLUMNS + C_SISTAN] = 1
    fewest = ws[SCORED_SWEEPS]
    for seat in range(n):
        fewest = min(fewest, ws[SCORED_SWEEPS + seat])
    cancel = fewest if ws[R_MOKKI_CANCEL] else 0
    for seat in range(n):
        row = RESULT + seat * N_COLUMNS
        ws[row + C_SWEEPS] = ws[SWEEPS + seat]
        ws[row + C_TABBES] = ws[SCORED_SWEEPS + seat] - cancel
        ws[row + C_POINTS] = (
            ws[row + C_ACES] * ws[R_ACE_PTS]
            + ws[row + C_BIG] * ws[R_BIG_PTS]
            + ws[row + C_SMALL] * ws[R_SMALL_PTS]
            + ws[row + C_SISTAN] * ws[R_SISTAN_PTS]
            + ws[row + C_TABBES] * ws[R_TABBE_PTS]
        )
    _award_unique_max(ws, C_SPADES, ws[R_SPADES_PTS], ws[R_SPADES_TIE] == 1, C_SPADES_PTS)
    cards_points = ws[R_CARDS_PTS] + ws[CARRY_IN]
    tied = _award_unique_max(ws, C_CARDS, cards_points, False, C_CARDS_PTS)
    ws[CARRY_OUT] = cards_points if tied and ws[R_CARDS_TIE] == 1 else 0
    for seat in range(n):
        row = RESULT + seat * N_COLUMNS
        ws[row + C_POINTS] += ws[row + C_SPADES_PTS] + ws[row + C_CARDS_PTS]


@njit(cache=True)
def _cut_short(ws: WsPointer) -> None:
    """A Finnish mid-deal win: the deal scores only what was scored at capture."""
    for k in range(MAX_PLAYERS * N_COLUMNS):
        ws[RESULT + k] = 0
    for seat in range(ws[R_PLAYERS]):
        ws[RESULT + seat * N_COLUMNS + C_POINTS] = ws[IMMEDIATE + seat]
    ws[CARRY_OUT] = 0


@njit(cache=True)
def play_deal(workspace: np.ndarray, dealer: np.int64) -> np.int64:
    """Deal the shuffled deck and play it out; RESULT holds the scores. Returns the seat that
    won the game mid-deal (Finnish immediate scoring), else -1."""
    ws = workspace_pointer(workspace)
    _reset(ws, dealer)
    seat = next_turn(ws)
    while seat >= 0:
        find_groups(ws, seat)
        slot = choose_move(ws, seat)
        if take_turn(ws, seat, slot):
            return seat
        seat = next_turn(ws)
    finish_deal(ws)
    return -1


@njit(cache=True)
def next_turn(ws: WsPointer) -> np.int64:
    """The seat to play next, dealing a round when the hands are empty (R-DEAL, R-REDEAL);
    -1 when the deal is played out. The deal can be resumed from any turn (search does)."""
    n = ws[R_PLAYERS]
    if ws[TURNS_LEFT] == 0:
        first = ws[NEXT_CARD] == 0
        if ws[DECK_N] - ws[NEXT_CARD] - 4 * first < 4 * n:
            return -1
        deal_round(ws, first)
        ws[LAST_ROUND] = ws[DECK_N] - ws[NEXT_CARD] < 4 * n
        ws[TURNS_LEFT] = 4 * n
        ws[TO_PLAY] = seat_after(ws[DEALER], 1, n)
    seat = ws[TO_PLAY]
    ws[TO_PLAY] = seat_after(seat, 1, n)
    ws[TURNS_LEFT] -= 1
    return seat


@njit(cache=True)
def take_turn(ws: WsPointer, seat: np.int64, slot: np.int64) -> bool:
    """Play the chosen move (its mask in CHOSEN_MASK); True if it won the game on the spot,
    and then the deal is scored as cut short."""
    if apply_move(ws, seat, slot, ws[CHOSEN_MASK]):
        _cut_short(ws)
        return True
    return False


@njit(cache=True)
def finish_deal(ws: WsPointer) -> None:
    """R-SISTAN: the cards left on the table go to the last capturer (the dealer if nobody
    captured); then score."""
    taker = ws[LAST_CAPTURER] if ws[LAST_CAPTURER] >= 0 else ws[DEALER]
    for i in range(ws[TABLE_N]):
        ws[OWNER + ws[TABLE + i]] = taker
    ws[TABLE_N] = 0
    score_deal(ws)
