"""The pages with pictures: the answer (first page), the forest plot of effects, the anatomy
of each effect by scoring component, the convergence of the running mean (and the SPRT's
path), the distributions of points per deal, and the matrix of a tournament.

Each function takes `ReportData` and returns one matplotlib Figure the size of a page (or
None when the run has nothing for that page); the document writes it to the PDF and its PNG.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Callable
from typing import Any

import matplotlib
import numpy as np
import polars as pl
from matplotlib.collections import PolyCollection
from matplotlib.container import ErrorbarContainer
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.ticker import FuncFormatter, MaxNLocator

from simcasino.experiment.spec import Spec
from simcasino.experiment.summary import COMPONENT_LABELS, COMPONENTS, zero_components, zero_note
from simcasino.report.data import ReportData
from simcasino.report.layout import Column
from simcasino.report.style import PAGE, arm_colour
from simcasino.report.text import (
    answer,
    arm_words,
    ci_name,
    evidence,
    interval,
    p_phrase,
    run_size,
    signed,
    significant,
    sprt_reading,
    sprt_sentence,
)
from simcasino.sequential import Sprt

DIFF_LABEL = "difference A − B (points per deal)"
COMPONENT_WORDS = {
    "big_kasino": "big kasino (10♦)",
    "small_kasino": "small kasino (2♠)",
}  # on charts: words first


def _label(comparison: dict) -> str:
    return f"{comparison['a']} − {comparison['b']}"


def cover_page(data: ReportData) -> Figure:
    """The question and the answer on one page: what was compared under which rules, and per
    comparison one sentence in words with the effect, its simultaneous 95% CI and the verdict.
    Every line is wrapped to the page as measured; a long page is drawn again smaller."""
    for scale in (1.0, 0.85, 0.72, 0.6):
        fig, fits = _cover(data, scale)
        if fits:
            break
    return fig


def _cover(data: ReportData, scale: float) -> tuple[Figure, bool]:
    spec, summary = data.spec, data.result.data
    fig = Figure(figsize=PAGE)
    page = Column(fig, top=0.95)
    page.write(spec.name, fontsize=24 * scale, weight="bold")
    page.write(spec.description, fontsize=13 * scale, gap=0.03 * scale)
    lines = [
        f"Rules: {summary['rules']}, {summary['players']} players",
        "Players: " + "; ".join(f"{name} = {words}" for name, words in _arm_words(spec).items()),
        "Played: " + run_size(summary) + _status(data),
        f"Seed: {summary['seed']}    Design: "
        + (
            f"every arm against {spec.baseline}"
            if spec.baseline
            else "; ".join(f"{a} against {b}" for a, b in spec.pairs)
            if spec.pairs
            else spec.design
        ),
        f"Intervals: {summary['interval']}, as {summary['interval_why']}"
        + (
            f"; equivalence margin ±{spec.margin:g} points per deal"
            if spec.margin is not None
            else ""
        ),
        *([sprt_sentence(summary["sprt"])] if "sprt" in summary else []),
    ]
    for line in lines:
        page.write(line, fontsize=12 * scale, hanging="    ", gap=0.008 * scale)
    m = len(data.comparisons)
    page.skip(0.025 * scale)
    page.write(
        f"Answer (A − B, {ci_name(data.comparisons[0]) if m else '95% CI'}; verdict after "
        f"Bonferroni's correction across {m} comparison{'s' if m > 1 else ''}, the same as the "
        "interval's):",
        fontsize=13 * scale,
        weight="bold",
        gap=0.02 * scale,
    )
    for c in data.comparisons:
        colour = arm_colour(spec, c["a"]) if significant(c) else "0.25"
        page.write(
            answer(c),
            indent=0.02,
            fontsize=(15 if m <= 4 else 12) * scale,
            color=colour,
            weight="bold",
            gap=0.006,
        )
        reading = sprt_reading(c)
        page.write(
            evidence(c),
            indent=0.02,
            fontsize=10 * scale,
            color="0.3",
            gap=(0.004 if reading else 0.022) * scale,
        )
        if reading:
            page.write(
                reading,
                indent=0.02,
                fontsize=10 * scale,
                color="0.3",
                style="italic",
                gap=0.022 * scale,
            )
    fig.text(
        0.05,
        0.03,
        f"simcasino {data.version} · run {summary['run_id']} · {data.folder}",
        fontsize=9,
        color="0.4",
    )
    return fig, page.fits


def _arm_words(spec: Spec) -> dict[str, str]:
    """What each arm plays, in words (`report.text.arm_words`)."""
    return arm_words({name: s.text for name, s in spec.arms.items()})


def _status(data: ReportData) -> str:
    if not data.complete and not data.result.data["stopped_early"]:
        return f", IN PROGRESS: {data.chunks_done} of {data.chunks_planned} chunks stored"
    return ""


def forest_figure(data: ReportData) -> Figure:
    """Effect sizes with simultaneous 95% CIs (all cover together), one row per comparison;
    filled markers are findings after Bonferroni's correction, the same correction as the
    intervals', so a filled marker's interval never holds 0."""
    fig = Figure(figsize=PAGE, layout="constrained")
    ax = fig.subplots()
    comparisons = data.comparisons
    ys = np.arange(len(comparisons))[::-1]
    for y, c in zip(ys, comparisons):
        colour, filled = arm_colour(data.spec, c["a"]), significant(c)
        ax.errorbar(
            c["mean_diff"],
            y,
            xerr=_whiskers(c["mean_diff"], c["sim_low"], c["sim_high"]),
            fmt="o",
            ms=10,
            capsize=6,
            lw=2,
            color=colour,
            mfc=colour if filled else "white",
            mew=2,
        )
        ax.annotate(
            f"{signed(c['mean_diff'])} {interval(c['sim_low'], c['sim_high'])}  "
            f"{p_phrase('Bonferroni p', c['p_adjusted'])}",
            (c["sim_high"], y),
            xytext=(10, 8),
            textcoords="offset points",
            fontsize=10,
            color=colour,
        )
    ax.axvline(0, color="0.3", lw=1)
    _sprt_line(ax.axvline, data)
    if data.spec.margin is not None:
        for side, label in ((-1, f"equivalence margin ±{data.spec.margin:g}"), (1, None)):
            ax.axvline(side * data.spec.margin, color="0.5", ls="-.", lw=1.5, label=label)
    ax.set_yticks(ys, [_label(c) for c in comparisons])
    ax.set_ylim(-0.7, len(comparisons) - 0.3)
    ax.margins(x=0.25)
    ax.set_xlabel(DIFF_LABEL)
    ax.set_title(f"{data.spec.name}: effect per comparison, {ci_name(comparisons[0])}")
    handles = [
        Line2D([], [], marker="o", ls="", color="0.3", ms=9, label="finding (Bonferroni p < 0.05)"),
        Line2D(
            [],
            [],
            marker="o",
            ls="",
            color="0.3",
            mfc="white",
            ms=9,
            label="no detectable difference",
        ),
    ]
    figure_legend(fig, data, [ax], handles)
    return fig


def _whiskers(mean: float, low: float, high: float) -> np.ndarray:
    """(2, 1) lengths below and above ``mean`` of its interval; none for an anytime interval
    not given yet (too few decks: from -inf to inf)."""
    if not (math.isfinite(low) and math.isfinite(high)):
        return np.zeros((2, 1))
    return np.array([[mean - low], [high - mean]])


def _sprt_line(draw: Callable, data: ReportData) -> None:
    """The SPRT's H1 effect (``draw`` is ``ax.axvline`` or ``ax.axhline``), when the run has one."""
    if data.spec.sprt:
        draw(
            data.spec.sprt.high,
            color="0.5",
            ls=":",
            lw=1.5,
            label=f"SPRT H1 = {data.spec.sprt.high:g}",
        )


