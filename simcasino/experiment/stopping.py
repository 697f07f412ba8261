"""The SPRT of a run (`sequential.Sprt`), walked over its deal chunks in index order, deck by deck.

Each comparison is tested on its points per deal, at the family's error rates split over the
run's comparisons. Once a comparison decides, its decision and the sums it decided on are
frozen: the decks played later for the comparisons still undecided never change its verdict
or its interval. The run stops after the chunk in which the last comparison decided.

Where it looks: after every deck from `sequential.FIRST_LOOK` on, from the chunk's
``deck_values`` (a run with a stopping rule keeps them); at the chunk's end only, from its
sums, for a chunk written before chunks kept them. The walk takes chunks 0, 1, 2, ... in
order and its looks depend on the decks alone, so the stop, and so every table, is the same
for any number of workers and any order in which they finish.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl

from simcasino.experiment.chunk import DECK_COLUMN, Plan
from simcasino.sequential import Sprt

Chunks = Mapping[tuple[str, int], pl.DataFrame]


@dataclass(frozen=True)
class SprtState:
    """Where one comparison's SPRT stands: undecided (``decision`` None) over the decks walked
    so far, or decided, with the decks and integer sums of points it decided on."""

    decision: str | None
    decks: int
    total: int
    total_sq: int
    llr: float | None = None

    def as_dict(self, sprt: Sprt) -> dict[str, Any]:
        """For the summary: the decision, the decks it took (None while undecided), the
        log-likelihood ratio there (None when infinite: data without spread) and the gains
        tested."""
        decided = self.decision is not None
        llr = self.llr if decided and math.isfinite(self.llr) else None
        return {
            "decision": self.decision,
            "decks": self.decks if decided else None,
            "llr": llr,
            "low": sprt.low,
            "high": sprt.high,
        }


class SprtWalk:
    """The SPRT of every comparison of a run, checked chunk after chunk in index order.

    `advance` goes on from where it stopped, over the chunks now contiguous, so a running
    experiment walks each chunk once; ``stop`` is the index of the chunk in which every
    comparison had decided (None: not yet), ``decisions`` one `SprtState` per comparison."""

    def __init__(self, plan: Plan, sprt: Sprt) -> None:
        self.sprt, self.next, self.stop = sprt, 0, None
        self.scale = plan.rotations * (plan.rules.players - 1)
        self.comparisons = len(plan.pairs)
        self.decisions = [SprtState(None, 0, 0, 0) for _ in plan.pairs]

    def advance(self, chunks: Chunks) -> int | None:
        while self.stop is None and ("decks", self.next) in chunks:
            self._walk(chunks["decks", self.next])
            if all(d.decision for d in self.decisions):
                self.stop = self.next
            self.next += 1
        return self.stop

    def _walk(self, frame: pl.DataFrame) -> None:
        points = frame.filter(pl.col("measure") == "points").sort("comparison")
        for c, row in enumerate(points.select("decks", "sum", "sum_sq", DECK_COLUMN).iter_rows()):
            if self.decisions[c].decision is None:
                self.decisions[c] = self._look(self.decisions[c], *row)

    def _look(
        self, before: SprtState, decks: int, total: int, total_sq: int, values: list[int] | None
    ) -> SprtState:
        """The comparison after this chunk: decided at the first deck whose look crosses a
        bound, else undecided with the chunk's decks added."""
        if values is None:  # a chunk without deck values: one look, at its end
            n, sums, squares = (np.array([v]) for v in (decks, total, total_sq))
        else:
            deck = np.asarray(values, dtype=np.int64)
            n = np.arange(1, deck.size + 1)
            sums, squares = np.cumsum(deck), np.cumsum(deck * deck)
        n, sums, squares = n + before.decks, sums + before.total, squares + before.total_sq
        mean = sums / n / self.scale
        spread = np.maximum(
            squares - sums.astype(np.float64) ** 2 / n, 0.0
        )  # rounding: never below 0
        variance = spread / np.maximum(n - 1, 1) / self.scale**2
        found = self.sprt.first_decision(n, mean, variance, self.comparisons)
        if found is None:
            return SprtState(
                None, before.decks + decks, before.total + total, before.total_sq + total_sq
            )
        k, decision = found
        return SprtState(
            decision,
            int(n[k]),
            int(sums[k]),
            int(squares[k]),
            float(self.sprt.llr(n[k], mean[k], variance[k])),
        )
