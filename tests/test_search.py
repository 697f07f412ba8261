"""The search strategy: repeatable from the seed, blind to hidden cards, kernel only."""

from __future__ import annotations

import polars as pl
import pytest
from conftest import deal_hidden, recorded_views

import simcasino
from simcasino.core.rules import Rules
from simcasino.loop.position import kernel_move
from simcasino.strategies import parse_strategy


def test_same_seed_same_deals_on_any_number_of_threads() -> None:
    lineup = ("search:worlds=2", "heuristic")
    one = simcasino.simulate("finnish", lineup, deals=12, seed=4, threads=1)
    assert one.equals(simcasino.simulate("finnish", lineup, deals=12, seed=4, threads=2))


def test_decision_ignores_where_the_hidden_cards_lie() -> None:
    """Worlds are drawn from the set of unseen cards, never from the real other hands or stock."""
    spec = parse_strategy("search:worlds=3")
    for view in recorded_views(Rules.preset("swedish"), deals=2)[::3]:
        assert kernel_move(view, spec, *deal_hidden(view, 1)) == kernel_move(view, spec, *deal_hidden(view, 2))


def test_depth_limits_the_playouts_and_still_plays_legal_deals() -> None:
    shallow = simcasino.simulate("swedish", ("search:worlds=2,depth=3", "greedy"), deals=10, seed=1)
    deep = simcasino.simulate("swedish", ("search:worlds=2", "greedy"), deals=10, seed=1)
    assert (shallow.group_by("deal").agg(pl.col("cards").sum())["cards"] == 52).all()
    assert not shallow.equals(deep)


def test_reference_engine_refuses_search() -> None:
    with pytest.raises(ValueError, match="only in the numba engine"):
        simcasino.simulate("swedish", ("search", "greedy"), deals=1, engine="reference")


def test_bad_budget_is_refused() -> None:
    with pytest.raises(ValueError, match="worlds >= 1, depth >= 0 and moves >= 1"):
        simcasino.simulate("swedish", ("search:worlds=0", "greedy"), deals=1)


def test_one_world_keeps_the_heuristics_choice() -> None:
    """With no spread to judge by, the search plays the heuristic's best move (ranked first):
    checks the candidate ranking is the heuristic's own, weights included."""
    search, heuristic = parse_strategy("search:worlds=1,exact=0"), parse_strategy("heuristic")
    for view in recorded_views(Rules.preset("finnish"), deals=2):
        hidden = deal_hidden(view, 1)
        assert kernel_move(view, search, *hidden) == kernel_move(view, heuristic, *hidden)
