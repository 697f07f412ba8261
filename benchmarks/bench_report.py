"""Report generation on a run of a million decks: seconds, not minutes.

    python benchmarks/bench_report.py                       # plays 1,000,000 decks, then times the report
    python benchmarks/bench_report.py --run runs/bench-1m   # times the report of a run folder made before
    python benchmarks/bench_report.py --decks 200000        # a smaller run

The run: greedy, heuristic and random against random (three comparisons, so the report has its
tournament matrix too), 2-player Swedish, each deck in both seat rotations, in chunks of
65,536 decks on all cores; the run folder is kept (``--keep DIR``, default a temporary one).
Printed: the run's size, then the seconds to load the run alone (summary, running means and
distributions aggregated from the chunks' sums and histograms, lazily with polars, never a
per-deal row) and for the whole report as ``simcasino report DIR`` makes it (`make_report`:
load, then every page as a PDF and PNGs).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from simcasino.experiment import run_experiment, spec_from_table
from simcasino.report import make_report
from simcasino.report.data import load

SPEC = {"name": "bench-report", "description": "greedy, heuristic and random against random", "seed": 1,
        "chunk": 65_536, "rules": {"preset": "swedish"},
        "arms": {"greedy": "greedy", "heuristic": "heuristic", "random": "random"}, "compare": {"baseline": "random"}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--run", type=Path, help="an existing run folder: time its report, play nothing")
    parser.add_argument("--decks", type=int, default=1_000_000, help="decks to play (default 1,000,000)")
    parser.add_argument("--keep", type=Path, help="where to keep the run folder (default: a temporary folder)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        folder = args.run or args.keep or Path(scratch) / "run"
        if args.run is None:
            start = time.perf_counter()
            result = run_experiment(spec_from_table({**SPEC, "decks": args.decks}), folder)
            print(f"run: {result.data['decks']:,} decks, {result.data['deals_played']:,} deals played in "
                  f"{time.perf_counter() - start:.0f} s ({folder})")
        chunks = len(list((folder / "chunks").iterdir()))
        start = time.perf_counter()
        data = load(folder)
        loaded = time.perf_counter() - start
        start = time.perf_counter()
        report = make_report(folder, Path(scratch) / "report")
        whole = time.perf_counter() - start
        print(f"report of {data.result.data['decks']:,} decks ({data.result.data['deals_played']:,} deals, "
              f"{chunks} chunk files): load alone {loaded:.2f} s; make_report (load and {report.pages} pages "
              f"as PDF and PNGs) {whole:.2f} s")


if __name__ == "__main__":
    main()
