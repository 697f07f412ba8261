"""The search and what it stands on, one room: determinized Monte Carlo over the heuristic
(`monte_carlo`), its belief about the hidden hands (`belief`), its inference from the others'
play (`inference`), its exact endgame solver (`exact`) and the clairvoyant ceiling, the same
search shown the true deal (`clairvoyant`).

This package is the ``search`` strategy the registry names (its parameters, ``kernel_params``,
``choose_kernel``, ``make``), and the one public entry the play loop asks its questions
through (`loop.questions`, `loop.position`): a turn noted by the belief, a world dealt by it,
its evidence, the playouts of every legal move, and what the last decision judged. Everything
else in it is the search's own and may change with it.
"""

from __future__ import annotations

from simcasino.strategies.search.belief import EVIDENCE, deal_hidden, note_turn, weigh
from simcasino.strategies.search.monte_carlo import (
    BUDGET,
    COUNTS_CARDS,
    DESCRIPTION,
    NAME,
    PARAMS,
    PLAYS_BUILDS,
    POINT,
    SEARCH_CANDIDATES,
    SEARCH_EXACT,
    SEARCH_SQUARES,
    SEARCH_TOTAL,
    SEARCH_WORLDS,
    choose_kernel,
    copy_deal,
    kernel_params,
    make,
    playouts,
)

__all__ = [
    "BUDGET",
    "COUNTS_CARDS",
    "DESCRIPTION",
    "EVIDENCE",
    "NAME",
    "PARAMS",
    "PLAYS_BUILDS",
    "POINT",
    "SEARCH_CANDIDATES",
    "SEARCH_EXACT",
    "SEARCH_SQUARES",
    "SEARCH_TOTAL",
    "SEARCH_WORLDS",
    "choose_kernel",
    "copy_deal",
    "deal_hidden",
    "kernel_params",
    "make",
    "note_turn",
    "playouts",
    "weigh",
]
