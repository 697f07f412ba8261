"""Hashes of the frames every kernel strategy plays on a fixed set of lineups, so that a pure
move (a module moved, a name registered another way) can be shown to change no move.

    python benchmarks/frame_hashes.py --out before.json        # on the commit before
    python benchmarks/frame_hashes.py --check before.json      # after: exit 1 on any difference

Each lineup is played by the numba kernel (all tiers: plain, weighed, searched, clairvoyant),
with and without ``follow=``, under Swedish and Finnish rules, with builds, under Misère, and with three
players; the hash is of the frame's rows (every result column of every seat of every deal).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys

import simcasino

# (rules, strategies, deals): a few hundred deals of the slow players, thousands of the fast
LINEUPS = (
    ("swedish", ("random", "greedy"), 3000),
    ("finnish", ("greedy", "random", "greedy"), 3000),
    ("swedish", ("heuristic", "greedy"), 2000),
    ("finnish", ("heuristic", "heuristic"), 2000),
    ("rakennuskasino", ("heuristic", "greedy"), 1000),
    ("misere", ("greedy", "heuristic"), 1000),
    ("mulle_glimne", ("search:budget=256", "heuristic"), 40),
    ("swedish", ("greedy:follow=card", "greedy"), 2000),
    ("finnish", ("greedy:follow=card", "heuristic"), 2000),
    ("swedish", ("heuristic:follow=S6@last-round", "random:follow=S1"), 2000),
    ("swedish", ("search:budget=512", "heuristic"), 150),
    ("finnish", ("search:budget=512,follow=F1", "greedy"), 100),
    ("swedish", ("search:budget=256", "greedy", "heuristic"), 60),
    ("swedish", ("clairvoyant:moves=2", "heuristic"), 20),
)


def frame_hash(rules: str, strategies: tuple[str, ...], deals: int, seed: int = 50) -> str:
    frame = simcasino.simulate(rules, strategies, deals=deals, seed=seed)
    return hashlib.sha256(frame.drop("strategy").write_csv().encode()).hexdigest()[:16]


def hashes() -> dict[str, str]:
    out = {}
    for rules, strategies, deals in LINEUPS:
        key = f"{rules} {' '.join(strategies)} x{deals}"
        out[key] = frame_hash(rules, strategies, deals)
        print(f"{out[key]}  {key}", flush=True)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", help="write the hashes to this JSON file")
    parser.add_argument("--check", help="compare with the hashes in this JSON file (exit 1 if any differs)")
    args = parser.parse_args()
    found = hashes()
    if args.out:
        with open(args.out, "w") as f:
            json.dump(found, f, indent=1)
    if args.check:
        with open(args.check) as f:
            before = json.load(f)
        differ = [k for k in before if found.get(k) != before[k]]
        print("all equal" if not differ else "DIFFER: " + "; ".join(differ))
        return 1 if differ else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
