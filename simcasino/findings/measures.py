"""The findings' measures, gathered once a run: per claim, table and stage of the deal the
contested positions (`Contest`: the mean gain clustered by deal, the shares better and worse,
the judge's noise), per arm its worth a deal, and the one family every interval of the page
belongs to (`Page`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from simcasino.findings.claims import claims_of
from simcasino.findings.contest import STAGES, Judged
from simcasino.findings.run import RULE_SETS, Findings
from simcasino.findings.verdict import POSITION_MARGIN, RARE, Family, Measured, clustered_mean, words
from simcasino.findings.worth import Worth

SIGNIFICANT = 1.959963984540054  # a position's own 95% two-sided z: "significantly better / worse"


@dataclass(frozen=True)
class Contest:
    """The contested positions of one claim in one table (and stage): the sampled ones'
    mean gain (clustered by deal), the shares significantly better / worse, the share the
    second judgment classes otherwise (the noise floor) and the judge's noise per position;
    the exactly solved ones apart."""

    gain: Measured
    better: float
    worse: float
    flips: float
    noise: float
    exact: int
    exact_gain: float


def contest(judged: Iterable[Judged]) -> Contest:
    """`Contest` over ``judged`` positions."""
    rows = list(judged)
    sampled = [j for j in rows if not j.exact]
    exact = [j.gain for j in rows if j.exact]
    gain = clustered_mean([j.gain for j in sampled], [j.deal for j in sampled])
    classes = [_class(j.gain, j.se) for j in sampled]
    again = [_class(j.again, j.again_se) for j in sampled]
    share = (lambda k: classes.count(k) / len(classes)) if classes else (lambda k: 0.0)
    flips = float(np.mean([a != b for a, b in zip(classes, again)])) if classes else 0.0
    noise = float(np.sqrt(np.mean([(j.gain - j.again) ** 2 for j in sampled]) / 2)) if sampled else 0.0
    return Contest(gain, share(1), share(-1), flips, noise, len(exact), float(np.mean(exact)) if exact else 0.0)


def _class(gain: float, se: float) -> int:
    if se == 0:
        return int(np.sign(gain))
    return 1 if gain > SIGNIFICANT * se else -1 if gain < -SIGNIFICANT * se else 0


class Page:
    """The measures of a findings run, gathered once, and the family of every interval shown."""

    def __init__(self, findings: Findings) -> None:
        self.findings = findings
        self.contests: dict[tuple, Contest] = {}
        for (rule_set, players), judged in findings.judged.items():
            for claim in claims_of(rule_set):
                mine = [j for j in judged if j.claim == claim.id]
                self.contests[(rule_set, players, claim.id)] = contest(mine)
        for rule_set in RULE_SETS:
            for claim in claims_of(rule_set):
                for stage in STAGES:
                    mine = [j for (r, _), judged in findings.judged.items() if r == rule_set for j in judged
                            if j.claim == claim.id and j.stage == stage]
                    self.contests[(rule_set, stage, claim.id)] = contest(mine)
        self.worths = {(w.base, w.rule_set, w.players, w.arm): w for w in findings.worths}
        shown = [c.gain for c in self.contests.values() if judgeable(c.gain)]
        shown += [self.deal_measure(w) for w in findings.worths]
        self.family = Family(len(shown))

    @staticmethod
    def deal_measure(w: Worth) -> Measured:
        return Measured(w.mean, w.se, w.decks)

    def position_words(self, key: tuple) -> str:
        return words(self.contests[key].gain, self.family, POSITION_MARGIN, "contested position", RARE)

    def cell(self, m: Measured, rare: int = 0) -> str:
        """A table cell: mean [family interval], bold where the interval leaves out 0."""
        if (rare and m.n < rare) or not np.isfinite(m.se):
            return f"too rare ({m.n})"
        low, high = self.family.interval(m)
        mark = "**" if low > 0 or high < 0 else ""
        return f"{mark}{m.mean:+.3f}{mark} [{low:+.3f}, {high:+.3f}]"


def judgeable(m: Measured) -> bool:
    return m.n >= RARE and bool(np.isfinite(m.se))
