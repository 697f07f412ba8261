"""One chunk of an experiment: a range of decks, played by every comparison in every seat
rotation, reduced to integer sums and histograms. This is the function the workers run.

Pairing: comparison A vs B with n players seats A in seat r and B in every other seat, for
r = 0 .. n-1 (n rotations), on the same deck. Deck d is stream (key, d) of `simcasino.core.rng`,
where key comes from ``numpy.random.SeedSequence(seed)`` (`rng.seed_key`): it depends on the
seed and the deck index only, never on the chunk, the worker or the order of work.

A single play's value is ``n·A − (A + ΣB)`` = (n−1)·(A − mean B), in integer points; a deck's
value sums it over the rotations. Only sums of values and of their squares leave the chunk,
as integers, so a run's totals are exact and the same in any order, and memory does not
grow with the number of decks. The points row also keeps sparse histograms (value, count) of
the single-play difference and of A's and B's points per deal, so a report draws their
distributions without per-deal rows; and, in a run with a stopping rule, every deck's value in
deck order (``deck_values``, 4 bytes a deck and comparison), so the SPRT can stop at any deck
rather than only at a chunk's end (`experiment.stopping`).

Self-play (a spec's ``selfplay`` strategy, kinds ``self_decks`` and ``self_games``): the same
decks played once with that strategy in every seat, seat 0 leading (and, in games, leading the
first deal), for what the seats and the rules do rather than the strategies: the first
player's edge, the spread of a player's points, tabbes per deal, tied most-cards counts, the
length of a game. Their rows have comparison 0.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from simcasino.core.rules import Rules
from simcasino.engine import layout
from simcasino.experiment.spec import Arm
from simcasino.simulation import Lineup, deal_table, game_table, pick_engine

KINDS = ("decks", "games", "self_decks", "self_games")
DECK_KINDS = ("decks", "self_decks")  # a unit is a deck (one deal); else a game
# measure -> (result column, the rules knob its count is multiplied by, or None for points)
DEAL_MEASURES = {
    "points": (layout.C_POINTS, None),
    "cards": (layout.C_CARDS_PTS, None),
    "spades": (layout.C_SPADES_PTS, None),
    "aces": (layout.C_ACES, "ace_points"),
    "big_kasino": (layout.C_BIG, "big_kasino_points"),
    "small_kasino": (layout.C_SMALL, "small_kasino_points"),
    "sistan": (layout.C_SISTAN, "sistan_points"),
    "tabbes": (layout.C_TABBES, "tabbe_points"),
    "mulles": (
        layout.C_MULLES_PTS,
        None,
    ),  # §6 Mulle: mulle_points each, or (Glimne) the played card's value
    "tabbe_penalty": (
        layout.C_GIVEN,
        "tabbe_previous_points",
    ),  # §6 Krypkasino: -5 per sweep allowed (points)
    "build_penalty": (
        layout.C_UNHELD,
        "build_penalty",
    ),  # §6 Builds: -5 per build made without its value (points)
}
POINTS = list(DEAL_MEASURES).index("points")
GAME_MEASURES = ("score", "wins")  # final-score margin; A's games won (not a margin)
# self-play, per deal: the first seat's margin (units·p0 − Σp), every player's points (one value
# per player and deal), tabbes scored by all, whether the most cards were tied (0/1)
SELF_DEAL_MEASURES = ("seat_points", "points", "tabbes", "cards_tie")
SELF_GAME_MEASURES = (
    "deals_per_game",
    "seat_wins",
)  # per game: its deals; the first seat won (0/1)
SELF_HISTOGRAMS = (
    "seat_points",
    "points",
    "deals_per_game",
)  # the self-play measures kept as histograms
SUM_COLUMNS = ("sum", "sum_sq", "play_sum", "play_sum_sq")
HIST = pl.List(pl.Struct({"value": pl.Int64, "count": pl.Int64}))
# hist: the distribution of a row's single-play values; hist_a, hist_b: A's and B's points per deal
HIST_COLUMNS = ("hist", "hist_a", "hist_b")
DECK_COLUMN = (
    "deck_values"  # the points row's value of each deck, in deck order (runs with a stopping rule)
)
DECKS = pl.List(pl.Int32)
SUMS_SCHEMA = {
    "run_id": pl.String,
    "kind": pl.String,
    "chunk": pl.Int64,
    "first": pl.Int64,
    "decks": pl.Int64,
    "deals_played": pl.Int64,
    "comparison": pl.Int64,
    "measure": pl.String,
    **{c: pl.Int64 for c in SUM_COLUMNS},
}
OPTIONAL_SCHEMA = {**{c: HIST for c in HIST_COLUMNS}, DECK_COLUMN: DECKS}  # null where not kept
CHUNK_SCHEMA = {**SUMS_SCHEMA, **OPTIONAL_SCHEMA}


@dataclass(frozen=True)
class Plan:
    """Everything a worker needs to play any chunk of a run; small and picklable."""

    rules: Rules
    pairs: tuple[tuple[Arm, Arm], ...]
    key: int
    chunk: int
    decks: int
    games: int
    run_id: str
    selfplay: Arm | None = None
    deck_values: bool = (
        False  # keep each deck's points value (`DECK_COLUMN`): the run has a stopping rule
    )

    def total(self, kind: str) -> int:
        if kind.startswith("self_") and self.selfplay is None:
            return 0
        return self.decks if kind in DECK_KINDS else self.games

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
    points = np.array(
        [1 if knob is None else getattr(rules, knob) for _, knob in DEAL_MEASURES.values()],
        dtype=np.int64,
    )
    return columns, points


def lineup(a: Arm, b: Arm, players: int, rotation: int) -> Lineup:
    """A in seat ``rotation``, B in every other seat."""
    return [a if seat == rotation else b for seat in range(players)]


def play_deals(
    rules: Rules, seats: Lineup, key: int, first: int, count: int, threads: int | None
) -> np.ndarray:
    """Decks ``first ..`` played by ``seats``: the kernel's batch, or a mixed table when a
    seat plays a plain-Python strategy (`simulation.deal_table`)."""
    return deal_table(
        rules, seats, key, count, pick_engine(None, seats), threads=threads, start=first
    )


def play_games(
    rules: Rules, seats: Lineup, key: int, first: int, count: int, threads: int | None
) -> np.ndarray:
    """Games ``first ..`` played by ``seats``, as `play_deals` plays decks."""
    return game_table(
        rules, seats, key, count, pick_engine(None, seats), threads=threads, start=first
    )


def deal_values(
    rules: Rules, a: Arm, b: Arm, key: int, first: int, count: int, threads: int | None = 1
) -> tuple[np.ndarray, int, np.ndarray]:
    """(count, rotations, measures) single-play values of decks ``first ..``, deals played, and
    (count, rotations, seats) every seat's points (A sits in seat r of rotation r)."""
    n, (columns, worth) = rules.players, measure_weights(rules)
    values = np.empty((count, n, columns.size), dtype=np.int64)
    seats = np.empty((count, n, n), dtype=np.int64)
    for r in range(n):
        points = (
            play_deals(rules, lineup(a, b, n, r), key, first, count, threads)[:, :, columns] * worth
        )
        values[:, r] = n * points[:, r] - points.sum(axis=1)
        seats[:, r] = points[:, :, 0]
    return values, count * n, seats


