"""The findings' measures, gathered once a run: per claim, table and stage of the deal the
contested positions (`Contest`: the mean gain clustered by deal beside its shuffled-label
level, what following instead is worth where the search's own move breaks the claim, the
spread of true gains with the judge's noise taken out), per arm its worth a deal, and the one
family every interval of the page belongs to (`Page`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from simcasino.advice.claims import claims_of
from simcasino.findings.contest import STAGES, Judged
from simcasino.findings.run import RULE_SETS, Findings
from simcasino.findings.verdict import (
    POSITION_MARGIN,
    RARE,
    Family,
    Measured,
    clustered_mean,
    words,
)
from simcasino.findings.worth import Worth

LEVELS = {
    "greedy": "a club player (greedy)",
    "heuristic": "a player who knows the books (the heuristic)",
    "search": "a strong player (the search)",
}  # the levels of player, in a reader's words


@dataclass(frozen=True)
class Contest:
    """The contested positions of one claim in one table (and stage), the sampled ones:
    ``gain`` the best following less the best breaking move (clustered by deal), ``shuffled``
    the same with the labels shuffled within each position (what best-versus-best reaches by
    the number of moves on each side alone), ``changed`` what following instead is worth where
    the search's own move broke the claim (exactly solved positions too), ``spread`` the
    standard deviation of the true gains across positions (the judge's noise taken out: the
    variance of the gains less their mean squared error), ``noise`` the judge's noise per
    position; the exactly solved ones apart."""

    gain: Measured
    shuffled: Measured
    changed: Measured
    spread: float
    noise: float
    exact: int
    exact_gain: float


def contest(judged: Iterable[Judged]) -> Contest:
    """`Contest` over ``judged`` positions."""
    rows = list(judged)
    sampled = [j for j in rows if not j.exact]
    exact = [j.gain for j in rows if j.exact]
    gain = clustered_mean([j.gain for j in sampled], [j.deal for j in sampled])
    shuffled = clustered_mean([j.shuffled for j in sampled], [j.deal for j in sampled])
    broke = [j for j in rows if j.played_breaks and np.isfinite(j.changed)]
    changed = clustered_mean([j.changed for j in broke], [j.deal for j in broke])
    gains, errors = np.array([j.gain for j in sampled]), np.array([j.se for j in sampled])
    spread = (
        float(np.sqrt(max(0.0, gains.var() - float(np.mean(errors**2)))))
        if len(sampled) > 1
        else 0.0
    )
    noise = (
        float(np.sqrt(np.mean([(j.gain - j.again) ** 2 for j in sampled]) / 2)) if sampled else 0.0
    )
    return Contest(
        gain, shuffled, changed, spread, noise, len(exact), float(np.mean(exact)) if exact else 0.0
    )


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
                    mine = [
                        j
                        for (r, _), judged in findings.judged.items()
                        if r == rule_set
                        for j in judged
                        if j.claim == claim.id and j.stage == stage
                    ]
                    self.contests[(rule_set, stage, claim.id)] = contest(mine)
        self.worths = {(w.base, w.rule_set, w.players, w.arm): w for w in findings.worths}
        shown = [
            m
            for c in self.contests.values()
            for m in (c.gain, c.shuffled, c.changed)
            if judgeable(m)
        ]
        shown += [self.deal_measure(w) for w in findings.worths]
        self.family = Family(len(shown))

    @staticmethod
    def deal_measure(w: Worth) -> Measured:
        return Measured(w.mean, w.se, w.decks)

    def position_words(self, key: tuple) -> str:
        return words(
            self.contests[key].gain, self.family, POSITION_MARGIN, "contested position", RARE
        )

    def cell(self, m: Measured, rare: int = 0) -> str:
        """A table cell: mean [family interval], bold where the interval leaves out 0."""
        if (rare and m.n < rare) or not np.isfinite(m.se):
            return f"too rare ({m.n})"
        low, high = self.family.interval(m)
        mark = "**" if low > 0 or high < 0 else ""
        return f"{mark}{m.mean:+.3f}{mark} [{low:+.3f}, {high:+.3f}]"


def judgeable(m: Measured) -> bool:
    return m.n >= RARE and bool(np.isfinite(m.se))
