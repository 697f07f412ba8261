"""Datasets of strong play for imitation and offline learning: a strategy's deals (the search's
by default) written as parquet, one row for every action a seat takes.

Why a row an action: the environments act by actions (`interop.actions`: a card, then, when it
has options, one of them), so a learner that imitates or evaluates offline needs what the seat
saw at each action, what it could do and what it did. The search says more than its move: how
many points each move it tried is worth to it (`loop.position.search_values`), which is read
in the same decision and kept as a value for each action (``q``).

A dataset is a folder: ``dataset.json`` (what made it: rules, seed, strategy, deals, the
layout of the observation and the commit) and parts of `PART_DEALS` deals each,
``part-00000.parquet`` and on, each written whole or not at all, so an interrupted run keeps
its finished parts and a run again with the same arguments makes only the missing ones.
``polars.scan_parquet(folder / "*.parquet")`` reads the parts as one frame. The columns
(`SCHEMA`, version `DATASET_VERSION`; docs/interop.md):

- ``deal`` the deal's number in its seed (``simcasino simulate --seed`` numbers them alike),
  ``step`` the action's number in the deal, ``seat`` the seat acting;
- ``observation`` the seat's observation tensor (`interop.encoding`, the vector PettingZoo's
  and Gymnasium's environments give), ``mask`` its legal actions;
- ``action`` the action taken, ``move`` the move it belongs to, in words;
- ``q`` for each action, the best value in points the strategy's search gave a move that
  action leads to (its mean margin over the best other side, over its worlds): NaN for an
  action not legal, for one whose moves the search did not try (it weighs a few candidates),
  and everywhere for a strategy that does not search and for a §6 Misère pick;
- ``points`` and ``margin``: the seat's points in the deal, and its margin over the best other
  side (`outcome.returns`' ``difference``, negated where the fewest points win, so that higher
  is better): the outcome.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import polars as pl

from simcasino.core.cards import KINDS
from simcasino.core.notation import move_name
from simcasino.core.protocol import Move, Stream
from simcasino.core.rules import Rules, from_table
from simcasino.experiment.backends import default_workers, open_executor
from simcasino.interop.actions import NUM_ACTIONS, OPTION_BASE, PendingMove, actions_of
from simcasino.interop.encoding import LAYOUT_VERSION, ObservationKind, Tensor
from simcasino.interop.lean import LeanDeal
from simcasino.interop.outcome import returns
from simcasino.loop.seat import KernelSeat
from simcasino.provenance import commit
from simcasino.strategies import StrategySpec, built_in

DATASET_VERSION = 1
PART_DEALS = 250  # deals a part: a part is the unit of work, of resuming and of a worker
META = "dataset.json"


@dataclass(frozen=True)
class Recipe:
    """What makes a dataset, all of it: the same recipe makes the same parts."""

    rules: Rules
    strategy: str
    deals: int
    seed: int

    def __post_init__(self) -> None:
        built_in(self.strategy, "a dataset's player")
        if self.deals < 1:
            raise ValueError(f"a dataset holds one deal or more; got {self.deals}")

    def to_json(self) -> dict:
        return {**asdict(self), "rules": self.rules.to_table()}

    @property
    def player(self) -> StrategySpec:
        return built_in(self.strategy)

    @property
    def parts(self) -> int:
        return -(-self.deals // PART_DEALS)


def schema(rules: Rules) -> dict[str, pl.DataType]:
    """The columns of a dataset of ``rules`` and their types (see the module docstring)."""
    size = Tensor(rules, ObservationKind()).flat.size
    return {
        "deal": pl.Int32,
        "step": pl.Int16,
        "seat": pl.Int8,
        "observation": pl.Array(pl.Float32, size),
        "mask": pl.Array(pl.Boolean, NUM_ACTIONS),
        "action": pl.Int16,
        "move": pl.String,
        "q": pl.Array(pl.Float32, NUM_ACTIONS),
        "points": pl.Float32,
        "margin": pl.Float32,
    }


def write_dataset(
    folder: Path,
    recipe: Recipe,
    workers: int | None = None,
    say: Callable[[int], None] = lambda _: None,
) -> list[Path]:
    """Play ``recipe``'s deals and write its parts into ``folder`` (made if need be), the
    parts already there kept, on ``workers`` processes (`experiment.backends`: one a core
    by default); ``say`` is told the deals done after each part. A folder made by another
    recipe is refused (ValueError), so two datasets never mix."""
    folder.mkdir(parents=True, exist_ok=True)
    _claim(folder, recipe)
    paths = [folder / f"part-{k:05d}.parquet" for k in range(recipe.parts)]
    todo = [k for k, path in enumerate(paths) if not path.exists()]
    done = sum(_deals_in(recipe, k) for k in range(recipe.parts) if k not in todo)
    say(done)
    with open_executor(min(workers or default_workers(), max(1, len(todo)))) as (pool, _):
        for deals in pool.map(_write_part, [recipe] * len(todo), todo, [paths[k] for k in todo]):
            done += deals
            say(done)
    return paths


def _claim(folder: Path, recipe: Recipe) -> None:
    """Write the recipe into ``folder``, or check it is the one there."""
    meta = folder / META
    mine = {"format": "simcasino-dataset", "version": DATASET_VERSION, **recipe.to_json()}
    if meta.exists():
        theirs = json.loads(meta.read_text())
        if {k: theirs.get(k) for k in mine} != mine:
            raise ValueError(
                f"{folder} holds a dataset made otherwise ({_differs(theirs, mine)}); "
                "give another folder"
            )
        return
    layout = {"layout": LAYOUT_VERSION, "commit": commit()}
    meta.write_text(json.dumps({**mine, **layout}, indent=1) + "\n")


def _differs(theirs: dict, mine: dict) -> str:
    keys = [k for k in mine if theirs.get(k) != mine[k]]
    return ", ".join(f"{k}: {theirs.get(k)!r} there, {mine[k]!r} now" for k in keys)


def read_recipe(folder: Path) -> Recipe:
    """The recipe a dataset's folder was made by."""
    data = json.loads((folder / META).read_text())
    rules = from_table(data["rules"], where=f"{folder / META} rules")
    return Recipe(rules, data["strategy"], int(data["deals"]), int(data["seed"]))


