"""Batches of deals and whole games in the kernel (§5): deals to the target, dealer rotation,
tie-breaks.

Mirrors `simcasino.reference.game`.
"""

from __future__ import annotations

import numpy as np

from simcasino.core.jit import kernel
from simcasino.engine import layout
from simcasino.engine.dealing import start_deck
from simcasino.engine.layout import WsPointer, result_row, workspace_pointer
from simcasino.loop.deals import play_deal
from simcasino.strategies.search import value

MAX_DEALS_PER_GAME = 1000  # as in the reference: a game this long has no winner
TIE_SPADES, TIE_FINNISH = 0, 1  # indices in rules.TIE_BREAK


@kernel
def _tie_key(ws: WsPointer, seat: np.int64) -> np.int64:
    """The last deal's tie-break key of a seat (0 for play_on: nobody is split)."""
    row = result_row(seat)
    if ws[layout.R_TIE_BREAK] == TIE_SPADES:
        return ws[row + layout.C_SPADES]
    if ws[layout.R_TIE_BREAK] == TIE_FINNISH:
        kasinos = (
            ws[row + layout.C_ACES] * ws[layout.R_ACE_PTS]
            + ws[row + layout.C_BIG] * ws[layout.R_BIG_PTS]
            + ws[row + layout.C_SMALL] * ws[layout.R_SMALL_PTS]
        )
        return (kasinos * 1000 + ws[row + layout.C_SPADES]) * 1000 + ws[row + layout.C_CARDS]
    return 0


@kernel
def decide_winner(ws: WsPointer, deals: np.int64) -> np.int64:
    """After ``deals`` deals: once someone reached the target (or the agreed ``game_deals``
    are played), the highest total wins, ties split by ``tie_break``; with ``low_wins`` the
    unique lowest. Returns the winning unit (partners share a score), or -1 to deal again."""
    n = ws[layout.UNITS]
    top, bottom = ws[layout.GAME_SCORE], ws[layout.GAME_SCORE]
    for seat in range(n):
        top = max(top, ws[layout.GAME_SCORE + seat])
        bottom = min(bottom, ws[layout.GAME_SCORE + seat])
    if top < ws[layout.R_TARGET] and not 0 < ws[layout.R_GAME_DEALS] <= deals:
        return -1
    best = bottom if ws[layout.R_LOW_WINS] else top
    best_key, leaders, winner = np.int64(-1), 0, -1
    for seat in range(n):
        if ws[layout.GAME_SCORE + seat] == best:
            key = _tie_key(ws, seat)
            if key > best_key:
                best_key, leaders, winner = key, 1, seat
            elif key == best_key:
                leaders += 1
    return winner if leaders == 1 else -1


@kernel(inline="always")  # one call site (`entry.run`): no compile of its own
def play_batch(
    workspace: np.ndarray,
    advises: bool | None,
    weighs: bool | None,
    searches: bool | None,
    sees: bool | None,
    games: bool,
    key: np.uint64,
    first: np.int64,
    out: np.ndarray,
    rows: np.ndarray,
    per_deal: np.int64,
) -> None:
    """Deals ``first .. first + len(out)`` (out[d, seat, column]: their results) or, with
    ``games``, whole games (out[g, seat] = (final score, won: 0/1, partners win together,
    deals played)). A deal is played as the first deal of a game, so it depends only on (key,
    its index) either way, and the one loop that plays deals is this one. With ``per_deal`` >
    0, deal i records its rounds' ends in ``rows`` from row ``i * per_deal`` (`value.note`),
    each labelled with the deal's margin once it is scored.

    R-TARGET, R-ROTATE: seat n-1 deals first, then the deal passes left, until `decide_winner`
    names a winner (or MAX_DEALS_PER_GAME are played without one)."""
    ws = workspace_pointer(workspace)
    n = ws[layout.R_PLAYERS]
    for i in range(out.shape[0]):
        _start_game(ws)
        dealer, winner, deals = n - 1, np.int64(-1), np.int64(0)
        while winner < 0 and deals < MAX_DEALS_PER_GAME:
            start_deck(workspace, key, first + i, deals)
            won = play_deal(
                ws, dealer, advises, weighs, searches, sees, rows, i * per_deal, (i + 1) * per_deal
            )
            if per_deal:
                value.label(ws, rows, i * per_deal, (i + 1) * per_deal)
            deals += 1
            if not games:
                for seat in range(n):
                    for col in range(layout.N_COLUMNS):
                        out[i, seat, col] = ws[result_row(seat) + col]
                break
            winner = _after_deal(ws, won, deals)
            dealer = (dealer + 1) % n
        if games:
            for seat in range(n):
                out[i, seat, 0] = ws[layout.GAME_SCORE + seat]
                out[i, seat, 1] = winner >= 0 and winner == ws[layout.UNIT + seat]
                out[i, seat, 2] = deals


@kernel
def _start_game(ws: WsPointer) -> None:
    for seat in range(ws[layout.R_PLAYERS]):
        ws[layout.GAME_SCORE + seat] = 0
    ws[layout.CARRY_IN + layout.CARRY_CARDS] = 0
    ws[layout.CARRY_IN + layout.CARRY_SPADES] = 0


@kernel
def _after_deal(ws: WsPointer, won: np.int64, deals: np.int64) -> np.int64:
    """The deal's points added to the game, what it carries to the next; the winning unit
    (``won``: the seat that won mid-deal, else -1), or -1 to deal again."""
    for seat in range(ws[layout.R_PLAYERS]):
        ws[layout.GAME_SCORE + seat] += ws[result_row(seat) + layout.C_POINTS]
    if won >= 0:
        return ws[layout.UNIT + won]
    ws[layout.CARRY_IN + layout.CARRY_CARDS] = ws[layout.CARRY_OUT + layout.CARRY_CARDS]
    ws[layout.CARRY_IN + layout.CARRY_SPADES] = ws[layout.CARRY_OUT + layout.CARRY_SPADES]
    return decide_winner(ws, deals)
