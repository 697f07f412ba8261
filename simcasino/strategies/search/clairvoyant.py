"""`clairvoyant`: a player who sees every hand and the stock. A ceiling, never a fair player.

It measures how far the fair players are from perfect information: the share of
the heuristic → clairvoyant gap a strategy closes. Where the exact solver can take the rest
of the deal within its node budget (at most SOLVE_PLIES cards left, hands and stock), it
plays the best move of the true deal, everyone playing best (the root's side maximising its
`margin`, every other seat minimising it; `exact`). Elsewhere it is the search with the true
deal as its only world: each of the heuristic's best ``moves`` moves is played on by the
heuristic (solved exactly once ``endgame`` cards are left) and the best result wins, ties
to the heuristic's favourite. Experiments may seat it like any strategy; its results say
what perfect information is worth, not what a player could do.
"""

from __future__ import annotations

import numpy as np

from simcasino.core.jit import kernel
from simcasino.engine import layout
from simcasino.engine.layout import WsPointer, param
from simcasino.engine.memory import playout_block
from simcasino.strategies.search import exact, monte_carlo
from simcasino.strategies.search.monte_carlo import SEARCH_EXACT, SEARCH_TOTAL

NAME = "clairvoyant"
SEES_HIDDEN = True  # reads the other hands and the stock: a ceiling to measure against
DESCRIPTION = (
    "the true deal solved exactly where the node budget allows, "
    "else each move played out in it (a ceiling, not a fair player)"
)
COUNTS_CARDS = True  # its playouts' heuristic reads the hidden-card counts
PLAYS_BUILDS = True  # §6: through the listed legal moves, as the search
ENDGAME = 4  # a ceiling need not be quick: deeper solved playouts than the search's default
# the exact solve's budget: the search's 5,000 positions rarely take the last two rounds (16 cards),
# so the ceiling was "the last round exact, one playout a move before"; 40 times that solves more
NODES = 200_000
PARAMS: dict[str, tuple[float, str]] = {
    "moves": (4, "candidate moves played out where the solver declines: the heuristic's best few"),
    "endgame": (ENDGAME, "cards left at which a playout is solved exactly (0: never)"),
    "nodes": (
        NODES,
        "positions the exact solve of the true deal may open a decision (at most 16 cards left; "
        f"more: it declines and plays each move out; {exact.NODE_BUDGET:,}: the search's budget, "
        "the clairvoyant before)",
    ),
    "respond": (
        0,
        "how its exact solves count the other seat: 0 minimax (it plays its best), 1 a best "
        "response to the heuristic (its move), the search's `respond`",
    ),
}


def kernel_params(params: dict[str, float]) -> list[int]:
    """The search's parameters with one world (the true deal) and no belief."""
    moves = int(params.get("moves", PARAMS["moves"][0]))
    endgame = int(params.get("endgame", PARAMS["endgame"][0]))
    nodes = int(params.get("nodes", PARAMS["nodes"][0]))
    if nodes < 1:
        raise ValueError(f"clairvoyant needs nodes >= 1; got {nodes}")
    respond = int(params.get("respond", PARAMS["respond"][0]))
    given = {
        "worlds": 1,
        "moves": moves,
        "endgame": endgame,
        "belief": 0,
        "value": 0,
        "respond": respond,
    }
    if respond not in (0, 1):
        raise ValueError(
            f"clairvoyant needs respond 0 (minimax) or 1 (a best response to the heuristic); "
            f"got {respond}"
        )
    values = monte_carlo.kernel_params(given)
    return values + [0] * (monte_carlo.SOLVE_NODES_SLOT - len(values)) + [nodes]


def make(params: dict[str, float]) -> None:
    """No plain-Python form: it shares the search's kernel."""
    raise ValueError(
        "the clairvoyant strategy has no Python form: it plays in the kernel (engine 'numba', or "
        "'mixed' beside a plain-Python seat)"
    )


@kernel
def choose_kernel(ws: WsPointer, seat: np.int64) -> np.int64:
    """The best move of the true deal: exact when solved, else by one playout a candidate."""
    sim = playout_block(ws)
    monte_carlo.playout_weights(ws, sim, seat)
    solving = exact.cards_left(ws) <= exact.SOLVE_PLIES
    count = monte_carlo.candidates(
        ws, sim, seat, layout.MOVE_CAP if solving else monte_carlo.moves_kept(ws, seat)
    )
    nodes = param(ws, seat, monte_carlo.SOLVE_NODES_SLOT)
    ws[SEARCH_EXACT] = solving and monte_carlo.solve_moves(
        ws, sim, seat, count, np.bool_(True), nodes
    )
    if not ws[SEARCH_EXACT]:
        count = min(count, monte_carlo.moves_kept(ws, seat))
        _play_each(ws, sim, seat, count)
    best = monte_carlo.best_exact(ws, count)
    ws[layout.CHOSEN_MASK] = ws[layout.MOVE_MASK + best]
    return ws[layout.MOVE_SLOT + best]


@kernel(inline="always")  # one call site: compiled into its caller, not linked again
def _play_each(ws: WsPointer, sim: WsPointer, seat: np.int64, count: np.int64) -> None:
    """SEARCH_TOTAL gets each move's result played on in the true deal."""
    monte_carlo.copy_deal(ws, sim)
    monte_carlo.save_world(sim)
    for m in range(count):
        ws[SEARCH_TOTAL + m] = monte_carlo.play_out(
            ws, sim, seat, ws[layout.MOVE_SLOT + m], ws[layout.MOVE_MASK + m]
        )
