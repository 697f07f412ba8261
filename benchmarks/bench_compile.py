"""Compile time on an empty numba cache: CPU seconds of a cold first run, and where they go.

    python benchmarks/bench_compile.py [JOB ...] [--top 15]

Jobs (each in a fresh process with an empty cache of its own):

- ``plain``: ``simulate`` greedy against random (a table that compiles no other strategy);
- ``follow``: ``simulate`` greedy following the shipped card against greedy (the advice's
  move tests and conditions, no heuristic);
- ``every``: ``simulate -s search -s heuristic`` then ``analyze`` of one position: every
  strategy, the batch loop and the position API (the budget: at most 60 s of CPU);
- ``play``: the first decision of the search at the table (`simcasino play --vs search`'s
  first answer, the budget: within 30 s).

Each function's compile is timed by numba's compile events; "own" is its time less the
compiles it triggered (its callees), so the top of the list is where compile time goes.
Why CPU seconds: numba compiles on one thread, and on a shared machine the CPU time of that
thread moves less than the wall clock.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile

JOBS = {
    "plain": "import simcasino; simcasino.simulate('swedish', ('greedy', 'random'), deals=4, seed=1, threads=1)",
    "follow": "import simcasino; simcasino.simulate('swedish', ('greedy:follow=card', 'greedy'), deals=4, seed=1, "
              "threads=1)",
    "every": ("import simcasino; from simcasino.analyze import analyze; "
              "simcasino.simulate('swedish', ('search', 'heuristic'), deals=4, seed=1, threads=1); "
              "analyze('7H 2S QD 5C', '3C 4D 9S')"),
    "play": ("import simcasino; from simcasino.loop.seat import KernelSeat; "
             "from simcasino.core.protocol import Stream; from simcasino.strategies import parse_strategy; "
             "state = simcasino.DealState.new(simcasino.Rules(), seed=3, index=0); "
             "KernelSeat(parse_strategy('search')).decide(state, Stream(state.rng))"),
}

CHILD = """
import collections, sys, time
from numba.core import event
stack, own, calls = [], collections.Counter(), collections.Counter()
class Timer(event.Listener):
    def on_start(self, ev):
        f = ev.data["dispatcher"].py_func
        stack.append([f"{f.__module__}.{f.__qualname__}", time.process_time(), 0.0])
    def on_end(self, ev):
        name, start, inner = stack.pop()
        spent = time.process_time() - start
        own[name] += spent - inner
        calls[name] += 1
        if stack:
            stack[-1][2] += spent
event.register("numba:compile", Timer())
begin = time.process_time()
exec(sys.argv[1])
print(f"{time.process_time() - begin:.1f}")
for name, spent in own.most_common(int(sys.argv[2])):
    print(f"{spent:.2f} {calls[name]} {name}")
"""


def measure(job: str, top: int) -> tuple[float, list[str]]:
    """CPU seconds of the job in a fresh process on an empty cache, and its top compiles."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache, NUMBA_NUM_THREADS="1")
        out = subprocess.run([sys.executable, "-c", CHILD, JOBS[job], str(top)], env=env, capture_output=True,
                             text=True, check=True).stdout.splitlines()
    return float(out[0]), out[1:]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("jobs", nargs="*", default=list(JOBS), choices=list(JOBS))
    parser.add_argument("--top", type=int, default=15, help="functions listed per job (by their own compile time)")
    args = parser.parse_args()
    for job in args.jobs:
        total, rows = measure(job, args.top)
        print(f"{job}: {total:.1f} s of CPU on an empty cache (the run included)")
        for row in rows:
            spent, calls, name = row.split(maxsplit=2)
            print(f"  {float(spent):7.2f} s  x{calls}  {name}")


if __name__ == "__main__":
    main()
