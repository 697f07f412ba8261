"""The search's strength against its budget: ``search:budget=B`` against the heuristic, 2 players.

    python benchmarks/bench_search_budget.py --budgets 256 1024 4096 --rules swedish finnish \\
        --decks 1000 500 200 --seed 38 --out budget.jsonl

For each budget (playouts a decision may take, `search`'s ``budget``) and rule set: A − B in
points a deal with its 95% interval over ``decks`` paired decks (`simcasino.compare`, one
thread), and the time a decision: the mean, from the CPU time of the whole run over its
search decisions (52 cards a deck's deal, two deals a deck, half of them the search's: the
heuristic's share is under a percent), and the median over ``--positions`` recorded positions
(thread CPU time minus the heuristic's, `bench_strategies.decision_ms`). One line a
(rules, budget) is appended to ``--out``, and a line already there is not played again, so
an interrupted run continues where it stopped; ``--summary`` prints the table again.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from bench_strategies import decision_ms

import simcasino

DECISIONS_PER_DECK = 52  # 2 players, 52 cards: 26 decisions a deal each, two deals a deck (one per seat rotation)


def measure(rules: str, budget: int, decks: int, seed: int, positions: int) -> dict:
    """One point of the curve: the paired difference and the time a decision."""
    strategy = f"search:budget={budget}"
    simcasino.compare(strategy, "heuristic", rules=rules, players=2, decks=2, seed=seed, threads=1)  # compiled first
    start = time.process_time()
    result = simcasino.compare(strategy, "heuristic", rules=rules, players=2, decks=decks, seed=seed, threads=1)
    cpu = time.process_time() - start
    median = statistics.median(decision_ms((strategy,), positions, rules=rules)[strategy]) if positions else None
    return {"rules": rules, "budget": budget, "decks": decks, "seed": seed, "diff": result.mean_diff,
            "low": result.ci_low, "high": result.ci_high, "mean_ms": 1000 * cpu / (decks * DECISIONS_PER_DECK),
            "median_ms": median}


def row(point: dict) -> str:
    median = "" if point["median_ms"] is None else f"{point['median_ms']:.2f}"
    return (f"| {point['rules']} | {point['budget']:,} | {point['decks']:,} | {point['diff']:+.3f} "
            f"[{point['low']:+.3f}, {point['high']:+.3f}] | {point['mean_ms']:.2f} | {median} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--budgets", type=int, nargs="+", default=[256, 1024, 4096])
    parser.add_argument("--rules", nargs="+", default=["swedish", "finnish"])
    parser.add_argument("--decks", type=int, nargs="+", default=[1000],
                        help="decks per budget, one for all or one a budget")
    parser.add_argument("--seed", type=int, default=38)
    parser.add_argument("--positions", type=int, default=100, help="positions timed for the median (0: none)")
    parser.add_argument("--out", type=Path, required=True, help="JSON lines, appended to and resumed from")
    parser.add_argument("--summary", action="store_true", help="print the table of --out and stop")
    args = parser.parse_args()
    decks = args.decks * len(args.budgets) if len(args.decks) == 1 else args.decks
    if len(decks) != len(args.budgets):
        parser.error("give one deck count, or one per budget")
    done = [json.loads(line) for line in args.out.read_text().splitlines()] if args.out.exists() else []
    print("| rules | budget (playouts) | decks | search − heuristic [95% CI] | mean ms | median ms |")
    print("|---|---|---|---|---|---|")
    for point in done:
        print(row(point))
    if args.summary:
        return
    for budget, count in zip(args.budgets, decks):
        for rules in args.rules:
            if any(p["rules"] == rules and p["budget"] == budget and p["seed"] == args.seed for p in done):
                continue
            point = measure(rules, budget, count, args.seed, args.positions)
            with args.out.open("a") as out:
                out.write(json.dumps(point) + "\n")
            print(row(point), flush=True)


if __name__ == "__main__":
    main()
