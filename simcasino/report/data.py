"""What a report is drawn from: a run folder's spec and summary (the same `summarise` the
``experiment`` verbs print, so a report never disagrees with them) and the running mean of
each comparison chunk by chunk.

Only the per-chunk integer sums are read, never per-deal rows, so a report of a run of a
million deals reads a few dozen small Parquet files and takes about a second.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from simcasino.experiment.chunk import KINDS, Plan
from simcasino.experiment.runner import RunResult, progress_of, summarise
from simcasino.experiment.spec import Spec
from simcasino.experiment.store import read_manifest
from simcasino.experiment.summary import Chunks, contiguous, used_chunks
from simcasino.stats import mean_ci_from_sums

CONVERGENCE_SCHEMA = {"comparison": pl.Int64, "chunk": pl.Int64, "decks": pl.Int64, "mean_diff": pl.Float64,
                      "ci_low": pl.Float64, "ci_high": pl.Float64, "chunk_mean": pl.Float64}


@dataclass(frozen=True)
class ReportData:
    """A run as a report sees it: where it is, what it asked, its answer and how it got there."""

    folder: Path
    spec: Spec
    result: RunResult
    convergence: pl.DataFrame  # CONVERGENCE_SCHEMA: running mean of points per deal after each chunk
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
    spec, plan, chunks = progress_of(folder)
    if ("deals", 0) not in chunks:
        raise ValueError(f"{folder}: no deal chunk stored yet: nothing to report")
    result = summarise(spec, plan, chunks)
    planned = sum(plan.chunks(k) for k in KINDS)
    return ReportData(folder, spec, result, convergence(plan, _used_deal_chunks(spec, plan, chunks)), len(chunks),
                      planned, str(read_manifest(folder)["version"]))


def _used_deal_chunks(spec: Spec, plan: Plan, chunks: Chunks) -> list[pl.DataFrame]:
    """The deal chunks the summary is made of (up to the SPRT stop), in index order."""
    _, stop, _ = used_chunks(spec, plan, chunks)
    deals = contiguous(chunks, "deals")
    return deals[: None if stop is None else stop + 1]


def convergence(plan: Plan, deals: list[pl.DataFrame]) -> pl.DataFrame:
    """Per comparison and deal chunk: the mean difference in points per deal over the decks
    up to and including that chunk, its 95% CI, and the chunk's own mean."""
    scale = plan.rotations * (plan.rules.players - 1)
    cumulative = (pl.concat(deals).lazy().filter(pl.col("measure") == "points").sort("comparison", "chunk")
                  .with_columns(pl.col("decks", "sum", "sum_sq").cum_sum().over("comparison").name.prefix("total_"))
                  .collect())
    rows = []
    for row in cumulative.iter_rows(named=True):
        n = row["total_decks"]
        est = mean_ci_from_sums(n, row["total_sum"], row["total_sum_sq"], scale=scale) if n >= 2 else None
        mean = row["total_sum"] / n / scale
        rows.append((row["comparison"], row["chunk"], n, mean, est.ci_low if est else mean,
                     est.ci_high if est else mean, row["sum"] / row["decks"] / scale))
    return pl.DataFrame(rows, schema=CONVERGENCE_SCHEMA, orient="row")
