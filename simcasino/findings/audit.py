"""The decision audit: in the positions of real play where a claim decides the move, is the
advice right?

Positions are recorded from the reference engine with the full heuristic in every seat
(`record`). A claim decides a position when the heuristic's move with the claim's weights
differs from its move with them at 0 (`decisive`, the plain-Python twin, which the tests
hold to the kernel move by move). A strong judge then values both moves from the deciding
player's side (`judge`): the search with a large budget (every legal move a candidate, many
worlds, each played out by the heuristic and solved exactly once few cards are left), which
is exact play where nothing is hidden (two players, the stock empty). The answer per claim:
the judged points a position the advice gains over the alternative, and how often the
judge's best move is the advice's.

What a view does not show is filled in as play left it where it can be read off the view
(the last capturer: the latest played card still in its player's pile) and as none
otherwise (sweeps so far, points scored at capture): both moves of a position share it, so
it moves their values alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from simcasino.core.protocol import Move, View
from simcasino.core.rules import Rules
from simcasino.core.table import item_cards
from simcasino.findings.claims import Claim
from simcasino.loop.position import DealHistory, search_values
from simcasino.simulation import simulate
from simcasino.strategies import StrategySpec
from simcasino.strategies.heuristic import Heuristic, unseen_cards
from simcasino.strategies.heuristic.python import Play

JUDGE = StrategySpec("search", {"worlds": 128, "moves": 64})  # every legal move a candidate (MOVE_CAP is less)


@dataclass(frozen=True)
class Judged:
    """One decisive position: the judged margin (points of the deal, deciding side minus the
    best other) after the advice's move and after the alternative, and whether the judge's
    best move is the advice's."""

    advice: float
    alternative: float
    judge_agrees: bool
    exact: bool

    @property
    def gain(self) -> float:
        return self.advice - self.alternative


class _Recorder:
    """Plays the full heuristic and keeps every view of its own turn."""

    name = "recorder"

    def __init__(self) -> None:
        self.player, self.views = Heuristic(), []

    def choose(self, view: View) -> Move:
        if view.chooser_for < 0:
            self.views.append(view)
        return self.player.choose(view)


def record(rules: Rules, deals: int, seed: int) -> list[View]:
    """Every decision of ``deals`` reference deals with the full heuristic in every seat."""
    recorder = _Recorder()
    simulate(rules, [recorder] * rules.players, deals=deals, seed=seed, engine="reference")
    return recorder.views


def applies(view: View, claim: Claim) -> bool:
    """Does ``claim`` apply here: do its terms (the heuristic's features of its weights) tell
    some two legal moves apart? (It may still not decide the move: the other terms can outweigh it.)"""
    seen, player = unseen_cards(view), Heuristic()
    features = {tuple(getattr(player, w)(Play(view, move, seen)) for w in claim.off) for move in view.moves}
    return len(features) > 1


def decisive(views: Sequence[View], claim: Claim) -> list[tuple[View, Move, Move]]:
    """The positions where ``claim`` decides the move: (view, the advice's move, the move
    without it)."""
    full, without = Heuristic(), Heuristic({w: 0.0 for w in claim.off})
    out = []
    for view in views:
        advice, other = full.choose(view), without.choose(view)
        if advice != other:
            out.append((view, advice, other))
    return out


def judge(view: View, advice: Move, alternative: Move, spec: StrategySpec = JUDGE) -> Judged:
    """The judge's values of the two moves in ``view`` (`search_values` over every move)."""
    hands, stock = dealt_hidden(view)
    values = search_values(view, spec, hands, stock, history_of(view))
    best = max(values, key=lambda m: values[m][0])
    exact = all(se == 0.0 for _, se in values.values()) and view.stock_left == 0 and view.rules.players == 2
    return Judged(values[advice][0], values[alternative][0], values[best][0] == values[advice][0], exact)


def dealt_hidden(view: View) -> tuple[list[list[int]], list[int]]:
    """The cards ``view``'s player cannot see, dealt in card order: each other seat as many as
    it holds (the seats after it this round one more than those before it), the rest the
    stock. The judge draws its own worlds from them, so which seat gets which does not
    matter; where nothing is hidden they are exactly the other hands."""
    seen = set(view.hand) | {c for item in view.table for c in item_cards(item)} | {c for _, c in view.played}
    seen |= {card for card, owner in enumerate(view.captured_by) if owner >= 0}
    hidden = [c for c in range(len(view.captured_by)) if c not in seen]
    in_hands = len(hidden) - view.stock_left
    hands: list[list[int]] = []
    for seat in range(view.rules.players):
        size = 0 if seat == view.seat else min(len(view.hand) - (seat < view.seat), in_hands)
        hands.append(hidden[:size] if seat != view.seat else [])
        hidden, in_hands = hidden[size:], in_hands - size
    return hands, hidden


def history_of(view: View) -> DealHistory:
    """The deal's past as far as the view shows it: the last capturer is the seat of the
    latest played card that lies in that seat's pile (a capture takes its own card)."""
    n = view.rules.players
    last = next((seat for seat, card in reversed(view.played) if view.captured_by[card] == seat), -1)
    return DealHistory(dealer=n - 1, last_capturer=last, sweeps=(0,) * n, scored_sweeps=(0,) * n,
                       immediate=(0,) * n)

