"""The ablations: per rule set and player count one experiment, the full heuristic against
itself with each claim switched off in turn, on paired decks (every deck dealt once per seat
rotation), through the experiment runner, so each run folder is kept and a run stopped
half-way resumes where it stopped.

A claim's worth is full − without (the runner reports without − full against its baseline,
so the signs are turned here), with the simultaneous 95% interval over the claims of that
experiment and the Bonferroni p the verdict is judged on (`experiment.summary`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from simcasino.core.rules import Rules
from simcasino.experiment import run_experiment, spec_from_table
from simcasino.experiment.runner import RunResult
from simcasino.experiment.spec import Spec
from simcasino.findings.claims import BY_ID, Claim, claims_of

FULL = "full"
CHUNK = 4_096


@dataclass(frozen=True)
class Worth:
    """What one claim is worth in one experiment: full − without, points per deal."""

    claim: Claim
    rule_set: str
    players: int
    mean: float
    low: float
    high: float
    p_adjusted: float
    comparisons: int
    decks: int


def ablation_spec(rule_set: str, players: int, decks: int, seed: int) -> Spec:
    """The experiment of ``rule_set`` with ``players``: the full heuristic as baseline, one arm per claim."""
    arms = {FULL: "heuristic", **{c.arm: c.strategy for c in claims_of(rule_set)}}
    table = {"name": f"findings-{rule_set}-{players}p", "seed": seed, "deals": decks, "players": players,
             "chunk": min(CHUNK, decks),
             "description": f"each §7 claim switched off in turn against the full heuristic, {rule_set}",
             "rules": Rules.preset(rule_set).replace(players=players).to_table(), "arms": arms,
             "compare": {"design": "baseline", "baseline": FULL}}
    return spec_from_table(table, "findings")


def run_ablation(rule_set: str, players: int, decks: int, seed: int, folder: Path) -> list[Worth]:
    """Run (or resume) the ablation of ``rule_set`` with ``players`` in ``folder``; each claim's worth."""
    return worths(run_experiment(ablation_spec(rule_set, players, decks, seed), folder), rule_set, players)


def worths(result: RunResult, rule_set: str, players: int) -> list[Worth]:
    """Each claim's worth from a finished ablation run."""
    out = []
    for c in result.data["comparisons"]:
        claim = BY_ID[c["a"].removeprefix("no_")]
        turned = [0.0 - c[k] for k in ("mean_diff", "sim_high", "sim_low")]  # 0.0 - x: no "-0.000"
        out.append(Worth(claim, rule_set, players, *turned, c["p_adjusted"], c["comparisons"], c["deals"]))
    return out
