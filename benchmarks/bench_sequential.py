"""Intervals where the data decided a run's size: coverage and error rates on a known effect.

    python benchmarks/bench_sequential.py sprt              # 400 SPRT-stopped runs: coverage
    python benchmarks/bench_sequential.py errors            # 1,000 runs at each gain: α, β
    python benchmarks/bench_sequential.py grown             # 400 runs grown after looks: coverage
    python benchmarks/bench_sequential.py fixed             # 1,000 fixed-size runs: coverage
    python benchmarks/bench_sequential.py quick             # decks the SPRT spends on experiments/quick.toml
    python benchmarks/bench_sequential.py all --runs 400 --jobs 2

The effect is greedy − random (Swedish, 2 players), whose truth `TRUTH` was measured once on a
large run (below). Every run is a real experiment run (`run_experiment`, one worker, its own
seed) into a temporary folder, and its *printed* interval (the summary's simultaneous 95%
interval, what the table and the verdict show) is checked against the truth:

- sprt: the setup that showed the t interval's shortfall: H0 "at most TRUTH − 0.08" against H1 "at least TRUTH + 0.04",
  chunks of 1,024 decks, so the truth lies between the two gains, where a stop is most
  selective. Also the fixed-sample t interval of the same decks the stop used (worked out from
  the chunk files), and the decks the stops took.
- errors: α (runs testing "at most TRUTH" against "at least TRUTH + 0.12": a wrong H1) and β
  ("at most TRUTH − 0.12" against "at least TRUTH": a wrong H0).
- grown: a person who wants to show "greedy gains more than TRUTH − 0.05" runs 1,024 decks,
  looks, and grows the run (`experiment run … --decks 2N` on the finished folder) until the
  printed interval's lower end passes TRUTH − 0.05, or 32,768 decks. Also the t interval the
  same person would have stopped at, looking at t intervals (the same chunks, the first look
  whose t interval passes: a t interval sits inside the anytime one, so it stops no later).
- fixed: runs of 2,048 decks set in advance (`simcasino.compare`): the t interval's coverage.
- quick: experiments/quick.toml run as shipped (all cores): the decks its SPRT decided on and
  the decks it played (chunk files written).

The script uses only what the runner had before anytime intervals too (run folders, summary data,
chunk sums), so the same file measures an older tree: PYTHONPATH=OLD python benchmarks/…
"""

from __future__ import annotations

import argparse
import math
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import polars as pl

import simcasino
from simcasino.experiment import run_experiment, spec_from_table
from simcasino.experiment.spec import load_spec
from simcasino.stats import mean_ci_from_sums, wilson_ci

# greedy − random, Swedish, 2 players, points per deal: measured once with
#   simcasino compare greedy random --decks 25000000 --seed 27 --json
# mean 7.76632372, 95% CI [7.76538, 7.76727] (25,000,000 decks, 6 min on 2 cores). Its own
# uncertainty (±0.001) is small beside the intervals checked here (±0.1 and more), but not
# beside α and β, which move by about 0.25 points of percent per 0.001 of error in the truth
# (the first 1,000,000 of these decks gave 7.7639: α 8.0%, β 3.5% against it).
TRUTH = 7.76632372
SPEC = {"name": "bench", "chunk": 1024, "rules": {"preset": "swedish"}, "games": 0,
        "arms": {"greedy": "greedy", "random": "random"}, "compare": {"baseline": "random"}}
FIRST_SEED = 1000  # runs use seeds 1000, 1001, ...: never the truth's 27
ROOT = Path(__file__).resolve().parent.parent


