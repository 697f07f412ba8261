"""The pages of a house-rule sweep: a page of sentences answering its questions (which setting
lengthens games, moves the first player's edge, changes how much skill counts), the table of
every setting, then one chart per metric across the settings with 95% CI error bars; a metric
the same in every setting gets a sentence instead of a chart of flat lines.

A chart puts the first varied key on the x axis (to scale when its values are numbers, such as
targets) and draws one line per combination of the other keys, each in its own colour on
every chart, so "Överspader on" is the same orange wherever it appears.
"""

from __future__ import annotations

import itertools
import re
import textwrap
from collections.abc import Iterator

import numpy as np
from matplotlib.figure import Figure

from simcasino import __version__
from simcasino.experiment.metrics import Metric, cell_text
from simcasino.report.layout import Column
from simcasino.report.style import PAGE, series_colour
from simcasino.report.tables import frame_pages
from simcasino.tune.run import TuneResult, display_table, metrics
from simcasino.tune.sweep import label_of, show


def tune_pages(result: TuneResult) -> Iterator[tuple[str, Figure]]:
    """The answer in sentences, the table pages (the self-play metrics, then the skill gaps, so
    a page stays readable), then a chart per metric that changes (page names for the PNGs:
    answer, table-N, the metric)."""
    spec = result.spec
    yield "answer", answer_page(result)
    n = 0
    for paired, what in (
        (False, f"{spec.strategy.label} in every seat"),
        (True, "skill gaps on paired decks"),
    ):
        shown = [m for m in metrics(spec) if m.paired == paired]
        title = f"{spec.name}: {what}, mean [95% CI] per setting"
        for page in frame_pages(
            title, display_table(spec, result.table, shown), footer=_footer(result)
        ):
            n += 1
            yield f"table-{n}", page
    for metric in metrics(spec):
        if not same_everywhere(result, metric):
            yield (
                re.sub(r"[^a-z0-9]+", "-", metric.key.lower()).strip("-"),
                metric_figure(result, metric),
            )


QUESTIONS = (  # the designer's questions, each with the metrics that answer it
    ("Which setting lengthens games?", ("deals_per_game",)),
    ("Which setting moves the first player's edge?", ("first_player_points", "first_player_wins")),
    ("Which setting changes how much skill counts?", ("gap_", "wins_")),
    ("And the rest of the game:", ("points_sd", "tabbes_per_deal", "cards_tied")),
)


def same_everywhere(result: TuneResult, metric: Metric) -> bool:
    """Whether every setting gave this metric the same figure (the settings are dealt the same
    decks, so a rule that cannot touch it leaves it exactly equal)."""
    return result.table[metric.key].drop_nulls().n_unique() <= 1


def answer_page(result: TuneResult) -> Figure:
    """Per question, a sentence per metric: its smallest and largest figure and the settings
    that gave them, and whether their 95% intervals leave each other out; the metrics the same
    in every setting in one sentence (their charts are left out)."""
    spec, table = result.spec, result.table
    fig = Figure(figsize=PAGE)
    page = Column(fig, top=0.95)
    page.write(f"{spec.name}: what the house rules change", fontsize=22, weight="bold")
    for line in _about(result):
        page.write(line, fontsize=10, color="0.3", gap=0.004)
    page.skip(0.025)
    flat = [m for m in metrics(spec) if same_everywhere(result, m)]
    for question, keys in QUESTIONS:
        moving = [m for m in metrics(spec) if m.key.startswith(keys) and m not in flat]
        if not moving:
            continue
        page.write(question, fontsize=14, weight="bold", gap=0.008)
        for metric in moving:
            page.write(
                _range_sentence(table, metric), indent=0.02, fontsize=11.5, hanging="  ", gap=0.008
            )
        page.skip(0.015)
    if flat:
        page.write(
            "The same in every setting: " + ", ".join(m.title for m in flat) + " (no chart).",
            fontsize=11.5,
            gap=0.015,
        )
    page.write(
        "Each figure is its setting's mean [95% CI]; the intervals are each setting's own, not "
        "simultaneous over the settings, so a pair whose intervals leave each other out is a sign "
        "to measure again, not a finding.",
        fontsize=10,
        color="0.3",
    )
    return fig


