"""Two strategies measured against one opponent on the same decks, 2 players: how much more
A wins from the opponent than B does, paired deck by deck.

    python benchmarks/bench_against.py search:respond=2 search --against heuristic \\
        --rules swedish finnish --decks 1000 --seed 4603 --out against.jsonl

Head to head (`simcasino compare A B`) says which of two players beats the other; this says
which exploits a third better, and the two can disagree (a best response to the heuristic
gains against the heuristic and loses to a player who does not play like it). For each deck d,
each of A and B plays it once in each seat against the opponent (`simcasino.simulate`: deck d
is the same cards whatever the lineup); a player's margin on d is its points less the
opponent's over the two deals, and A's gain on d is its margin less B's. The interval is the
t interval over decks (`stats.mean_ci`). One line a rule set is appended to ``--out``, and a
rule set already there is not played again (an interrupted run goes on where it stopped).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

import simcasino
from simcasino.stats import mean_ci


def margins(player: str, opponent: str, rules: str, decks: int, seed: int) -> np.ndarray:
    """Per deck: ``player``'s points less ``opponent``'s, summed over its two seats."""
    total = np.zeros(decks)
    for seat in (0, 1):
        lineup = (player, opponent) if seat == 0 else (opponent, player)
        frame = simcasino.simulate(rules, lineup, deals=decks, seed=seed).sort(["deal", "seat"])
        points = frame["points"].to_numpy().reshape(decks, 2)
        total += points[:, seat] - points[:, 1 - seat]
    return total


def measure(a: str, b: str, opponent: str, rules: str, decks: int, seed: int) -> dict:
    gain_a, gain_b = margins(a, opponent, rules, decks, seed), margins(b, opponent, rules, decks, seed)
    each = {name: mean_ci(gain / 2) for name, gain in (("a", gain_a), ("b", gain_b))}
    paired = mean_ci((gain_a - gain_b) / 2)  # points a deal: two deals a deck
    return {"a": a, "b": b, "against": opponent, "rules": rules, "decks": decks, "seed": seed,
            "diff": paired.mean, "low": paired.ci_low, "high": paired.ci_high,
            "a_diff": each["a"].mean, "b_diff": each["b"].mean}


def line(point: dict) -> str:
    return (f"{point['rules']}: {point['a']} − {point['b']} against {point['against']}: {point['diff']:+.3f} "
            f"[{point['low']:+.3f}, {point['high']:+.3f}] a deal over {point['decks']:,} decks (seed {point['seed']}; "
            f"{point['a_diff']:+.3f} and {point['b_diff']:+.3f} over {point['against']})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--against", default="heuristic", help="the common opponent")
    parser.add_argument("--rules", nargs="+", default=["swedish", "finnish"])
    parser.add_argument("--decks", type=int, default=1000)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--out", type=Path, required=True, help="JSON lines, appended to and resumed from")
    args = parser.parse_args()
    done = {}
    if args.out.exists():
        done = {(p["a"], p["b"], p["against"], p["rules"], p["decks"], p["seed"]): p
                for p in map(json.loads, args.out.read_text().splitlines())}
    for rules in args.rules:
        key = (args.a, args.b, args.against, rules, args.decks, args.seed)
        if key not in done:
            done[key] = measure(args.a, args.b, args.against, rules, args.decks, args.seed)
            with args.out.open("a") as out:
                out.write(json.dumps(done[key]) + "\n")
        print(line(done[key]), flush=True)


if __name__ == "__main__":
    main()
