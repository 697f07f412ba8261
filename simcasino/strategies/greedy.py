"""`greedy`: take the most immediate points now, else trail the lowest non-point card.

Immediate points are the rule points of the cards in the capture (the played card included:
aces, kasinos, Krypkasino's spades), a tabbe if the capture empties the table and a sweep
scores now (twice for a §6 double sweep), and the mulle points for a mulle. Ties: most
cards, then most spades, then the first move in canonical order (hand position, then
ascending mask). With no capture it trails the lowest-ranked non-point card (point cards
last, lower kind id first).

When the fewest points win (§6 Misère, Krypkasino) the objective flips: it trails when it
can, dumping its most valuable card (then the highest), else makes the capture with the
fewest points, cards, spades. Where the opponent chooses among a card's captures, a card is
judged by the capture the opponent would leave it, and as the chooser greedy picks the
capture worst for the player of the card.

With builds (§6) and no capture it builds rather than trails: of the builds whose value it
holds in another card (so that it can take the build next turn), the one whose cards are
worth most (the same packed key; raising an opponent's build gains its cards); ties go to
the first in canonical order. Parameter ``builds=0`` never builds unless it must.
"""

from __future__ import annotations

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from simcasino.core.cards import is_spade, rank_of
from simcasino.core.jit import kernel
from simcasino.core.protocol import Move, View
from simcasino.core.table import item_cards
from simcasino.engine import layout
from simcasino.engine.builds import build_slot, build_value, held_bits, item_key
from simcasino.engine.captures import best_capture, is_mulle, list_groups_once, mulle_points
from simcasino.engine.layout import WsPointer, hand_card, hand_size, param
from simcasino.engine.memory import Area
from simcasino.engine.moves import list_moves, sweep_scores
from simcasino.reference.builds import held_values
from simcasino.reference.captures import mask_cards, mulle_score

NAME = "greedy"
DESCRIPTION = (
    "the capture with the most immediate points, then most cards; else build, else trail low "
    "(misère: the reverse)"
)
PLAYS_BUILDS = True  # §6: see the module docstring
PARAMS: dict[str, tuple[float, str]] = {
    "builds": (
        1,
        "1: with builds (§6), build what it can take next turn when it cannot capture; 0: never "
        "build",
    ),
}

_area = Area("greedy")  # its own memory (see `engine.memory`)
LISTS_MOVES = _area.region(1)  # 1 if it must weigh the listed legal moves (set by `prepare`)
MOVE_KEY = _area.region(layout.MOVE_CAP)  # the packed key of each listed move


@kernel
def prepare(ws: WsPointer) -> None:
    """Whether these rules make it weigh every listed legal move rather than take the best
    capture straight from the groups: where the fewest points win, the opponent picks among
    a card's captures, or only maximal captures are allowed."""
    maximal = ws[layout.R_MUST_MAX] != 0 and ws[layout.R_MAX_CAPTURE] != 0
    ws[LISTS_MOVES] = ws[layout.R_LOW_WINS] != 0 or ws[layout.R_OPPONENT_CHOOSES] != 0 or maximal


def capture_key(view: View, move: Move) -> tuple[int, int, int]:
    """(immediate points, cards, spades) a capture takes, the played card included; for a
    build, those of the cards the build will hold."""
    rules = view.rules
    table = (
        item_cards(view.table[move.target]) if move.is_build else mask_cards(move.taken, view.table)
    )
    taken = table + [move.card]
    points = sum(rules.card_points(c) for c in taken)
    if move.is_build:
        return points, len(taken), sum(is_spade(c) for c in taken)
    if move.sweeps(view.table) and view.sweep_scores:
        points += rules.tabbe_points * (2 if rules.double_sweep and len(view.table) == 1 else 1)
    points += mulle_score(move.card, move.taken, view.table, rules)
    return points, len(taken), sum(is_spade(c) for c in taken)


def packed_key(view: View, move: Move) -> int:
    """`capture_key` packed as the kernel packs it (same order as the tuple)."""
    points, cards, spades = capture_key(view, move)
    return points * int(layout.KEY_POINTS) + cards * int(layout.KEY_CARDS) + spades


