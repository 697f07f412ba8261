"""The exact endgame solver: the rest of a deal of perfect information played out by minimax.

The search uses it when nothing is hidden any more (two players, the stock empty: the cards a
player cannot see are exactly the other hand), in its sampled worlds once few cards are left
(a world deals every hidden card, so the rest of it is known), and the clairvoyant wherever
the node budget allows. Each move is worth the deal's `margin` for the root seat (its side's
points against the best other side's) when everyone plays their best: the root's side (its
partners too, §6 Partnerships) maximises it and every other seat minimises it, so with three
or four players the others are treated as one coalition (a "paranoid" minimax; with two it
is plain minimax). Or, asked to (`respond`), a best response to the heuristic: the root's
side still tries every move, every other seat plays the heuristic's move (its weights in the
block solved in, as in the search's playouts), so the solve is exact play against the player
the playouts assume, and its tree is the root side's moves alone.

Alpha-beta pruning, with an explicit stack of plies in the workspace's second block: each ply
saves the deal's state, its move list and its search bounds in regions of its own
(SOLVE_STATE, SOLVE_MOVES, SOLVE_NODE). A solve opens at most SOLVE_BUDGET positions, else it
declines (a budget in nodes, never in time, so results repeat).
"""

from __future__ import annotations

import numpy as np

from simcasino.core.jit import kernel
from simcasino.engine import layout
from simcasino.engine.layout import WsPointer
from simcasino.engine.memory import Area
from simcasino.engine.moves import list_moves
from simcasino.engine.scoring import margin
from simcasino.strategies import heuristic
from simcasino.strategies.turn import end_turn, start_turn

DECLINED = np.int64(-(1 << 40))  # too big to solve: a ply with more than SOLVE_MOVE_CAP moves, or
NODE_BUDGET = 5_000  # more positions than this per decision (a few ms); the search then samples
ENDGAME_BUDGET = (
    300  # positions a sampled world's endgame may open (it is solved once per world and move)
)
_INFINITY = np.int64(1 << 30)
_OPENED = np.int64(-(1 << 41))  # `_open` started a ply to search
# its own memory (see `engine.memory`), in the block it solves in
SOLVE_PLIES = 2 * layout.HAND_CAP  # the depth: one round of two players at most
SOLVE_MOVE_CAP = 256  # moves per ply it will search (more: it declines the position)
_area = Area("exact")
SOLVE_STATE = _area.region((SOLVE_PLIES + 1) * layout.STATE_SIZE)  # the deal's state saved per ply
SOLVE_MOVES = _area.region(SOLVE_PLIES * 2 * SOLVE_MOVE_CAP)  # each ply's moves: slots, then masks
# each ply's search node: the seat to move, its number of moves, the next to try, the best value
# so far, and the alpha-beta bounds
NODE_SEAT, NODE_MOVES, NODE_NEXT, NODE_BEST, NODE_ALPHA, NODE_BETA = range(6)
NODE_SIZE = 6
SOLVE_NODE = _area.region(SOLVE_PLIES * NODE_SIZE)
SOLVE_NODES = _area.region(1)  # positions opened for the current move
SOLVE_BUDGET = _area.region(1)  # the node budget of the current solve
SOLVE_RESPOND = _area.region(
    1
)  # 1: the other seats play the heuristic's move (`respond`), 0: minimax


@kernel
def applies(ws: WsPointer) -> bool:
    """Two players and nothing left to deal: the unseen cards are the other hand."""
    return ws[layout.R_PLAYERS] == 2 and ws[layout.NEXT_CARD] == ws[layout.DECK_N]


@kernel
def cards_left(ws: WsPointer) -> np.int64:
    """The cards still to be played: every hand and the stock."""
    left = ws[layout.DECK_N] - ws[layout.NEXT_CARD]
    for seat in range(ws[layout.R_PLAYERS]):
        left += ws[layout.HAND_N + seat]
    return left


@kernel
def start_decision(sim: WsPointer, budget: np.int64) -> None:
    """A fresh node budget (positions opened) for the next decision's moves, or one solve."""
    sim[SOLVE_NODES] = 0
    sim[SOLVE_BUDGET] = budget


@kernel
def respond(sim: WsPointer, to_heuristic: bool) -> None:
    """Solve, until told otherwise, as a best response to the heuristic (True) or by minimax:
    set by each decision that may solve (the block is shared by every seat of a table)."""
    sim[SOLVE_RESPOND] = to_heuristic


@kernel(inline="always")  # one call site: compiled into its caller, not linked again
def value_of_rest(sim: WsPointer, root: np.int64) -> np.int64:
    """The exact value for ``root`` of the deal in ``sim`` from its next turn on (everyone
    playing best), or DECLINED; a declined solve leaves ``sim`` anywhere (save it first)."""
    return _minimax(sim, root)


@kernel(inline="always")  # small: compiled into its two callers, not linked again
def value_after(sim: WsPointer, seat: np.int64, slot: np.int64, mask: np.int64) -> np.int64:
    """The exact value for ``seat`` of playing (slot, mask) from the position in ``sim`` (the
    deal's `margin` for it, everyone playing best), or DECLINED."""
    sim[layout.CHOSEN_MASK] = mask
    if end_turn(sim, seat, slot):
        return margin(sim, seat)
    return _minimax(sim, seat)


