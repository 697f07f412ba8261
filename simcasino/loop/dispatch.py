"""The kernel's strategy switch: which compiled function decides for each seat.

A seat's strategy is its number in the registry (`simcasino.strategies.REGISTRY`), and the
branches below test those numbers. Four arguments carried down from the job's entry,
``advises``, ``weighs``, ``searches`` and ``sees``, say which strategies the job compiles (its
tier, `strategies.tier_of`): each is None (numba prunes the branches it guards before it
compiles them, so their strategies are never compiled) or True. A table of random and greedy
passes None four times (the plain tier: a first run in seconds, not minutes); a seat made to
follow advice needs ``advises`` (the advice's move tests, not the heuristic); the heuristic
``advises`` and ``weighs``; the search those and ``searches``; the clairvoyant all four (a
ceiling for experiments, kept out of what `play` and `analyze` compile).

A seat made to follow a claim (`advice.follow`) chooses among the moves its claim allows
wherever the claim is contested: the switch restricts the listed moves for the strategies
registered to follow that way (`strategies.BY_LIST`) and asks their ``choose_listed``; the
search and the clairvoyant restrict their own candidates (`strategies.BY_ITSELF`).

Why checked at import (`check_switch`): a switch is written by hand, and a branch forgotten
for a new strategy would otherwise play some other strategy's moves (once, the clairvoyant's,
which sees the hidden cards). Importing this module fails unless every registered strategy has
its branch, its choice functions and its memory; a number that no branch handles raises in
the kernel rather than falling through.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from collections.abc import Sequence

import numpy as np

from simcasino.advice import follow
from simcasino.core.jit import kernel
from simcasino.engine import layout
from simcasino.engine.layout import WsPointer
from simcasino.engine.memory import AREA_WORDS
from simcasino.strategies import (
    BY_LIST,
    CLAIRVOYANT_ID,
    GREEDY_ID,
    HAND_SEER_ID,
    HEURISTIC_ID,
    RANDOM_ID,
    REGISTRY,
    SEARCH_ID,
    Registered,
    greedy,
    heuristic,
    module,
    random,
    search,
)
from simcasino.strategies.search import clairvoyant, hand_seer

FILTERED_BY_LOOP = np.array([entry.follows == BY_LIST for entry in REGISTRY])  # by kernel number


@kernel(inline="always")  # small: into the turn loop, as LLVM would not
def choose(
    ws: WsPointer,
    seat: np.int64,
    advises: bool | None,
    weighs: bool | None,
    searches: bool | None,
    sees: bool | None,
) -> np.int64:
    """The hand slot chosen by the strategy of ``seat``; its capture mask (0: trail) is left in
    CHOSEN_MASK (see `layout` for why not a tuple)."""
    strategy = ws[layout.STRATEGY + seat]
    if advises is not None and follow.followed(ws, seat) and FILTERED_BY_LOOP[strategy]:
        count = follow.allowed_moves(ws, seat)
        if count:
            return _choose_listed(ws, seat, count, weighs)
    if strategy == RANDOM_ID:
        return random.choose_kernel(ws, seat)
    if strategy == GREEDY_ID:
        return greedy.choose_kernel(ws, seat)
    if weighs is not None:
        if strategy == HEURISTIC_ID:
            return heuristic.choose_kernel(ws, seat)
        if searches is not None:
            if strategy == SEARCH_ID:
                return search.choose_kernel(ws, seat)
            if sees is not None:
                if strategy == CLAIRVOYANT_ID:
                    return clairvoyant.choose_kernel(ws, seat)
                if strategy == HAND_SEER_ID:
                    return hand_seer.choose_kernel(ws, seat)
    return not_compiled(strategy)


@kernel
def _choose_listed(ws: WsPointer, seat: np.int64, count: np.int64, weighs: bool | None) -> np.int64:
    """The choice of the strategy of ``seat`` among the first ``count`` listed moves: those its
    claim allows."""
    strategy = ws[layout.STRATEGY + seat]
    if strategy == RANDOM_ID:
        return random.choose_listed(ws, seat, count)
    if strategy == GREEDY_ID:
        return greedy.choose_listed(ws, seat, count)
    if weighs is not None and strategy == HEURISTIC_ID:
        return heuristic.choose_listed(ws, seat, count)
    return not_compiled(strategy)


@kernel
def not_compiled(number: np.int64) -> np.int64:
    """A strategy (or a question, `questions`) that no branch compiled for this job handles:
    an error, never another strategy's move. (It returns its int64 argument on a path never
    taken, numbers being >= 0: a function that only raises is typed as returning None, which
    would make every choice Optional and compile the turn's mechanics twice.)"""
    if number >= 0:
        raise ValueError(
            "the kernel was asked for a strategy or a question this job did not compile "
            "(loop.dispatch)"
        )
    return number


@kernel
def prepare_strategies(ws: WsPointer, weighs: bool | None) -> None:
    """What the seats' strategies work out once from the rules and their parameters (greedy:
    whether it weighs every move; the heuristic: its card values)."""
    greedy.prepare(ws)
    if weighs is None:  # no seat weighs moves at this table
        return
    for seat in range(ws[layout.R_PLAYERS]):
        if ws[layout.STRATEGY + seat] == HEURISTIC_ID:
            heuristic.prepare_seat(ws, seat)


def switch_names(function: object) -> set[str]:
    """The strategies a switch's branches test, read from its source (``strategy == NAME_ID``;
    ``HAND_SEER_ID`` names ``hand-seer``)."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(getattr(function, "py_func", function))))
    return {
        node.id.removesuffix("_ID").lower().replace("_", "-")
        for compare in ast.walk(tree)
        if isinstance(compare, ast.Compare)
        for node in compare.comparators
        if isinstance(node, ast.Name) and node.id.endswith("_ID")
    }


def check_switch(registry: Sequence[Registered]) -> None:
    """ValueError unless the switch handles every registered strategy and each has what the
    kernel calls: ``choose_kernel``, ``choose_listed`` where the loop filters its moves, and
    memory areas that exist."""
    problems = []
    for name in sorted({e.name for e in registry} - switch_names(choose)):
        problems.append(f"{name!r} has no branch in loop.dispatch.choose")
    for name in sorted(
        {e.name for e in registry if e.follows == BY_LIST} - switch_names(_choose_listed)
    ):
        problems.append(
            f"{name!r} follows claims by list but has no branch in loop.dispatch._choose_listed"
        )
    for entry in registry:
        needs = ["choose_kernel"] + (["choose_listed"] if entry.follows == BY_LIST else [])
        problems += [
            f"{entry.name!r} has no {need}"
            for need in needs
            if not hasattr(_module_of(entry), need)
        ]
        problems += [
            f"{entry.name!r} uses memory {area!r}, which engine.memory does not lay out"
            for area in entry.memory
            if area not in AREA_WORDS
        ]
    if problems:
        raise ValueError(
            "the strategy registry and the kernel's switch disagree: " + "; ".join(problems)
        )


def _module_of(entry: Registered) -> object:
    try:
        return module(entry.name)
    except ValueError:
        return None


check_switch(REGISTRY)