def holds_value(view: View, move: Move) -> bool:
    """Does another card in hand take the build this move makes (§6: it can take it next turn)?"""
    return move.value in held_values(view.hand, move.hand_index, view.rules)


def trail_key(view: View, move: Move) -> tuple[int, int, int]:
    return (view.rules.card_points(move.card) > 0, rank_of(move.card), move.card % 52)


def dump_key(view: View, move: Move) -> tuple[int, int, int]:
    """Misère trails: the most rule points first, then the highest rank (the largest key)."""
    return (view.rules.card_points(move.card), rank_of(move.card), move.card % 52)


class Greedy:
    def __init__(self, builds: bool = True) -> None:
        self.builds = builds

    def choose(self, view: View) -> Move:
        sign = -1 if view.rules.low_wins else 1
        if view.chooser_for >= 0:  # worst for the player of the card; max keeps the first of ties
            return max(view.moves, key=lambda m: -sign * packed_key(view, m))
        captures = [m for m in view.moves if m.is_capture]
        trails = [m for m in view.moves if m.is_trail]
        if trails and sign < 0:
            return max(trails, key=lambda m: dump_key(view, m))
        if not captures:
            return self.build_or_trail(view, trails)
        value = {m: sign * packed_key(view, m) for m in captures}

        def outlook(move: Move) -> int:
            if not view.rules.opponent_chooses:
                return value[move]
            return min(value[m] for m in captures if m.hand_index == move.hand_index)

        return max(captures, key=lambda m: (outlook(m), value[m]))  # max keeps the first of ties

    def build_or_trail(self, view: View, trails: list[Move]) -> Move:
        """No capture: the best build it can take next turn, else the lowest trail, else (an
        obligation with only builds left, §6) the best build."""
        builds = [m for m in view.moves if m.is_build]
        held = [m for m in builds if holds_value(view, m)] if self.builds else []
        if held or not trails:
            return max(
                held or builds, key=lambda m: packed_key(view, m)
            )  # max keeps the first of ties
        return min(trails, key=lambda m: trail_key(view, m))


def make(params: dict[str, float]) -> Greedy:
    """The plain-Python strategy for the reference engine."""
    return Greedy(builds=params.get("builds", PARAMS["builds"][0]) != 0)


def kernel_params(params: dict[str, float]) -> list[int]:
    """The kernel's parameter slot 0: 1 if it builds."""
    return [int(params.get("builds", PARAMS["builds"][0]) != 0)]


# --- kernel form ---------------------------------------------------------------------------


@kernel
def choose_kernel(ws: WsPointer, seat: np.int64) -> np.int64:
    """Kernel form of `Greedy.choose`: the first best capture in canonical order, else a trail
    (GROUP_VALUES is nonzero exactly when some card in hand can capture). Returns the hand
    slot; the mask goes to CHOSEN_MASK. Small, so that LLVM can inline it."""
    if ws[LISTS_MOVES]:
        return _weigh_listed(ws, seat)
    if ws[layout.GROUP_VALUES]:
        return _best_capture_move(ws, seat)
    if ws[layout.R_BUILDS]:
        return _build_or_trail(ws, seat)
    ws[layout.CHOSEN_MASK] = 0
    return _lowest_trail(ws, seat)


@kernel
def _build_or_trail(ws: WsPointer, seat: np.int64) -> np.int64:
    """`Greedy.build_or_trail` (§6, no capture) over the listed moves."""
    return _build_or_trail_listed(ws, seat, list_moves(ws, seat))


