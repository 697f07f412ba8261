"""The pages with pictures: the answer (first page), the forest plot of effects, the anatomy
of each effect by scoring component, and the convergence of the running mean.

Each function takes `ReportData` and returns one matplotlib Figure the size of a page; the
document writes it to the PDF and to its PNG.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable

import numpy as np
import polars as pl
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import FuncFormatter

from simcasino.experiment.summary import COMPONENT_LABELS, COMPONENTS, VARIANT_PARTS
from simcasino.report.data import ReportData
from simcasino.report.style import PAGE, arm_colour
from simcasino.report.text import evidence, interval, p_phrase, signed, significant, verdict

DIFF_LABEL = "difference A − B (points per deal)"


def _label(comparison: dict) -> str:
    return f"{comparison['a']} − {comparison['b']}"


def cover_page(data: ReportData) -> Figure:
    """The question and the answer on one page: what was compared under which rules, and per
    comparison one sentence with the effect, its 95% CI and the verdict."""
    spec, summary = data.spec, data.result.data
    fig = Figure(figsize=PAGE)
    fig.text(0.05, 0.93, f"{spec.name}", fontsize=24, weight="bold")
    fig.text(0.05, 0.885, textwrap.fill(spec.description, 110), fontsize=13, va="top")
    lines = [
        f"Rules: {summary['rules']}, {summary['players']} players",
        "Players: " + "; ".join(f"{name} = {s.label}" for name, s in spec.arms.items()),
        f"Decks: {summary['decks']:,} of {spec.deals:,} planned, each dealt in {summary['players']} seat rotations "
        f"({summary['deals_played']:,} deals played)" + _status(data),
        f"Seed: {summary['seed']}    Design: " + (f"every arm against {spec.baseline}" if spec.baseline else spec.design),
    ]
    fig.text(0.05, 0.81, "\n".join(textwrap.fill(line, 125, subsequent_indent="    ") for line in lines),
             fontsize=12, va="top", linespacing=1.6)
    fig.text(0.05, 0.58, "Answer (A − B, 95% CI; verdict after Holm's correction across "
             f"{len(data.comparisons)} comparison{'s' if len(data.comparisons) > 1 else ''}):",
             fontsize=13, weight="bold", va="top")
    step = min(0.09, 0.48 / max(len(data.comparisons), 1))
    for i, c in enumerate(data.comparisons):
        y = 0.52 - step * i
        colour = arm_colour(spec, c["a"]) if significant(c) else "0.25"
        fig.text(0.07, y, verdict(c), fontsize=15 if step >= 0.07 else 11, color=colour, weight="bold", va="top")
        fig.text(0.07, y - step * 0.42, evidence(c), fontsize=10 if step >= 0.07 else 8, color="0.3", va="top")
    fig.text(0.05, 0.03, f"simcasino {data.version} · run {summary['run_id']} · {data.folder}", fontsize=9,
             color="0.4")
    return fig


def _status(data: ReportData) -> str:
    if data.result.data["stopped_early"]:
        return ", stopped early by the SPRT"
    if not data.complete:
        return f", IN PROGRESS: {data.chunks_done} of {data.chunks_planned} chunks stored"
    return ""


def forest_figure(data: ReportData) -> Figure:
    """Effect sizes with 95% CIs, one row per comparison; filled markers are findings after
    Holm's correction, so a reader sees at once which effects are real."""
    fig = Figure(figsize=PAGE, layout="constrained")
    ax = fig.subplots()
    comparisons = data.comparisons
    ys = np.arange(len(comparisons))[::-1]
    for y, c in zip(ys, comparisons):
        colour, filled = arm_colour(data.spec, c["a"]), significant(c)
        ax.errorbar(c["mean_diff"], y, xerr=[[c["mean_diff"] - c["ci_low"]], [c["ci_high"] - c["mean_diff"]]],
                    fmt="o", ms=10, capsize=6, lw=2, color=colour, mfc=colour if filled else "white", mew=2)
        ax.annotate(f"{signed(c['mean_diff'])} {interval(c['ci_low'], c['ci_high'])}  {p_phrase('Holm p', c['p_holm'])}",
                    (c["ci_high"], y), xytext=(10, 8), textcoords="offset points", fontsize=10, color=colour)
    ax.axvline(0, color="0.3", lw=1)
    _sprt_line(ax.axvline, data)
    ax.set_yticks(ys, [_label(c) for c in comparisons])
    ax.set_ylim(-0.7, len(comparisons) - 0.3)
    ax.margins(x=0.25)
    ax.set_xlabel(DIFF_LABEL)
    ax.set_title(f"{data.spec.name}: effect per comparison, 95% CI")
    handles = [Line2D([], [], marker="o", ls="", color="0.3", ms=9, label="finding (Holm p < 0.05)"),
               Line2D([], [], marker="o", ls="", color="0.3", mfc="white", ms=9, label="no detectable difference")]
    ax.legend(handles=handles + ax.get_legend_handles_labels()[0], loc="lower right")
    return fig


