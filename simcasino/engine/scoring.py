"""Scoring a deal in the kernel (§4, §6 variants and partnerships), and the margin by which a
deal put one side ahead (what the search and the exact solver maximise).

Mirrors `simcasino.reference.deal.score_deal`; the tests hold the two to identical results.
"""

from __future__ import annotations

import numpy as np

from simcasino.core.jit import kernel
from simcasino.core.rules import CARDS_TIE, SPADES_TIE, SPLIT_PLAYERS
from simcasino.engine.layout import (
    BUILDS_MADE,
    C_ACES,
    C_BIG,
    C_BUILDS,
    C_CARDS,
    C_CARDS_PTS,
    C_GIVEN,
    C_MULLES,
    C_MULLES_PTS,
    C_POINTS,
    C_SISTAN,
    C_SMALL,
    C_SPADES,
    C_SPADES_PTS,
    C_SWEEPS,
    C_TABBES,
    C_UNHELD,
    CARD_TALLY,
    CARRY_CARDS,
    CARRY_IN,
    CARRY_OUT,
    CARRY_SPADES,
    DECK_N,
    GIVEN,
    IMMEDIATE,
    KINDS,
    LAST_CAPTURER,
    MULLE_SCORES,
    MULLES,
    N_COLUMNS,
    OWNER,
    PILE_TALLY,
    R_ACE_PTS,
    R_ACE_SPADES_PTS,
    R_BIG_PTS,
    R_BUILD_PENALTY,
    R_CARDS_PTS,
    R_CARDS_TIE,
    R_LOW_WINS,
    R_MOKKI_CANCEL,
    R_PLAYERS,
    R_PREVIOUS_PTS,
    R_SISTAN_PTS,
    R_SMALL_PTS,
    R_SPADE_PTS,
    R_SPADES_OVER,
    R_SPADES_PTS,
    R_SPADES_TIE,
    R_TABBE_PTS,
    RESULT,
    SCORED_SWEEPS,
    SWEEPS,
    TALLY_COLUMNS,
    UNHELD,
    UNIT,
    UNITS,
    WsPointer,
    result_row,
)

SPADES_SPLIT = SPADES_TIE.index("split")  # knob values as the kernel reads them
SPADES_CARRY = SPADES_TIE.index("carry")
CARDS_CARRY = CARDS_TIE.index("carry")


@kernel
def award_unique_max(ws: WsPointer, column: np.int64, points: np.int64, split: bool, into: np.int64) -> bool:
    """Add ``points`` to the unique leader of ``column`` (into column ``into``); with ``split``
    exactly two tied leaders get half each. Returns True if the lead was tied. Over units."""
    n = ws[UNITS]
    best, leaders, first = -1, 0, -1
    for seat in range(n):
        v = ws[result_row(seat) + column]
        if v > best:
            best, leaders, first = v, 1, seat
        elif v == best:
            leaders += 1
    if leaders == 1:
        ws[result_row(first) + into] += points
    elif split and leaders == 2:
        for seat in range(n):
            if ws[result_row(seat) + column] == best:
                ws[result_row(seat) + into] += points // 2
    return leaders > 1


@kernel
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
        ws[result_row(ws[UNIT + ws[LAST_CAPTURER]]) + C_SISTAN] = 1
    for seat in range(ws[R_PLAYERS]):  # per-seat counts pooled per unit
        row = result_row(ws[UNIT + seat])
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
        fewest = min(fewest, ws[result_row(unit) + C_TABBES])
    cancel = fewest if ws[R_MOKKI_CANCEL] else 0
    for unit in range(units):
        row = result_row(unit)
        ws[row + C_TABBES] -= cancel
        ws[row + C_SPADES_PTS] = _spade_count_points(ws, row)
    if ws[R_ACE_SPADES_PTS]:
        _ace_of_spades(ws)
    split = ws[R_SPADES_TIE] == SPADES_SPLIT and ws[R_PLAYERS] >= SPLIT_PLAYERS
    spades_points = ws[R_SPADES_PTS] + ws[CARRY_IN + CARRY_SPADES]
    tied = award_unique_max(ws, np.int64(C_SPADES), spades_points, split, np.int64(C_SPADES_PTS))
    ws[CARRY_OUT + CARRY_SPADES] = spades_points if tied and ws[R_SPADES_TIE] == SPADES_CARRY else 0
    cards_points = ws[R_CARDS_PTS] + ws[CARRY_IN + CARRY_CARDS]
    tied = award_unique_max(ws, np.int64(C_CARDS), cards_points, np.bool_(False), np.int64(C_CARDS_PTS))
    ws[CARRY_OUT + CARRY_CARDS] = cards_points if tied and ws[R_CARDS_TIE] == CARDS_CARRY else 0
    for unit in range(units):
        row = result_row(unit)
        ws[row + C_POINTS] = ws[row + C_CARDS_PTS] + ws[row + C_SPADES_PTS] + _item_points(ws, row)
    _copy_unit_rows(ws)


@kernel
def _ace_of_spades(ws: WsPointer) -> None:
    """§6 Glimne's Mulle: A♠ (kind 0) scores more, in its unit's spade points."""
    for card in range(0, ws[DECK_N], KINDS):
        if ws[OWNER + card] >= 0:
            ws[result_row(ws[UNIT + ws[OWNER + card]]) + C_SPADES_PTS] += ws[R_ACE_SPADES_PTS]


@kernel
def _spade_count_points(ws: WsPointer, row: np.int64) -> np.int64:
    """Points a variant gives per spade (Krypkasino) or per spade beyond a count (Överspader)."""
    over = max(0, ws[row + C_SPADES] - ws[R_SPADES_OVER]) if ws[R_SPADES_OVER] else 0
    return ws[row + C_SPADES] * ws[R_SPADE_PTS] + over


@kernel
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


@kernel
def _copy_unit_rows(ws: WsPointer) -> None:
    """§6 Partnerships: the seats after the first of each team show their team's row."""
    for seat in range(ws[UNITS], ws[R_PLAYERS]):
        for col in range(N_COLUMNS):
            ws[result_row(seat) + col] = ws[result_row(ws[UNIT + seat]) + col]


@kernel
def cut_short(ws: WsPointer) -> None:
    """A Finnish mid-deal win: the deal scores only what was scored at capture."""
    for k in range(ws[R_PLAYERS] * N_COLUMNS):
        ws[RESULT + k] = 0
    for seat in range(ws[R_PLAYERS]):
        ws[result_row(seat) + C_POINTS] = ws[IMMEDIATE + ws[UNIT + seat]]
    ws[CARRY_OUT + CARRY_CARDS] = 0
    ws[CARRY_OUT + CARRY_SPADES] = 0


@kernel
def margin(sim: WsPointer, seat: np.int64) -> np.int64:
    """How far the deal put ``seat``'s side ahead of the best other side, in points: ours
    minus their most, or where the fewest points win (§6), their fewest minus ours."""
    low = sim[R_LOW_WINS] != 0
    mine, best_other = sim[result_row(seat) + C_POINTS], np.int64(1 << 30 if low else -(1 << 30))
    for other in range(sim[R_PLAYERS]):
        if sim[UNIT + other] != sim[UNIT + seat]:  # partners share our row
            points = sim[result_row(other) + C_POINTS]
            best_other = min(best_other, points) if low else max(best_other, points)
    return best_other - mine if low else mine - best_other