@kernel
def _build_or_trail_listed(ws: WsPointer, seat: np.int64, count: np.int64) -> np.int64:
    """`Greedy.build_or_trail` over the first ``count`` listed moves (none a capture): the best
    build whose value another card in hand holds, else the lowest trail, else (obliged, with
    only builds left) the best build; the first in canonical order on ties."""
    builds = param(ws, seat, 0) != 0
    best_held, held_at, best_any, any_at = np.int64(-1), -1, np.int64(-1), -1
    low, low_at = np.int64(1 << 40), -1
    for k in range(count):
        code, slot = ws[layout.MOVE_MASK + k], ws[layout.MOVE_SLOT + k]
        card = hand_card(ws, seat, slot)
        if code == 0:
            key = _trail_key(ws, card)
            if key < low:
                low, low_at = key, k
            continue
        key = item_key(ws, ws[layout.TABLE + build_slot(code)]) + ws[layout.CARD_KEY + card]
        if key > best_any:
            best_any, any_at = key, k
        if builds and key > best_held and held_bits(ws, seat, slot) >> build_value(code) & 1:
            best_held, held_at = key, k
    pick = held_at if held_at >= 0 else low_at if low_at >= 0 else any_at
    ws[layout.CHOSEN_MASK] = ws[layout.MOVE_MASK + pick]
    return ws[layout.MOVE_SLOT + pick]


@kernel(inline="always")
def _trail_key(ws: WsPointer, card: np.int64) -> np.int64:
    """`trail_key` packed: non-point cards first, then lowest rank and kind (the least is
    trailed)."""
    return (ws[layout.CARD_POINTS + card] > 0) * (14 * layout.KINDS) + ws[layout.RANK_ORDER + card]


@kernel
def _sweep_key(ws: WsPointer) -> np.int64:
    """What emptying the table adds to a capture's key now."""
    if not sweep_scores(ws):
        return 0
    double = ws[layout.R_DOUBLE_SWEEP] != 0 and ws[layout.TABLE_N] == 1
    return ws[layout.R_TABBE_PTS] * layout.KEY_POINTS * (2 if double else 1)


@kernel
def _best_capture_move(ws: WsPointer, seat: np.int64) -> np.int64:
    """The slot of the capture with the most immediate points (then cards, spades; the first
    in canonical order on ties); its mask goes to CHOSEN_MASK."""
    list_groups_once(ws)
    sweep_key = _sweep_key(ws)
    best_key, best_slot, best_mask = np.int64(-1), np.int64(-1), np.int64(0)
    for slot in range(hand_size(ws, seat)):
        card = hand_card(ws, seat, slot)
        if ws[layout.HAND_BITS + card] & ws[layout.GROUP_VALUES] == 0:
            continue
        key = (
            best_capture(ws, card, sweep_key) + ws[layout.CARD_KEY + card]
        )  # the played card is taken too
        if key > best_key:
            best_key, best_slot, best_mask = key, slot, ws[layout.BEST_MASK]
    ws[layout.CHOSEN_MASK] = best_mask
    return best_slot


@kernel
def _lowest_trail(ws: WsPointer, seat: np.int64) -> np.int64:
    """The hand slot of the card to trail: non-point cards first, then lowest rank and kind."""
    best_trail, best_slot = np.int64(1 << 40), np.int64(-1)
    for slot in range(hand_size(ws, seat)):
        key = _trail_key(ws, hand_card(ws, seat, slot))
        if key < best_trail:
            best_trail, best_slot = key, slot
    return best_slot


@kernel
def _capture_key(ws: WsPointer, card: np.int64, mask: np.int64, sweep_key: np.int64) -> np.int64:
    """The packed `capture_key` of ``card`` taking the table slots in ``mask``."""
    key = ws[layout.CARD_KEY + card]
    rest = mask
    while rest:
        key += item_key(ws, ws[layout.TABLE + trailing_zeros(rest)])  # §6: a build's cards
        rest &= rest - 1
    if mask == (np.int64(1) << ws[layout.TABLE_N]) - 1:
        key += sweep_key
    if is_mulle(ws, card, mask):
        key += mulle_points(ws, card) * layout.KEY_POINTS
    return key


@kernel
def _weigh_listed(ws: WsPointer, seat: np.int64) -> np.int64:
    """`Greedy.choose` over the listed legal moves (Misère rules): a trail (dumping, when
    the fewest points win) found without listing where it can be, else `choose_listed`."""
    if ws[layout.R_LOW_WINS]:
        slot = _dump_without_listing(ws, seat)
        if slot >= 0:
            ws[layout.CHOSEN_MASK] = 0
            return slot
    return choose_listed(ws, seat, list_moves(ws, seat))


