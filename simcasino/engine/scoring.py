"""Scoring a deal in the kernel (§4, §6 variants and partnerships), and the margin by which a
deal put one side ahead (what the search and the exact solver maximise).

Mirrors `simcasino.reference.deal.score_deal`; the tests hold the two to identical results.
"""

from __future__ import annotations

import numpy as np

from simcasino.core.jit import kernel
from simcasino.core.rules import CARDS_TIE, SPADES_TIE, SPLIT_PLAYERS
from simcasino.engine import layout
from simcasino.engine.layout import WsPointer, result_row

SPADES_SPLIT = SPADES_TIE.index("split")  # knob values as the kernel reads them
SPADES_CARRY = SPADES_TIE.index("carry")
CARDS_CARRY = CARDS_TIE.index("carry")


@kernel
def award_unique_max(
    ws: WsPointer, column: np.int64, points: np.int64, split: bool, into: np.int64
) -> bool:
    """Add ``points`` to the unique leader of ``column`` (into column ``into``); with ``split``
    exactly two tied leaders get half each. Returns True if the lead was tied. Over units."""
    n = ws[layout.UNITS]
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
    units = ws[layout.UNITS]
    for k in range(ws[layout.R_PLAYERS] * layout.N_COLUMNS):
        ws[layout.RESULT + k] = 0
    for seat in range(ws[layout.R_PLAYERS]):
        ws[layout.PILE_TALLY + seat] = 0
    for card in range(ws[layout.DECK_N]):  # one packed sum per card, not one per column
        owner = ws[layout.OWNER + card]
        if owner >= 0:  # all are at the end of a deal; a search playout cut short scores its piles
            ws[layout.PILE_TALLY + owner] += ws[layout.CARD_TALLY + card]
    if ws[layout.LAST_CAPTURER] >= 0:
        ws[result_row(ws[layout.UNIT + ws[layout.LAST_CAPTURER]]) + layout.C_SISTAN] = 1
    for seat in range(ws[layout.R_PLAYERS]):  # per-seat counts pooled per unit
        row = result_row(ws[layout.UNIT + seat])
        for j in range(layout.TALLY_COLUMNS):
            ws[row + layout.C_CARDS + j] += ws[layout.PILE_TALLY + seat] >> (8 * j) & 255
        ws[row + layout.C_SWEEPS] += ws[layout.SWEEPS + seat]
        ws[row + layout.C_TABBES] += ws[layout.SCORED_SWEEPS + seat]
        ws[row + layout.C_MULLES] += ws[layout.MULLES + seat]
        ws[row + layout.C_MULLES_PTS] += ws[layout.MULLE_SCORES + seat]
        ws[row + layout.C_BUILDS] += ws[layout.BUILDS_MADE + seat]
        ws[row + layout.C_UNHELD] += ws[layout.UNHELD + seat]
        ws[row + layout.C_GIVEN] += ws[layout.GIVEN + seat]
    fewest = ws[layout.RESULT + layout.C_TABBES]
    for unit in range(units):
        fewest = min(fewest, ws[result_row(unit) + layout.C_TABBES])
    cancel = fewest if ws[layout.R_MOKKI_CANCEL] else 0
    for unit in range(units):
        row = result_row(unit)
        ws[row + layout.C_TABBES] -= cancel
        ws[row + layout.C_SPADES_PTS] = _spade_count_points(ws, row)
    if ws[layout.R_ACE_SPADES_PTS]:
        _ace_of_spades(ws)
    split = ws[layout.R_SPADES_TIE] == SPADES_SPLIT and ws[layout.R_PLAYERS] >= SPLIT_PLAYERS
    spades_points = ws[layout.R_SPADES_PTS] + ws[layout.CARRY_IN + layout.CARRY_SPADES]
    tied = award_unique_max(
        ws, np.int64(layout.C_SPADES), spades_points, split, np.int64(layout.C_SPADES_PTS)
    )
    carried = tied and ws[layout.R_SPADES_TIE] == SPADES_CARRY
    ws[layout.CARRY_OUT + layout.CARRY_SPADES] = spades_points if carried else 0
    cards_points = ws[layout.R_CARDS_PTS] + ws[layout.CARRY_IN + layout.CARRY_CARDS]
    tied = award_unique_max(
        ws, np.int64(layout.C_CARDS), cards_points, np.bool_(False), np.int64(layout.C_CARDS_PTS)
    )
    ws[layout.CARRY_OUT + layout.CARRY_CARDS] = (
        cards_points if tied and ws[layout.R_CARDS_TIE] == CARDS_CARRY else 0
    )
    for unit in range(units):
        row = result_row(unit)
        ws[row + layout.C_POINTS] = (
            ws[row + layout.C_CARDS_PTS] + ws[row + layout.C_SPADES_PTS] + _item_points(ws, row)
        )
    _copy_unit_rows(ws)


