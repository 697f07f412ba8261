"""Playing a move in the kernel (R-PILE, R-TABBE, R-SISTAN; §5 the Finnish mid-deal win; §6
builds and mulles): the card leaves the hand, captures go to the pile, sweeps are counted.

The move is given whole (hand slot and capture mask): choosing it, and in §6 Misère the
opponent's pick among the captures, is the strategies' business, asked by the play loop.
Mirrors `simcasino.reference.state.DealState.apply`.
"""

from __future__ import annotations

import numpy as np

from simcasino.core.jit import kernel
from simcasino.engine import layout
from simcasino.engine.builds import apply_build, take_builds
from simcasino.engine.captures import grow_reach, is_mulle, mulle_points, table_reach
from simcasino.engine.dealing import seat_after, see
from simcasino.engine.layout import WsPointer, hand_at
from simcasino.engine.moves import sweep_scores
from simcasino.engine.scoring import cut_short, score_deal


@kernel
def _live(ws: WsPointer, unit: np.int64) -> np.int64:
    """A unit's game points now (partners share GAME_SCORE, so its first seat's)."""
    return ws[layout.GAME_SCORE + unit] + ws[layout.IMMEDIATE + unit]


@kernel
def apply_move(ws: WsPointer, seat: np.int64, slot: np.int64, mask: np.int64) -> bool:
    """Play a move (R-PILE, R-TABBE). Returns True if it won the game on the spot (§5 Finnish)."""
    base = hand_at(seat)
    card = ws[base + slot]
    see(ws, card)
    count = ws[layout.HAND_N + seat] - 1
    need = np.int64(0)
    for k in range(count):  # close up over the played card, redoing HAND_NEED on the way
        kept = ws[base + k + (k >= slot)]
        ws[base + k] = kept
        need |= ws[layout.HAND_BITS + kept]
    ws[layout.HAND_N + seat] = count
    ws[layout.HAND_NEED + seat] = need
    n = ws[layout.TABLE_N]
    if mask == 0:
        if n >= layout.TABLE_CAP:
            raise RuntimeError("table full")
        ws[layout.TABLE + n] = card
        ws[layout.TABLE_N] = n + 1
        ws[layout.REACH] = grow_reach(ws, ws[layout.REACH], card)
        return False
    if mask < 0:  # §6 Builds: the card goes onto one table item
        apply_build(ws, seat, card, mask)
        ws[layout.REACH] = table_reach(ws)
        return False
    ws[layout.OWNER + card] = seat
    points = ws[layout.CARD_POINTS + card]
    if ws[layout.DECK_N] > layout.KINDS and is_mulle(ws, card, mask):  # §6 Mulle (two decks)
        ws[layout.MULLES + seat] += 1
        ws[layout.MULLE_SCORES + seat] += mulle_points(ws, card)
    if ws[
        layout.BUILD_BITS
    ]:  # §6 builds taken go whole to the pile (below, their ids score nothing)
        points += take_builds(ws, seat, mask)
    single = n == 1
    kept, reach = 0, np.int64(1)
    for i in range(n):
        c = ws[layout.TABLE + i]
        if mask >> i & 1:
            ws[layout.OWNER + c] = seat
            points += ws[layout.CARD_POINTS + c]
        else:
            ws[layout.TABLE + kept] = c
            kept += 1
            reach = grow_reach(ws, reach, c)
    ws[layout.TABLE_N] = kept
    ws[layout.REACH] = reach
    ws[layout.LAST_CAPTURER] = seat
    if kept == 0:
        _sweep(ws, seat, single)
    if not ws[layout.R_IMMEDIATE]:
        return False
    unit = ws[layout.UNIT + seat]
    ws[layout.IMMEDIATE + unit] += points
    mine = _live(ws, unit)
    if mine < ws[layout.R_TARGET]:
        return False
    for other in range(ws[layout.UNITS]):
        if other != unit and _live(ws, other) >= mine:
            return False
    return True


@kernel
def _sweep(ws: WsPointer, seat: np.int64, single: bool) -> None:
    """R-TABBE: count the sweep; if it scores, §6 Misère's double sweep of a single card
    counts twice, and the seat before (Krypkasino: -5 each) is recorded as giving it."""
    ws[layout.SWEEPS + seat] += 1
    if sweep_scores(ws):
        tabbes = 2 if single and ws[layout.R_DOUBLE_SWEEP] else 1
        ws[layout.SCORED_SWEEPS + seat] += tabbes
        ws[layout.GIVEN + seat_after(seat, ws[layout.R_PLAYERS] - 1, ws[layout.R_PLAYERS])] += (
            tabbes
        )


@kernel
def take_turn(ws: WsPointer, seat: np.int64, slot: np.int64, mask: np.int64) -> bool:
    """Play hand ``slot`` taking ``mask`` (0: trail; a negative §6 build code); True if it won
    the game on the spot, and then the deal is scored as cut short."""
    if apply_move(ws, seat, slot, mask):
        cut_short(ws)
        return True
    return False


@kernel
def finish_deal(ws: WsPointer) -> None:
    """R-SISTAN: the cards left on the table go to the last capturer (the dealer if nobody
    captured), builds whole (§6); then score."""
    taker = ws[layout.LAST_CAPTURER] if ws[layout.LAST_CAPTURER] >= 0 else ws[layout.DEALER]
    if ws[layout.BUILD_BITS]:
        take_builds(ws, taker, (np.int64(1) << ws[layout.TABLE_N]) - 1)
    for i in range(ws[layout.TABLE_N]):
        ws[layout.OWNER + ws[layout.TABLE + i]] = taker
    ws[layout.TABLE_N] = 0
    score_deal(ws)
