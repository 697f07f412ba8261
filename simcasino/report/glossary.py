"""The glossary page: the statistics words of the report, one line each, so a club player can
read the first page without a statistics course."""

from __future__ import annotations

import textwrap

from matplotlib.figure import Figure

from simcasino.report.data import ReportData
from simcasino.report.style import PAGE

GLOSSARY: dict[str, str] = {
    "difference A − B": "the points per deal A scored minus what B scored on the same decks; positive: A is better.",
    "interval (95% CI)": "the range that holds the true difference 95 times in 100; more decks make it narrower.",
    "simultaneous interval": "the intervals of all comparisons of a run widened so that all of them hold together "
                             "95 times in 100 (Bonferroni: each at 1 − 0.05/m for m comparisons).",
    "p": "how often a difference this large would appear by luck alone if A and B were equally good.",
    "Bonferroni p": "p times the number of comparisons (at most 1); below 0.05 is a finding, exactly when the "
                    "simultaneous interval leaves out 0.",
    "Holm": "a step-down form of Bonferroni that finds a little more; not used, as no interval agrees with it.",
    "SPRT": "a test checked after each chunk of decks that stops the run once the data clearly favour "
            "'no gain' or 'a gain of at least the stated size'.",
    "pairing": "every deck is played by both sides in every seat, so the luck of the cards cancels; "
               "'pairing ×' is how many times more decks an unpaired run would need.",
}


def glossary_page(data: ReportData) -> Figure:
    """The words of the report's statistics, one line each."""
    fig = Figure(figsize=PAGE)
    fig.text(0.05, 0.93, f"{data.spec.name}: the words of this report", fontsize=20, weight="bold")
    y = 0.84
    for word, meaning in GLOSSARY.items():
        fig.text(0.05, y, word, fontsize=12, weight="bold", va="top")
        fig.text(0.27, y, textwrap.fill(meaning, 95), fontsize=12, va="top", linespacing=1.4)
        y -= 0.09
    return fig
