"""The verdicts in plain words: what a claim is worth per deal ("pays 0.73 points a deal
[0.69, 0.78] (Swedish, 2 players)", "no detectable effect", "costs ..."), and how often it
is right where it decides the move ("right in 81% of the positions where it applies").

Every verdict is judged on the interval printed with it: a worth "pays" or "costs" only when
its simultaneous interval (Bonferroni over the claims of one experiment) leaves out 0, so the
words and the numbers never disagree.
"""

from __future__ import annotations

from dataclasses import dataclass

from simcasino.findings.ablation import Worth
from simcasino.findings.audit import Judged
from simcasino.stats import mean_ci, simultaneous_level, wilson_ci

LEVEL = 0.95


def where(rule_set: str, players: int) -> str:
    return f"{rule_set.capitalize()}, {players} players"


def worth_words(worth: Worth) -> str:
    """``pays 0.730 points a deal [0.690, 0.780]``, ``costs ...`` or ``no detectable effect ...``."""
    interval = f"[{worth.low:+.3f}, {worth.high:+.3f}]"
    if worth.low > 0:
        return f"pays {worth.mean:.3f} points a deal {interval}"
    if worth.high < 0:
        return f"costs {-worth.mean:.3f} points a deal {interval}"
    return f"no detectable effect ({worth.mean:+.3f} points a deal {interval})"


@dataclass(frozen=True)
class AuditAnswer:
    """The audit of one claim in one rule set and player count: positions it decided out of
    those seen (and in how many it applied), the judged gain a decided position with its interval, the share where the
    judge's best move is the advice's with its interval, and how many were judged exactly."""

    positions: int
    seen: int
    applied: int
    gain: float
    gain_low: float
    gain_high: float
    agree: float
    agree_low: float
    agree_high: float
    exact: int


def audit_answer(judged: list[Judged], seen: int, applied: int, comparisons: int) -> AuditAnswer | None:
    """The answer over ``judged`` positions (None with fewer than two), intervals
    simultaneous over ``comparisons`` claims."""
    if len(judged) < 2:
        return None
    level = simultaneous_level(LEVEL, comparisons)
    gain = mean_ci([j.gain for j in judged], level=level)
    agrees = sum(j.judge_agrees for j in judged)
    low, high = wilson_ci(agrees, len(judged), level=level)
    return AuditAnswer(len(judged), seen, applied, gain.mean, gain.ci_low, gain.ci_high, agrees / len(judged),
                       low, high, sum(j.exact for j in judged))


def audit_words(answer: AuditAnswer | None) -> str:
    """``right in 81% [75%, 86%] of the 240 positions where it decides the move; gains 0.12
    points a decided position [...]`` ("right": the judge's best move is the advice's)."""
    if answer is None:
        return "decided too few positions to judge"
    share = f"{answer.agree:.0%} [{answer.agree_low:.0%}, {answer.agree_high:.0%}]"
    interval = f"[{answer.gain_low:+.2f}, {answer.gain_high:+.2f}]"
    if answer.gain_low > 0:
        judged = f"gains {answer.gain:.2f} points a decided position {interval}"
    elif answer.gain_high < 0:
        judged = f"loses {-answer.gain:.2f} points a decided position {interval}"
    else:
        judged = f"no detectable gain where it decides ({answer.gain:+.2f} {interval})"
    exact = f", {answer.exact} of them judged exactly" if answer.exact else ""
    return (f"right in {share} of the {answer.positions} positions where it decides the move (it applies in "
            f"{answer.applied} of {answer.seen} decisions{exact}); {judged}")
