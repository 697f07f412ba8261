"""Deals per second of every preset on one core, against single-deck Swedish.

    python benchmarks/bench_variants.py            # 200,000 deals a preset
    python benchmarks/bench_variants.py --quick    # 20,000

Greedy against greedy, 2 players, CPU time of the calling thread (a busy machine disturbs it
less), best of three runs. Target (issue 6): the double-deck presets (mulle, krypkasino)
keep at least a third of Swedish deals/s; a two-deck deal has twice the turns, so half is
the most to expect.
"""

from __future__ import annotations

import argparse
import time

import simcasino
from simcasino.rules import PRESETS


def deals_per_second(preset: str, deals: int, lineup: tuple[str, ...]) -> float:
    simcasino.simulate(preset, lineup, deals=10)  # compile / warm up
    best = 0.0
    for _ in range(3):
        start = time.thread_time()
        simcasino.simulate(preset, lineup, deals=deals, threads=1)
        best = max(best, deals / (time.thread_time() - start))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="20,000 deals a preset (a smoke run)")
    args = parser.parse_args()
    deals = 20_000 if args.quick else 200_000
    lineup = ("greedy", "greedy")
    base = deals_per_second("swedish", deals, lineup)
    print(f"{'preset':<11} {'decks':>5} {'deals/s':>10} {'of swedish':>10}")
    for name, rules in PRESETS.items():
        rate = base if name == "swedish" else deals_per_second(name, deals, lineup)
        print(f"{name:<11} {rules.decks:>5} {rate:>10,.0f} {rate / base:>10.2f}")


if __name__ == "__main__":
    main()
