"""Fit the heuristic's weights to the search's own move values (Texel tuning): a tried rung.

    python benchmarks/tune_heuristic.py --deals 150 --every 3 --seed 38 --samples /tmp/tuning.pickle \\
        --out /tmp/tuned_weights.py

Positions: every ``--every``-th decision with two moves or more and cards still in the stock,
of ``--deals`` reference deals a rule set (Swedish and Finnish, 2 players) in which both
seats play the heuristic. In each, the search (``--search``: many worlds, more candidates)
values its candidates: the mean margin over its worlds of each move played on (a world of
the hidden cards dealt from the position: the search is blind to where they lie). The
heuristic's value of a move is linear in its weights (its terms, plus what no weight scales),
so the fit is a logistic regression (Texel tuning on the search's choices): the weights that
make a softmax of the heuristic's values (in points) give the search's best candidate the
highest likelihood, drawn toward the default weights (ridge, so that a term the positions
rarely show keeps its default). (A least-squares fit of the values themselves, centred per
position, was tried first: no better than the defaults on the held-out positions.) The
positions are split by their number: a fifth (0 mod 5) held out to judge the fit, a fifth
(1 mod 5) to choose the ridge among ``--ridges`` (the least search value given up), the rest
to fit. The script prints, on the held-out positions, how often the heuristic with each set
of weights picks the search's best move and how much search value its pick gives up, and
writes the chosen weights as a Python module (``--out``). ``--samples`` keeps the valued
positions (a pickle) to fit again without valuing them again.
"""

from __future__ import annotations

import argparse
import pickle
import sys
import time
from pathlib import Path

import numpy as np
from scipy.optimize import minimize

import simcasino
from simcasino.advice.sight import unseen_cards
from simcasino.core.protocol import Stream, View
from simcasino.core.rules import Rules
from simcasino.loop.position import search_values
from simcasino.strategies import parse_strategy
from simcasino.strategies.heuristic import ORDER, PARAMS, Heuristic
from simcasino.strategies.heuristic.python import Play

sys.path.insert(0, str(Path(__file__).parent.parent / "tests"))
from helpers.hidden import deal_hidden  # noqa: E402  (a world of the hidden cards for a recorded position)

MICRO = 1e-6  # the heuristic's values are in micro-points, its terms in milli-units


class _HeuristicRecorder:
    """Plays the heuristic (its plain-Python form) and keeps every view it is shown."""

    name = "heuristic-recorder"

    def __init__(self) -> None:
        self.views: list[View] = []
        self.heuristic = Heuristic()

    def choose(self, view: View, stream: Stream) -> object:
        self.views.append(view)
        return self.heuristic.choose(view)


def positions(rules: Rules, deals: int, every: int, seed: int) -> list[View]:
    recorder = _HeuristicRecorder()
    simcasino.simulate(rules, [recorder, recorder], deals=deals, seed=seed, engine="reference")
    kept = [v for v in recorder.views if len(v.moves) > 1 and v.stock_left > 0 and v.chooser_for < 0]
    return kept[::every]


def rows(view: View, spec: object, order: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per candidate of the search: its mean margin, the heuristic's terms (points per unit of
    weight) and the points no weight scales."""
    values = search_values(view, spec, *deal_hidden(view, order))
    seen, heuristic = unseen_cards(view), Heuristic()
    terms, fixed = [], []
    for move in values:
        play = Play(view, move, seen)
        found = heuristic.terms(play)
        terms.append([found[name] * 1e-3 for name in ORDER])  # milli-units -> units
        fixed.append(heuristic.fixed(play) * MICRO)
    return np.array([m for m, _ in values.values()]), np.array(terms), np.array(fixed)


def fit(samples: list[tuple[np.ndarray, np.ndarray, np.ndarray]], ridge: float) -> np.ndarray:
    """Weights (points per unit) maximising the softmax likelihood of the search's best
    candidates (ties shared), minus ``ridge`` times the squared distance to the defaults."""
    defaults = np.array([PARAMS[name][0] for name in ORDER])
    targets = [(values == values.max()) / (values == values.max()).sum() for values, _, _ in samples]

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        total, grad = ridge * ((w - defaults) ** 2).sum(), 2 * ridge * (w - defaults)
        for (_, terms, fixed), target in zip(samples, targets):
            h = terms @ w + fixed
            p = np.exp(h - h.max())
            p /= p.sum()
            total -= target @ np.log(np.maximum(p, 1e-300))
            grad += terms.T @ (p - target)
        return total, grad

    return minimize(loss, defaults, jac=True, method="L-BFGS-B").x


def judge(samples: list[tuple[np.ndarray, np.ndarray, np.ndarray]], weights: np.ndarray) -> tuple[float, float]:
    """How often the weights' best candidate is the search's best, and the search value (points)
    their pick gives up on average."""
    agree, lost = 0, 0.0
    for values, terms, fixed in samples:
        pick = int(np.argmax(terms @ weights + fixed))
        agree += values[pick] == values.max()
        lost += values.max() - values[pick]
    return agree / len(samples), lost / len(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=150, help="reference deals a rule set")
    parser.add_argument("--every", type=int, default=3, help="keep every n-th position")
    parser.add_argument("--seed", type=int, default=38)
    parser.add_argument("--search", default="search:budget=16384,moves=8", help="the search that values the moves")
    parser.add_argument("--ridges", type=float, nargs="+", default=[1.0, 10.0, 100.0, 1000.0],
                        help="pulls toward the default weights to choose among")
    parser.add_argument("--out", type=Path, required=True, help="the weights, a Python module (WEIGHTS)")
    parser.add_argument("--samples", type=Path, help="the valued positions, kept (pickle) and read back if there")
    args = parser.parse_args()
    spec = parse_strategy(args.search)
    if args.samples and args.samples.exists():
        samples = pickle.loads(args.samples.read_bytes())
    else:
        samples, start = [], time.time()
        for rules in ("swedish", "finnish"):
            views = positions(Rules.preset(rules), args.deals, args.every, args.seed)
            samples += [rows(view, spec, i) for i, view in enumerate(views)]
            print(f"{rules}: {len(views)} positions valued ({time.time() - start:.0f} s)", flush=True)
        if args.samples:
            args.samples.write_bytes(pickle.dumps(samples))
    held, chooser = samples[::5], samples[1::5]
    trained = [s for i, s in enumerate(samples) if i % 5 > 1]
    fits = {ridge: fit(trained, ridge) for ridge in args.ridges}
    for ridge, w in fits.items():
        print(f"ridge {ridge:g}: on {len(chooser)} positions to choose by: the search's best move "
              f"{judge(chooser, w)[0]:.1%}, {judge(chooser, w)[1]:.3f} points given up")
    weights = min(fits.values(), key=lambda w: judge(chooser, w)[1])
    defaults = np.array([PARAMS[name][0] for name in ORDER])
    for label, w in (("default", defaults), ("tuned", weights)):
        agree, lost = judge(held, w)
        print(f"{label:8s} on {len(held)} held-out positions: the search's best move {agree:.1%}, "
              f"{lost:.3f} points of search value given up a decision")
    tuned = {name: round(float(value), 3) for name, value in zip(ORDER, weights)}
    lines = "".join(f'    "{name}": {value!r},\n' for name, value in tuned.items())
    args.out.write_text(f'"""The tuned heuristic\'s weights (points per unit), written by\n'
                        f'python benchmarks/tune_heuristic.py {" ".join(sys.argv[1:])}"""\n\n'
                        f"WEIGHTS = {{\n{lines}}}\n")
    print(tuned)


if __name__ == "__main__":
    main()
