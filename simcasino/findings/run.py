"""`findings run`: every claim measured, from parts kept in one run folder.

The folder holds every part (default ``runs/findings`` or ``runs/findings-quick``): per rule
set and player count the contested-position audit (``audit-<rules>-<n>p.json``, written once
its positions are all judged), per base player the per-deal experiment (the runner's own
folder ``worth-<base>-<rules>-<n>p``, resumable chunk by chunk) and the count of moves the
filter changes (``changes-<base>-<rules>-<n>p.json``), and the seconds each part took
(``seconds.json``). A stopped run redoes only the parts not yet written. The quick form is
the same command on a smaller budget (`QUICK`); the rates it measures give the full run's
time (`estimate_full`).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path

from simcasino.advice.claims import FINNISH, SWEDISH, claims_of
from simcasino.core.rules import Rules
from simcasino.experiment.runner import Progress
from simcasino.findings.contest import Judged, audit
from simcasino.findings.worth import Worth, changed_moves, run_worth
from simcasino.provenance import provenance

RULE_SETS = (SWEDISH, FINNISH)
PLAYERS = (2, 3, 4)
BASES = ("greedy", "heuristic", "search")


@dataclass(frozen=True)
class Budget:
    """How much a findings run plays: per base the decks of its per-deal experiments and the
    player counts it is played with (``decks_at``: fewer decks at a player count where a deal
    costs the most, as the search's with 4 players); per player count the deals of search play
    whose positions are audited; the judge's worlds per stream; the deals the filter's changes
    are counted on."""

    name: str
    decks: dict[str, int]
    players: dict[str, tuple[int, ...]]
    audit_deals: dict[int, int]
    worlds: int
    change_deals: int
    seed: int = 25
    decks_at: dict[str, dict[int, int]] = field(default_factory=dict)

    def arm_decks(self, base: str, players: int) -> int:
        """The decks per arm of ``base`` at ``players``."""
        return self.decks_at.get(base, {}).get(players, self.decks[base])


QUICK = Budget(
    "quick",
    {"greedy": 20_000, "heuristic": 8_000, "search": 60},
    {"greedy": PLAYERS, "heuristic": PLAYERS, "search": (2,)},
    {2: 24, 3: 10, 4: 6},
    24,
    10,
)
FULL = Budget(
    "full",
    {"greedy": 300_000, "heuristic": 100_000, "search": 1_200},
    {"greedy": PLAYERS, "heuristic": PLAYERS, "search": PLAYERS},
    {2: 300, 3: 120, 4: 80},
    64,
    300,
    decks_at={"search": {4: 400}},
)  # the search with 4 players: about 15 deals a second on 2 cores


@dataclass
class Findings:
    """What a findings run measured: the judged contested positions and how many positions
    were seen, per (rule set, players); every arm's worth; per (base, rule set, players) the
    moves a deal the filter changes per claim; the seconds per kind of work and what each part
    was made with."""

    budget: Budget
    judged: dict[tuple[str, int], list[Judged]] = field(default_factory=dict)
    positions: dict[tuple[str, int], int] = field(default_factory=dict)
    worths: list[Worth] = field(default_factory=list)
    changes: dict[tuple[str, str, int], dict[str, float]] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    made: dict[str, str] = field(
        default_factory=dict
    )  # per part: the commit and library versions it was made with


Bar = Callable[
    [str], AbstractContextManager[Progress]
]  # a progress display for a part, by its label


def run_findings(
    folder: Path,
    budget: Budget,
    say: Callable[[str], None] = print,
    bar: Bar | None = None,
    workers: int | None = None,
) -> Findings:
    """Every part of ``budget`` into ``folder``, resuming what is there; a line per part, and
    within each per-deal experiment ``bar(label)``'s progress callback (none without ``bar``).
    ``workers``: each experiment's processes (1: in this process, no pool to start; a tiny
    budget spends more starting workers than playing)."""
    folder.mkdir(parents=True, exist_ok=True)
    _check_budget(folder / "budget.json", budget)
    clock, findings = Clock(folder / "seconds.json"), Findings(budget)
    parts = [(r, p) for r in RULE_SETS for p in PLAYERS]
    total = sum(
        1 + sum((1 + (b != "search")) * (p in budget.players[b]) for b in BASES) for _, p in parts
    )
    done = 0

    def step(text: str) -> None:
        nonlocal done
        done += 1
        say(f"[{done}/{total}] {text}")

    for rule_set, players in parts:
        claims = claims_of(rule_set)
        ids = [c.id for c in claims]
        part = f"{rule_set}-{players}p"
        step(
            f"audit: {rule_set}, {players} players, {budget.audit_deals[players]} deals of the "
            f"search, judge {budget.worlds} + {budget.worlds} worlds"
        )
        judged, seen, search_changes = _audit_part(
            folder / f"audit-{part}.json",
            Rules.preset(rule_set).replace(players=players),
            ids,
            budget,
            clock,
            part,
            say,
        )
        findings.judged[(rule_set, players)], findings.positions[(rule_set, players)] = judged, seen
        findings.changes[("search", rule_set, players)] = search_changes
        for base in BASES:
            if players not in budget.players[base]:
                continue
            decks = budget.arm_decks(base, players)
            step(f"worth: {base}, {rule_set}, {players} players, {decks:,} decks per arm")
            with (
                clock.timing(
                    f"worth {base} {part}",
                    (folder / f"worth-{base}-{part}" / "summary.json").exists(),
                ),
                (bar or _no_bar)(f"worth: {base}, {rule_set}, {players} players") as progress,
            ):
                findings.worths += run_worth(
                    base,
                    rule_set,
                    players,
                    claims,
                    decks,
                    budget.seed,
                    folder / f"worth-{base}-{part}",
                    progress,
                    workers,
                )
            if base == "search":  # its changed moves are counted on the audit's positions
                continue
            step(f"changes: {base}, {rule_set}, {players} players, {budget.change_deals} deals")
            path = folder / f"changes-{base}-{part}.json"
            if not path.exists():
                with clock.timing(f"changes {base} {part}", False):
                    counts = changed_moves(
                        base, rule_set, players, ids, budget.change_deals, budget.seed
                    )
                path.write_text(json.dumps(counts, indent=1))
            findings.changes[(base, rule_set, players)] = json.loads(path.read_text())
    findings.seconds, findings.made = clock.totals(), dict(clock.made)
    return findings


@contextmanager
def _no_bar(label: str) -> Iterator[None]:
    yield None


def _check_budget(path: Path, budget: Budget) -> None:
    """Keep ``budget`` in the folder; ValueError if the folder holds a run of another budget
    (its parts would be read back as if they were this one's)."""
    mine = json.loads(
        json.dumps(asdict(budget))
    )  # as JSON reads it back (tuples as lists, keys as text)
    if path.exists() and json.loads(path.read_text()) != mine:
        raise ValueError(
            f"{path.parent} holds a findings run of another budget "
            f"({json.loads(path.read_text())['name']}); give another --out"
        )
    path.write_text(json.dumps(mine, indent=1))


def _audit_part(
    path: Path,
    rules: Rules,
    claims: list[str],
    budget: Budget,
    clock: Clock,
    part: str,
    say: Callable[[str], None],
) -> tuple[list[Judged], int, dict[str, float]]:
    """The audit kept at ``path``, or run and written there: the judged positions, how many
    positions were seen, and per claim the moves a deal and seat where the search's own move
    broke a contested claim (the moves its filter changes)."""
    if not path.exists():
        deals = budget.audit_deals[rules.players]
        with clock.timing(f"audit {part}", False):
            judged, positions = audit(rules, claims, deals, budget.worlds, budget.seed, say)
        seats = deals * rules.players
        changes = {c: sum(j.played_breaks for j in judged if j.claim == c) / seats for c in claims}
        path.write_text(
            json.dumps(
                {
                    "positions": len(positions),
                    "changes": changes,
                    "judged": [asdict(j) for j in judged],
                },
                indent=0,
            )
        )
    kept = json.loads(path.read_text())
    return [Judged(**j) for j in kept["judged"]], kept["positions"], kept["changes"]


class Clock:
    """Seconds per part of a findings run, kept in a JSON file: a part played now is timed
    and written, a part found done keeps the seconds it took when it was played; beside it
    (its provenance.json) the commit and library versions each part was made with."""

    def __init__(self, path: Path) -> None:
        self.path, self.made_path = path, path.with_name("provenance.json")
        self.seconds: dict[str, float] = json.loads(path.read_text()) if path.exists() else {}
        self.made: dict[str, str] = (
            json.loads(self.made_path.read_text()) if self.made_path.exists() else {}
        )

    @contextmanager
    def timing(self, name: str, done: bool) -> Iterator[None]:
        start = time.perf_counter()
        yield
        if not done or name not in self.seconds:
            self.seconds[name] = time.perf_counter() - start
            self.made[name] = provenance()
            self.path.write_text(json.dumps(self.seconds, indent=1))
            self.made_path.write_text(json.dumps(self.made, indent=1))

    def totals(self) -> dict[str, float]:
        """Seconds by kind of work: ``audit``, ``changes`` and ``worth <base>``."""
        out: dict[str, float] = {}
        for name, seconds in self.seconds.items():
            kind = " ".join(name.split()[:2]) if name.startswith("worth") else name.split()[0]
            out[kind] = out.get(kind, 0.0) + seconds
        return out


def estimate_full(findings: Findings, full: Budget = FULL) -> float:
    """Seconds the full run would take at the rates ``findings`` measured: each part scaled by
    its work (decks and player counts, deals, deals times worlds; an upper bound, as the
    start-up of each part is scaled too)."""
    done, seconds = findings.budget, findings.seconds
    total = 0.0
    for base in BASES:
        work = [
            sum(b.arm_decks(base, p) * p for p in b.players[base]) for b in (full, done)
        ]  # deals a table
        total += seconds.get(f"worth {base}", 0.0) * work[0] / work[1]
    audit_work = (sum(full.audit_deals.values()) * full.worlds) / (
        sum(done.audit_deals.values()) * done.worlds
    )
    total += seconds.get("audit", 0.0) * audit_work
    return total + seconds.get("changes", 0.0) * full.change_deals / done.change_deals
