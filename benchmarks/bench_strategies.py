"""Strategy speed, measured in one run on one core (2-player Swedish, or ``--rules PRESET``).

    python benchmarks/bench_strategies.py [--quick] [--rules rakennuskasino]

1. deals/s of greedy vs greedy and heuristic vs heuristic on one core (CPU time of the
   calling thread, best of several rounds taken in turns), and their ratio (the
   target: heuristic at least half of greedy);
2. search: milliseconds per decision, median and worst, over positions from real deals (the
   default, belief=0 and its ratio, worlds=4, the clairvoyant), and the exact solver's on the
   positions with the stock empty (two players: nothing hidden).
   Each position is decided by the search and by the heuristic through the same entry
   (`loop.position.kernel_move`); the difference is the search's own time.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import simcasino
from simcasino.core.rules import Rules
from simcasino.loop.position import kernel_move
from simcasino.strategies import parse_strategy

sys.path.insert(0, str(Path(__file__).parent.parent / "tests"))
from helpers.hidden import deal_hidden  # noqa: E402  (positions from real deals, the tests' helpers)
from helpers.positions import recorded_views  # noqa: E402

# (strategy, only positions with the stock empty): the default search, the search before belief
# (what the default's budget costs over it; the goal: the default's median at most 5 ms), a small budget, the
# clairvoyant ceiling, and the exact solver where it decides
SEARCHES = (("search", False), ("search:belief=0", False), ("search:worlds=4,max_worlds=4", False),
            ("clairvoyant", False), ("search", True))


def deals_per_second(strategies: tuple[str, ...], deals: dict[str, int], rounds: int = 5,
                     rules: str = "swedish") -> dict[str, float]:
    """Best of ``rounds`` timings per strategy, the strategies taking turns, so that both see
    the same machine (it is shared: other work only slows a round down)."""
    best = dict.fromkeys(strategies, 0.0)
    for strategy in strategies:
        simcasino.simulate(rules, (strategy, strategy), deals=10, threads=1)  # compile / warm up
    for _ in range(rounds):
        for strategy in strategies:
            start = time.thread_time()
            simcasino.simulate(rules, (strategy, strategy), deals=deals[strategy], threads=1)
            best[strategy] = max(best[strategy], deals[strategy] / (time.thread_time() - start))
    return best


def decision_ms(strategies: tuple[str, ...], positions: int, endgame: bool = False,
                rules: str = "swedish") -> dict[str, list[float]]:
    """Per strategy and position: its time minus the heuristic's through the same entry.
    The strategies take turns position by position, so that a ratio of two of them is
    measured on the same machine at the same moment (it is shared, and its speed drifts).
    ``endgame``: only positions with the stock empty (where the exact solver decides)."""
    specs, base = {s: parse_strategy(s) for s in strategies}, parse_strategy("heuristic")
    views = recorded_views(Rules.preset(rules), deals=positions // (8 if endgame else 40) + 1)
    views = [v for v in views if v.stock_left == 0 or not endgame][:positions]
    for spec in (*specs.values(), base):  # compile / warm up
        kernel_move(views[0], spec, *deal_hidden(views[0], 0))
    times: dict[str, list[float]] = {s: [] for s in strategies}
    for view in views:
        hidden = deal_hidden(view, 0)
        heuristic = min(_timed(view, base, hidden) for _ in range(3))  # least of three: other work only adds
        for strategy, spec in specs.items():
            times[strategy].append(min(_timed(view, spec, hidden) for _ in range(3)) - heuristic)
    return times


def _timed(view, spec, hidden) -> float:
    """Milliseconds (thread CPU time) of one decision through `kernel_move`."""
    start = time.thread_time()
    kernel_move(view, spec, *hidden)
    return 1000 * (time.thread_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="smaller counts")
    parser.add_argument("--rules", default="swedish", help="rules preset (default: swedish)")
    args = parser.parse_args()
    deals = 40_000 if args.quick else 100_000
    speed = deals_per_second(("greedy", "heuristic"), {"greedy": deals, "heuristic": deals // 3},
                             rounds=3 if args.quick else 8, rules=args.rules)
    greedy, heuristic = speed["greedy"], speed["heuristic"]
    print(f"greedy vs greedy      : {greedy:12,.0f} deals/s (1 core)")
    print(f"heuristic vs heuristic: {heuristic:12,.0f} deals/s (1 core), {heuristic / greedy:.2f} of greedy")
    count = 100 if args.quick else 400
    medians = {}
    sampled = decision_ms(tuple(s for s, endgame in SEARCHES if not endgame), count, False, args.rules)
    solved = decision_ms(tuple(s for s, endgame in SEARCHES if endgame), count, True, args.rules)
    for where, ms in [*sampled.items(), *(("exact solver (stock empty)", ms) for ms in solved.values())]:
        medians[where] = statistics.median(ms)
        print(f"{where:26s}: median {medians[where]:6.2f} ms, worst {max(ms):6.2f} ms per decision"
              f" ({len(ms)} positions)")
    print(f"search / search:belief=0  : {medians['search'] / medians['search:belief=0']:.2f} times the median"
          f" (the goal: the search's median at most 5 ms; {medians['search']:.2f} ms)")

if __name__ == "__main__":
    main()