@kernel
def choose_listed(ws: WsPointer, seat: np.int64, count: np.int64) -> np.int64:
    """`Greedy.choose` over the first ``count`` listed moves (every legal move, or those a move
    filter allows: `follow`): where the fewest points win the trail that dumps most, else
    the capture with the best (outlook, value), else `_build_or_trail_listed`."""
    dump, dump_at, captures = np.int64(-1), -1, 0
    for k in range(count):
        if ws[layout.MOVE_MASK + k] > 0:
            captures += 1
        elif ws[layout.MOVE_MASK + k] == 0:
            card = hand_card(ws, seat, ws[layout.MOVE_SLOT + k])
            key = ws[layout.CARD_POINTS + card] * 1024 + ws[layout.RANK_ORDER + card]
            if key > dump:
                dump, dump_at = key, k
    if ws[layout.R_LOW_WINS] and dump_at >= 0:
        pick = dump_at
    elif captures:
        pick = _best_listed_capture(ws, seat, count, -1 if ws[layout.R_LOW_WINS] else 1)
    else:
        return _build_or_trail_listed(ws, seat, count)
    ws[layout.CHOSEN_MASK] = ws[layout.MOVE_MASK + pick]
    return ws[layout.MOVE_SLOT + pick]


@kernel
def _dump_without_listing(ws: WsPointer, seat: np.int64) -> np.int64:
    """The slot `_weigh_listed` dumps, found from the reachable sums alone, or -1 if every
    card must capture (a card may trail if captures are optional or it captures nothing)."""
    best, best_slot = np.int64(-1), -1
    for slot in range(hand_size(ws, seat)):
        card = hand_card(ws, seat, slot)
        if ws[layout.R_MUST_CAPTURE] and ws[layout.HAND_BITS + card] & ws[layout.GROUP_VALUES]:
            continue
        key = ws[layout.CARD_POINTS + card] * 1024 + ws[layout.RANK_ORDER + card]
        if key > best:
            best, best_slot = key, slot
    return best_slot


@kernel
def _best_listed_capture(
    ws: WsPointer, seat: np.int64, count: np.int64, sign: np.int64
) -> np.int64:
    """The listed capture with the largest (outlook, sign × key), first on ties; the outlook
    is the worst value among its card's captures when the opponent chooses."""
    sweep_key = _sweep_key(ws)
    for k in range(count):
        mask = ws[layout.MOVE_MASK + k]
        if mask > 0:
            ws[MOVE_KEY + k] = sign * _capture_key(
                ws, hand_card(ws, seat, ws[layout.MOVE_SLOT + k]), mask, sweep_key
            )
    best_outlook, best_value, best = np.int64(-(1 << 60)), np.int64(-(1 << 60)), -1
    start = 0
    while start < count:  # moves come in blocks of one hand slot
        end, worst = start, np.int64(1 << 60)
        while end < count and ws[layout.MOVE_SLOT + end] == ws[layout.MOVE_SLOT + start]:
            if ws[layout.MOVE_MASK + end] > 0:
                worst = min(worst, ws[MOVE_KEY + end])
            end += 1
        for k in range(start, end):
            if ws[layout.MOVE_MASK + k] > 0:
                value = ws[MOVE_KEY + k]
                outlook = worst if ws[layout.R_OPPONENT_CHOOSES] else value
                if outlook > best_outlook or (outlook == best_outlook and value > best_value):
                    best_outlook, best_value, best = outlook, value, k
        start = end
    return best


@kernel
def choose_capture_kernel(ws: WsPointer, card: np.int64, n: np.int64) -> np.int64:
    """Kernel form of the chooser in `Greedy.choose`: the index in OPTIONS of the capture
    worst for the player of ``card``, first on ties."""
    sign = -1 if ws[layout.R_LOW_WINS] else 1
    sweep_key = _sweep_key(ws)
    best, best_value = 0, np.int64(-(1 << 60))
    for k in range(n):
        value = -sign * _capture_key(ws, card, ws[layout.OPTIONS + k], sweep_key)
        if value > best_value:
            best, best_value = k, value
    return best
