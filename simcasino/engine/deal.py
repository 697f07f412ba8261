"""One deal in the kernel: deal (R-DEAL, R-REDEAL), play (R-TURN … R-SISTAN), score (§4).

Mirrors `simcasino.reference.deal` step by step; the tests hold the two to identical
results. Every function takes the flat workspace only (see `layout`).
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from simcasino.engine.builds import apply_build, take_builds
from simcasino.engine.captures import (
    card_options, find_groups, grow_reach, hand_need, is_mulle, mulle_points, prepare_values, table_reach,
)
from simcasino.engine.layout import (
    C_ACES, C_BIG, C_CARDS, C_CARDS_PTS, C_GIVEN, C_MULLES, C_POINTS, C_SISTAN, C_SMALL, C_SPADES, C_SPADES_PTS,
    C_SWEEPS, C_TABBES, CARD_RANK, C_MULLES_PTS, C_BUILDS, C_UNHELD, MULLE_SCORES, BUILDS_MADE, UNHELD, R_ACE_SPADES_PTS,
    R_BUILD_PENALTY, BUILD_BITS, BUILD_CAP, BUILD_N, R_BUILDS, CARD_POINTS, CARD_TALLY, CARRY_IN,
    CARRY_OUT, CHOSEN_MASK, COUNTS_CARDS, DEALER, DECK, DECK_N, GAME_SCORE, GIVEN, HAND, HAND_BITS, HAND_CAP, HAND_N,
    HAND_NEED, HIDDEN_AT_START, HIDDEN_COUNTS_SIZE, HIDDEN_RANK_N, HIDDEN_THREATS, HIDDEN_VALUE_N, HIDDEN_VALUES, IMMEDIATE,
    KINDS, LAST_CAPTURER, LAST_ROUND, LISTS_MOVES, MAX_PLAYERS, MULLES, N_COLUMNS, N_PARAMS, NEXT_CARD,
    OPTIONS, OWNER, PILE_TALLY, TALLY_COLUMNS,
    R_ACE_PTS, R_BIG_PTS, R_CARDS_PTS, R_CARDS_TIE, R_DECKS, R_DOUBLE_SWEEP, R_HAND_CARDS, R_IMMEDIATE,
    R_LOW_WINS, R_MAX_CAPTURE, R_MOKKI_CANCEL, R_MUST_MAX, R_OPPONENT_CHOOSES, R_PARTNERSHIP,
    R_PLAYERS, R_PREVIOUS_PTS, R_SISTAN_PTS, R_SMALL_PTS, R_SPADE_PTS, R_SPADES_OVER, R_SPADES_PTS,
    R_SPADES_TIE, R_TABBE_PTS, R_TABLE_CARDS, R_TARGET, REACH, RESULT, RNG, SCORED_SWEEPS,
    SEAT_PARAMS, SEEN, SIZE, STRATEGY, SWEEPS, TABLE, TABLE_CAP, TABLE_N, TO_PLAY, TURNS_LEFT, UNIT, UNITS,
    WORKSPACE_SIZE, WsPointer, workspace_pointer,
)
from simcasino.engine.moves import sweep_scores
from simcasino.rng import shuffle_into
from simcasino.strategies.dispatch import choose_capture, choose_move, prepare_strategies


@njit(cache=True)
def make_workspace(rules_array: np.ndarray, strategy_ids: np.ndarray, params: np.ndarray,
                   counts_cards: bool) -> np.ndarray:
    """A workspace for these rules and seats (``params[seat]``: that seat's strategy parameters;
    ``counts_cards``: some seat's strategy reads the hidden-card counts, which otherwise are
    not kept). The second block (for search playouts) gets the same rules, card tables and seats."""
    ws = np.zeros(WORKSPACE_SIZE, dtype=np.int64)
    ws[: rules_array.shape[0]] = rules_array
    ws[COUNTS_CARDS] = counts_cards
    for seat in range(strategy_ids.shape[0]):
        ws[STRATEGY + seat] = strategy_ids[seat]
        for k in range(params.shape[1]):
            ws[SEAT_PARAMS + seat * N_PARAMS + k] = params[seat, k]
    ws[DECK_N] = KINDS * ws[R_DECKS]
    prepare_values(workspace_pointer(ws))
    _prepare_seats(workspace_pointer(ws))
    prepare_strategies(workspace_pointer(ws))
    for card in range(ws[DECK_N]):
        count_hidden(workspace_pointer(ws), card, 1)
    ws[HIDDEN_AT_START : HIDDEN_AT_START + HIDDEN_COUNTS_SIZE] = ws[HIDDEN_RANK_N : HIDDEN_RANK_N + HIDDEN_COUNTS_SIZE]
    ws[SIZE : SIZE + DECK] = ws[:DECK]
    ws[SIZE + DECK_N] = ws[DECK_N]
    return ws


@njit(cache=True)
def _prepare_seats(ws: WsPointer) -> None:
    """Scoring units (§6 Partnerships: seat % units) and whether greedy must list moves."""
    n, size = ws[R_PLAYERS], ws[R_PARTNERSHIP]
    ws[UNITS] = n // size if size else n
    for seat in range(MAX_PLAYERS):
        ws[UNIT + seat] = seat % ws[UNITS]
    maximal = ws[R_MUST_MAX] != 0 and ws[R_MAX_CAPTURE] != 0
    ws[LISTS_MOVES] = ws[R_LOW_WINS] != 0 or ws[R_OPPONENT_CHOOSES] != 0 or maximal


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
        ws[GIVEN + seat] = 0
        ws[MULLES + seat] = 0
        ws[MULLE_SCORES + seat] = 0
        ws[BUILDS_MADE + seat] = 0
        ws[UNHELD + seat] = 0
        ws[IMMEDIATE + seat] = 0
    if ws[COUNTS_CARDS]:
        for k in range(HIDDEN_COUNTS_SIZE):
            ws[HIDDEN_RANK_N + k] = ws[HIDDEN_AT_START + k]
    for card in range(ws[DECK_N]):
        ws[OWNER + card] = -1
        ws[SEEN + card] = 0
    if ws[R_BUILDS]:  # a deal cut short (a Finnish mid-deal win) may have left builds
        for b in range(BUILD_CAP):
            ws[BUILD_N + b] = 0
        ws[BUILD_BITS] = 0
    ws[TABLE_N] = 0
    ws[NEXT_CARD] = 0
    ws[TURNS_LEFT] = 0
    ws[LAST_CAPTURER] = -1
    ws[DEALER] = dealer


@njit(cache=True)
def count_hidden(ws: WsPointer, card: np.int64, step: np.int64) -> None:
    """Add ``step`` to the hidden counts of the card's rank, of each value it plays as, and
    (a point card playable as 14 or more: a Finnish threat) of its value above 13."""
    ws[HIDDEN_RANK_N + ws[CARD_RANK + card]] += step
    bits = ws[HAND_BITS + card]
    high = bits >> 14
    if high and ws[CARD_POINTS + card]:  # no card plays as two values above 13
        ws[HIDDEN_THREATS] += step << (8 * trailing_zeros(high))
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
    if ws[COUNTS_CARDS]:
        count_hidden(ws, card, -1)


@njit(cache=True)
def _deal_cards(ws: WsPointer, to: np.int64, count_at: np.int64, count: np.int64) -> None:
    for _ in range(count):
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
    """R-DEAL / R-REDEAL: two at a time (the last of five alone), leader first, the table
    after the hands in the first round only; a stock too small to fill every hand (two
    decks) goes out one card at a time from the leader."""
    n, dealer, hand, table = ws[R_PLAYERS], ws[DEALER], ws[R_HAND_CARDS], ws[R_TABLE_CARDS]
    left = ws[DECK_N] - ws[NEXT_CARD]
    if not first and left < n * hand:
        for i in range(left):
            seat = seat_after(dealer, 1 + i % n, n)
            _deal_cards(ws, HAND + seat * HAND_CAP, HAND_N + seat, 1)
    else:
        for given in range(0, max(hand, table), 2):
            for i in range(1, n + 1):
                seat = seat_after(dealer, i, n)
                _deal_cards(ws, HAND + seat * HAND_CAP, HAND_N + seat, max(0, min(2, hand - given)))
            if first:
                _deal_cards(ws, TABLE, TABLE_N, max(0, min(2, table - given)))
    for seat in range(n):
        ws[HAND_NEED + seat] = hand_need(ws, seat)
    if first:
        ws[REACH] = table_reach(ws)
        for i in range(ws[TABLE_N]):
            _see(ws, ws[TABLE + i])


@njit(cache=True)
def _live(ws: WsPointer, unit: np.int64) -> np.int64:
    """A unit's game points now (partners share GAME_SCORE, so its first seat's)."""
    return ws[GAME_SCORE + unit] + ws[IMMEDIATE + unit]


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
    if mask < 0:  # §6 Builds: the card goes onto one table item
        apply_build(ws, seat, card, mask)
        ws[REACH] = table_reach(ws)
        return False
    ws[OWNER + card] = seat
    points = ws[CARD_POINTS + card]
    if ws[DECK_N] > KINDS and is_mulle(ws, card, mask):  # §6 Mulle (two decks)
        ws[MULLES + seat] += 1
        ws[MULLE_SCORES + seat] += mulle_points(ws, card)
    if ws[BUILD_BITS]:  # §6 builds taken go whole to the pile (below, their ids score nothing)
        points += take_builds(ws, seat, mask)
    single = n == 1
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
        _sweep(ws, seat, single)
    if not ws[R_IMMEDIATE]:
        return False
    unit = ws[UNIT + seat]
    ws[IMMEDIATE + unit] += points
    mine = _live(ws, unit)
    if mine < ws[R_TARGET]:
        return False
    for other in range(ws[UNITS]):
        if other != unit and _live(ws, other) >= mine:
            return False
    return True


@njit(cache=True)
def _sweep(ws: WsPointer, seat: np.int64, single: bool) -> None:
    """R-TABBE: count the sweep; if it scores, §6 Misère's double sweep of a single card
    counts twice, and the seat before (Krypkasino: -5 each) is recorded as giving it."""
    ws[SWEEPS + seat] += 1
    if sweep_scores(ws):
        tabbes = 2 if single and ws[R_DOUBLE_SWEEP] else 1
        ws[SCORED_SWEEPS + seat] += tabbes
        ws[GIVEN + seat_after(seat, ws[R_PLAYERS] - 1, ws[R_PLAYERS])] += tabbes


@njit(cache=True)
def _award_unique_max(ws: WsPointer, column: np.int64, points: np.int64, split: bool, into: np.int64) -> bool:
    """Add ``points`` to the unique leader of ``column`` (into column ``into``); with ``split``
    exactly two tied leaders get half each. Returns True if the lead was tied. Over units."""
    n = ws[UNITS]
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
    """§4 and §6: count every pile into RESULT and score the deal (R-MOKKI-CANCEL, ties,
    carry) per unit (team or player); then every seat gets its unit's row."""
    units = ws[UNITS]
    for k in range(ws[R_PLAYERS] * N_COLUMNS):
        ws[RESULT + k] = 0
    for seat in range(ws[R_PLAYERS]):
        ws[PILE_TALLY + seat] = 0
    for card in range(ws[DECK_N]):  # one packed sum per card, not one per column
        owner = ws[OWNER + card]
        if owner >= 0:  # all are at the end of a deal; a search playout cut short scores its piles
            ws[PILE_TALLY + owner] += ws[CARD_TALLY + card]
    if ws[LAST_CAPTURER] >= 0:
        ws[RESULT + ws[UNIT + ws[LAST_CAPTURER]] * N_COLUMNS + C_SISTAN] = 1
    for seat in range(ws[R_PLAYERS]):  # per-seat counts pooled per unit
        row = RESULT + ws[UNIT + seat] * N_COLUMNS
        for j in range(TALLY_COLUMNS):
            ws[row + C_CARDS + j] += ws[PILE_TALLY + seat] >> (8 * j) & 255
        ws[row + C_SWEEPS] += ws[SWEEPS + seat]
        ws[row + C_TABBES] += ws[SCORED_SWEEPS + seat]
        ws[row + C_MULLES] += ws[MULLES + seat]
        ws[row + C_MULLES_PTS] += ws[MULLE_SCORES + seat]
        ws[row + C_BUILDS] += ws[BUILDS_MADE + seat]
        ws[row + C_UNHELD] += ws[UNHELD + seat]
        ws[row + C_GIVEN] += ws[GIVEN + seat]
    fewest = ws[RESULT + C_TABBES]
    for unit in range(units):
        fewest = min(fewest, ws[RESULT + unit * N_COLUMNS + C_TABBES])
    cancel = fewest if ws[R_MOKKI_CANCEL] else 0
    for unit in range(units):
        row = RESULT + unit * N_COLUMNS
        ws[row + C_TABBES] -= cancel
        ws[row + C_SPADES_PTS] = _spade_count_points(ws, row)
    if ws[R_ACE_SPADES_PTS]:
        _ace_of_spades(ws)
    _award_unique_max(ws, C_SPADES, ws[R_SPADES_PTS], ws[R_SPADES_TIE] == 1, C_SPADES_PTS)
    cards_points = ws[R_CARDS_PTS] + ws[CARRY_IN]
    tied = _award_unique_max(ws, C_CARDS, cards_points, False, C_CARDS_PTS)
    ws[CARRY_OUT] = cards_points if tied and ws[R_CARDS_TIE] == 1 else 0
    for unit in range(units):
        row = RESULT + unit * N_COLUMNS
        ws[row + C_POINTS] = ws[row + C_CARDS_PTS] + ws[row + C_SPADES_PTS] + _item_points(ws, row)
    _copy_unit_rows(ws)