def game_values(
    rules: Rules, a: Arm, b: Arm, key: int, first: int, count: int, threads: int | None = 1
) -> tuple[np.ndarray, int]:
    """(count, rotations, 2) values of games ``first ..``: score margin and A's win (0/1)."""
    n = rules.players
    values = np.empty((count, n, len(GAME_MEASURES)), dtype=np.int64)
    deals = 0
    for r in range(n):
        out = play_games(rules, lineup(a, b, n, r), key, first, count, threads).astype(np.int64)
        values[:, r, 0] = n * out[:, r, 0] - out[:, :, 0].sum(axis=1)
        values[:, r, 1] = out[:, r, 1]
        deals += int(out[:, 0, 2].sum())
    return values, deals


def self_deal_values(
    rules: Rules, strategy: Arm, key: int, first: int, count: int, threads: int | None = 1
) -> dict[str, np.ndarray]:
    """Decks ``first ..`` played once with ``strategy`` in every seat: per `SELF_DEAL_MEASURES`,
    the values of each deal ((count,), or (count, units) for every player's points)."""
    out = play_deals(rules, [strategy] * rules.players, key, first, count, threads)
    units = rules.units  # seats 0 .. units-1 are one of each team (team = seat % units)
    points, cards = out[:, :units, layout.C_POINTS].astype(np.int64), out[:, :units, layout.C_CARDS]
    tied = (cards == cards.max(axis=1, keepdims=True)).sum(axis=1) >= 2
    return {
        "seat_points": units * points[:, 0] - points.sum(axis=1),
        "points": points,
        "tabbes": out[:, :units, layout.C_TABBES].sum(axis=1, dtype=np.int64),
        "cards_tie": tied.astype(np.int64),
    }