def decks_sums(folder: Path, decks: int) -> tuple[int, int, int]:
    """(decks, Σx, Σx²) of the points of the first ``decks`` decks of a run folder's chunks: whole
    chunks from their sums, a part of one from its deck values."""
    n = total = total_sq = 0
    for path in sorted((folder / "chunks").glob("decks-*.parquet")):
        row = pl.read_parquet(path).filter(pl.col("measure") == "points").row(0, named=True)
        if n + row["decks"] <= decks:
            n, total, total_sq = n + row["decks"], total + row["sum"], total_sq + row["sum_sq"]
        elif n < decks:
            part = row["deck_values"][: decks - n]
            n, total, total_sq = decks, total + sum(part), total_sq + sum(v * v for v in part)
    return n, total, total_sq


def covers(low: float, high: float) -> bool:
    return low <= TRUTH <= high


def sprt_run(seed: int, low: float, high: float) -> dict[str, Any]:
    """One run stopped by the SPRT: its decision and decks, whether its printed interval and the
    t interval of the same decks hold the truth."""
    spec = spec_from_table({**SPEC, "seed": seed, "decks": 65_536, "stop": {"low": low, "high": high}})
    with tempfile.TemporaryDirectory() as tmp:
        result = run_experiment(spec, Path(tmp) / "run", workers=1)
        c = result.data["comparisons"][0]
        decks = c["decks"]
        fixed = mean_ci_from_sums(*decks_sums(Path(tmp) / "run", decks), scale=2)
    return {"decision": c["sprt"]["decision"], "decks": decks, "printed": covers(c["sim_low"], c["sim_high"]),
            "fixed": covers(fixed.ci_low, fixed.ci_high), "width": c["sim_high"] - c["sim_low"]}


def grown_run(seed: int, goal: float = TRUTH - 0.05, start: int = 1024, most: int = 32_768) -> dict[str, Any]:
    """Grow a run after each look until its printed interval's lower end passes ``goal``."""
    decks, looks = start, []
    with tempfile.TemporaryDirectory() as tmp:
        while True:
            result = run_experiment(spec_from_table({**SPEC, "seed": seed, "decks": decks}), Path(tmp) / "run",
                                    workers=1)
            c = result.data["comparisons"][0]
            looks.append(decks)
            if c["sim_low"] > goal or decks >= most:
                break
            decks *= 2
        for seen in looks:  # the person looking at t intervals: the first look whose t interval passes
            fixed = mean_ci_from_sums(*decks_sums(Path(tmp) / "run", seen), scale=2)
            if fixed.ci_low > goal:
                break
    return {"decks": decks, "printed": covers(c["sim_low"], c["sim_high"]), "kind": c.get("interval", "fixed"),
            "fixed": covers(fixed.ci_low, fixed.ci_high), "fixed_decks": seen}


def fixed_run(seed: int, decks: int = 2048) -> dict[str, Any]:
    c = simcasino.compare("greedy", "random", decks=decks, seed=seed, threads=1)
    return {"printed": covers(c.sim_low, c.sim_high), "kind": c.interval}


def rate(hits: int, n: int) -> str:
    low, high = wilson_ci(hits, n)
    return f"{hits / n:.1%} [{low:.1%}, {high:.1%}] ({hits} of {n})"


def share(label: str, rows: list[dict[str, Any]], hit: Callable[[dict], bool], decks: str = "decks") -> str:
    """A line: how many of ``rows`` ``hit``, with its Wilson interval, and their mean decks."""
    mean = sum(r[decks] for r in rows) / len(rows)
    return f"  {label}: {rate(sum(map(hit, rows)), len(rows))}, mean decks {mean:,.0f}"


def many(work: Callable[..., dict[str, Any]], runs: int, jobs: int, *args: Any) -> list[dict[str, Any]]:
    seeds = range(FIRST_SEED, FIRST_SEED + runs)
    with ProcessPoolExecutor(jobs) as pool:
        return list(pool.map(work, seeds, *([a] * runs for a in args)))


def kinds(rows: list[dict[str, Any]]) -> str:
    """The kinds of the printed intervals (an older tree prints no kind: fixed)."""
    return ", ".join(sorted({r["kind"] for r in rows}))