@njit(cache=True)
def _ace_of_spades(ws: WsPointer) -> None:
    """§6 Glimne's Mulle: A♠ (kind 0) scores more, in its unit's spade points."""
    for card in range(0, ws[DECK_N], KINDS):
        if ws[OWNER + card] >= 0:
            ws[RESULT + ws[UNIT + ws[OWNER + card]] * N_COLUMNS + C_SPADES_PTS] += ws[R_ACE_SPADES_PTS]


@njit(cache=True)
def _spade_count_points(ws: WsPointer, row: np.int64) -> np.int64:
    """Points a variant gives per spade (Krypkasino) or per spade beyond a count (Överspader)."""
    over = max(0, ws[row + C_SPADES] - ws[R_SPADES_OVER]) if ws[R_SPADES_OVER] else 0
    return ws[row + C_SPADES] * ws[R_SPADE_PTS] + over


@njit(cache=True)
def _item_points(ws: WsPointer, row: np.int64) -> np.int64:
    """A RESULT row's points from everything but the spades and most-cards items (§4, §6)."""
    return (
        ws[row + C_ACES] * ws[R_ACE_PTS]
        + ws[row + C_BIG] * ws[R_BIG_PTS]
        + ws[row + C_SMALL] * ws[R_SMALL_PTS]
        + ws[row + C_SISTAN] * ws[R_SISTAN_PTS]
        + ws[row + C_TABBES] * ws[R_TABBE_PTS]
        + ws[row + C_GIVEN] * ws[R_PREVIOUS_PTS]
        + ws[row + C_MULLES_PTS]
        + ws[row + C_UNHELD] * ws[R_BUILD_PENALTY]
    )


