"""Experiment runner overhead and memory: the runner against raw `simulate` on the same deals.

    python benchmarks/bench_runner.py                  # 1M decks for speed; memory at 1M and 10M
    python benchmarks/bench_runner.py --quick          # 200k decks; memory at 100k and 1M
    python benchmarks/bench_runner.py --speed-only --decks 4000000   # speed alone, at 4M decks

Reports (2-player Swedish, greedy vs random, every deck played in both seat rotations):
1. raw: `simulate` of the two seatings on all cores (numba threads), deals/s;
   runner: `run_experiment` of the same decks on local worker processes (all cores), with
   its chunk files and summary, deals/s, counting worker start-up; and the loss in percent.
2. peak resident memory of the runner's main process and of its largest worker for a run of
   N and of 10·N decks, each run as a separate process: flat means the runner holds no rows.
Target: less than 10% slower than raw simulate, memory flat from 1M to 10M decks.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import simcasino
from simcasino.experiment import run_experiment, spec_from_table

SPEC = {"name": "bench", "seed": 1, "chunk": 65_536, "rules": {"preset": "swedish"},
        "arms": {"greedy": "greedy", "random": "random"}, "compare": {"baseline": "random"}}


def raw_rate(decks: int) -> float:
    simcasino.simulate(deals=10, strategies=("greedy", "random"))  # compile / warm up
    start = time.perf_counter()
    for lineup in (("greedy", "random"), ("random", "greedy")):
        simcasino.simulate(deals=decks, strategies=lineup, seed=1)
    return 2 * decks / (time.perf_counter() - start)


def runner_rate(decks: int) -> float:
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        result = run_experiment(spec_from_table({**SPEC, "decks": decks}), Path(folder) / "run")
        elapsed = time.perf_counter() - start
    return result.data["deals_played"] / elapsed


_PEAK = """
import resource, sys, tempfile
from pathlib import Path
sys.path.insert(0, {bench!r})
from bench_runner import SPEC
from simcasino.experiment import run_experiment, spec_from_table
with tempfile.TemporaryDirectory() as folder:
    run_experiment(spec_from_table({{**SPEC, "decks": {decks}}}), Path(folder) / "run")
own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(own, workers)
"""


def peak_rss_mb(decks: int) -> tuple[float, float]:
    """(main process, largest worker) peak RSS in MB for a run of ``decks`` decks."""
    code = _PEAK.format(bench=str(Path(__file__).parent), decks=decks)
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    own, workers = (int(v) / 1024 for v in out.split())
    return own, workers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller counts")
    parser.add_argument("--speed-only", action="store_true", help="skip the memory runs")
    parser.add_argument("--decks", type=int, help="decks for the speed comparison (start-up cost amortises)")
    args = parser.parse_args()
    speed_decks, memory_decks = (200_000, 100_000) if args.quick else (1_000_000, 1_000_000)
    speed_decks = args.decks or speed_decks
    raw, runner = raw_rate(speed_decks), runner_rate(speed_decks)
    print(f"{speed_decks:,} decks x 2 rotations: raw simulate {raw:,.0f} deals/s, "
          f"runner {runner:,.0f} deals/s ({(1 - runner / raw):+.1%} loss)")
    for decks in () if args.speed_only else (memory_decks, 10 * memory_decks):
        start = time.perf_counter()
        own, worker = peak_rss_mb(decks)
        print(f"{decks:>11,} decks: peak RSS main {own:,.0f} MB, largest worker {worker:,.0f} MB "
              f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
