"""`hand-seer`: the search shown the other seats' current hands, the stock's order still hidden.
A measuring stick, never a fair player.

Why: the clairvoyant's edge over the fair players mixes two things no fair player has, the
other hands and the order of the stock, and the first is half of it (docs/strategies.md, the
ladder). The hand-seer is the search as it plays by default (its budget of playouts, its
candidates, its exact last round) with its worlds dealt from the stock alone: every hand is as
it is, the stock's cards are shuffled by each world. So the fair search's distance to it is
what seeing the hands is worth to this search, and its distance to the clairvoyant what the
stock's order adds. Like the clairvoyant it reads the hidden cards (``SEES_HIDDEN``): the
fairness tests must see it move where the hidden cards are dealt otherwise.
"""

from __future__ import annotations

import numpy as np

from simcasino.core.jit import kernel
from simcasino.engine.layout import WsPointer
from simcasino.strategies.search import monte_carlo

NAME = "hand-seer"
SEES_HIDDEN = True  # reads the other hands: a measuring stick, never a fair player
DESCRIPTION = (
    "the search shown the other hands, the stock's order hidden (a measuring stick, not "
    "a fair player)"
)
COUNTS_CARDS = True  # its playouts' heuristic reads the hidden-card counts
PLAYS_BUILDS = True  # §6: through the listed legal moves, as the search
UNUSED = ("belief", "infer")  # no belief about hands it sees
PARAMS: dict[str, tuple[float, str]] = {
    k: v for k, v in monte_carlo.PARAMS.items() if k not in UNUSED
}


def kernel_params(params: dict[str, float]) -> list[int]:
    """The search's parameters (its default budget included), without belief, and the flag
    that keeps the other hands in every world."""
    given = {"belief": 0, "budget": monte_carlo.BUDGET} | dict(params)
    if "max_worlds" in params:
        del given["budget"]
    values = monte_carlo.kernel_params(given)
    return values + [0] * (monte_carlo.SEES_HANDS_SLOT - len(values)) + [1]


def make(params: dict[str, float]) -> None:
    """No plain-Python form: it shares the search's kernel."""
    raise ValueError(
        "the hand-seer strategy has no Python form: it plays in the kernel (engine 'numba', or "
        "'mixed' beside a plain-Python seat)"
    )


@kernel
def choose_kernel(ws: WsPointer, seat: np.int64) -> np.int64:
    """The search's choice, its worlds dealing only the stock (its parameters say so)."""
    return monte_carlo.choose_kernel(ws, seat)
