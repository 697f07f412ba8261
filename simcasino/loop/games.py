"""Batches of deals and whole games in the kernel (§5): deals to the target, dealer rotation,
tie-breaks.

Mirrors `simcasino.reference.game`.
"""

from __future__ import annotations

import numpy as np

from simcasino.core.jit import kernel
from simcasino.engine.dealing import start_deck
from simcasino.engine.layout import (
    C_ACES,
    C_BIG,
    C_CARDS,
    C_POINTS,
    C_SMALL,
    C_SPADES,
    CARRY_CARDS,
    CARRY_IN,
    CARRY_OUT,
    CARRY_SPADES,
    GAME_SCORE,
    N_COLUMNS,
    R_ACE_PTS,
    R_BIG_PTS,
    R_GAME_DEALS,
    R_LOW_WINS,
    R_PLAYERS,
    R_SMALL_PTS,
    R_TARGET,
    R_TIE_BREAK,
    UNIT,
    UNITS,
    WsPointer,
    result_row,
    workspace_pointer,
)
from simcasino.loop.deals import play_deal

MAX_DEALS_PER_GAME = 1000  # as in the reference: a game this long has no winner
TIE_SPADES, TIE_FINNISH = 0, 1  # indices in rules.TIE_BREAK


@kernel
def _tie_key(ws: WsPointer, seat: np.int64) -> np.int64:
    """The last deal's tie-break key of a seat (0 for play_on: nobody is split)."""
    row = result_row(seat)
    if ws[R_TIE_BREAK] == TIE_SPADES:
        return ws[row + C_SPADES]
    if ws[R_TIE_BREAK] == TIE_FINNISH:
        kasinos = (ws[row + C_ACES] * ws[R_ACE_PTS] + ws[row + C_BIG] * ws[R_BIG_PTS]
                   + ws[row + C_SMALL] * ws[R_SMALL_PTS])
        return (kasinos * 1000 + ws[row + C_SPADES]) * 1000 + ws[row + C_CARDS]
    return 0


@kernel
def decide_winner(ws: WsPointer, deals: np.int64) -> np.int64:
    """After ``deals`` deals: once someone reached the target (or the agreed ``game_deals``
    are played), the highest total wins, ties split by ``tie_break``; with ``low_wins`` the
    unique lowest. Returns the winning unit (partners share a score), or -1 to deal again."""
    n = ws[UNITS]
    top, bottom = ws[GAME_SCORE], ws[GAME_SCORE]
    for seat in range(n):
        top = max(top, ws[GAME_SCORE + seat])
        bottom = min(bottom, ws[GAME_SCORE + seat])
    if top < ws[R_TARGET] and not 0 < ws[R_GAME_DEALS] <= deals:
        return -1
    best = bottom if ws[R_LOW_WINS] else top
    best_key, leaders, winner = np.int64(-1), 0, -1
    for seat in range(n):
        if ws[GAME_SCORE + seat] == best:
            key = _tie_key(ws, seat)
            if key > best_key:
                best_key, leaders, winner = key, 1, seat
            elif key == best_key:
                leaders += 1
    return winner if leaders == 1 else -1


@kernel(inline="always")  # one call site (`entry.run`): no compile of its own
def play_batch(workspace: np.ndarray, advises: bool | None, weighs: bool | None, searches: bool | None,
               sees: bool | None, games: bool, key: np.uint64, first: np.int64, out: np.ndarray) -> None:
    """Deals ``first .. first + len(out)`` (out[d, seat, column]: their results) or, with
    ``games``, whole games (out[g, seat] = (final score, won: 0/1, partners win together,
    deals played)). A deal is played as the first deal of a game, so it depends only on (key,
    its index) either way, and the one loop that plays deals is this one.

    R-TARGET, R-ROTATE: seat n-1 deals first, then the deal passes left, until `decide_winner`
    names a winner (or MAX_DEALS_PER_GAME are played without one)."""
    ws = workspace_pointer(workspace)
    n = ws[R_PLAYERS]
    for i in range(out.shape[0]):
        _start_game(ws)
        dealer, winner, deals = n - 1, np.int64(-1), np.int64(0)
        while winner < 0 and deals < MAX_DEALS_PER_GAME:
            start_deck(workspace, key, first + i, deals)
            won = play_deal(ws, dealer, advises, weighs, searches, sees)
            deals += 1
            if not games:
                for seat in range(n):
                    for col in range(N_COLUMNS):
                        out[i, seat, col] = ws[result_row(seat) + col]
                break
            winner = _after_deal(ws, won, deals)
            dealer = (dealer + 1) % n
        if games:
            for seat in range(n):
                out[i, seat, 0] = ws[GAME_SCORE + seat]
                out[i, seat, 1] = winner >= 0 and winner == ws[UNIT + seat]
                out[i, seat, 2] = deals


@kernel
def _start_game(ws: WsPointer) -> None:
    for seat in range(ws[R_PLAYERS]):
        ws[GAME_SCORE + seat] = 0
    ws[CARRY_IN + CARRY_CARDS] = 0
    ws[CARRY_IN + CARRY_SPADES] = 0


@kernel
def _after_deal(ws: WsPointer, won: np.int64, deals: np.int64) -> np.int64:
    """The deal's points added to the game, what it carries to the next; the winning unit
    (``won``: the seat that won mid-deal, else -1), or -1 to deal again."""
    for seat in range(ws[R_PLAYERS]):
        ws[GAME_SCORE + seat] += ws[result_row(seat) + C_POINTS]
    if won >= 0:
        return ws[UNIT + won]
    ws[CARRY_IN + CARRY_CARDS] = ws[CARRY_OUT + CARRY_CARDS]
    ws[CARRY_IN + CARRY_SPADES] = ws[CARRY_OUT + CARRY_SPADES]
    return decide_winner(ws, deals)
