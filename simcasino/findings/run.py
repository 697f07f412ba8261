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
from collections.abc import Callable, Iterator
from contextlib import contextmanager
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


QUICK = Budget(decks=40_000, audit_deals=40, worlds=96)
FULL = Budget(decks=1_000_000, audit_deals=600, worlds=256)


@dataclass
class Findings:
    """What a findings run measured: every claim's worth per rule set and player count, the
    audits' answers (None where too few positions were decided), and the seconds each part
    took when it was played (kept in the folder, so a resumed run still knows its rates):
    the ablations, the audits' recording and choosing, and the judge."""

    budget: Budget
    worths: list[Worth]
    audits: dict[tuple[str, int, str], AuditAnswer | None]
    seconds: dict[str, float]


def run_findings(folder: Path, budget: Budget, say: Callable[[str], None] = print) -> Findings:
    """Every ablation and every audit of ``budget`` into ``folder`` (resuming what is there)."""
    folder.mkdir(parents=True, exist_ok=True)
    clock = Clock(folder / "seconds.json")
    worths, audits = [], {}
    for rule_set in RULE_SETS:
        for players in PLAYERS:
            part = f"{rule_set}-{players}p"
            say(f"ablation: {rule_set}, {players} players, {budget.decks:,} decks")
            with clock.timing(f"ablation {part}", (folder / f"ablation-{part}" / "summary.json").exists()):
                worths += run_ablation(rule_set, players, budget.decks, budget.seed, folder / f"ablation-{part}")
            say(f"audit: {rule_set}, {players} players, {budget.audit_deals} deals, judge {budget.worlds} worlds")
            answers = audit_folder(folder / f"audit-{part}.json", rule_set, players, budget, clock, part)
            audits |= {(rule_set, players, claim): answer for claim, answer in answers.items()}
    return Findings(budget, worths, audits, clock.totals())


class Clock:
    """Seconds per part of a findings run, kept in a JSON file: a part played now is timed
    and written, a part found done keeps the seconds it took when it was played."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.seconds: dict[str, float] = json.loads(path.read_text()) if path.exists() else {}

    @contextmanager
    def timing(self, name: str, done: bool) -> Iterator[None]:
        start = time.perf_counter()
        yield
        if not done or name not in self.seconds:
            self.seconds[name] = time.perf_counter() - start
            self.path.write_text(json.dumps(self.seconds, indent=1))

    def totals(self) -> dict[str, float]:
        """Seconds by kind of work: ``ablation``, ``audit`` (recording, choosing) and ``judge``."""
        out = {kind: 0.0 for kind in ("ablation", "audit", "judge")}
        for name, seconds in self.seconds.items():
            out[name.split()[0]] += seconds
        return out


def audit_folder(path: Path, rule_set: str, players: int, budget: Budget, clock: Clock,
                 part: str) -> dict[str, AuditAnswer | None]:
    """The audit answers kept at ``path``, or the audit run and its answers written there."""
    if path.exists():
        kept = json.loads(path.read_text())
        return {claim: AuditAnswer(**answer) if answer else None for claim, answer in kept.items()}
    with clock.timing(f"audit {part}", False):
        views = record(Rules.preset(rule_set).replace(players=players), budget.audit_deals, budget.seed)
        found = {claim: decisive(views, claim) for claim in claims_of(rule_set)}
        applied = {claim: sum(applies(view, claim) for view in views) for claim in found}
    with clock.timing(f"judge {part}", False):
        judged = {claim: [judge(view, advice, other, budget.judge) for view, advice, other in positions]
                  for claim, positions in found.items()}
    answers = {claim.id: audit_answer(judged[claim], len(views), applied[claim], len(found)) for claim in found}
    path.write_text(json.dumps({claim: asdict(a) if a else None for claim, a in answers.items()}, indent=1))
    return answers


def estimate_full(findings: Findings, full: Budget = FULL) -> float:
    """Seconds the full run would take at the rates ``findings`` measured: the ablations scale
    with decks, the audits' recording with deals, the judge with deals times worlds (an upper
    bound: the start-up of each part is scaled too)."""
    done, seconds = findings.budget, findings.seconds
    return (seconds["ablation"] * full.decks / done.decks + seconds["audit"] * full.audit_deals / done.audit_deals
            + seconds["judge"] * full.audit_deals * full.worlds / (done.audit_deals * done.worlds))
