"""Mixed tables: deals per second when a plain-Python seat sits among kernel strategies.

    python benchmarks/bench_mixed.py            # 200 deals a table (search: 20)
    python benchmarks/bench_mixed.py --quick    # 40 (search: 4)

Swedish rules, two players, CPU time of the calling thread, the best of three rounds. Each
table is timed on every engine that can play it: the kernel (``numba``, one thread), the
``mixed`` table (the reference engine referees; every kernel decision loads a workspace of
its own through `loop.position`) and the ``reference`` engine (every seat in Python). Then
one kernel decision at a mixed table (`loop.seat.KernelSeat`, against the spade hoarder)
is timed alone. Why it matters: a mixed table plays tens to hundreds of deals a second where
the kernel plays tens of thousands, so a comparison of a strategy file wants thousands of
decks, not millions (docs/python-api.md); for the search, whose decisions are slow anyway,
the mixed table costs little.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import simcasino
from simcasino.core.protocol import Move, Stream
from simcasino.core.rules import Rules
from simcasino.loop.seat import KernelSeat
from simcasino.reference.referee import PlainSeat, play_deal
from simcasino.reference.state import DealState
from simcasino.strategies import load_strategy_file, parse_strategy

HOARDER = str(Path(__file__).resolve().parent.parent / "strategies" / "spade_hoarder.py")
TABLES = {  # name: (seats, engines that can play them)
    "greedy-greedy": (("greedy", "greedy"), ("numba", "mixed", "reference")),
    "heuristic-heuristic": (("heuristic", "heuristic"), ("numba", "mixed", "reference")),
    "search-greedy": (("search", "greedy"), ("numba", "mixed")),
    "hoarder-greedy": ((HOARDER, "greedy"), ("mixed", "reference")),
    "hoarder-heuristic": ((HOARDER, "heuristic"), ("mixed", "reference")),
    "hoarder-search": ((HOARDER, "search"), ("mixed",)),
}
ENGINES = ("numba", "mixed", "reference")


def deals_per_second(seats: tuple[str, str], engine: str, deals: int) -> float:
    start = time.thread_time()
    simcasino.simulate("swedish", seats, deals=deals, seed=1, engine=engine, threads=1)
    return deals / (time.thread_time() - start)


class _Timed:
    """A kernel seat whose decisions are timed (CPU time of this thread)."""

    def __init__(self, strategy: str) -> None:
        self.seat, self.seconds, self.decisions = KernelSeat(parse_strategy(strategy)), 0.0, 0

    def decide(self, state: DealState, stream: Stream) -> Move:
        start = time.thread_time()
        move = self.seat.decide(state, stream)
        self.seconds += time.thread_time() - start
        self.decisions += 1
        return move


def decision_ms(strategy: str, deals: int) -> float:
    """Milliseconds a decision of ``strategy`` takes at a mixed table, against the spade hoarder."""
    timed, hoarder = _Timed(strategy), PlainSeat(load_strategy_file(HOARDER).python())
    for index in range(deals):
        play_deal(DealState.new(Rules(), seed=1, index=index), [hoarder, timed])
    return 1000 * timed.seconds / timed.decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="40 deals a table (a smoke run)")
    args = parser.parse_args()
    base = 40 if args.quick else 200
    runs = [(name, engine) for name, (_, engines) in TABLES.items() for engine in engines]
    for name, engine in runs:
        simcasino.simulate("swedish", TABLES[name][0], deals=2, engine=engine)  # compile / warm up
    best = dict.fromkeys(runs, 0.0)
    for _ in range(3):
        for name, engine in runs:
            deals = base // 10 if "search" in name else base
            best[name, engine] = max(best[name, engine], deals_per_second(TABLES[name][0], engine, deals))
    print(f"{'deals/s':<20} " + " ".join(f"{e:>10}" for e in ENGINES))
    for name in TABLES:
        print(f"{name:<20} " + " ".join(f"{best[name, e]:>10,.1f}" if (name, e) in best else f"{'-':>10}"
                                        for e in ENGINES))
    print(f"\n{'ms a kernel decision at a mixed table':<40}")
    for strategy in ("greedy", "heuristic", "search"):
        deals = base // 20 if strategy == "search" else base // 4
        print(f"{strategy:<20} {min(decision_ms(strategy, deals) for _ in range(3)):>10.3f}")


if __name__ == "__main__":
    main()
