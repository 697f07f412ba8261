"""The move filter: any strategy made to follow advice (``greedy:follow=S1``,
``search:follow=F1``, ``greedy:follow=S6@last-round``, ``greedy:follow=card``), so the advice
is measured inside weak and strong players alike.

Advice is a list of rules (`conditions`: a move test and the conditions when it applies). Rule by
rule, in order: where the rule's conditions hold and its test finds both a following and a
breaking move among the moves still allowed (a *contested* position), the moves that break it
are set aside. The player then chooses as it would among what is left; where no rule set a
move aside it plays as it is. So it follows the advice whenever it can, it is never left
without a move, an earlier rule wins where two conflict, and a rule that is never contested
leaves its play exactly as it was. The plain-Python twin (`Follow`) shows the strategy a view
holding only those moves.

Why the strategy's own choice among the allowed moves, rather than its move replaced when it
breaks the rule: random then draws among the allowed moves, and greedy's and the heuristic's
best allowed move is their own best move whenever that one is allowed, so both forms and every
strategy read the filter the same way.

In the kernel the rules lie in every strategy's last `conditions.MAX_RULES` parameter slots (from
`FOLLOW_FIRST`, 0: none): runtime parameters, so no strategy is compiled twice. The play
loop's strategy switch (`loop.dispatch`) restricts random, greedy and the heuristic; the search
and the clairvoyant restrict the candidates they rank (`search.candidates`), so a filtered
search weighs only allowed moves (its imagined deals are played on by the free heuristic).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence

import numpy as np

from simcasino.advice.claims import BREAKS, BROKEN, FOLLOWED, FOLLOWS, LABELS, label, label_moves
from simcasino.advice.conditions import MAX_RULES, Rule, holds, holds_in
from simcasino.core.jit import kernel
from simcasino.core.protocol import Move, Strategy, Stream, View, ask
from simcasino.engine import layout
from simcasino.engine.layout import WsPointer, param
from simcasino.engine.moves import list_moves

FOLLOW_FIRST = (
    layout.N_PARAMS - MAX_RULES
)  # every strategy's last parameter slots: the rules it follows (0: none)


@kernel(inline="always")
def followed(ws: WsPointer, seat: np.int64) -> np.int64:
    """The code of the first rule ``seat`` follows (`conditions.encode`), 0 if none."""
    return param(ws, seat, FOLLOW_FIRST)


@kernel
def allowed_moves(ws: WsPointer, seat: np.int64) -> np.int64:
    """List the legal moves of ``seat`` (after `find_groups`) and keep in MOVE_SLOT/MOVE_MASK
    those its rules allow (`obey`); returns how many were kept, or 0 where no rule restricts
    the choice."""
    return obey(ws, ws, seat, list_moves(ws, seat))


@kernel
def obey(rules: WsPointer, ws: WsPointer, seat: np.int64, count: np.int64) -> np.int64:
    """Of the first ``count`` moves listed in ``ws``, keep those the rules of ``seat`` (read
    from ``rules``' parameters) allow, rule by rule (`restrict`); returns how many were kept,
    or 0 where no rule set a move aside."""
    restricted = False
    for k in range(MAX_RULES):
        rule = param(rules, seat, FOLLOW_FIRST + k)
        if rule == 0:
            break
        if holds(ws, seat, rule):
            kept = restrict(ws, rule & 255, seat, count)
            if kept:
                count, restricted = kept, True
    return count if restricted else 0


@kernel
def restrict(ws: WsPointer, claim: np.int64, seat: np.int64, count: np.int64) -> np.int64:
    """Of the first ``count`` listed moves keep, in their order, those not breaking ``claim``
    (a move test's code) if some follow it and some break it; returns how many were kept, else 0."""
    if label_moves(ws, claim, seat, count) != FOLLOWED | BROKEN:
        return 0
    kept = 0
    for m in range(count):
        if ws[LABELS + m] != BREAKS:
            ws[layout.MOVE_SLOT + kept] = ws[layout.MOVE_SLOT + m]
            ws[layout.MOVE_MASK + kept] = ws[layout.MOVE_MASK + m]
            kept += 1
    return kept


def allowed(rules: Sequence[Rule], view: View) -> tuple[Move, ...]:
    """The moves of ``view`` that ``rules`` allow (`obey`), else () where no rule sets one aside."""
    kept: tuple[Move, ...] = ()
    for _, kept in _restrictions(rules, view):
        pass
    return kept


def set_aside_by(rules: Sequence[Rule], view: View, move: Move) -> Rule | None:
    """The rule of ``rules`` that sets ``move`` aside in ``view`` (the one a follower obeys
    instead of playing it), None where the rules allow it."""
    for rule, kept in _restrictions(rules, view):
        if move not in kept:
            return rule
    return None


def _restrictions(rules: Sequence[Rule], view: View) -> Iterator[tuple[Rule, tuple[Move, ...]]]:
    """Each rule that sets some move aside, in order, with the moves still allowed after it."""
    moves = view.moves
    for rule in rules:
        if not holds_in(view, rule):
            continue
        shown = dataclasses.replace(view, moves=moves)
        labels = [label(rule.prefer, shown, move) for move in moves]
        if FOLLOWS in labels and BREAKS in labels:
            moves = tuple(m for m, answer in zip(moves, labels) if answer != BREAKS)
            yield rule, moves


class Follow:
    """``strategy`` made to follow ``rules``: it is shown only the moves they allow (`allowed`;
    a §6 Misère pick among another's captures is left as it is)."""

    def __init__(self, strategy: Strategy, rules: Sequence[Rule]) -> None:
        self.strategy, self.rules = strategy, tuple(rules)

    def choose(self, view: View, stream: Stream | None = None) -> Move:
        kept = allowed(self.rules, view) if view.chooser_for < 0 else ()
        return ask(
            self.strategy.choose, dataclasses.replace(view, moves=kept) if kept else view, stream
        )