def anatomy_figure(data: ReportData) -> Figure:
    """Where each effect comes from: A − B per deal by scoring component, diverging from zero,
    one bar per comparison in the arm's colour (the components add up to the effect)."""
    table = data.result.table
    parts = [m for m in COMPONENTS if m not in zero_components(table)]
    fig = Figure(figsize=PAGE, layout="constrained")
    ax = fig.subplots()
    comparisons = data.comparisons
    height = 0.8 / len(comparisons)
    ys = np.arange(len(parts))[::-1]
    for k, c in enumerate(comparisons):
        est = [c["components"][m] for m in parts]
        means = np.array([e["mean_diff"] for e in est])
        errors = np.hstack([_whiskers(e["mean_diff"], e["ci_low"], e["ci_high"]) for e in est])
        ax.barh(
            ys + 0.4 - height * (k + 0.5),
            means,
            height=height,
            xerr=errors,
            capsize=3,
            color=arm_colour(data.spec, c["a"]),
            label=f"{_label(c)} (total {signed(c['mean_diff'])})",
            error_kw={"lw": 1, "ecolor": "0.2"},
        )
    ax.axvline(0, color="0.3", lw=1)
    ax.set_yticks(ys, [COMPONENT_WORDS.get(m, COMPONENT_LABELS[m]) for m in parts])
    zero = zero_components(table)
    ax.set_xlabel(
        DIFF_LABEL + ", by scoring component" + (f"\n({zero_note(zero)})" if zero else "")
    )
    ax.set_title(f"{data.spec.name}: anatomy of each effect (bars: mean, whiskers: 95% CI)")
    figure_legend(fig, data, [ax])
    return fig


