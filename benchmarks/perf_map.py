"""Where a simulation's time goes, by compiled function, on the clock (not in instructions).

    perf record -e cpu-clock -F 5000 -o perf.data python benchmarks/perf_map.py heuristic 400000
    perf report -i perf.data --no-children --sort sym

`perf` cannot name the machine code numba makes at run time; it reads names from
/tmp/perf-PID.map if the process writes one. This script warms the kernel up (10 deals: the
compiled code is loaded), writes that map from numba's libraries (each function runs up to
the next one's start), then simulates the deals asked for, self-play on one thread
(``--rules`` to pick a preset). Functions that numba inlined are counted in their caller.
Needs Linux `perf`; software events (cpu-clock) suffice where hardware counters are not
available, as on shared machines.
"""

from __future__ import annotations

import argparse
import gc
import os

from numba.core.registry import CPUDispatcher

import simcasino


def compiled_functions() -> dict[int, str]:
    """Start address -> symbol of every function in the loaded numba libraries."""
    found: dict[int, str] = {}
    for obj in gc.get_objects():
        if not isinstance(obj, CPUDispatcher):
            continue
        for result in obj.overloads.values():
            library = result.library
            modules = [m for m in (getattr(library, "_final_module", None),
                                   getattr(library, "_shared_module", None)) if m]
            for function in (f for module in modules for f in module.functions):
                address = library._codegen._engine.get_function_address(function.name)
                if address:
                    found[address] = function.name
    return found


def write_perf_map(functions: dict[int, str]) -> str:
    """/tmp/perf-PID.map: one line per function, 'start size name' in hex."""
    path = f"/tmp/perf-{os.getpid()}.map"
    starts = sorted(functions)
    with open(path, "w") as out:
        for start, end in zip(starts, starts[1:] + [starts[-1] + 4096]):
            out.write(f"{start:x} {min(end - start, 1 << 20):x} {functions[start]}\n")
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("strategy", help="strategy of both seats, e.g. heuristic")
    parser.add_argument("deals", type=int)
    parser.add_argument("--rules", default="swedish")
    args = parser.parse_args()
    seats = (args.strategy, args.strategy)
    simcasino.simulate(args.rules, seats, deals=10, threads=1)
    print(f"{write_perf_map(compiled_functions())}: names of the compiled functions")
    simcasino.simulate(args.rules, seats, deals=args.deals, threads=1)


if __name__ == "__main__":
    main()