def _deals_in(recipe: Recipe, part: int) -> int:
    return min(PART_DEALS, recipe.deals - part * PART_DEALS)


def _write_part(recipe: Recipe, part: int, path: Path) -> int:
    """Play part ``part``'s deals and write them to ``path`` whole (a file written beside it
    and renamed); the deals it holds."""
    first, count = part * PART_DEALS, _deals_in(recipe, part)
    frame = play_deals(recipe, range(first, first + count))
    partial = path.with_suffix(".partial")
    frame.write_parquet(partial, compression="zstd")
    partial.replace(path)
    return count


def play_deals(recipe: Recipe, deals: range) -> pl.DataFrame:
    """The rows of ``deals`` (of ``recipe``'s seed) played by its strategy in every seat."""
    rules, spec = recipe.rules, recipe.player
    player, tensor = KernelSeat(spec), Tensor(rules, ObservationKind())
    columns: dict[str, list] = {name: [] for name in schema(rules)}
    for index in deals:
        _play_deal(LeanDeal.new(rules, recipe.seed, index), index, player, tensor, columns)
    return pl.DataFrame(columns, schema=schema(rules))


def _play_deal(
    deal: LeanDeal, index: int, player: KernelSeat, tensor: Tensor, columns: dict[str, list]
) -> None:
    stream, start, step = Stream(deal.rng), len(columns["deal"]), 0
    while not deal.is_over:
        seat = deal.to_move
        move, values = player.decide_and_value(deal, stream)
        words = move_name(move, deal.table)
        decision = PendingMove(deal)
        for action in actions_of(deal, move):
            legal = decision.legal_actions()
            mask = np.zeros(NUM_ACTIONS, bool)
            mask[legal] = True
            for name, value in (
                ("deal", index),
                ("step", step),
                ("seat", seat),
                ("observation", tensor.fill(decision, seat).copy()),
                ("mask", mask),
                ("action", action),
                ("move", words),
                ("q", action_values(decision, legal, values)),
            ):
                columns[name].append(value)
            decision.apply(action)
            step += 1
    points, margins = [seat.points for seat in deal.result().seats], returns(deal, "difference")
    for seat in columns["seat"][start:]:
        columns["points"].append(points[seat])
        columns["margin"].append(margins[seat])


def action_values(
    decision: PendingMove, legal: list[int], values: dict[Move, tuple[float, float]]
) -> np.ndarray:
    """For each legal action, the best value among the moves it leads to that the search
    tried; NaN elsewhere (see the module docstring)."""
    q = np.full(NUM_ACTIONS, np.nan, np.float32)
    if not values:
        return q
    if decision.choosing_option:
        options, blocks = decision.options(), decision.blocks()
        leads = {OPTION_BASE + j: options[low:high] for j, (low, high) in enumerate(blocks)}
    else:
        leads: dict[int, list[Move]] = {}
        for move in values:  # a card action leads to that card's moves
            leads.setdefault(move.card % KINDS, []).append(move)
    for action in legal:
        tried = [values[m][0] for m in leads.get(action, ()) if m in values]
        q[action] = max(tried) if tried else np.nan
    return q