def _sprt_stop(ax, comparison: dict) -> None:
    """Where this comparison's SPRT decided (a run goes on until every comparison has)."""
    sprt = comparison.get("sprt")
    if sprt and sprt["decision"]:
        ax.axvline(
            sprt["decks"], color="0.2", ls="--", lw=1, label=f"SPRT decided {sprt['decision']}"
        )


def _frozen(ax, comparison: dict) -> None:
    """The comparison's figures where its SPRT decided, kept whatever the run played after."""
    sprt = comparison.get("sprt")
    if sprt and sprt["decision"]:
        mean = comparison["mean_diff"]
        ax.errorbar(
            [sprt["decks"]],
            [mean],
            yerr=[[mean - comparison["ci_low"]], [comparison["ci_high"] - mean]],
            fmt="D",
            color="0.2",
            ms=5,
            capsize=4,
            label="frozen at the decision",
        )


def convergence_figure(data: ReportData) -> Figure:
    """The running mean difference with its 95% CI band after each chunk of decks: whether the
    answer had settled, and where the SPRT stopped the run; with a stopping rule, beside it
    the SPRT's path (its log-likelihood ratio after each chunk) between its two bounds."""
    comparisons, sprt = data.comparisons, data.spec.sprt
    fig = Figure(figsize=PAGE, layout="constrained")
    grid = fig.subplots(len(comparisons), 2 if sprt else 1, sharex=True, squeeze=False)
    for k, c in enumerate(comparisons):
        ax = grid[k, 0]
        rows = data.convergence.filter(pl.col("comparison") == k)
        colour = arm_colour(data.spec, c["a"])
        ax.fill_between(
            rows["decks"],
            rows["ci_low"],
            rows["ci_high"],
            color=colour,
            alpha=0.25,
            label=f"95% CI ({c['interval']})",
        )
        ax.errorbar(
            rows["decks"],
            rows["mean_diff"],
            yerr=[rows["mean_diff"] - rows["ci_low"], rows["ci_high"] - rows["mean_diff"]],
            fmt="o-",
            color=colour,
            ms=3,
            lw=2,
            capsize=3,
            label="running mean",
        )  # whiskers too: a one-chunk run has no band to see
        ax.axhline(0, color="0.3", lw=1)
        _sprt_line(ax.axhline, data)
        _sprt_stop(ax, c)
        _frozen(ax, c)
        ax.set_ylabel("A − B\n(points/deal)")
        ax.set_title(_label(c), fontsize=12, loc="left")
        if sprt:
            _sprt_path(grid[k, 1], rows, c, colour, sprt, len(comparisons))
    for ax in grid.flat:
        ax.set_xlim(left=0)
        ax.xaxis.set_major_locator(MaxNLocator(6))  # wide labels such as 16,000 need room
        ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:,.0f}"))
    for ax in grid[-1]:
        ax.set_xlabel("decks played (each dealt once per seat rotation)")
    fig.suptitle(
        f"{data.spec.name}: convergence of the difference per chunk of {data.spec.chunk:,} decks"
        + (" and the SPRT's path" if sprt else "")
    )
    figure_legend(fig, data, grid.flat, coloured=("95% CI", "running mean", "log-likelihood ratio"))
    return fig


