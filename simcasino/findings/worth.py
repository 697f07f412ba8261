"""What the advice is worth over a deal: a base player made to follow a claim wherever it can
(``greedy:follow=S1``, `advice.follow`) against the same player free, and for the
heuristic also the weights carrying the claim at 0, ½× and 2× against 1× (its dose–response).

Each (base, rule set, player count) is one experiment of the experiment runner: the free
base is the baseline, one arm per claim (and per dose); each arm sits in one seat against
free bases in the others, on paired decks (every deck dealt once per seat rotation), in a
run folder of its own, so a stopped findings run resumes where it stopped. The worth is the
arm's points a deal less the baseline's, with its standard error (from the runner's fixed
95% interval); the page puts every interval into one family (`verdict`).

How often the filter changes a move: in deals of the free base against itself, the share of
its decisions where the claim is contested and the base's own move breaks it (exactly where
the filter plays another move: the filtered greedy and heuristic choose their own best
allowed move), per deal and seat.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from simcasino.advice.claims import BREAKS, Claim, contested, label
from simcasino.core.protocol import Move, View
from simcasino.core.rules import Rules
from simcasino.experiment import run_experiment, spec_from_table
from simcasino.experiment.runner import FinishedRun, Progress
from simcasino.findings.verdict import runner_se
from simcasino.simulation import simulate
from simcasino.strategies import parse_strategy
from simcasino.strategies.heuristic import PARAMS

FREE = "free"
DOSES = (0.0, 0.5, 2.0)  # the weights' multiples set against 1× (the free heuristic)
CHUNK = 4_096
CHUNKS_AT_LEAST = (
    16  # so that a small run (the search's) spreads over every core and keeps its progress
)


@dataclass(frozen=True)
class Worth:
    """One arm against the free base: points a deal (arm − base) and the standard error."""

    base: str
    rule_set: str
    players: int
    arm: str  # a claim id, or "<id>@<dose>" for a dose of the heuristic's weights
    mean: float
    se: float
    decks: int


def arms(base: str, claims: Sequence[Claim]) -> dict[str, str]:
    """The experiment's arms: the free base, the base following each claim, and for the
    heuristic each claim's weights at each dose of `DOSES`."""
    out = {FREE: base, **{c.id: f"{base}:follow={c.id}" for c in claims}}
    if base == "heuristic":
        for c in (c for c in claims if c.weights):
            for dose in DOSES:
                weights = ",".join(f"{w}={PARAMS[w][0] * dose:g}" for w in c.weights)
                out[dose_arm(c.id, dose)] = f"heuristic:{weights}"
    return out


def dose_arm(claim: str, dose: float) -> str:
    return f"{claim}@{dose:g}"


def run_worth(
    base: str,
    rule_set: str,
    players: int,
    claims: Sequence[Claim],
    decks: int,
    seed: int,
    folder: Path,
    progress: Progress | None = None,
    workers: int | None = None,
) -> list[Worth]:
    """Run (or resume) the experiment of ``base`` in ``folder``; each arm's worth (``progress``:
    the runner's callback; ``workers``: its processes, as `run_experiment`'s)."""
    table = {
        "name": f"findings-{base}-{rule_set}-{players}p",
        "seed": seed,
        "decks": decks,
        "players": players,
        "chunk": max(2, min(CHUNK, decks // CHUNKS_AT_LEAST)),
        "description": f"{base} made to follow each claim of docs/rules.md §7 against {base} free, "
        f"{rule_set}",
        "rules": Rules.preset(rule_set).replace(players=players).to_table(),
        "arms": arms(base, claims),
        "compare": {"design": "baseline", "baseline": FREE},
    }
    with warnings.catch_warnings():  # a part done before is read back on purpose: the run resumes
        warnings.simplefilter("ignore", FinishedRun)
        spec = spec_from_table(table, "findings")
        result = run_experiment(spec, folder, workers, progress=progress)
    return [
        Worth(
            base,
            rule_set,
            players,
            c["a"],
            c["mean_diff"],
            runner_se(c["ci_low"], c["ci_high"], c["decks"]),
            c["decks"],
        )
        for c in result.data["comparisons"]
    ]


class _Counter:
    """The free base in every seat, counting per claim the decisions where the filter would
    change its move (the claim contested and the base's move breaking it)."""

    name = "counter"

    def __init__(self, base: str, claims: Sequence[str]) -> None:
        self.player = parse_strategy(base).python()
        self.changed = dict.fromkeys(claims, 0)

    def choose(self, view: View) -> Move:
        move = self.player.choose(view)
        if view.chooser_for < 0:
            for claim in self.changed:
                if label(claim, view, move) == BREAKS and contested(claim, view):
                    self.changed[claim] += 1
        return move


def changed_moves(
    base: str, rule_set: str, players: int, claims: Sequence[str], deals: int, seed: int
) -> dict[str, float]:
    """Per claim: the moves a deal the filter changes for one seat of ``base`` (its Python
    form, free, in every seat of ``deals`` reference deals)."""
    counter = _Counter(base, claims)
    simulate(
        Rules.preset(rule_set).replace(players=players),
        [counter] * players,
        deals=deals,
        seed=seed,
        engine="reference",
    )
    return {claim: n / (deals * players) for claim, n in counter.changed.items()}
