"""One chunk of an experiment: a range of decks, played by every comparison in every seat
rotation, reduced to integer sums. This is the function the workers run.

Pairing: comparison A vs B with n players seats A in seat r and B in every other seat, for
r = 0 .. n-1 (n rotations), on the same deck. Deck d is stream (key, d) of `simcasino.rng`,
where key comes from ``numpy.random.SeedSequence(seed)`` (`rng.seed_key`): it depends on the
seed and the deck index only, never on the chunk, the worker or the order of work.

A single play's value is ``n·A − (A + ΣB)`` = (n−1)·(A − mean B), in integer points; a deck's
value sums it over the rotations. Only sums of values and of their squares leave the chunk,
as integers, so a run's totals are exact and the same in any order, and memory does not
grow with the number of decks.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from simcasino.engine.batch import simulate_deals, simulate_games
from simcasino.engine.layout import (
    C_ACES, C_BIG, C_CARDS_PTS, C_GIVEN, C_MULLES_PTS, C_POINTS, C_SISTAN, C_SMALL, C_SPADES_PTS, C_TABBES, C_UNHELD,
)
from simcasino.rules import Rules
from simcasino.strategies import StrategySpec

KINDS = ("deals", "games")
# measure -> (result column, the rules knob its count is multiplied by, or None for points)
DEAL_MEASURES = {
    "points": (C_POINTS, None),
    "cards": (C_CARDS_PTS, None),
    "spades": (C_SPADES_PTS, None),
    "aces": (C_ACES, "ace_points"),
    "big_kasino": (C_BIG, "big_kasino_points"),
    "small_kasino": (C_SMALL, "small_kasino_points"),
    "sistan": (C_SISTAN, "sistan_points"),
    "tabbes": (C_TABBES, "tabbe_points"),
    "mulles": (C_MULLES_PTS, None),  # §6 Mulle: mulle_points each, or (Glimne) the played card's value
    "tabbes_given": (C_GIVEN, "tabbe_previous_points"),  # §6 Krypkasino: -5 per sweep allowed
    "unheld_builds": (C_UNHELD, "build_penalty"),  # §6 Builds: -5 per build made without its value
}
GAME_MEASURES = ("score", "wins")  # final-score margin; A's games won (not a margin)
SUM_COLUMNS = ("sum", "sum_sq", "play_sum", "play_sum_sq")
CHUNK_SCHEMA = {
    "run_id": pl.String, "kind": pl.String, "chunk": pl.Int64, "first": pl.Int64, "decks": pl.Int64,
    "deals_played": pl.Int64, "comparison": pl.Int64, "measure": pl.String,
    **{c: pl.Int64 for c in SUM_COLUMNS},
}


@dataclass(frozen=True)
class Plan:
    """Everything a worker needs to play any chunk of a run; small and picklable."""

    rules: Rules
    pairs: tuple[tuple[StrategySpec, StrategySpec], ...]
    key: int
    chunk: int
    deals: int
    games: int
    run_id: str

    def total(self, kind: str) -> int:
        return self.deals if kind == "deals" else self.games

    def chunks(self, kind: str) -> int:
        return -(-self.total(kind) // self.chunk)

    def deck_range(self, kind: str, index: int) -> tuple[int, int]:
        """(first deck, number of decks) of a chunk; the last chunk may be short."""
        first = index * self.chunk
        return first, min(self.chunk, self.total(kind) - first)

    @property
    def rotations(self) -> int:
        return self.rules.players


def measure_weights(rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """The result column of each measure and what its count is worth in points under ``rules``."""
    columns = np.array([column for column, _ in DEAL_MEASURES.values()])
    points = np.array([1 if knob is None else getattr(rules, knob) for _, knob in DEAL_MEASURES.values()],
                      dtype=np.int64)
    return columns, points


def lineup(a: StrategySpec, b: StrategySpec, players: int, rotation: int) -> list[StrategySpec]:
    """A in seat ``rotation``, B in every other seat."""
    return [a if seat == rotation else b for seat in range(players)]


def deal_values(rules: Rules, a: StrategySpec, b: StrategySpec, key: int, first: int, count: int,
                threads: int | None = 1) -> tuple[np.ndarray, int]:
    """(count, rotations, measures) single-play values of decks ``first ..``, deals played."""
    n, (columns, worth) = rules.players, measure_weights(rules)
    values = np.empty((count, n, columns.size), dtype=np.int64)
    for r in range(n):
        points = simulate_deals(rules, lineup(a, b, n, r), key, count, threads=threads, start=first)[:, :, columns] * worth
        values[:, r] = n * points[:, r] - points.sum(axis=1)
    return values, count * n


def game_values(rules: Rules, a: StrategySpec, b: StrategySpec, key: int, first: int, count: int,
                threads: int | None = 1) -> tuple[np.ndarray, int]:
    """(count, rotations, 2) values of games ``first ..``: score margin and A's win (0/1)."""
    n = rules.players
    values = np.empty((count, n, len(GAME_MEASURES)), dtype=np.int64)
    deals = 0
    for r in range(n):
        out = simulate_games(rules, lineup(a, b, n, r), key, count, threads=threads, start=first).astype(np.int64)
        values[:, r, 0] = n * out[:, r, 0] - out[:, :, 0].sum(axis=1)
        values[:, r, 1] = out[:, r, 1]
        deals += int(out[:, 0, 2].sum())
    return values, deals


def measures(kind: str) -> tuple[str, ...]:
    return tuple(DEAL_MEASURES) if kind == "deals" else GAME_MEASURES


def play_chunk(plan: Plan, kind: str, index: int, threads: int | None = 1) -> pl.DataFrame:
    """Play chunk ``index`` of ``kind`` for every comparison; one row per (comparison, measure)
    with the integer sums of deck values and of single-play values (`SUM_COLUMNS`)."""
    first, count = plan.deck_range(kind, index)
    play = deal_values if kind == "deals" else game_values
    names = measures(kind)
    rows, played = [], 0
    for c, (a, b) in enumerate(plan.pairs):
        values, deals = play(plan.rules, a, b, plan.key, first, count, threads)
        played += deals
        decks = values.sum(axis=1)
        total = decks.sum(0)  # the sum of deck values is the sum of single-play values
        squares = np.einsum("dm,dm->m", decks, decks), np.einsum("drm,drm->m", values, values)
        sums = np.stack([total, squares[0], total, squares[1]], 1)
        rows += [(c, name, *map(int, sums[j])) for j, name in enumerate(names)]
    frame = pl.DataFrame(rows, schema=["comparison", "measure", *SUM_COLUMNS], orient="row")
    meta = {"run_id": plan.run_id, "kind": kind, "chunk": index, "first": first, "decks": count,
            "deals_played": played}
    return frame.with_columns(pl.lit(v).alias(k) for k, v in meta.items()).select(
        pl.col(name).cast(dtype) for name, dtype in CHUNK_SCHEMA.items())


def warm_up(plan: Plan) -> None:
    """Compile (or load from the cache) the kernels this plan needs, here and once, before
    worker processes start: otherwise every worker compiles them at the same time."""
    a, b = plan.pairs[0]
    for kind, play in (("deals", deal_values), ("games", game_values)):
        if plan.total(kind):
            play(plan.rules, a, b, plan.key, 0, 1)