def figure_legend(
    fig: Figure,
    data: ReportData,
    axes=(),
    handles: list | None = None,
    coloured: tuple[str, ...] = (),
) -> None:
    """The figure's one legend, under its panels where it hides no data, titled with what each
    arm plays in words (page 1's words): each label of ``axes`` (or ``handles``) once, those
    drawn in each comparison's own colour (labels starting with ``coloured``) shown in grey."""
    entries: dict[str, Any] = {h.get_label(): h for h in handles or []}
    for ax in axes:
        for handle, label in zip(*ax.get_legend_handles_labels()):
            entries.setdefault(label, _grey(handle) if label.startswith(coloured) else handle)
    key = "; ".join(f"{name} = {words}" for name, words in _arm_words(data.spec).items())
    legend = fig.legend(
        list(entries.values()),
        list(entries),
        loc="outside lower center",
        fontsize=9,
        ncols=max(1, min(4, len(entries))),
        frameon=False,
        title=textwrap.fill("Arms: " + key, 160),
        title_fontsize=9,
    )
    legend.get_title().set_color("0.3")


def _grey(handle: Any) -> Any:
    """A grey stand-in for a legend entry drawn in each comparison's colour: a band stays a
    band, a line (or a mean with whiskers) a line with its markers."""
    if isinstance(handle, PolyCollection):
        return Patch(color="0.45", alpha=0.35)
    line = handle.lines[0] if isinstance(handle, ErrorbarContainer) else handle
    return Line2D(
        [],
        [],
        color="0.45",
        ls=line.get_linestyle(),
        lw=line.get_linewidth(),
        marker=line.get_marker(),
        ms=line.get_markersize(),
    )


def _sprt_path(
    ax, rows: pl.DataFrame, comparison: dict, colour, sprt: Sprt, comparisons: int
) -> None:
    """The log-likelihood ratio after each chunk until the comparison decided, and where it
    decided (the run looks after every deck), between the bounds where the SPRT accepts H1
    (above) or H0 (below): those of each of the run's comparisons."""
    lower, upper = sprt.bounds(comparisons)
    decided = comparison["sprt"]
    shown = rows.filter(
        pl.col("llr").is_not_null()
        & pl.col("llr").is_finite()
        & (pl.col("decks") < (decided["decks"] or float("inf")))
    )
    decks, llr = [0, *shown["decks"]], [0.0, *shown["llr"]]
    if decided["llr"] is not None:
        decks, llr = [*decks, decided["decks"]], [*llr, decided["llr"]]
    ax.plot(
        decks, llr, "o-", color=colour, ms=3, lw=2, label="log-likelihood ratio (0 before any deck)"
    )
    ax.axhline(
        upper, color="tab:green", ls="--", lw=1.5, label=f"accept H1: at least {sprt.high:g}"
    )
    ax.axhline(lower, color="tab:red", ls="--", lw=1.5, label=f"accept H0: at most {sprt.low:g}")
    _sprt_stop(ax, comparison)
    ax.set_ylabel("SPRT log-likelihood\nratio")
    over = "" if comparisons == 1 else f" over {comparisons} comparisons"
    ax.set_title(f"SPRT, α = {sprt.alpha:g}, β = {sprt.beta:g}{over}", fontsize=12, loc="left")


def distributions_figure(data: ReportData) -> Figure | None:
    """Per comparison: how A's and B's points per deal are spread (share of deals at each
    value), and the spread of the difference A − B; from the chunks' histograms (None for a
    run written before chunks kept them)."""
    if data.distributions is None:
        return None
    comparisons, seats_b = data.comparisons, data.spec.rules.players - 1
    fig = Figure(figsize=PAGE, layout="constrained")
    grid = fig.subplots(len(comparisons), 2, squeeze=False)
    for k, c in enumerate(comparisons):
        rows = data.distributions.filter(pl.col("comparison") == k)
        left, right = grid[k]
        means = []
        for which, arm, offset in (("A", c["a"], -0.2), ("B", c["b"], 0.2)):
            part = rows.filter(pl.col("which") == which)
            share = part["count"] / part["count"].sum() * 100
            means.append((part["value"] * part["count"]).sum() / part["count"].sum())
            left.bar(
                part["value"] + offset,
                share,
                width=0.4,
                color=arm_colour(data.spec, arm),
                label=arm,
            )
        left.set_title(
            f"{_label(c)}: mean {means[0]:.2f} against {means[1]:.2f}", fontsize=11, loc="left"
        )
        part = rows.filter(pl.col("which") == "difference")
        values = part["value"] / seats_b  # the chunks keep (players − 1) × (A − mean B)
        right.bar(
            values,
            part["count"] / part["count"].sum() * 100,
            width=0.8 / seats_b,
            color=arm_colour(data.spec, c["a"]),
        )
        right.axvline(0, color="0.3", lw=1)
        right.axvline(c["mean_diff"], color="0.1", ls="--", lw=1.5, label="the mean difference")
        right.set_title(f"{_label(c)}: mean {signed(c['mean_diff'])}", fontsize=11, loc="left")
    grid[-1, 0].set_xlabel(
        "points per deal (B: each of its seats)" if seats_b > 1 else "points per deal"
    )
    grid[-1, 1].set_xlabel(DIFF_LABEL)
    fig.supylabel("share of deals (%)")  # once: a label a row would write over its neighbours
    fig.suptitle(
        f"{data.spec.name}: distribution of points per deal, per arm and of the difference"
    )
    figure_legend(
        fig, data, grid.flat
    )  # the arms' colours, under the panels rather than over the bars
    return fig


