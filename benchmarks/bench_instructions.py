"""Instructions per deal of each strategy playing itself, counted by valgrind's cachegrind.

    python benchmarks/bench_instructions.py [STRATEGY ...] [--rules R] [--deals N]

Deals/s on a shared machine wander by 30% from run to run; instruction counts do not, so this
is the measure to compare two versions of a kernel with (run it in each). Each strategy is
simulated under cachegrind twice, for N/5 and N deals; the difference over 4N/5 deals drops
the start-up (imports, loading the compiled code). The code is compiled for a generic CPU
into a cache of its own first (valgrind's CPU would not match the host's cache entries and
would compile under the emulator); `setarch -R` turns off address randomization and one
thread per pool (numba, polars, BLAS) keeps waiting threads from adding spins, so the counts
repeat. Needs `valgrind` and `setarch` (Debian: valgrind, util-linux).
Instructions are not time: branchy code runs fewer of them a second (the speed target is
deals/s, `bench_strategies.py`).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

PLAY = "import sys, simcasino; simcasino.simulate(sys.argv[1], (sys.argv[2],) * 2, deals=int(sys.argv[3]), threads=1)"


def instructions(env: dict[str, str], rules: str, strategy: str, deals: int) -> int:
    """Instructions of a whole process simulating ``deals`` deals (cachegrind's I refs)."""
    command = ["setarch", "-R", "valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
               sys.executable, "-c", PLAY, rules, strategy, str(deals)]
    report = subprocess.run(command, env=env, capture_output=True, text=True, check=True).stderr
    return int(re.search(r"I\s+refs:\s+([\d,]+)", report).group(1).replace(",", ""))


def per_deal(env: dict[str, str], rules: str, strategy: str, deals: int) -> float:
    subprocess.run([sys.executable, "-c", PLAY, rules, strategy, "10"], env=env, check=True)  # compile, generic CPU
    few = deals // 5
    return (instructions(env, rules, strategy, deals) - instructions(env, rules, strategy, few)) / (deals - few)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("strategies", nargs="*", default=["greedy", "heuristic"])
    parser.add_argument("--rules", default="swedish")
    parser.add_argument("--deals", type=int, default=20_000)
    args = parser.parse_args()
    if not (shutil.which("valgrind") and shutil.which("setarch")):
        sys.exit("error: needs valgrind and setarch on the PATH")
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CPU_NAME="generic", NUMBA_CACHE_DIR=cache, PYTHONHASHSEED="0",
                   NUMBA_NUM_THREADS="1", POLARS_MAX_THREADS="1", OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
        counts = {s: per_deal(env, args.rules, s, args.deals) for s in args.strategies}
    first = counts[args.strategies[0]]
    for strategy, count in counts.items():
        print(f"{strategy:24s}: {count:9,.0f} instructions a deal ({args.rules}, self-play), "
              f"{first / count:.2f} of {args.strategies[0]}'s")


if __name__ == "__main__":
    main()