def self_game_values(
    rules: Rules, strategy: Arm, key: int, first: int, count: int, threads: int | None = 1
) -> dict[str, np.ndarray]:
    """Games ``first ..`` with ``strategy`` in every seat: per `SELF_GAME_MEASURES`, each game's
    value."""
    out = play_games(rules, [strategy] * rules.players, key, first, count, threads)
    return {
        "deals_per_game": out[:, 0, 2].astype(np.int64),
        "seat_wins": out[:, 0, 1].astype(np.int64),
    }


def measures(kind: str) -> tuple[str, ...]:
    return {
        "decks": tuple(DEAL_MEASURES),
        "games": GAME_MEASURES,
        "self_decks": SELF_DEAL_MEASURES,
        "self_games": SELF_GAME_MEASURES,
    }[kind]


def histogram(values: np.ndarray) -> list[dict[str, int]]:
    """A sparse histogram: each value that occurs and how often."""
    found, counts = np.unique(values, return_counts=True)
    return [{"value": int(v), "count": int(c)} for v, c in zip(found, counts)]


def _comparison_rows(
    plan: Plan, kind: str, first: int, count: int, threads: int | None
) -> tuple[list, int]:
    rows, played, n = [], 0, plan.rules.players
    own = np.eye(n, dtype=bool)  # (rotation, seat): A sits in seat r of rotation r
    for c, (a, b) in enumerate(plan.pairs):
        hists: dict[str, list] = {}
        if kind == "decks":
            values, deals, seats = deal_values(plan.rules, a, b, plan.key, first, count, threads)
            points = values[:, :, POINTS]
            hists["points"] = [
                histogram(points),
                histogram(seats[:, own]),
                histogram(seats[:, ~own]),
            ]
        else:
            values, deals = game_values(plan.rules, a, b, plan.key, first, count, threads)
        played += deals
        decks = values.sum(axis=1)
        total = decks.sum(0)  # the sum of deck values is the sum of single-play values
        squares = np.einsum("dm,dm->m", decks, decks), np.einsum("drm,drm->m", values, values)
        sums = np.stack([total, squares[0], total, squares[1]], 1)
        kept = {"points": decks[:, POINTS].tolist()} if plan.deck_values and kind == "decks" else {}
        rows += [
            (c, name, *map(int, sums[j]), *hists.get(name, ([], [], [])), kept.get(name))
            for j, name in enumerate(measures(kind))
        ]
    return rows, played


def _self_rows(
    plan: Plan, kind: str, first: int, count: int, threads: int | None
) -> tuple[list, int]:
    play = self_deal_values if kind == "self_decks" else self_game_values
    rows = []
    for name, values in play(plan.rules, plan.selfplay, plan.key, first, count, threads).items():
        total, squares = int(values.sum()), int(np.einsum("i,i->", values.ravel(), values.ravel()))
        kept = histogram(values) if name in SELF_HISTOGRAMS else []
        rows.append((0, name, total, squares, total, squares, kept, [], [], None))
    played = count if kind == "self_decks" else rows[0][2]  # deals_per_game sums the deals
    return rows, played


def play_chunk(plan: Plan, kind: str, index: int, threads: int | None = 1) -> pl.DataFrame:
    """Play chunk ``index`` of ``kind``: for every comparison (or the self-play), one row per
    measure with the integer sums of deck values and of single-play values (`SUM_COLUMNS`)
    and, where kept, histograms (`HIST_COLUMNS`) and each deck's value (`DECK_COLUMN`)."""
    first, count = plan.deck_range(kind, index)
    rows_of = _self_rows if kind.startswith("self_") else _comparison_rows
    rows, played = rows_of(plan, kind, first, count, threads)
    frame = pl.DataFrame(
        rows,
        schema={
            "comparison": pl.Int64,
            "measure": pl.String,
            **{c: pl.Int64 for c in SUM_COLUMNS},
            **OPTIONAL_SCHEMA,
        },
        orient="row",
    )
    meta = {
        "run_id": plan.run_id,
        "kind": kind,
        "chunk": index,
        "first": first,
        "decks": count,
        "deals_played": played,
    }
    return frame.with_columns(pl.lit(v).alias(k) for k, v in meta.items()).select(
        pl.col(name).cast(dtype) for name, dtype in CHUNK_SCHEMA.items()
    )


def warm_up(plan: Plan) -> None:
    """Compile (or load from the cache) the kernels this plan needs, here and once, before
    worker processes start: otherwise every worker compiles them at the same time."""
    a, b = plan.pairs[0]
    for kind, play in (("decks", deal_values), ("games", game_values)):
        if plan.total(kind):
            play(plan.rules, a, b, plan.key, 0, 1)
    for kind, play in (("self_decks", self_deal_values), ("self_games", self_game_values)):
        if plan.total(kind):
            play(plan.rules, plan.selfplay, plan.key, 0, 1)
