"""The move filter: any strategy made to follow one claim of docs/rules.md §7
(``greedy:follow=S1``, ``search:follow=F1``), so the advice is measured inside weak and
strong players alike.

In a position where the claim's test (`claims`) finds both a following and a breaking move (a
*contested* position), the player chooses as it would among the moves that do not break the
claim; everywhere else it plays as it is. So it follows the advice whenever it can, it is
never left without a move, and a claim that is silent everywhere leaves its play exactly as it
was. The plain-Python twin (`Follow`) shows the strategy a view holding only those moves.

Why the strategy's own choice among the allowed moves, rather than its move replaced when it
breaks the claim: random then draws among the allowed moves, and greedy's and the heuristic's
best allowed move is their own best move whenever that one is allowed, so both forms and every
strategy read the filter the same way.

In the kernel the claim's number lies in every strategy's last parameter slot (`FOLLOW`, 0:
none): a runtime parameter, so no strategy is compiled twice. The play loop's strategy switch
(`loop.dispatch`) restricts random, greedy and the heuristic; the search and the clairvoyant
restrict the candidates they rank (`search.candidates`), so a filtered search weighs only
allowed moves (its imagined deals are played on by the free heuristic).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from simcasino.core.jit import kernel
from simcasino.core.protocol import Move, Strategy, Stream, View, ask
from simcasino.engine.layout import MOVE_MASK, MOVE_SLOT, N_PARAMS, WsPointer, param
from simcasino.engine.moves import list_moves
from simcasino.strategies.claims import BREAKS, BROKEN, FOLLOWED, FOLLOWS, LABELS, label, label_moves

FOLLOW = N_PARAMS - 1  # every strategy's last parameter slot: the code of the claim it follows (0: none)


@kernel(inline="always")
def followed(ws: WsPointer, seat: np.int64) -> np.int64:
    """The code of the claim ``seat`` follows (`claims.claim_code`), 0 if none."""
    return param(ws, seat, FOLLOW)


@kernel
def allowed_moves(ws: WsPointer, seat: np.int64) -> np.int64:
    """List the legal moves of ``seat`` (after `find_groups`) and, where its claim is
    contested, keep in MOVE_SLOT/MOVE_MASK only those not breaking it; returns how many were
    kept, or 0 where the claim does not restrict the choice."""
    return restrict(ws, followed(ws, seat), seat, list_moves(ws, seat))


@kernel
def restrict(ws: WsPointer, claim: np.int64, seat: np.int64, count: np.int64) -> np.int64:
    """Of the first ``count`` listed moves keep, in their order, those not breaking ``claim``
    (its code) if some follow it and some break it; returns how many were kept, else 0."""
    if label_moves(ws, claim, seat, count) != FOLLOWED | BROKEN:
        return 0
    kept = 0
    for m in range(count):
        if ws[LABELS + m] != BREAKS:
            ws[MOVE_SLOT + kept], ws[MOVE_MASK + kept] = ws[MOVE_SLOT + m], ws[MOVE_MASK + m]
            kept += 1
    return kept


def allowed(claim: str, view: View) -> tuple[Move, ...]:
    """The moves of ``view`` not breaking ``claim`` where it is contested, else () (`restrict`)."""
    labels = [label(claim, view, move) for move in view.moves]
    if FOLLOWS not in labels or BREAKS not in labels:
        return ()
    return tuple(move for move, answer in zip(view.moves, labels) if answer != BREAKS)


class Follow:
    """``strategy`` made to follow ``claim``: where the claim is contested it is shown only the
    moves that do not break it (a §6 Misère pick among another's captures is left as it is)."""

    def __init__(self, strategy: Strategy, claim: str) -> None:
        self.strategy, self.claim = strategy, claim

    def choose(self, view: View, stream: Stream | None = None) -> Move:
        kept = allowed(self.claim, view) if view.chooser_for < 0 else ()
        return ask(self.strategy.choose, dataclasses.replace(view, moves=kept) if kept else view, stream)
