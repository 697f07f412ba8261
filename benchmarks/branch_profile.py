"""Instructions and mispredicted branches of one compiled function, instruction by instruction.

    python benchmarks/branch_profile.py heuristic [--function choose_kernel] [--deals 5000] [--top 15]

Why: on a shared machine without hardware counters `perf` sees time but not why (the
heuristic ran at a lower IPC than greedy); valgrind's callgrind simulates a branch predictor
and counts, per instruction address, instructions run (Ir), conditional branches (Bc) and
their mispredictions (Bcm). numba's machine code has no symbols, so the child process writes
a map of the compiled functions (`perf_map.compiled_functions`) and the bytes of the chosen
one, and this script disassembles them (objdump) next to the counts. Its predictor keeps no
history, so it overstates the exits of short loops: use it to find candidates, the clock to
decide. Self-play, one thread, code compiled for a generic CPU (as `bench_instructions.py`).
Needs valgrind, setarch and objdump (Debian: valgrind, util-linux, binutils); a run takes a
few minutes.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

EVENTS = ("Ir", "Bc", "Bcm")


def play_and_dump(strategy: str, deals: int, function: str, out: Path) -> None:
    """The child: play, then write the map and the bytes of the function matching ``function``."""
    from perf_map import compiled_functions

    import simcasino

    simcasino.simulate("swedish", (strategy,) * 2, deals=deals, threads=1)
    functions = compiled_functions()
    starts = sorted(functions)
    for start, end in zip(starts, starts[1:] + [starts[-1] + 4096]):
        if f"{function}B" in functions[start] and f"{strategy}" in functions[start]:
            (out / "map").write_text(f"{start:x} {functions[start]}\n")
            (out / "code").write_bytes(ctypes.string_at(start, min(end - start, 1 << 20)))
            return
    sys.exit(f"error: no compiled function {function} of {strategy}")


def self_costs(callgrind_out: Path) -> dict[int, list[int]]:
    """Per instruction address: its own Ir, Bc, Bcm (calls' inclusive costs left out)."""
    costs: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0])
    events, positions, last, skip = [], 1, 0, False
    for line in callgrind_out.read_text().splitlines():
        if line.startswith("events:"):
            events = line.split()[1:]
        elif line.startswith("positions:"):
            positions = len(line.split()) - 1  # the address first (instr), maybe a line number
        elif line.startswith("calls="):
            skip = True  # the next cost line is the call's
        elif line and (line[0].isdigit() or line[0] in "+-*"):
            fields = line.split()
            first = fields[0]
            last = last if first == "*" else last + int(first, 0) if first[0] in "+-" else int(first, 0)
            if skip:
                skip = False
                continue
            values = dict(zip(events, map(int, fields[positions:])))
            for i, name in enumerate(EVENTS):
                costs[last][i] += values.get(name, 0)
    return costs


def disassembly(code: Path, start: int) -> list[tuple[int, str]]:
    listing = subprocess.run(["objdump", "-D", "-b", "binary", "-m", "i386:x86-64", f"--adjust-vma={start:#x}",
                              str(code)], capture_output=True, text=True, check=True).stdout
    found = (re.match(r"\s*([0-9a-f]+):\s*(.*)", line) for line in listing.splitlines())
    return [(int(m.group(1), 16), m.group(2)) for m in found if m and "\t" in m.group(2)]  # not a long one's bytes


def report(work: Path, top: int) -> None:
    start_hex, name = (work / "map").read_text().split()
    start = int(start_hex, 16)
    costs = self_costs(work / "callgrind.out")
    lines = disassembly(work / "code", start)
    inside = [(address, costs.get(address, [0, 0, 0]), text) for address, text in lines]
    totals = [sum(c[i] for _, c, _ in inside) for i in range(3)]
    print(f"{name[:100]}\n  Ir {totals[0]:,}  Bc {totals[1]:,}  Bcm {totals[2]:,}")
    print(f"the {top} branches mispredicted most (Bcm, Bc; then the 6 instructions before):")
    index = {address: i for i, (address, _, _) in enumerate(inside)}
    for address, cost, text in sorted(inside, key=lambda row: -row[1][2])[:top]:
        print(f"\n{cost[2]:>10,} of {cost[1]:,}  {address:x}: {text}")
        for before_address, before_cost, before_text in inside[max(0, index[address] - 6):index[address]]:
            print(f"{'':>10}    ran {before_cost[0]:>9,}  {before_address:x}: {before_text}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("strategy", help="strategy of both seats, e.g. heuristic")
    parser.add_argument("--function", default="choose_kernel", help="compiled function name (default: choose_kernel)")
    parser.add_argument("--deals", type=int, default=5000)
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        play_and_dump(args.strategy, args.deals, args.function, Path(args.child))
        return
    if not all(shutil.which(program) for program in ("valgrind", "setarch", "objdump")):
        sys.exit("error: needs valgrind, setarch and objdump on the PATH")
    env = dict(os.environ, NUMBA_CPU_NAME="generic", PYTHONHASHSEED="0", NUMBA_NUM_THREADS="1",
               POLARS_MAX_THREADS="1", OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        child = [sys.executable, __file__, args.strategy, "--function", args.function, "--child", folder]
        subprocess.run([*child, "--deals", "10"], env=env, check=True)  # compile (generic CPU) outside valgrind
        subprocess.run(["setarch", "-R", "valgrind", "--tool=callgrind", "--dump-instr=yes", "--branch-sim=yes",
                        f"--callgrind-out-file={work / 'callgrind.out'}", *child, "--deals", str(args.deals)],
                       env=env, check=True, capture_output=True)
        report(work, args.top)


if __name__ == "__main__":
    main()
