"""Deals per second of every preset on one core, against single-deck Swedish.

    python benchmarks/bench_variants.py            # 200,000 deals a preset
    python benchmarks/bench_variants.py --quick    # 20,000

Greedy against greedy, 2 players, CPU time of the calling thread; the presets take turns
over three rounds and each keeps its best, so a machine busy for a while disturbs every
preset alike. A double-deck preset is also compared with its own rules on one deck (the
cost of the second deck alone), as ``1 deck`` / ``of 1 deck``. Target: the
double-deck presets (mulle, krypkasino)
keep at least a third of Swedish deals/s; a two-deck deal has twice the turns, so half is
the most to expect. A preset with builds (§6: rakennuskasino, mulle_glimne) and Swedish with
``builds = true`` are also timed without builds, as ``no builds`` / ``of no builds``; target:
at least a third of the same rules without builds. The builds presets are then
timed once more with heuristic against heuristic (a tenth of the deals), with and without
builds: the heuristic values every listed move in full under builds rules.
"""

from __future__ import annotations

import argparse
import time

import simcasino
from simcasino.core.rules import PRESETS, Rules

LINEUP = ("greedy", "greedy")
HEURISTIC = ("heuristic", "heuristic")


def deals_per_second(rules: Rules, deals: int, lineup: tuple[str, str] = LINEUP) -> float:
    start = time.thread_time()
    simcasino.simulate(rules, lineup, deals=deals, threads=1)
    return deals / (time.thread_time() - start)


def heuristic_builds(presets: dict[str, Rules], deals: int) -> None:
    """Heuristic deals/s of each builds preset against the same rules without builds."""
    runs = {(name, on): rules.replace(builds=on)
            for name, rules in presets.items() if rules.builds for on in (True, False)}
    for rules in runs.values():
        simcasino.simulate(rules, HEURISTIC, deals=10)  # compile / warm up
    best = dict.fromkeys(runs, 0.0)
    for _ in range(3):
        for key, rules in runs.items():
            best[key] = max(best[key], deals_per_second(rules, deals, HEURISTIC))
    print(f"\n{'heuristic':<15} {'deals/s':>10} {'no builds':>10} {'of no builds':>12}")
    for name in dict.fromkeys(name for name, _ in runs):
        print(f"{name:<15} {best[name, True]:>10,.0f} {best[name, False]:>10,.0f} "
              f"{best[name, True] / best[name, False]:>12.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="20,000 deals a preset (a smoke run)")
    args = parser.parse_args()
    deals = 20_000 if args.quick else 200_000
    presets = {**PRESETS, "swedish+builds": PRESETS["swedish"].replace(builds=True)}
    runs = dict(presets)
    runs.update({f"{name}@1": rules.replace(decks=1) for name, rules in presets.items() if rules.decks == 2})
    runs.update({f"{name}-": rules.replace(builds=False) for name, rules in presets.items() if rules.builds})
    for rules in runs.values():
        simcasino.simulate(rules, LINEUP, deals=10)  # compile / warm up
    best = dict.fromkeys(runs, 0.0)
    for _ in range(3):
        for name, rules in runs.items():
            best[name] = max(best[name], deals_per_second(rules, deals))
    base = best["swedish"]
    print(f"{'preset':<15} {'decks':>5} {'deals/s':>10} {'of swedish':>10} {'1 deck':>10} {'of 1 deck':>9}"
          f" {'no builds':>10} {'of no builds':>12}")
    for name, rules in presets.items():
        rate = best[name]
        line = f"{name:<15} {rules.decks:>5} {rate:>10,.0f} {rate / base:>10.2f}"
        line += f" {best[name + '@1']:>10,.0f} {rate / best[name + '@1']:>9.2f}" if f"{name}@1" in best else " " * 21
        if f"{name}-" in best:
            line += f" {best[name + '-']:>10,.0f} {rate / best[name + '-']:>12.2f}"
        print(line.rstrip())
    heuristic_builds(presets, deals // 10)


if __name__ == "__main__":
    main()