def _range_sentence(table, metric: Metric) -> str:
    """ "deals per game: from 1.81 [1.78, 1.85] (target=11, overspader=on) to 3.24 [3.20, 3.28]
    (target=21, overspader=off), intervals apart"."""
    rows = table.select(
        "setting", metric.key, f"{metric.key}_ci_low", f"{metric.key}_ci_high"
    ).drop_nulls()
    low, high = rows.row(rows[metric.key].arg_min()), rows.row(rows[metric.key].arg_max())
    apart = "their intervals apart" if low[3] < high[2] else "within each other's intervals"
    unit = " (%)" if metric.percent else ""
    return (
        f"{metric.title}{unit}: from {cell_text(metric, *low[1:])} ({low[0]}) to "
        f"{cell_text(metric, *high[1:])} ({high[0]}), {apart}"
    )


def _footer(result: TuneResult) -> str:
    return "\n".join(textwrap.fill(line, 160) for line in _about(result))


def _about(result: TuneResult) -> list[str]:
    """What the sweep played, a line each: the question and rules, the sizes, the seed."""
    spec = result.spec
    ladder = " > ".join(s.label for s in spec.ladder)
    varied = "; ".join(f"{key} = {', '.join(show(v) for v in values)}" for key, values in spec.axes)
    lines = [
        (f"{spec.description}. " if spec.description else "")
        + f"Base rules: {spec.base.name} ({spec.base.players} players); varied: {varied}.",
        f"Every setting: {spec.decks:,} decks and {spec.games:,} games with {spec.strategy.label} "
        "in every seat (first player, volatility, tabbes, ties, game length); skill gaps: "
        f"{ladder}, each rung against the next on the same decks and games, in every seat "
        "rotation.",
        f"Seed {spec.seed} (every setting is dealt the same decks) · simcasino {__version__} · "
        f"{result.folder}",
    ]
    return lines


def metric_figure(result: TuneResult, metric: Metric) -> Figure:
    """One metric across the settings: x the first varied key, a line per combination of the
    others, whiskers the 95% CI, and a reference line where there is one (no edge, even share)."""
    spec, table = result.spec, result.table
    (key, values), others = spec.axes[0], spec.axes[1:]
    numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)
    xs = np.array(values if numeric else range(len(values)), dtype=float)
    series = list(itertools.product(*(v for _, v in others)))
    spread = (
        np.ptp(xs) or 1.0
    ) * 0.012  # lines side by side, so their whiskers do not hide each other
    scale = 100 if metric.percent else 1
    fig = Figure(figsize=PAGE, layout="constrained")
    ax = fig.subplots()
    for k, combo in enumerate(series):
        rows = table[k :: len(series)]  # settings run through the first key slowest
        mean, low, high = (
            rows[c].to_numpy() * scale
            for c in (metric.key, f"{metric.key}_ci_low", f"{metric.key}_ci_high")
        )
        label = label_of(tuple(zip((k for k, _ in others), combo))) or None
        ax.errorbar(
            xs + spread * (k - (len(series) - 1) / 2),
            mean,
            yerr=[mean - low, high - mean],
            fmt="o-",
            ms=7,
            lw=2,
            capsize=5,
            color=series_colour(k),
            label=label,
        )
    _reference(ax, metric, table, scale)
    ax.set_xticks(xs, [show(v) for v in values])
    ax.set_xlabel(key)
    ax.set_ylabel(metric.axis + (" (%)" if metric.percent else ""))
    how = "paired decks, seats rotated" if metric.paired else f"{spec.strategy.label} in every seat"
    ax.set_title(f"{spec.name}: {metric.title} by setting (bars: 95% CI; {how})")
    if metric.percent:
        ax.set_ylim(
            0, 100
        )  # a rate's axis from zero: a few points of a share look as large as they are
    if ax.get_legend_handles_labels()[0]:
        fig.legend(
            loc="outside lower center", ncols=4, frameon=False
        )  # under the chart: it hides no whisker
    return fig


def _reference(ax, metric: Metric, table, scale: float) -> None:
    if metric.reference == "zero":
        ax.axhline(0, color="0.3", lw=1, label="no difference")
    elif metric.reference == "fair" and table["fair_share"].n_unique() == 1:
        ax.axhline(table["fair_share"][0] * scale, color="0.3", lw=1, ls="--", label="even share")
