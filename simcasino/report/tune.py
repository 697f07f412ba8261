"""The pages of a house-rule sweep: the table of every setting (the answer), then one chart
per metric across the settings with 95% CI error bars.

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
from simcasino.report.style import PAGE, series_colour
from simcasino.report.tables import frame_pages
from simcasino.tune.run import Metric, TuneResult, display_table, metrics
from simcasino.tune.sweep import label_of, show


def tune_pages(result: TuneResult) -> Iterator[tuple[str, Figure]]:
    """The table pages (the self-play metrics, then the skill gaps, so a page stays readable),
    then a chart per metric (page names for the PNGs: table-N, the metric)."""
    spec = result.spec
    n = 0
    for paired, what in ((False, f"{spec.strategy.label} in every seat"), (True, "skill gaps on paired decks")):
        shown = [m for m in metrics(spec) if m.paired == paired]
        title = f"{spec.name}: {what}, mean [95% CI] per setting"
        for page in frame_pages(title, display_table(spec, result.table, shown), footer=_footer(result)):
            n += 1
            yield f"table-{n}", page
    for metric in metrics(spec):
        yield re.sub(r"[^a-z0-9]+", "-", metric.key.lower()).strip("-"), metric_figure(result, metric)


def _footer(result: TuneResult) -> str:
    spec = result.spec
    ladder = " > ".join(s.label for s in spec.ladder)
    varied = "; ".join(f"{key} = {', '.join(show(v) for v in values)}" for key, values in spec.axes)
    lines = [
        (f"{spec.description}. " if spec.description else "")
        + f"Base rules: {spec.base.name} ({spec.base.players} players); varied: {varied}.",
        f"Every setting: {spec.decks:,} decks and {spec.games:,} games with {spec.strategy.label} in every seat "
        f"(first player, volatility, tabbes, ties, game length); skill gaps: {ladder}, each rung against the next on "
        f"the same decks and games, in every seat rotation.",
        f"Seed {spec.seed} (every setting is dealt the same decks) · simcasino {__version__} · {result.folder}",
    ]
    return "\n".join(textwrap.fill(line, 160) for line in lines)


def metric_figure(result: TuneResult, metric: Metric) -> Figure:
    """One metric across the settings: x the first varied key, a line per combination of the
    others, whiskers the 95% CI, and a reference line where there is one (no edge, even share)."""
    spec, table = result.spec, result.table
    (key, values), others = spec.axes[0], spec.axes[1:]
    numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)
    xs = np.array(values if numeric else range(len(values)), dtype=float)
    series = list(itertools.product(*(v for _, v in others)))
    spread = (np.ptp(xs) or 1.0) * 0.012  # lines side by side, so their whiskers do not hide each other
    scale = 100 if metric.percent else 1
    fig = Figure(figsize=PAGE, layout="constrained")
    ax = fig.subplots()
    for k, combo in enumerate(series):
        rows = table[k :: len(series)]  # settings run through the first key slowest
        mean, low, high = (rows[c].to_numpy() * scale for c in (metric.key, f"{metric.key}_ci_low",
                                                                  f"{metric.key}_ci_high"))
        label = label_of(tuple(zip((k for k, _ in others), combo))) or None
        ax.errorbar(xs + spread * (k - (len(series) - 1) / 2), mean, yerr=[mean - low, high - mean], fmt="o-",
                    ms=7, lw=2, capsize=5, color=series_colour(k), label=label)
    _reference(ax, metric, table, scale)
    ax.set_xticks(xs, [show(v) for v in values])
    ax.set_xlabel(key)
    ax.set_ylabel(metric.axis + (" (%)" if metric.percent else ""))
    how = "paired decks, seats rotated" if metric.paired else f"{spec.strategy.label} in every seat"
    ax.set_title(f"{spec.name}: {metric.title} by setting (bars: 95% CI; {how})")
    if ax.get_legend_handles_labels()[0]:
        ax.legend(loc="best")
    return fig


def _reference(ax, metric: Metric, table, scale: float) -> None:
    if metric.reference == "zero":
        ax.axhline(0, color="0.3", lw=1, label="no difference")
    elif metric.reference == "fair" and table["fair_share"].n_unique() == 1:
        ax.axhline(table["fair_share"][0] * scale, color="0.3", lw=1, ls="--", label="even share")
