"""Engine speed: numba vs reference deals/s in one run, and `simcasino simulate` at scale.

    python benchmarks/bench_engine.py            # all three measurements
    python benchmarks/bench_engine.py --quick    # smaller counts

Reports (2-player Swedish, greedy vs greedy):
1. numba kernel deals/s on one core (CPU time of the calling thread, so a busy machine
   disturbs it less) and the reference engine's deals/s, with their ratio;
2. `simcasino simulate --deals 1000000 --out F.parquet` wall time on all cores, run as a
   separate process, with its peak memory next to the size of the result frame.
Targets: >= 200,000 deals/s on one core, >= 100x the reference, 1M deals to
Parquet in < 15 s on 2 cores with memory that does not grow beyond the frame.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

import simcasino
from simcasino.core.columns import COLUMNS


def deals_per_second(engine: str, deals: int, threads: int | None = 1, repeats: int = 3) -> float:
    """The best of ``repeats`` timings: on a shared machine other work only ever slows a run."""
    simcasino.simulate(deals=10, engine=engine)  # compile / warm up
    best = 0.0
    for _ in range(repeats):
        start = time.thread_time() if threads == 1 else time.perf_counter()
        simcasino.simulate(deals=deals, engine=engine, threads=threads)
        elapsed = (time.thread_time() if threads == 1 else time.perf_counter()) - start
        best = max(best, deals / elapsed)
    return best


_RUN_AND_REPORT_PEAK = """
import resource, sys
from simcasino.cli import main
try:
    main(sys.argv[1:])
except SystemExit as done:
    if done.code:
        raise
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)
"""


def simulate_cli(deals: int) -> tuple[float, float, float]:
    """Wall seconds, peak RSS (MiB) and Parquet size (MiB) of one `simcasino simulate` run."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "deals.parquet")
        args = ["simulate", "--deals", str(deals), "--seed", "1", "--out", out]
        run = [sys.executable, "-c", _RUN_AND_REPORT_PEAK]
        subprocess.run(run + ["simulate", "--deals", "10"], check=True, capture_output=True)  # warm cache
        start = time.perf_counter()
        done = subprocess.run(run + args, check=True, capture_output=True, text=True)
        wall = time.perf_counter() - start
        peak_kib = int(done.stderr.strip().splitlines()[-1])
        return wall, peak_kib / 1024, os.path.getsize(out) / 2**20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller counts (a smoke run)")
    args = parser.parse_args()
    numba_deals, ref_deals, cli_deals = (20_000, 100, 100_000) if args.quick else (400_000, 400, 1_000_000)

    fast = deals_per_second("numba", numba_deals)
    slow = deals_per_second("reference", ref_deals)
    print(f"numba, 1 core     : {fast:12,.0f} deals/s  ({numba_deals:,} deals)")
    print(f"reference         : {slow:12,.1f} deals/s  ({ref_deals:,} deals)")
    print(f"speed-up          : {fast / slow:12,.0f} x")
    both = deals_per_second("numba", numba_deals, threads=None)
    print(f"numba, all cores  : {both:12,.0f} deals/s  (wall clock)")
    for deals in (cli_deals // 4, cli_deals):
        wall, peak, size = simulate_cli(deals)
        frame_mib = deals * 2 * (8 + 1 + 4 + len(COLUMNS) * 2) / 2**20
        print(f"simulate {deals:>9,} deals -> Parquet: {wall:6.2f} s wall, peak RSS {peak:7.1f} MiB "
              f"(frame ~{frame_mib:.0f} MiB in memory, {size:.1f} MiB on disk)")


if __name__ == "__main__":
    main()
