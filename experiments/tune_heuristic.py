"""How the heuristic's default weights were found: coordinate search against greedy.

    python experiments/tune_heuristic.py [--deals 60000] [--passes 2]

The objective is the heuristic's paired gain over greedy in points per deal (decks played
twice with seats swapped, so the luck of the cards cancels), averaged over Swedish and
Finnish 2-player rules. Each pass tries, one weight at a time, a few values around the
current one and keeps a change only when it beats the current objective by more than the
noise floor. Tuning uses seed 101; check the result on a fresh seed (the issue note does).
"""

from __future__ import annotations

import argparse

import numpy as np

import simcasino
from simcasino.strategies.heuristic import PARAMS

RULES = ("swedish", "finnish")


def paired_gain(a: str, b: str, rules: str, deals: int, seed: int) -> float:
    """Mean points per deal of ``a`` minus ``b`` over decks each played with seats swapped."""
    first = (
        simcasino.simulate(rules, (a, b), deals=deals, seed=seed)["points"]
        .to_numpy()
        .reshape(deals, 2)
    )
    second = (
        simcasino.simulate(rules, (b, a), deals=deals, seed=seed)["points"]
        .to_numpy()
        .reshape(deals, 2)
    )
    return float(np.mean((first[:, 0] - first[:, 1] + second[:, 1] - second[:, 0]) / 2))


def spec(weights: dict[str, float]) -> str:
    return "heuristic:" + ",".join(f"{k}={v:g}" for k, v in weights.items())


def objective(weights: dict[str, float], deals: int, seed: int) -> float:
    return float(np.mean([paired_gain(spec(weights), "greedy", r, deals, seed) for r in RULES]))


def candidates(value: float) -> list[float]:
    if value == 0:
        return [-0.5, 0.5, 1.0]
    return sorted({0.0, round(value * 0.5, 3), round(value * 1.5, 3), round(value * 2.5, 3)})


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--deals", type=int, default=60_000)
    parser.add_argument("--passes", type=int, default=2)
    parser.add_argument("--seed", type=int, default=101)
    parser.add_argument(
        "--noise", type=float, default=0.01, help="least gain (points/deal) that counts"
    )
    args = parser.parse_args()
    weights = {name: default for name, (default, _) in PARAMS.items()}
    best = objective(weights, args.deals, args.seed)
    print(f"start {best:+.4f}  {spec(weights)}", flush=True)
    for _ in range(args.passes):
        for name in PARAMS:
            for value in candidates(weights[name]):
                trial = {**weights, name: value}
                score = objective(trial, args.deals, args.seed)
                if score > best + args.noise:
                    best, weights = score, trial
                    print(f"{name}={value:g}: {best:+.4f}", flush=True)
    print(f"final {best:+.4f}  {spec(weights)}", flush=True)


if __name__ == "__main__":
    main()
