"""The findings page's figure, one a rule set: what adopting each claim is worth a deal, per
level of player (2 players), with the page's family intervals: the measure the verdicts
rest on, so the picture and the words agree."""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from simcasino.advice.claims import claims_of
from simcasino.findings.measures import LEVELS, Page
from simcasino.findings.run import BASES
from simcasino.findings.verdict import DEAL_MARGIN, adoption
from simcasino.report.style import PAGE, series_colour

PLAYERS_SHOWN = 2  # the figure's table size (3 and 4 players are in the page's verdict lines)


def figure(page: Page, rule_set: str) -> Figure:
    """Per claim of ``rule_set`` and level: the worth a deal of adopting it (made to follow it
    against the same players free), with its family interval; filled where the page says "adopt it"
    or "don't", open for "either way" and "unproven"."""
    claims = claims_of(rule_set)
    fig = Figure(figsize=PAGE, layout="constrained")
    ax = fig.subplots()
    ys = np.arange(len(claims))[::-1]
    for k, base in enumerate(BASES):
        colour, offset = series_colour(k), 0.25 - 0.25 * k
        for y, claim in zip(ys, claims):
            worth = page.worths.get((base, rule_set, PLAYERS_SHOWN, claim.id))
            if worth is None:
                continue
            m = page.deal_measure(worth)
            low, high = page.family.interval(m)
            filled = adoption(m, page.family, DEAL_MARGIN) in (
                "adopt it",
                "don't",
            )  # as the page's words
            ax.errorbar(
                m.mean,
                y + offset,
                xerr=[[m.mean - low], [high - m.mean]],
                fmt="o",
                color=colour,
                mfc=colour if filled else "white",
                capsize=3,
                label=LEVELS[base] if y == ys[0] else None,
            )
    ax.axvline(0, color="grey", lw=1)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(loc="lower left")
    ax.set_yticks(ys, [f"{c.id} {c.tactic}" for c in claims])
    ax.set_xlabel(
        f"points a deal, adopting the advice less playing free, {PLAYERS_SHOWN} players "
        f"(one family of {page.family.size} intervals)"
    )
    ax.set_title(f"{rule_set.capitalize()}: what adopting the advice is worth, by level of player")
    return fig