@kernel
def _minimax(sim: WsPointer, root: np.int64) -> np.int64:
    """Alpha-beta from the position in ``sim`` with an explicit stack of plies (numba's
    recursion does not mix with the raw workspace pointer). Each ply keeps, in SOLVE_NODE:
    the seat to move, its number of moves, the next to try, the best so far, alpha, beta."""
    value = _open(
        sim, root, np.int64(0), -_INFINITY, _INFINITY
    )  # not a literal 0: one specialization
    if value != _OPENED:
        return value
    ply = 0
    while True:
        node = SOLVE_NODE + ply * NODE_SIZE
        moves = SOLVE_MOVES + ply * 2 * SOLVE_MOVE_CAP
        m = sim[node + NODE_NEXT]
        if m < sim[node + NODE_MOVES] and sim[node + NODE_ALPHA] < sim[node + NODE_BETA]:
            sim[node + NODE_NEXT] = m + 1
            if m:
                _copy(sim, SOLVE_STATE + ply * layout.STATE_SIZE, np.int64(layout.DECK))
            sim[layout.CHOSEN_MASK] = sim[moves + SOLVE_MOVE_CAP + m]
            if end_turn(sim, sim[node + NODE_SEAT], sim[moves + m]):
                value = margin(sim, root)
            else:
                value = _open(sim, root, ply + 1, sim[node + NODE_ALPHA], sim[node + NODE_BETA])
                if value == DECLINED:
                    return DECLINED
                if value == _OPENED:
                    ply += 1
                    continue
        else:
            value = sim[node + NODE_BEST]
            if ply == 0:
                return value
            ply -= 1
            node = SOLVE_NODE + ply * NODE_SIZE
        _backup(sim, node, root, value)


@kernel
def _open(
    sim: WsPointer, root: np.int64, ply: np.int64, alpha: np.int64, beta: np.int64
) -> np.int64:
    """Start the next turn at ``ply``: the deal's value if it is over, DECLINED if the ply
    is too big to search, else _OPENED with its moves and state saved."""
    seat = start_turn(sim)
    if seat < 0:
        return margin(sim, root)
    sim[SOLVE_NODES] += 1
    count = list_moves(sim, seat)
    if count > SOLVE_MOVE_CAP or ply >= SOLVE_PLIES or sim[SOLVE_NODES] > sim[SOLVE_BUDGET]:
        return DECLINED
    if sim[SOLVE_RESPOND] and not _our_side(sim, seat, root):
        count = _heuristic_move(sim, seat)
    moves = SOLVE_MOVES + ply * 2 * SOLVE_MOVE_CAP
    for m in range(count):
        sim[moves + m] = sim[layout.MOVE_SLOT + m]
        sim[moves + SOLVE_MOVE_CAP + m] = sim[layout.MOVE_MASK + m]
    _copy(sim, np.int64(layout.DECK), SOLVE_STATE + ply * layout.STATE_SIZE)
    node = SOLVE_NODE + ply * NODE_SIZE
    sim[node + NODE_SEAT], sim[node + NODE_MOVES], sim[node + NODE_NEXT] = seat, count, 0
    sim[node + NODE_BEST] = -_INFINITY if _our_side(sim, seat, root) else _INFINITY
    sim[node + NODE_ALPHA], sim[node + NODE_BETA] = alpha, beta
    return _OPENED


@kernel
def _heuristic_move(sim: WsPointer, seat: np.int64) -> np.int64:
    """The heuristic's move for ``seat`` as the only listed move (MOVE_SLOT, MOVE_MASK); 1."""
    slot = heuristic.choose_kernel(sim, seat)
    sim[layout.MOVE_SLOT], sim[layout.MOVE_MASK] = slot, sim[layout.CHOSEN_MASK]
    return np.int64(1)


@kernel
def _backup(sim: WsPointer, node: np.int64, root: np.int64, value: np.int64) -> None:
    """A move's value reaches its ply: the root's side maximises, every other seat minimises."""
    if _our_side(sim, sim[node + NODE_SEAT], root):
        sim[node + NODE_BEST] = max(sim[node + NODE_BEST], value)
        sim[node + NODE_ALPHA] = max(sim[node + NODE_ALPHA], value)
    else:
        sim[node + NODE_BEST] = min(sim[node + NODE_BEST], value)
        sim[node + NODE_BETA] = min(sim[node + NODE_BETA], value)


@kernel
def _our_side(sim: WsPointer, seat: np.int64, root: np.int64) -> bool:
    """Is ``seat`` the root or its partner (§6: partners share a scoring unit)?"""
    return sim[layout.UNIT + seat] == sim[layout.UNIT + root]


@kernel
def _copy(sim: WsPointer, source: np.int64, target: np.int64) -> None:
    for k in range(layout.STATE_SIZE):
        sim[target + k] = sim[source + k]
