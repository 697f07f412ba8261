"""OpenSpiel's bots on the ladder: paired decks of A against B, with each side's time a decision.

    python benchmarks/bench_openspiel_ladder.py search openspiel-ismcts:iterations=1000 \\
        --rules swedish --decks 8 --seed 1 --out ladder.jsonl

Why a script and not ``simcasino compare``: compare reports points, not the clock, and the
question for a bot nobody here wrote is also what its strength costs. Each deck is played
once per seat rotation (A in seat 0, then in seat 1: the deals of a ``compare`` with the same
seed, at a mixed table the reference engine referees), and every decision is timed (wall
clock of this process; each seat is warmed by one decision first so the kernel's compile is
not counted). One JSON line a deck is appended to ``--out`` as it finishes, so a long run
can be stopped and its decks so far summarised (``--summary``). docs/strategies.md publishes
the figures.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from simcasino.core.protocol import Stream
from simcasino.core.rng import seed_key
from simcasino.core.rules import Rules
from simcasino.reference.game import single_deal
from simcasino.reference.referee import Seat
from simcasino.reference.state import DealState
from simcasino.simulation import lineup, seats
from simcasino.stats import mean_ci


class Timed:
    """A seat that keeps the time of every decision it makes: wall clock (``times``) and the
    CPU time of this process (``cpu``: what the decision cost, whatever else the machine runs)."""

    def __init__(self, seat: Seat) -> None:
        self.seat, self.times, self.cpu = seat, [], []

    def decide(self, state: DealState, stream: Stream) -> object:
        start, cpu = time.perf_counter(), time.process_time()
        move = self.seat.decide(state, stream)
        self.times.append(time.perf_counter() - start)
        self.cpu.append(time.process_time() - cpu)
        return move

    def clear(self) -> None:
        self.times.clear()
        self.cpu.clear()


def play(a: str, b: str, rules: str, decks: int, seed: int, out: Path) -> None:
    """Play ``decks`` paired decks (those already in ``out`` are skipped) and append each."""
    done = len(out.read_text().splitlines()) if out.exists() else 0
    resolved, timed = table(rules, a, b)
    key = seed_key(seed)
    for deck in range(done, decks):
        diffs, times, cpu = [], [[], []], [[], []]
        for a_seat in (0, 1):
            order = [timed[0], timed[1]] if a_seat == 0 else [timed[1], timed[0]]
            result = single_deal(resolved, order, key, deck)
            points = [s.points for s in result.seats]
            diffs.append(points[a_seat] - points[1 - a_seat])
            for side, seat in enumerate(timed):
                times[side] += seat.times
                cpu[side] += seat.cpu
                seat.clear()
        line = {"a": a, "b": b, "rules": rules, "seed": seed, "deck": deck, "diff": float(np.mean(diffs)),
                "a_seconds": times[0], "b_seconds": times[1], "a_cpu": cpu[0], "b_cpu": cpu[1]}
        with out.open("a") as f:
            f.write(json.dumps(line) + "\n")
        print(f"deck {deck}: A − B {line['diff']:+.1f}", flush=True)


def table(rules: str, a: str, b: str) -> tuple[Rules, list[Timed]]:
    """The rules and A's and B's timed seats at a mixed table, each warmed up by one decision
    (the kernel's compile), its time forgotten."""
    resolved, specs = lineup(rules, [a, b])
    timed = [Timed(s) for s in seats("mixed", specs)]
    for seat in timed:
        state = DealState.new(resolved, 10**9, 0)
        seat.decide(state, Stream(state.rng))
        seat.clear()
    return resolved, timed


def clock(a: str, b: str, rules: str, decks: int, seed: int, decisions: int) -> str:
    """Only the time: the first ``decisions`` decisions of each side in each deal of the
    paired decks, the deals left unfinished (for a side too slow to play whole deals)."""
    resolved, timed = table(rules, a, b)
    key = seed_key(seed)
    for deck in range(decks):
        for a_seat in (0, 1):
            state = DealState.shuffled(resolved, key, (deck, 0), resolved.players - 1)
            order = [timed[0], timed[1]] if a_seat == 0 else [timed[1], timed[0]]
            stream = Stream(state.rng)
            for _ in range(2 * decisions):
                state.apply(order[state.to_move].decide(state, stream))
    return (f"{a} against {b}, {rules}, seed {seed}, first {decisions} decisions of each side in {2 * decks} deals: "
            f"CPU time a decision: A {np.mean(timed[0].cpu) * 1000:.1f} ms, B {np.mean(timed[1].cpu) * 1000:.1f} ms "
            f"(wall: A {np.mean(timed[0].times) * 1000:.1f} ms, B {np.mean(timed[1].times) * 1000:.1f} ms)")


def summary(out: Path) -> str:
    """A − B in points per deal over the decks in ``out`` (95% t-interval), and each side's time a decision."""
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    diffs = [r["diff"] for r in rows]
    a_times = np.concatenate([r["a_seconds"] for r in rows])
    b_times = np.concatenate([r["b_seconds"] for r in rows])
    head = f"{rows[0]['a']} against {rows[0]['b']}, {rows[0]['rules']}, seed {rows[0]['seed']}, {len(rows)} decks"
    if len(rows) > 1:
        est = mean_ci(diffs)
        diff = f"{est.mean:+.2f} points per deal [{est.ci_low:+.2f}, {est.ci_high:+.2f}]"
    else:
        diff = f"{diffs[0]:+.2f} points per deal (one deck: no interval)"
    cpu = ""
    if all("a_cpu" in r for r in rows):
        a_cpu, b_cpu = (np.concatenate([r[f"{side}_cpu"] for r in rows]) for side in "ab")
        cpu = f"; CPU time a decision: A {a_cpu.mean() * 1000:.1f} ms, B {b_cpu.mean() * 1000:.1f} ms"
    return (f"{head}: A − B {diff}; wall time a decision: A {a_times.mean() * 1000:.1f} ms, "
            f"B {b_times.mean() * 1000:.1f} ms ({len(a_times)} and {len(b_times)} decisions){cpu}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("a", nargs="?")
    parser.add_argument("b", nargs="?")
    parser.add_argument("--rules", default="swedish")
    parser.add_argument("--decks", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--summary", action="store_true", help="only summarise the decks in --out")
    parser.add_argument("--decisions", type=int, default=0,
                        help="only time the first N decisions of each side a deal (no points, nothing written)")
    args = parser.parse_args()
    if args.decisions:
        print(clock(args.a, args.b, args.rules, args.decks, args.seed, args.decisions))
        return
    if not args.summary:
        play(args.a, args.b, args.rules, args.decks, args.seed, args.out)
    print(summary(args.out))


if __name__ == "__main__":
    main()