@njit(cache=True)
def _copy_unit_rows(ws: WsPointer) -> None:
    """§6 Partnerships: the seats after the first of each team show their team's row."""
    for seat in range(ws[UNITS], ws[R_PLAYERS]):
        for col in range(N_COLUMNS):
            ws[RESULT + seat * N_COLUMNS + col] = ws[RESULT + ws[UNIT + seat] * N_COLUMNS + col]


@njit(cache=True)
def _cut_short(ws: WsPointer) -> None:
    """A Finnish mid-deal win: the deal scores only what was scored at capture."""
    for k in range(ws[R_PLAYERS] * N_COLUMNS):
        ws[RESULT + k] = 0
    for seat in range(ws[R_PLAYERS]):
        ws[RESULT + seat * N_COLUMNS + C_POINTS] = ws[IMMEDIATE + ws[UNIT + seat]]
    ws[CARRY_OUT] = 0


@njit(cache=True)
def _opponent_choice(ws: WsPointer, seat: np.int64, slot: np.int64, mask: np.int64) -> np.int64:
    """§6 Misère: when the played card (a capture) has several allowed captures, the next
    seat's strategy picks which one it makes. Returns the capture mask."""
    card = ws[HAND + seat * HAND_CAP + slot]
    n = card_options(ws, card)
    if n < 2:
        return mask
    chooser = seat_after(seat, 1, ws[R_PLAYERS])
    return ws[OPTIONS + choose_capture(ws, chooser, seat, card, n)]


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
    """The seat to play next, dealing a round when the hands are empty (R-DEAL, R-REDEAL) and
    passing over a short last hand (two decks); -1 when the deal is played out. The deal can
    be resumed from any turn (the search does)."""
    n = ws[R_PLAYERS]
    while True:
        if ws[TURNS_LEFT] == 0:
            if ws[NEXT_CARD] == ws[DECK_N]:
                return -1
            deal_round(ws, ws[NEXT_CARD] == 0)
            ws[LAST_ROUND] = ws[NEXT_CARD] == ws[DECK_N]  # R-LAST
            ws[TURNS_LEFT] = ws[R_HAND_CARDS] * n
            ws[TO_PLAY] = seat_after(ws[DEALER], 1, n)
        seat = ws[TO_PLAY]
        ws[TO_PLAY] = seat_after(seat, 1, n)
        ws[TURNS_LEFT] -= 1
        if ws[HAND_N + seat]:
            return seat


@njit(cache=True)
def take_turn(ws: WsPointer, seat: np.int64, slot: np.int64) -> bool:
    """Play the chosen move (its mask in CHOSEN_MASK; §6 Misère: the next seat may pick among
    the captures); True if it won the game on the spot, and then the deal is scored as cut short."""
    mask = ws[CHOSEN_MASK]
    if mask and ws[R_OPPONENT_CHOOSES]:
        mask = _opponent_choice(ws, seat, slot, mask)
    if apply_move(ws, seat, slot, mask):
        _cut_short(ws)
        return True
    return False


@njit(cache=True)
def finish_deal(ws: WsPointer) -> None:
    """R-SISTAN: the cards left on the table go to the last capturer (the dealer if nobody
    captured), builds whole (§6); then score."""
    taker = ws[LAST_CAPTURER] if ws[LAST_CAPTURER] >= 0 else ws[DEALER]
    if ws[BUILD_BITS]:
        take_builds(ws, taker, (np.int64(1) << ws[TABLE_N]) - 1)
    for i in range(ws[TABLE_N]):
        ws[OWNER + ws[TABLE + i]] = taker
    ws[TABLE_N] = 0
    score_deal(ws)
