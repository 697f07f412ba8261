"""Batched environment speed: learner steps a second with observations and masks, beside the
kernel's own decisions a second in the same run.

    python benchmarks/bench_batched_env.py                 # 4,096 tables, 2 threads
    python benchmarks/bench_batched_env.py --tables 1024 --steps 200 --threads 1

Reports (2-player Swedish, the learner against greedy): steps/s of `KasinoBatch.step` (each
step the learner's action, the opponent's moves, an observation and a mask per table, the
actions picked by numpy from the masks), the same through `KasinoVectorEnv`, and the
kernel's decisions/s (greedy vs greedy `simcasino.simulate`, a deal's decisions counted as
its cards played) on the same threads.
Goal (issue 48): >= 1,000,000 steps/s at a batch of a few thousand on 2 cores.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np

import simcasino
from simcasino.core.rules import resolve
from simcasino.interop.batched import KasinoBatch


def steps_per_second(tables: int, steps: int, threads: int, rng: np.random.Generator) -> float:
    """Wall-clock steps/s of ``steps`` batched steps, a random legal action per table."""
    batch = KasinoBatch("swedish", tables=tables, opponent="greedy", threads=threads)
    rate = _timed(lambda: batch.reset(seed=1)[1], lambda a: batch.step(a)[1], tables, steps, rng)
    batch.close()
    return rate


def vector_steps_per_second(tables: int, steps: int, threads: int, rng: np.random.Generator,
                            copy: bool) -> float:
    """The same through the Gymnasium `VectorEnv` face (its arrays copied every step, or not)."""
    from simcasino.interop.vector_env import KasinoVectorEnv

    env = KasinoVectorEnv("swedish", num_envs=tables, opponent="greedy", threads=threads, copy=copy)
    rate = _timed(lambda: env.reset(seed=1)[1]["action_mask"], lambda a: env.step(a)[4]["action_mask"],
                  tables, steps, rng)
    env.close()
    return rate


def _timed(reset: Callable[[], np.ndarray], step: Callable[[np.ndarray], np.ndarray], tables: int,
           steps: int, rng: np.random.Generator) -> float:
    masks = reset()
    masks = step(np.argmax(masks, axis=1))  # warm up (compiles on a cold cache)
    start = time.perf_counter()
    for _ in range(steps):
        masks = step(np.argmax(masks * rng.random(masks.shape), axis=1))
    return tables * steps / (time.perf_counter() - start)


def decisions_per_second(deals: int, threads: int) -> float:
    """The kernel's greedy-vs-greedy decisions/s (wall clock) on ``threads`` threads."""
    rules = resolve("swedish")
    per_deal = 52 * rules.decks - rules.table_cards
    simcasino.simulate(deals=10, threads=threads)  # warm up
    start = time.perf_counter()
    simcasino.simulate(deals=deals, threads=threads)
    return deals * per_deal / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=4096)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    steps = steps_per_second(args.tables, args.steps, args.threads, rng)
    vector = vector_steps_per_second(args.tables, args.steps, args.threads, rng, copy=True)
    shared = vector_steps_per_second(args.tables, args.steps, args.threads, rng, copy=False)
    kernel = decisions_per_second(200_000, args.threads)
    print(f"batched env, {args.tables:,} tables, {args.threads} threads: {steps:12,.0f} steps/s "
          f"(observations {KasinoBatch('swedish', tables=1).observations.shape[1]} floats + masks)")
    print(f"the same as a Gymnasium VectorEnv       : {vector:12,.0f} steps/s")
    print(f"the VectorEnv with copy=False           : {shared:12,.0f} steps/s")
    print(f"kernel decisions, {args.threads} threads     : {kernel:12,.0f} decisions/s")
    print(f"ratio env steps / kernel decisions  : {steps / kernel:12.3f}")


if __name__ == "__main__":
    main()
