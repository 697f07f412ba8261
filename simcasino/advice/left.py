"""What the table offers after a move: the items it leaves (`left_after`), whether one card
takes them all (`can_sweep`, `sweep_values`) or takes something (`has_group`, `left_reach`);
plain Python on a `View`, and the kernel's forms on the workspace.

Why a room of its own, below the players: the rule books' move tests (`claims`) and the
heuristic's terms ask the same questions of the table, and a claim must mean the same thing
whatever the heuristic weighs. What the table offers is asked of the engines' captures, never
worked out here a second time.
"""

from __future__ import annotations

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from simcasino.core.jit import kernel
from simcasino.core.protocol import Move, View
from simcasino.core.rules import Rules
from simcasino.core.table import Build
from simcasino.engine import layout
from simcasino.engine.builds import is_build_id, table_bits
from simcasino.engine.captures import grow_reach, grown_sums
from simcasino.engine.layout import WsPointer
from simcasino.reference.builds import build_onto
from simcasino.reference.captures import group_unions, groups

Table = list[int | Build]
ALL_VALUES = (
    np.int64(1) << (layout.MAX_VALUE + 1)
) - 1  # bits 0 .. MAX_VALUE: every value a card can play as


def left_after(view: View, move: Move) -> Table:
    """The table items a move leaves: what a capture leaves, the table and the trailed card,
    or (§6) the table with the build the move makes in place of its target."""
    if move.is_build:
        build = build_onto(view.table[move.target], move.card, move.value, view.seat)
        return [build if i == move.target else item for i, item in enumerate(view.table)]
    if move.is_capture:
        return [item for i, item in enumerate(view.table) if not move.taken >> i & 1]
    return [*view.table, move.card]


def can_sweep(table: Table, value: int, rules: Rules) -> bool:
    """Can one card of ``value`` take all of ``table`` (disjoint groups covering it)?"""
    return bool(table) and (1 << len(table)) - 1 in group_unions(groups(value, table, rules))


def has_group(table: Table, value: int, rules: Rules) -> bool:
    """Can a card of ``value`` take anything from ``table`` (a sum of loose cards, or a build)?"""
    return bool(groups(value, table, rules))


@kernel(inline="always")
def left_reach(
    ws: WsPointer, keep: np.int64, extra: np.int64, value: np.int64, builds: bool
) -> np.int64:
    """Bit s: some group of the table left sums to s (or a build, a group of one, is of s)."""
    builds_on_table = builds and ws[layout.BUILD_BITS] != 0
    if (
        extra >= 0 and not builds_on_table
    ):  # a trail onto loose cards: the deal keeps REACH up to date
        return grow_reach(ws, ws[layout.REACH], extra)
    reach, builds_left = np.int64(1), np.int64(1) << value if value else np.int64(0)
    while keep:
        item = ws[layout.TABLE + trailing_zeros(keep)]
        keep &= keep - 1
        if builds_on_table and is_build_id(item):
            builds_left |= np.int64(1) << ws[layout.BUILD_VALUE + item - layout.DECK_CAP]
        else:
            reach = grow_reach(ws, reach, item)
    if extra >= 0:
        reach = grow_reach(ws, reach, extra)
    return reach | builds_left


@kernel(inline="always")
def sweep_values(ws: WsPointer, a: np.int64, b: np.int64, c: np.int64) -> np.int64:
    """Bits of the values v with which one card takes all of 1-3 table cards (b, c: -1 when
    absent): some partition of them into groups each summing to v."""
    alone_a = table_bits(ws, a)
    if b < 0:
        return alone_a & ALL_VALUES
    alone_b = table_bits(ws, b)
    if c < 0:
        return (grown_sums(ws, alone_a, b) | (alone_a & alone_b)) & ALL_VALUES
    alone_c = table_bits(ws, c)
    ab = grown_sums(ws, alone_a, b)
    return (
        grown_sums(ws, ab, c)
        | (ab & alone_c)
        | (grown_sums(ws, alone_a, c) & alone_b)
        | (grown_sums(ws, alone_b, c) & alone_a)
        | (alone_a & alone_b & alone_c)
    ) & ALL_VALUES