def sprt_part(runs: int, jobs: int) -> None:
    rows = many(sprt_run, runs, jobs, TRUTH - 0.08, TRUTH + 0.04)
    decks = sorted(r["decks"] for r in rows)
    print(f"sprt, truth between the gains ('at most {TRUTH - 0.08:.4f}' against 'at least {TRUTH + 0.04:.4f}'), "
          f"{runs} runs:")
    print(f"  printed interval covers the truth: {rate(sum(r['printed'] for r in rows), runs)}")
    print(f"  t interval of the same decks:      {rate(sum(r['fixed'] for r in rows), runs)}")
    print(f"  decisions: H1 {sum(r['decision'] == 'H1' for r in rows)}, H0 {sum(r['decision'] == 'H0' for r in rows)},"
          f" undecided {sum(r['decision'] is None for r in rows)}; decks median {decks[runs // 2]:,}, "
          f"mean {sum(decks) / runs:,.0f}; printed width median {sorted(r['width'] for r in rows)[runs // 2]:.3f}")


def errors_part(runs: int, jobs: int) -> None:
    alpha = many(sprt_run, runs, jobs, TRUTH, TRUTH + 0.12)
    beta = many(sprt_run, runs, jobs, TRUTH - 0.12, TRUTH)
    print(f"sprt error rates, gains 0.12 apart, {runs} runs each:")
    print(share("α (truth = 'at most', H1 taken)", alpha, lambda r: r["decision"] == "H1"))
    print(share("β (truth = 'at least', H0 taken)", beta, lambda r: r["decision"] == "H0"))


def grown_part(runs: int, jobs: int) -> None:
    rows = many(grown_run, runs, jobs)
    print(f"grown after looks (1,024 decks, doubled until the lower end passes {TRUTH - 0.05:.4f} or 32,768), "
          f"{runs} runs:")
    print(share(f"printed interval ({kinds(rows)}) covers the truth", rows, lambda r: r["printed"]))
    print(share("t interval where a t-looking person stopped", rows, lambda r: r["fixed"], "fixed_decks"))


def fixed_part(runs: int, jobs: int) -> None:
    rows = many(fixed_run, runs, jobs)
    print(f"fixed size, 2,048 decks, {runs} runs: the printed ({kinds(rows)}) interval covers the truth: "
          f"{rate(sum(r['printed'] for r in rows), runs)}")


def quick_part(runs: int, jobs: int) -> None:
    spec = load_spec(ROOT / "experiments" / "quick.toml")
    with tempfile.TemporaryDirectory() as tmp:
        result = run_experiment(spec, Path(tmp) / "run")
        played = sum(pl.read_parquet(p)["decks"][0] for p in (Path(tmp) / "run" / "chunks").glob("decks-*.parquet"))
    sprt = result.data["comparisons"][0]["sprt"]
    print(f"quick.toml (all cores): SPRT {sprt['decision']} after {sprt['decks']:,} decks; "
          f"{played:,} decks played ({math.ceil(played / spec.chunk)} deal chunks of {spec.chunk:,} written)")


PARTS = {"sprt": sprt_part, "errors": errors_part, "grown": grown_part, "fixed": fixed_part, "quick": quick_part}
MORE = ("errors", "fixed")  # 2.5 times the runs: rates near 5% (α, β) or near 95% (coverage) need them


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("part", choices=[*PARTS, "all"])
    parser.add_argument("--runs", type=int, default=400, help="runs per measurement (errors, fixed: 2.5 times as many)")
    parser.add_argument("--jobs", type=int, default=1, help="runs at once (each on one core)")
    args = parser.parse_args()
    for name, part in PARTS.items():
        if args.part in (name, "all"):
            start = time.perf_counter()
            part(args.runs * 5 // 2 if name in MORE else args.runs, args.jobs)
            print(f"  ({time.perf_counter() - start:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
