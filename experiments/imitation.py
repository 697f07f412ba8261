"""A small learned policy: the search's actions imitated from a dataset, in minutes on 2 cores.

Why this example: it shows the way from the toolkit's data to its table and back. A dataset of
the search's deals (`simcasino dataset`) gives, for every action, the seat's observation, its
legal actions and the search's action; a network of one hidden layer learns to pick that action
among the legal ones (a softmax over the legal actions, cross-entropy, Adam, numpy only); and
the same file is the policy `simcasino evaluate` seats at the paired-deck table.

    simcasino dataset --rules swedish --deals 2000 --seed 1 --out swedish-search
    python experiments/imitation.py swedish-search --out imitation.npz
    IMITATION=imitation.npz simcasino evaluate experiments/imitation.py greedy --decks 1000

The weights file keeps the dataset's recipe, the seed and the commit that made it. Held-out
agreement (deals the fit never saw) is printed after each epoch.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

import numpy as np
import polars as pl


def load(folder: Path, deals: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Observations, masks, actions and deal numbers of the dataset's first ``deals`` deals."""
    rows = pl.scan_parquet(folder / "*.parquet").filter(pl.col("deal") < deals)
    rows = rows.select("deal", "observation", "mask", "action").collect()
    return (
        rows["observation"].to_numpy().astype(np.float32),
        rows["mask"].to_numpy().astype(bool),
        rows["action"].to_numpy().astype(np.int64),
        rows["deal"].to_numpy(),
    )


def init(
    features: int, hidden: int, actions: int, rng: np.random.Generator
) -> dict[str, np.ndarray]:
    return {
        "w1": (rng.standard_normal((features, hidden)) / np.sqrt(features)).astype(np.float32),
        "b1": np.zeros(hidden, np.float32),
        "w2": (rng.standard_normal((hidden, actions)) / np.sqrt(hidden)).astype(np.float32),
        "b2": np.zeros(actions, np.float32),
    }


def logits(
    weights: dict[str, np.ndarray], x: np.ndarray, mask: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The hidden layer and the logits, illegal actions at minus infinity."""
    hidden = np.tanh(x @ weights["w1"] + weights["b1"])
    out = hidden @ weights["w2"] + weights["b2"]
    return hidden, np.where(mask, out, -np.inf)


def gradients(weights: dict[str, np.ndarray], x: np.ndarray, mask: np.ndarray,
              action: np.ndarray) -> tuple[float, dict[str, np.ndarray]]:
    """The mean cross-entropy of the actions taken and its gradient."""
    hidden, out = logits(weights, x, mask)
    out -= out.max(axis=1, keepdims=True)
    p = np.exp(out)
    p /= p.sum(axis=1, keepdims=True)
    rows = np.arange(len(action))
    loss = float(-np.log(p[rows, action] + 1e-12).mean())
    d_out = p
    d_out[rows, action] -= 1
    d_out /= len(action)
    d_hidden = (d_out @ weights["w2"].T) * (1 - hidden**2)
    grads = {"w2": hidden.T @ d_out, "b2": d_out.sum(0)}
    return loss, {**grads, "w1": x.T @ d_hidden, "b1": d_hidden.sum(0)}


def fit(x: np.ndarray, mask: np.ndarray, action: np.ndarray, held: np.ndarray, hidden: int,
        epochs: int, seed: int) -> dict[str, np.ndarray]:
    """Adam on minibatches of the rows not ``held`` out; the held-out agreement each epoch."""
    rng = np.random.default_rng(seed)
    weights = init(x.shape[1], hidden, mask.shape[1], rng)
    moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in weights.items()}
    train, t = np.flatnonzero(~held), 0
    for epoch in range(epochs):
        losses = []
        for batch in np.array_split(rng.permutation(train), max(1, len(train) // 512)):
            loss, grads = gradients(weights, x[batch], mask[batch], action[batch])
            losses.append(loss)
            t += 1
            for k, g in grads.items():
                m, v = moments[k]
                m[:] = 0.9 * m + 0.1 * g
                v[:] = 0.999 * v + 0.001 * g * g
                weights[k] -= 1e-3 * (m / (1 - 0.9**t)) / (np.sqrt(v / (1 - 0.999**t)) + 1e-8)
        chosen = np.argmax(logits(weights, x[held], mask[held])[1], axis=1) == action[held]
        choice = mask[held].sum(axis=1) > 1  # the actions with a choice to make
        print(f"epoch {epoch + 1}: training loss {np.mean(losses):.3f}, held-out agreement with "
              f"the search {chosen[choice].mean():.1%} where there is a choice")
    return weights


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", type=Path, help="a folder `simcasino dataset` wrote")
    parser.add_argument("--out", type=Path, required=True, help="the weights file (.npz)")
    parser.add_argument("--deals", type=int, default=2000, help="the dataset's first deals used")
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    from simcasino.provenance import commit

    x, mask, action, deal = load(args.dataset, args.deals)
    held = deal >= np.quantile(np.unique(deal), 0.9)  # the last tenth of the deals
    print(f"{len(action):,} actions of {len(np.unique(deal)):,} deals, {held.sum():,} held out")
    weights = fit(x, mask, action, held, args.hidden, args.epochs, args.seed)
    made = {"dataset": json.loads((args.dataset / "dataset.json").read_text()), "deals": args.deals,
            "seed": args.seed, "commit": commit()}
    np.savez(args.out, made=json.dumps(made), **weights)
    print(f"wrote {args.out}")


_WEIGHTS: dict[str, np.ndarray] = {}


def policy(observation: np.ndarray, mask: np.ndarray) -> int:
    """The imitation's action: the legal action of highest logit (weights from $IMITATION)."""
    if not _WEIGHTS:
        with np.load(os.environ.get("IMITATION", "imitation.npz")) as stored:
            _WEIGHTS.update({k: stored[k] for k in ("w1", "b1", "w2", "b2")})
    return int(np.argmax(logits(_WEIGHTS, observation[None], mask[None].astype(bool))[1][0]))


if __name__ == "__main__":
    main()
