"""`findings run`: every claim measured, from runs kept in one folder, into docs/findings.md.

One folder holds everything (default ``runs/findings`` or ``runs/findings-quick``): per rule
set and player count the ablation's run folder (the experiment runner's, resumable) and the
audit's answers (``audit-<rules>-<players>p.json``, written once all its positions are
judged, so a stopped run redoes only the audits not yet written). The quick form is the
same command on fewer decks, deals and worlds (`QUICK`); the rates it measures give the full
run's time (`estimate_full`).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from simcasino.core.rules import Rules
from simcasino.findings.ablation import Worth, run_ablation
from simcasino.findings.audit import JUDGE, applies, decisive, judge, record
from simcasino.findings.claims import FINNISH, SWEDISH, claims_of
from simcasino.findings.verdict import AuditAnswer, audit_answer
from simcasino.strategies import StrategySpec

RULE_SETS = (SWEDISH, FINNISH)
PLAYERS = (2, 3, 4)


@dataclass(frozen=True)
class Budget:
    """How much a findings run plays: decks per ablation, reference deals recorded per audit,
    the judge's worlds."""

    decks: int
    audit_deals: int
    worlds: int
    seed: int = 16

    @property
    def judge(self) -> StrategySpec:
        return StrategySpec("search", {**JUDGE.params, "worlds": float(self.worlds)})


QUICK = Budget(decks=6_000, audit_deals=12, worlds=24)
FULL = Budget(decks=300_000, audit_deals=150, worlds=128)


@dataclass
class Findings:
    """What a findings run measured: every claim's worth per rule set and player count, the
    audits' answers (None where too few positions were decided), and the seconds each part took."""

    budget: Budget
    worths: list[Worth]
    audits: dict[tuple[str, int, str], AuditAnswer | None]
    ablation_seconds: float
    audit_seconds: float


def run_findings(folder: Path, budget: Budget, say: Callable[[str], None] = print) -> Findings:
    """Every ablation and every audit of ``budget`` into ``folder`` (resuming what is there)."""
    folder.mkdir(parents=True, exist_ok=True)
    worths, audits, seconds = [], {}, [0.0, 0.0]
    for rule_set in RULE_SETS:
        for players in PLAYERS:
            say(f"ablation: {rule_set}, {players} players, {budget.decks:,} decks")
            start = time.perf_counter()
            run_folder = folder / f"ablation-{rule_set}-{players}p"
            worths += run_ablation(rule_set, players, budget.decks, budget.seed, run_folder)
            seconds[0] += time.perf_counter() - start
            say(f"audit: {rule_set}, {players} players, {budget.audit_deals} deals, judge {budget.worlds} worlds")
            start = time.perf_counter()
            answers = audit_folder(folder / f"audit-{rule_set}-{players}p.json", rule_set, players, budget)
            audits |= {(rule_set, players, claim): answer for claim, answer in answers.items()}
            seconds[1] += time.perf_counter() - start
    return Findings(budget, worths, audits, *seconds)


def audit_folder(path: Path, rule_set: str, players: int, budget: Budget) -> dict[str, AuditAnswer | None]:
    """The audit answers kept at ``path``, or the audit run and its answers written there."""
    if path.exists():
        kept = json.loads(path.read_text())
        return {claim: AuditAnswer(**answer) if answer else None for claim, answer in kept.items()}
    answers = audit(rule_set, players, budget)
    path.write_text(json.dumps({claim: asdict(a) if a else None for claim, a in answers.items()}, indent=1))
    return answers


def audit(rule_set: str, players: int, budget: Budget) -> dict[str, AuditAnswer | None]:
    """Per claim of ``rule_set``: its audit over the decisions of ``budget.audit_deals`` deals."""
    views = record(Rules.preset(rule_set).replace(players=players), budget.audit_deals, budget.seed)
    claims = claims_of(rule_set)
    answers = {}
    for claim in claims:
        judged = [judge(view, advice, other, budget.judge) for view, advice, other in decisive(views, claim)]
        applied = sum(applies(view, claim) for view in views)
        answers[claim.id] = audit_answer(judged, len(views), applied, len(claims))
    return answers


def estimate_full(findings: Findings, full: Budget = FULL) -> float:
    """Seconds the full run would take at the rates ``findings`` measured: ablations scale
    with decks, audits with deals times the judge's worlds."""
    done = findings.budget
    return (findings.ablation_seconds * full.decks / done.decks
            + findings.audit_seconds * full.audit_deals * full.worlds / (done.audit_deals * done.worlds))
