"""Positions to ask about: hand-built ones (a hand and a table, no other history), random ones
with §6 builds on the table, and every position of a few deals played at random."""

from __future__ import annotations

import random

import simcasino
from helpers.cards import ids
from simcasino.core.protocol import Move, Stream, View
from simcasino.core.rules import Rules
from simcasino.core.table import Build
from simcasino.reference.state import DealState


def position(rules: Rules, hand: str, table: str, seat: int = 0, last_round: bool = False,
             game_scores: list[int] | None = None) -> View:
    """The view of ``seat`` holding ``hand`` with ``table`` on the table (no other history)."""
    return position_deal(rules, hand, table, seat, last_round, game_scores).observation(seat)


def position_deal(rules: Rules, hand: str, table: str, seat: int = 0, last_round: bool = False,
                  game_scores: list[int] | None = None, others: dict[int, str] | None = None) -> DealState:
    """The state behind `position` (codes as in `ids`), ``seat`` to move, to apply moves to
    and score; ``others`` are the other seats' hands."""
    hands = [ids((others or {}).get(s, "")) for s in range(rules.players)]
    hands[seat] = ids(hand)
    return DealState.position(rules, hands, ids(table), to_move=seat, last_round=last_round, scores=game_scores)


BUILD_RULE_SETS = {
    "rakennuskasino": Rules.preset("rakennuskasino"),
    "mulle_glimne": Rules.preset("mulle_glimne"),
    "swedish-builds": Rules.preset("swedish").replace(builds=True),
    "rakennuskasino-penalty": Rules.preset("rakennuskasino").replace(build_penalty=-5),
}


def random_build_position(rules: Rules, rng: random.Random) -> tuple[DealState, int]:
    """A position of seat 0 or 1 (to move): 1-4 cards in hand, up to 8 table items of which
    some are builds (2-3 cards, the value one of their sums or a double) owned by either seat.
    Two decks draw from few kinds, so identical cards meet on the table, in hand and in builds."""
    if rules.decks == 2:
        kinds = rng.sample(range(52), 10)
        pool = rng.sample(kinds + [k + 52 for k in kinds], 20)
    else:
        pool = rng.sample(range(52), 30)
    seat = rng.randrange(2)
    hands: list[list[int]] = [[], []]
    hands[seat] = [pool.pop() for _ in range(rng.randint(1, 4))]
    table: list[int | Build] = []
    for _ in range(rng.randint(1, 8)):
        if rng.random() < 0.35 and len(pool) >= 3:
            cards = tuple(pool.pop() for _ in range(rng.randint(2, 3)))
            sums = {0}
            for c in cards:
                sums = {s + v for s in sums for v in rules.table_values(c)}
            value = rng.choice(sorted(v for v in sums if v <= 16) or [16])
            table.append(Build(cards, value, rng.randrange(2), rng.random() < 0.3))
        elif pool:
            table.append(pool.pop())
    return DealState.position(rules, hands, table, to_move=seat), seat


class _Recorder:
    """Plays uniformly at random and keeps every view it is shown."""

    name = "recorder"

    def __init__(self) -> None:
        self.views: list[View] = []

    def choose(self, view: View, stream: Stream) -> Move:
        self.views.append(view)
        return view.moves[stream.draw(len(view.moves))]


def recorded_views(rules: Rules, deals: int) -> list[View]:
    """Every view shown to any seat in ``deals`` reference deals played at random."""
    recorder = _Recorder()
    simcasino.simulate(rules, [recorder] * rules.players, deals=deals, seed=3, engine="reference")
    return recorder.views
