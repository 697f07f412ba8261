"""`simcasino learn`: the value of a round's end, made again from a seed on two cores.

Iterated as expert iteration is (data, fit, play): the search plays both seats of fresh deals
(its playouts to the deal's end the first time, ``value=0``), every round's end of them is
recorded from both seats' sides with the margin that deal then gave (`loop.batch.
record_boundaries`), the model is fitted to those (`fit`), and the next iteration's deals are
played by the search with that fit (``value=1``), so the labels are always the outcomes of the
player the value will serve, not of the heuristic. Each iteration's deals are new ones of the
seed's stream. The result is a `value.Value` with its making in ``made``: the commit, the seed,
the deals, the player, and each iteration's errors on held-out deals.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from simcasino.core.rng import seed_key
from simcasino.core.rules import Rules
from simcasino.learn.fit import Fit, fit_value
from simcasino.loop.batch import record_boundaries
from simcasino.provenance import commit, provenance
from simcasino.strategies import parse_strategy
from simcasino.strategies.search import value
from simcasino.strategies.search.value import FEATURES, Value

# the learning player's playouts a decision: a quarter of the default, four times the deals
BUDGET = 1024
EVERY, LAST = (
    1,
    2,
)  # where the value is learned and used (``search:value=``): every round's end, the last only


@dataclass(frozen=True)
class Iteration:
    """One round of data and fit: who played, how many deals, the fit's errors, the seconds."""

    number: int
    player: str
    deals: int
    fit: Fit
    seconds: float

    def summary(self) -> dict[str, object]:
        return {
            "iteration": self.number,
            "player": self.player,
            "deals": self.deals,
            **self.fit.summary(),
            "seconds": round(self.seconds, 1),
        }


def learn_value(
    rules: Rules,
    deals: int,
    iterations: int,
    seed: int,
    budget: int = BUDGET,
    at: int = LAST,
    say: Callable[[str], None] = print,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[Value, list[Iteration]]:
    """The value of ``rules``'s rounds' ends (two players) after ``iterations`` of ``deals`` deals
    each, fitted where the search will use it (``at``: `EVERY` round's end, or the `LAST`, the
    start of the last round); ``progress(iteration, deals done)`` as the deals are played."""
    if rules.players != 2:
        raise ValueError(
            f"a round's value is learned for two players; this table has {rules.players} (with "
            f"more, the search plays every playout to the deal's end)"
        )
    if deals < 10 or iterations < 1 or budget < 8:
        raise ValueError(
            f"learn needs deals >= 10, iterations >= 1 and budget >= 8; got {deals}, {iterations}, "
            f"{budget}"
        )
    made_at = commit()  # now: the tree may change while it learns
    current: Value | None = None
    done: list[Iteration] = []
    for number in range(iterations):
        player = f"search:budget={budget},value={at if current is not None else 0}"
        start = time.perf_counter()
        with value.trying(current):
            rows, _ = record_boundaries(
                rules,
                [parse_strategy(player)] * 2,
                seed_key(seed),
                deals,
                _progress(progress, number),
                start=number * deals,
            )
        if at == LAST:  # the rows of the last round's start: at most one round's cards in the stock
            rows = rows[
                rows[:, 2 + FEATURES.index("stock cards")] <= rules.players * rules.hand_cards
            ]
        fit = fit_value(rows[:, 2:-1], rows[:, -1], rows[:, 0], seed + number)
        done.append(Iteration(number + 1, player, deals, fit, time.perf_counter() - start))
        say(_line(done[-1]))
        where = "every round's end" if at == EVERY else "the last round's start"
        made = _made(made_at, seed, deals, budget, done) | {"at": where}
        current = Value(rules, tuple(float(w) for w in fit.weights), made)
    assert current is not None
    return current, done


def _progress(
    progress: Callable[[int, int], None] | None, number: int
) -> Callable[[int], None] | None:
    return None if progress is None else (lambda played: progress(number, played))


def _line(it: Iteration) -> str:
    f = it.fit
    return (
        f"iteration {it.number}: {it.deals:,} deals of {it.player}, {f.rows + f.held_out_rows:,} "
        f"rounds' ends; held-out error {f.held_out_rmse:.3f} points (the margin as it stands "
        f"{f.margin_now_rmse:.3f}, linear {f.linear_rmse:.3f}); {it.seconds:.0f} s"
    )


def _made(
    made_at: str, seed: int, deals: int, budget: int, done: list[Iteration]
) -> dict[str, object]:
    return {
        "commit": made_at,
        "seed": seed,
        "deals_per_iteration": deals,
        "budget": budget,
        "provenance": provenance(),
        "iterations": [it.summary() for it in done],
    }
