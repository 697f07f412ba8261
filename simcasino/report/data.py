"""What a report is drawn from: a run folder's spec and summary (the same `summarise` the
``experiment`` verbs print, so a report never disagrees with them), the running mean of
each comparison chunk by chunk (with the SPRT's log-likelihood ratio when the spec has a
stopping rule), and the distributions of points per deal from the chunks' histograms.

Only the per-chunk integer sums and histograms are read, never per-deal rows, so a report of
a run of a million deals reads a few dozen small Parquet files and takes about a second.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from simcasino.experiment.chunk import KINDS, Plan
from simcasino.experiment.runner import RunResult, look
from simcasino.experiment.spec import Spec
from simcasino.experiment.stopping import Chunks
from simcasino.experiment.store import read_manifest
from simcasino.experiment.summary import ESTIMATORS, contiguous, histograms, used_chunks
from simcasino.sequential import Sprt
from simcasino.stats import sums_moments

CONVERGENCE_SCHEMA = {
    "comparison": pl.Int64,
    "chunk": pl.Int64,
    "decks": pl.Int64,
    "mean_diff": pl.Float64,
    "ci_low": pl.Float64,
    "ci_high": pl.Float64,
    "chunk_mean": pl.Float64,
    "llr": pl.Float64,
}
# which distribution: the single-play difference A − mean B (its values are (players − 1)
# times that, as the chunks keep them), A's points per deal, or B's (each B seat's)
DISTRIBUTIONS = {"difference": "hist", "A": "hist_a", "B": "hist_b"}


@dataclass(frozen=True)
class ReportData:
    """A run as a report sees it: where it is, what it asked, its answer and how it got there."""

    folder: Path
    spec: Spec
    result: RunResult
    convergence: (
        pl.DataFrame
    )  # CONVERGENCE_SCHEMA: running mean of points per deal after each chunk
    distributions: (
        pl.DataFrame | None
    )  # comparison, which (of DISTRIBUTIONS), value, count; None: no histograms
    chunks_done: int
    chunks_planned: int
    version: str

    @property
    def comparisons(self) -> list[dict[str, Any]]:
        return self.result.data["comparisons"]

    @property
    def complete(self) -> bool:
        """Every planned chunk is stored, or the SPRT stopped the run."""
        return self.result.data["stopped_early"] or self.chunks_done >= self.chunks_planned


def load(folder: Path) -> ReportData:
    """The report data of a finished or partly finished run folder; ValueError (one line,
    naming the folder) when it is missing, not a run folder, or has no deal chunk yet."""
    if not folder.is_dir():
        raise ValueError(f"{folder}: no such folder")
    spec, plan, chunks, result = look(folder)
    if result is None:
        raise ValueError(f"{folder}: no deal chunk stored yet: nothing to report")
    planned = sum(plan.chunks(k) for k in KINDS)
    deals = _used_deal_chunks(spec, plan, chunks)
    return ReportData(
        folder,
        spec,
        result,
        convergence(plan, deals, result.data["interval"], spec.sprt),
        distributions(deals),
        len(chunks),
        planned,
        str(read_manifest(folder)["version"]),
    )


def distributions(deals: list[pl.DataFrame]) -> pl.DataFrame | None:
    """Per comparison: how often each value of points per deal occurred (`DISTRIBUTIONS`),
    summed over the deal chunks; None if a chunk was written before chunks kept histograms."""
    parts = []
    for which, column in DISTRIBUTIONS.items():
        counts = histograms(deals, "decks", "points", column)
        if counts is None:
            return None
        parts.append(counts.select("comparison", pl.lit(which).alias("which"), "value", "count"))
    return pl.concat(parts)


def _used_deal_chunks(spec: Spec, plan: Plan, chunks: Chunks) -> list[pl.DataFrame]:
    """The deal chunks the summary is made of (up to the SPRT stop), in index order."""
    _, walk = used_chunks(spec, plan, chunks)
    deals = contiguous(chunks, "decks")
    return deals[: None if walk is None or walk.stop is None else walk.stop + 1]


def convergence(
    plan: Plan, deals: list[pl.DataFrame], kind: str = "fixed", sprt: Sprt | None = None
) -> pl.DataFrame:
    """Per comparison and deal chunk: the mean difference in points per deal over the decks
    up to and including that chunk, its 95% CI of the run's ``kind`` (anytime ones hold at
    every chunk together), the chunk's own mean, and the SPRT's log-likelihood ratio at that
    point (what its stopping rule weighs; null without one)."""
    scale = plan.rotations * (plan.rules.players - 1)
    cumulative = (
        pl.concat(deals)
        .lazy()
        .filter(pl.col("measure") == "points")
        .sort("comparison", "chunk")
        .with_columns(
            pl.col("decks", "sum", "sum_sq").cum_sum().over("comparison").name.prefix("total_")
        )
        .collect()
    )
    rows = []
    for row in cumulative.iter_rows(named=True):
        n = row["total_decks"]
        est = (
            ESTIMATORS[kind](n, row["total_sum"], row["total_sum_sq"], scale=scale)
            if n >= 2
            else None
        )
        est = (
            est if est is None or math.isfinite(est.ci_high - est.ci_low) else None
        )  # not given yet
        mean = row["total_sum"] / n / scale
        llr = (
            sprt.llr(n, *sums_moments(n, row["total_sum"], row["total_sum_sq"], scale))
            if sprt and n >= 2
            else None
        )
        rows.append(
            (
                row["comparison"],
                row["chunk"],
                n,
                mean,
                est.ci_low if est else mean,
                est.ci_high if est else mean,
                row["sum"] / row["decks"] / scale,
                llr,
            )
        )
    return pl.DataFrame(rows, schema=CONVERGENCE_SCHEMA, orient="row")
