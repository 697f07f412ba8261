"""The pages of numbers: every figure's numbers as formatted tables (polars → matplotlib
table), split over as many pages as they need, so a reader can check any bar or band."""

from __future__ import annotations

import math

import polars as pl
from matplotlib.figure import Figure

from simcasino.experiment.summary import COMPONENT_LABELS, zero_components, zero_note
from simcasino.report.data import ReportData
from simcasino.report.style import PAGE
from simcasino.report.text import p_text

ROWS_PER_PAGE = 30
MEASURE_LABELS = {
    "points": "points (total)",
    **COMPONENT_LABELS,
    "score": "game score",
    "win_rate": "A's win rate",
}


def _fmt(x: float | None, digits: int = 4) -> str:
    """A signed number; "–" for none (and for an anytime interval's end before it is given)."""
    return "–" if x is None or not math.isfinite(x) else f"{x:+.{digits}f}"


def summary_rows(data: ReportData) -> pl.DataFrame:
    """Every row of the summary: effect, CI and its kind (fixed or anytime), p-values and
    pairing's variance reduction per comparison and measure (the forest plot, the anatomy and
    the first page); the points rows also with the simultaneous CI, the one their verdict
    (Bonferroni's p) agrees with."""
    table = data.result.table.filter(~pl.col("measure").is_in(zero_components(data.result.table)))
    return pl.DataFrame(
        {
            "A": table["a"],
            "B": table["b"],
            "measure": [MEASURE_LABELS[m] for m in table["measure"]],
            "n": [f"{n:,} {unit}" for n, unit in zip(table["n"], table["unit"])],
            "mean A − B": [_fmt(x) for x in table["mean_diff"]],
            "95% CI": [
                f"[{_fmt(lo)}, {_fmt(hi)}]" for lo, hi in zip(table["ci_low"], table["ci_high"])
            ],
            "simultaneous 95% CI": [
                "–" if lo is None else f"[{_fmt(lo)}, {_fmt(hi)}]"
                for lo, hi in zip(table["sim_low"], table["sim_high"])
            ],
            "CI kind": table["interval"],
            "p": [p_text(p) for p in table["p_value"]],
            "p (Bonferroni)": [p_text(p) for p in table["p_adjusted"]],
            "pairing ×": ["–" if v is None else f"{v:.2f}" for v in table["variance_reduction"]],
        }
    )


def convergence_rows(data: ReportData) -> pl.DataFrame:
    """The convergence page's numbers: running mean and CI (of the run's kind) after each chunk,
    and the chunk's own mean."""
    names = {k: f"{c['a']} − {c['b']}" for k, c in enumerate(data.comparisons)}
    conv = data.convergence
    return pl.DataFrame(
        {
            "comparison": [names[k] for k in conv["comparison"]],
            "chunk": [str(i) for i in conv["chunk"]],
            "decks so far": [f"{n:,}" for n in conv["decks"]],
            "running mean": [_fmt(x) for x in conv["mean_diff"]],
            f"95% CI ({data.result.data['interval']})": [
                f"[{_fmt(lo)}, {_fmt(hi)}]" for lo, hi in zip(conv["ci_low"], conv["ci_high"])
            ],
            "chunk mean": [_fmt(x) for x in conv["chunk_mean"]],
        }
    )


def table_pages(data: ReportData) -> list[Figure]:
    """The summary table, then the convergence table, ``ROWS_PER_PAGE`` rows a page; under the
    summary, the components left out as zero in every comparison."""
    zero = zero_components(data.result.table)
    return [
        page
        for title, frame, footer in (
            (
                "summary: every comparison and measure (A − B per deal; the game score and win "
                "rate per game)",
                summary_rows(data),
                zero_note(zero) if zero else "",
            ),
            (
                "convergence: running mean of points per deal after each chunk",
                convergence_rows(data),
                "",
            ),
        )
        for page in frame_pages(f"{data.spec.name}: {title}", frame, footer)
    ]


def frame_pages(title: str, frame: pl.DataFrame, footer: str = "") -> list[Figure]:
    """A frame of text cells as table pages, at most ``ROWS_PER_PAGE`` rows a page and as many on
    each (no last page of a few leftover rows), numbered when several."""
    pages = max(1, -(-frame.height // ROWS_PER_PAGE))
    size = max(1, -(-frame.height // pages))
    parts = [frame.slice(i, size) for i in range(0, frame.height, size)] or [frame]
    return [
        _table_page(title + (f" ({n}/{len(parts)})" if len(parts) > 1 else ""), part, footer)
        for n, part in enumerate(parts, 1)
    ]


def _table_page(title: str, frame: pl.DataFrame, footer: str = "") -> Figure:
    """A page of one table: its rows as tall as a page of `ROWS_PER_PAGE` rows needs, taller
    (up to twice) on a page of fewer, so that a page is filled rather than half empty."""
    fig = Figure(figsize=PAGE)
    ax = fig.add_axes((0.03, 0.06, 0.94, 0.83))
    ax.axis("off")
    height = min(1.0, 2 * (frame.height + 1) / (ROWS_PER_PAGE + 1))
    table = ax.table(
        cellText=frame.rows(),
        colLabels=frame.columns,
        cellLoc="right",
        bbox=(0.0, 1.0 - height, 1.0, height),
    )
    table.auto_set_font_size(False)
    table.set_fontsize(9)
    for (row, _), cell in table.get_celld().items():
        if row == 0:
            cell.set_text_props(weight="bold")
            cell.set_facecolor("0.9")
    table.auto_set_column_width(list(range(frame.width)))
    fig.suptitle(title, fontsize=14, x=0.03, ha="left")
    if footer:
        fig.text(0.03, 0.02, footer, fontsize=9, color="0.3", va="bottom", linespacing=1.5)
    return fig
