"""The glossary page: the statistics words of the report, one line each, so a club player can
read the first page without a statistics course."""

from __future__ import annotations

from matplotlib.figure import Figure

from simcasino.report.data import ReportData
from simcasino.report.layout import Column
from simcasino.report.style import PAGE

GLOSSARY: dict[str, str] = {
    "deal": "one hand of play, from the first cards dealt to the last card played and the scoring; "
    "the progress bar counts deals.",
    "deck": "one shuffle of the cards, dealt once per seat rotation of a comparison (in 3 players, "
    "3 deals of the same cards with the seats turned), so the luck of the cards cancels; runs are "
    "sized in decks. (The rules' knob decks is another thing: how many packs of 52 cards are "
    "shuffled together.)",
    "difference A − B": "the points per deal A scored minus what B scored on the same decks; "
    "positive: A is better.",
    "interval (95% CI)": "the range the true difference lies in, unless the run was one of the "
    "unlucky 5 in 100; more decks make it narrower. Its kind, fixed or anytime, is printed beside "
    "it.",
    "fixed interval": "Student's t interval, for a run whose size was set before it started: it "
    "holds the true difference in 95 of 100 such runs. Not when the data chose the size (a run "
    "stopped, resumed or grown after its result was seen): then it holds less often.",
    "anytime interval": "a confidence sequence (normal mixture, narrowest near 4,000 decks): it "
    "holds the true difference at every size of the run at once in about 95 of 100 runs, so also "
    "at the size an SPRT stop or a look chose; 1.5 to 1.9 times as wide as a fixed one from 1,000 "
    "to 1,000,000 decks. Its spread is estimated from the decks, which makes the promise hold as "
    "the run grows rather than from the first deck: it is given from 256 decks on.",
    "simultaneous interval": "the intervals of all comparisons of a run widened so that all of "
    "them hold together 95 times in 100 (Bonferroni: each at 1 − 0.05/m for m comparisons); "
    "verdicts read these.",
    "p": "how often a difference this large would appear by luck alone if A and B were equally "
    "good: fixed, for a size set in advance; anytime (the mixture SPRT's always-valid p), at "
    "whatever size the data chose. Below 0.05 exactly when the 95% interval of its kind leaves out "
    "0.",
    "Bonferroni p": "p times the number of comparisons (at most 1); below 0.05 is a finding, "
    "exactly when the simultaneous interval leaves out 0.",
    "Holm": "a step-down form of Bonferroni that finds a little more; not used, as no interval "
    "agrees with it.",
    "SPRT": "the sequential test of a spec's [stop]: 'A gains at most L' (H0) against 'at least H' "
    "(H1), looked at after every deck from the 256th; a comparison that decides stops there, its "
    "figures frozen. Over all a run's comparisons together it takes a gain of at most L for H1 in "
    "about α of runs, one of at least H for H0 in about β: about, as it estimates the spread from "
    "the decks (measured at a nominal 5% over 1,000 runs each: α 6.0%, β 4.4%); between L and H "
    "either answer may come.",
    "equivalence": "with a margin D (compare --margin, a spec's margin): 'no difference larger "
    "than D' when the simultaneous interval lies inside ±D: two one-sided tests, each at 2.5%.",
    "pairing": "every deck is played by both sides in every seat, so the luck of the cards "
    "cancels; 'pairing ×' is how many times more deals an unpaired run, each deal a fresh deck, "
    "would need for the same interval.",
}


def glossary_page(data: ReportData) -> Figure:
    """The words of the report's statistics, one entry each, the meanings wrapped to the page
    as drawn (`layout.Column`); drawn again smaller if they do not fit."""
    for size in (10.5, 9.5, 8.5, 7.5):
        fig = Figure(figsize=PAGE)
        fig.text(
            0.05, 0.93, f"{data.spec.name}: the words of this report", fontsize=20, weight="bold"
        )
        meanings = Column(fig, top=0.87, left=0.22)
        for word, meaning in GLOSSARY.items():
            fig.text(0.05, meanings.y, word, fontsize=size, weight="bold", va="top")
            meanings.write(meaning, fontsize=size, linespacing=1.3, gap=0.014 * size / 10.5)
        if meanings.fits:
            break
    return fig