def matrix_figure(data: ReportData) -> Figure | None:
    """A round robin of more than two arms as matrices, row arm against column arm: the difference
    in points per deal (and A's game win rate when games were played), each measured cell annotated
    with its value and simultaneous 95% CI, findings after Bonferroni in bold. With two players the
    mirror cell of a points difference is its negative (the same decks, seats swapped); other mirror
    cells were not measured and stay blank."""
    arms = list(data.spec.arms)
    if (
        len(arms) <= 2 or data.spec.design != "round-robin"
    ):  # else most cells are empty: the forest says it all
        return None
    games = all("games" in c for c in data.comparisons)
    fig = Figure(figsize=PAGE, layout="constrained")
    axes = fig.subplots(1, 2 if games else 1, squeeze=False)[0]
    two = data.spec.rules.players == 2
    points = [
        (c["a"], c["b"], c["mean_diff"], c["sim_low"], c["sim_high"], significant(c))
        for c in data.comparisons
    ]
    if two:
        points += [(b, a, -m, -high, -low, bold) for a, b, m, low, high, bold in points]
    _matrix(axes[0], arms, points, "row − column, points per deal", 0.0, "{:+.2f}")
    if games:
        rates = [
            (
                c["a"],
                c["b"],
                c["games"]["win_rate"],
                c["games"]["win_ci_low"],
                c["games"]["win_ci_high"],
                False,
            )
            for c in data.comparisons
        ]
        _matrix(
            axes[1],
            arms,
            rates,
            "row's game win rate against column",
            1 / data.spec.rules.units,
            "{:.1%}",
        )
    fig.suptitle(
        f"{data.spec.name}: every comparison as a matrix (95% CI in brackets; points: simultaneous)"
    )
    figure_legend(fig, data)
    return fig


def _matrix(ax, arms: list[str], cells: list[tuple], title: str, centre: float, fmt: str) -> None:
    """An annotated heatmap of ``cells`` (row, column, value, low, high, bold), coloured by
    the distance from ``centre`` (blue above, red below); unmeasured cells grey."""
    index = {arm: i for i, arm in enumerate(arms)}
    grid = np.full((len(arms), len(arms)), np.nan)
    for row, col, value, *_ in cells:
        grid[index[row], index[col]] = value
    reach = np.nanmax(np.abs(grid - centre)) or 1.0
    cmap = matplotlib.colormaps["RdBu"].with_extremes(bad="0.92")
    image = ax.imshow(
        np.ma.masked_invalid(grid), cmap=cmap, vmin=centre - reach, vmax=centre + reach
    )
    for row, col, value, low, high, bold in cells:
        dark = abs(value - centre) > 0.6 * reach
        ax.text(
            index[col],
            index[row],
            f"{fmt.format(value)}\n[{fmt.format(low)}, {fmt.format(high)}]",
            ha="center",
            va="center",
            fontsize=9 if len(arms) <= 5 else 7,
            color="white" if dark else "0.1",
            weight="bold" if bold else "normal",
        )
    ax.set_xticks(range(len(arms)), arms, rotation=30, ha="right")
    ax.set_yticks(range(len(arms)), arms)
    ax.set_xlabel("column arm")
    ax.set_ylabel("row arm")
    ax.set_title(title)
    ax.spines[:].set_visible(False)
    ax.figure.colorbar(image, ax=ax, shrink=0.7)