def _sprt_line(draw: Callable, data: ReportData) -> None:
    """The SPRT's H1 effect (``draw`` is ``ax.axvline`` or ``ax.axhline``), when the run has one."""
    if data.spec.sprt:
        draw(data.spec.sprt.high, color="0.5", ls=":", lw=1.5, label=f"SPRT H1 = {data.spec.sprt.high:g}")


def anatomy_figure(data: ReportData) -> Figure:
    """Where each effect comes from: A − B per deal by scoring component, diverging from zero,
    one bar per comparison in the arm's colour (the components add up to the effect)."""
    table = data.result.table
    parts = [m for m in COMPONENTS
             if m not in VARIANT_PARTS or table.filter(pl.col("measure") == m)["mean_diff"].abs().sum() > 0]
    fig = Figure(figsize=PAGE, layout="constrained")
    ax = fig.subplots()
    comparisons = data.comparisons
    height = 0.8 / len(comparisons)
    ys = np.arange(len(parts))[::-1]
    for k, c in enumerate(comparisons):
        est = [c["components"][m] for m in parts]
        means = np.array([e["mean_diff"] for e in est])
        errors = np.array([[e["mean_diff"] - e["ci_low"] for e in est], [e["ci_high"] - e["mean_diff"] for e in est]])
        ax.barh(ys + 0.4 - height * (k + 0.5), means, height=height, xerr=errors, capsize=3,
                color=arm_colour(data.spec, c["a"]), label=f"{_label(c)} (total {signed(c['mean_diff'])})",
                error_kw={"lw": 1, "ecolor": "0.2"})
    ax.axvline(0, color="0.3", lw=1)
    ax.set_yticks(ys, [COMPONENT_LABELS[m] for m in parts])
    ax.set_xlabel(DIFF_LABEL + ", by scoring component")
    ax.set_title(f"{data.spec.name}: anatomy of each effect (bars: mean, whiskers: 95% CI)")
    ax.legend(loc="best")
    return fig


def _sprt_stop(ax, comparison: dict) -> None:
    """Where this comparison's SPRT decided (a run goes on until every comparison has)."""
    sprt = comparison.get("sprt")
    if sprt and sprt["decision"]:
        ax.axvline(sprt["decks"], color="0.2", ls="--", lw=1, label=f"SPRT decided {sprt['decision']}")


def convergence_figure(data: ReportData) -> Figure:
    """The running mean difference with its 95% CI band after each chunk of decks: whether the
    answer had settled, and where the SPRT stopped the run."""
    comparisons = data.comparisons
    fig = Figure(figsize=PAGE, layout="constrained")
    axes = np.atleast_1d(fig.subplots(len(comparisons), 1, sharex=True, squeeze=False)[:, 0])
    for k, (ax, c) in enumerate(zip(axes, comparisons)):
        rows = data.convergence.filter(pl.col("comparison") == k)
        colour = arm_colour(data.spec, c["a"])
        ax.fill_between(rows["decks"], rows["ci_low"], rows["ci_high"], color=colour, alpha=0.25, label="95% CI")
        ax.errorbar(rows["decks"], rows["mean_diff"], yerr=[rows["mean_diff"] - rows["ci_low"],
                    rows["ci_high"] - rows["mean_diff"]], fmt="o-", color=colour, ms=3, lw=2, capsize=3,
                    label="running mean")  # whiskers too: a one-chunk run has no band to see
        ax.set_xlim(left=0)
        ax.axhline(0, color="0.3", lw=1)
        _sprt_line(ax.axhline, data)
        _sprt_stop(ax, c)
        ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:,.0f}"))
        ax.set_ylabel("A − B\n(points/deal)")
        ax.set_title(_label(c), fontsize=12, loc="left")
        ax.legend(loc="upper right", ncols=4, fontsize=9)
    axes[-1].set_xlabel("decks played (each dealt once per seat rotation)")
    fig.suptitle(f"{data.spec.name}: convergence of the difference per chunk of {data.spec.chunk:,} decks")
    return fig
