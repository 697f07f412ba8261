"""The findings page's figure, one a rule set: what each claim is worth to a strong player
where it applies, per player count, with the page's family intervals."""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from simcasino.findings.measures import Page, judgeable
from simcasino.findings.run import PLAYERS
from simcasino.findings.verdict import RARE
from simcasino.report.style import PAGE, series_colour
from simcasino.strategies.claims import claims_of


def figure(page: Page, rule_set: str) -> Figure:
    """Per claim of ``rule_set``: the gain a contested position per player count, with its
    family interval; filled where the interval leaves out 0."""
    claims = claims_of(rule_set)
    fig = Figure(figsize=PAGE, layout="constrained")
    ax = fig.subplots()
    ys = np.arange(len(claims))[::-1]
    for k, players in enumerate(PLAYERS):
        colour, offset = series_colour(k), 0.25 - 0.25 * k
        for y, claim in zip(ys, claims):
            m = page.contests[(rule_set, players, claim.id)].gain
            if not judgeable(m):
                continue
            low, high = page.family.interval(m)
            filled = low > 0 or high < 0
            ax.errorbar(m.mean, y + offset, xerr=[[m.mean - low], [high - m.mean]], fmt="o", color=colour,
                        mfc=colour if filled else "white", capsize=3,
                        label=f"{players} players" if y == ys[0] else None)
    for y, claim in zip(ys, claims):
        if not any(judgeable(page.contests[(rule_set, p, claim.id)].gain) for p in PLAYERS):
            ax.text(0.02, y, f"too rare to judge (fewer than {RARE} contested positions)", va="center",
                    color="grey", transform=ax.get_yaxis_transform())
    ax.axvline(0, color="grey", lw=1)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(loc="lower right")
    ax.set_yticks(ys, [f"{c.id} {c.tactic}" for c in claims])
    ax.set_xlabel(f"points a contested position, following less breaking (one family of {page.family.size} "
                  "intervals)")
    ax.set_title(f"{rule_set.capitalize()}: what the advice is worth to a strong player where it applies")
    return fig