@kernel
def _ace_of_spades(ws: WsPointer) -> None:
    """§6 Glimne's Mulle: A♠ (kind 0) scores more, in its unit's spade points."""
    for card in range(0, ws[layout.DECK_N], layout.KINDS):
        if ws[layout.OWNER + card] >= 0:
            row = result_row(ws[layout.UNIT + ws[layout.OWNER + card]])
            ws[row + layout.C_SPADES_PTS] += ws[layout.R_ACE_SPADES_PTS]


@kernel
def _spade_count_points(ws: WsPointer, row: np.int64) -> np.int64:
    """Points a variant gives per spade (Krypkasino) or per spade beyond a count (Överspader)."""
    over = (
        max(0, ws[row + layout.C_SPADES] - ws[layout.R_SPADES_OVER])
        if ws[layout.R_SPADES_OVER]
        else 0
    )
    return ws[row + layout.C_SPADES] * ws[layout.R_SPADE_PTS] + over


@kernel
def _item_points(ws: WsPointer, row: np.int64) -> np.int64:
    """A RESULT row's points from everything but the spades and most-cards items (§4, §6)."""
    return (
        ws[row + layout.C_ACES] * ws[layout.R_ACE_PTS]
        + ws[row + layout.C_BIG] * ws[layout.R_BIG_PTS]
        + ws[row + layout.C_SMALL] * ws[layout.R_SMALL_PTS]
        + ws[row + layout.C_SISTAN] * ws[layout.R_SISTAN_PTS]
        + ws[row + layout.C_TABBES] * ws[layout.R_TABBE_PTS]
        + ws[row + layout.C_GIVEN] * ws[layout.R_PREVIOUS_PTS]
        + ws[row + layout.C_MULLES_PTS]
        + ws[row + layout.C_UNHELD] * ws[layout.R_BUILD_PENALTY]
    )


@kernel
def _copy_unit_rows(ws: WsPointer) -> None:
    """§6 Partnerships: the seats after the first of each team show their team's row."""
    for seat in range(ws[layout.UNITS], ws[layout.R_PLAYERS]):
        for col in range(layout.N_COLUMNS):
            ws[result_row(seat) + col] = ws[result_row(ws[layout.UNIT + seat]) + col]


@kernel
def cut_short(ws: WsPointer) -> None:
    """A Finnish mid-deal win: the deal scores only what was scored at capture."""
    for k in range(ws[layout.R_PLAYERS] * layout.N_COLUMNS):
        ws[layout.RESULT + k] = 0
    for seat in range(ws[layout.R_PLAYERS]):
        ws[result_row(seat) + layout.C_POINTS] = ws[layout.IMMEDIATE + ws[layout.UNIT + seat]]
    ws[layout.CARRY_OUT + layout.CARRY_CARDS] = 0
    ws[layout.CARRY_OUT + layout.CARRY_SPADES] = 0


@kernel
def margin(sim: WsPointer, seat: np.int64) -> np.int64:
    """How far the deal put ``seat``'s side ahead of the best other side, in points: ours
    minus their most, or where the fewest points win (§6), their fewest minus ours."""
    low = sim[layout.R_LOW_WINS] != 0
    mine, best_other = (
        sim[result_row(seat) + layout.C_POINTS],
        np.int64(1 << 30 if low else -(1 << 30)),
    )
    for other in range(sim[layout.R_PLAYERS]):
        if sim[layout.UNIT + other] != sim[layout.UNIT + seat]:  # partners share our row
            points = sim[result_row(other) + layout.C_POINTS]
            best_other = min(best_other, points) if low else max(best_other, points)
    return best_other - mine if low else mine - best_other
