"""Whole games in the kernel (§5): deals to the target, dealer rotation, tie-breaks.

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


@kernel
def play_game(workspace: np.ndarray, key: np.uint64, game: np.int64, every: bool | None) -> tuple[np.int64, np.int64]:
    """R-TARGET, R-ROTATE: seat n-1 deals first, then the deal passes left.
    GAME_SCORE ends with the final scores; returns (winning unit or -1, deals played)."""
    ws = workspace_pointer(workspace)
    n = ws[R_PLAYERS]
    for seat in range(n):
        ws[GAME_SCORE + seat] = 0
    ws[CARRY_IN + CARRY_CARDS] = 0
    ws[CARRY_IN + CARRY_SPADES] = 0
    dealer = n - 1
    for deal_no in range(MAX_DEALS_PER_GAME):
        start_deck(workspace, key, game, deal_no)
        winner = play_deal(workspace, dealer, every)
        for seat in range(n):
            ws[GAME_SCORE + seat] += ws[result_row(seat) + C_POINTS]
        if winner >= 0:
            return ws[UNIT + winner], deal_no + 1
        ws[CARRY_IN + CARRY_CARDS] = ws[CARRY_OUT + CARRY_CARDS]
        ws[CARRY_IN + CARRY_SPADES] = ws[CARRY_OUT + CARRY_SPADES]
        winner = decide_winner(ws, deal_no + 1)
        if winner >= 0:
            return winner, deal_no + 1
        dealer = (dealer + 1) % n
    return -1, MAX_DEALS_PER_GAME
