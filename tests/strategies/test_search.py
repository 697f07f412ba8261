"""The search strategy: repeatable from the seed, blind to hidden cards, kernel only; with
belief=0 the search of before issue 17, move for move."""

from __future__ import annotations

import json

import polars as pl
import pytest
from helpers.hidden import deal_hidden
from helpers.kernel_probes import worlds_played
from helpers.paths import DATA
from helpers.positions import recorded_views

import simcasino
from simcasino.core.rules import Rules
from simcasino.loop.position import kernel_move, search_values
from simcasino.strategies import parse_strategy, search
from simcasino.strategies.search import monte_carlo


@pytest.mark.parametrize("text", ["search:worlds=2", "search:worlds=2,infer=0.1", "search:budget=512,widen=8"])
def test_same_seed_same_deals_on_any_number_of_threads(text: str) -> None:
    lineup = (text, "heuristic")
    one = simcasino.simulate("finnish", lineup, deals=12, seed=4, threads=1)
    assert one.equals(simcasino.simulate("finnish", lineup, deals=12, seed=4, threads=2))


@pytest.mark.parametrize("text", ["search:worlds=3", "search:budget=64", "search:budget=512,widen=8"])
def test_decision_ignores_where_the_hidden_cards_lie(text: str) -> None:
    """Worlds are drawn from the set of unseen cards, never from the real other hands or stock."""
    spec = parse_strategy(text)
    for view in recorded_views(Rules.preset("swedish"), deals=2)[::3]:
        assert kernel_move(view, spec, *deal_hidden(view, 1)) == kernel_move(view, spec, *deal_hidden(view, 2))


def test_depth_limits_the_playouts_and_still_plays_legal_deals() -> None:
    shallow = simcasino.simulate("swedish", ("search:worlds=2,depth=3", "greedy"), deals=10, seed=1)
    deep = simcasino.simulate("swedish", ("search:worlds=2", "greedy"), deals=10, seed=1)
    assert (shallow.group_by("deal").agg(pl.col("cards").sum())["cards"] == 52).all()
    assert not shallow.equals(deep)


def test_reference_engine_refuses_search() -> None:
    with pytest.raises(ValueError, match="has no Python form: it plays in the kernel"):
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


BEFORE = DATA / "search_before_belief.json"
BEFORE_RULES = {
    "swedish-2": Rules.preset("swedish"),
    "finnish-2": Rules.preset("finnish"),
    "finnish-3": Rules.preset("finnish").replace(players=3),
    "swedish-4-team": Rules.preset("swedish").replace(players=4, partnership=2),
}


@pytest.mark.parametrize("name", BEFORE_RULES)
def test_belief_zero_plays_the_search_of_before(name: str) -> None:
    """Deals recorded with the search before belief and solved endgames (uniform worlds, the
    exact solver for two players with the stock empty): ``belief=0,respond=0`` (the minimax's
    ties to the heuristic's favourite, as then) plays them again, every column of every row the same."""
    recorded = json.loads(BEFORE.read_text())["frames"][name]
    lineup = [s.replace("search:", "search:belief=0,respond=0,") for s in recorded["lineup"]]
    frame = simcasino.simulate(BEFORE_RULES[name], lineup, deals=30, seed=7)
    assert [list(row) for row in frame.select(recorded["columns"]).rows()] == recorded["rows"]


def test_the_default_search_is_not_the_search_of_before() -> None:
    """Belief and more worlds for close decisions change play (else the test above would prove
    nothing new)."""
    lineup = ("search:worlds=4", "heuristic")
    new = simcasino.simulate("swedish", lineup, deals=30, seed=7)
    old = simcasino.simulate("swedish", ("search:worlds=4,belief=0", "heuristic"), deals=30, seed=7)
    assert not new.equals(old)


def test_close_decisions_take_more_worlds() -> None:
    """Uniform worlds either way: only ``max_worlds`` differs, and it changes some decision
    (a close one, given more worlds), while ``max_worlds`` = ``worlds`` is the fixed count."""
    lineup = ("search:worlds=4,belief=0", "heuristic")
    fixed = simcasino.simulate("swedish", lineup, deals=30, seed=7)
    same = simcasino.simulate("swedish", ("search:worlds=4,belief=0,max_worlds=4", "heuristic"), deals=30, seed=7)
    wider = simcasino.simulate("swedish", ("search:worlds=4,belief=0,max_worlds=64", "heuristic"), deals=30, seed=7)
    assert same.drop("strategy").equals(fixed.drop("strategy"))
    assert not wider.drop("strategy").equals(fixed.drop("strategy"))


def test_belief_and_endgame_budgets_are_checked() -> None:
    with pytest.raises(ValueError, match="worlds <= max_worlds"):
        simcasino.simulate("swedish", ("search:worlds=8,max_worlds=4", "greedy"), deals=1)
    with pytest.raises(ValueError, match="0 <= belief < 1"):
        simcasino.simulate("swedish", ("search:belief=1", "greedy"), deals=1)
    with pytest.raises(ValueError, match="endgame <= 16"):
        simcasino.simulate("swedish", ("search:endgame=17", "greedy"), deals=1)


def test_same_seed_same_deals_on_any_number_of_threads_with_three_players() -> None:
    """Belief and the solved endgames of the worlds repeat too (three players: the coalition solver)."""
    lineup = ("search:worlds=2", "heuristic", "search:worlds=2,endgame=6")
    rules = Rules.preset("finnish").replace(players=3)
    one = simcasino.simulate(rules, lineup, deals=8, seed=4, threads=1)
    assert one.equals(simcasino.simulate(rules, lineup, deals=8, seed=4, threads=2))


BUDGETS = (16, 64, 256, 1024, 4096)


def test_a_bigger_budget_never_means_fewer_worlds() -> None:
    """``budget`` (playouts a decision may take): its worlds, at first and at most, grow with
    it and their product with the candidates never passes it. The default is budget=4096; the
    default before it, max_worlds=256, is budget=1024."""
    slots = [search.kernel_params({"budget": budget})[:monte_carlo._MOVES + 1] for budget in BUDGETS]
    firsts, mosts = [s[monte_carlo._WORLDS] for s in slots], [s[monte_carlo._MAX_WORLDS] for s in slots]
    assert firsts == sorted(firsts) and mosts == sorted(mosts) and firsts[0] < firsts[-1]
    assert all(most * s[monte_carlo._MOVES] <= budget for most, s, budget in zip(mosts, slots, BUDGETS))
    assert search.kernel_params({"budget": 4096}) == search.kernel_params({})
    assert search.kernel_params({"budget": 1024}) == search.kernel_params({"max_worlds": 256})
    assert search.kernel_params({"belief": 0})[:2] == [32, 32]  # the search before belief: no budget


def test_a_bigger_budget_plays_more_worlds_at_every_decision() -> None:
    """Position by position, the worlds a decision played never shrink as the budget grows,
    stay within it, and grow somewhere at every step (the first batch grows above 1,024)."""
    views = [v for v in recorded_views(Rules.preset("swedish"), deals=2)[::4] if v.stock_left]
    played = [[worlds_played(view, parse_strategy(f"search:budget={b}"), *deal_hidden(view, 1)) for b in BUDGETS]
              for view in views]
    assert all(row == sorted(row) and all(w * 4 <= b for w, b in zip(row, BUDGETS)) for row in played)
    assert all(any(row[i] < row[i + 1] for row in played) for i in range(len(BUDGETS) - 1))


def test_the_budget_is_checked() -> None:
    with pytest.raises(ValueError, match="budget or max_worlds, not both"):
        simcasino.simulate("swedish", ("search:budget=512,max_worlds=64", "greedy"), deals=1)
    with pytest.raises(ValueError, match="budget >= 2 \\* moves"):
        simcasino.simulate("swedish", ("search:budget=7", "greedy"), deals=1)


def test_widen_judges_more_moves_only_where_the_first_worlds_disagree() -> None:
    """``widen=8``: a decision its first worlds settle judges the heuristic's best 4 on the same
    worlds as without it (the same move); one they leave in doubt judges up to 8, from the first
    world again, and its playouts stay within the budget (the first batch of 4 moves, the rest
    of 8)."""
    narrow, wide = parse_strategy("search:budget=1024"), parse_strategy("search:budget=1024,widen=8")
    first_batch = search.kernel_params({"budget": 1024})[monte_carlo._WORLDS]
    widened = 0
    for view in recorded_views(Rules.preset("swedish"), deals=3)[::2]:
        if not view.stock_left or len(view.moves) <= 4:
            continue
        hidden = deal_hidden(view, 1)
        judged = len(search_values(view, wide, *hidden))
        if judged == 4:
            assert worlds_played(view, wide, *hidden) == worlds_played(view, narrow, *hidden)
            assert kernel_move(view, wide, *hidden) == kernel_move(view, narrow, *hidden)
            continue
        widened += 1
        assert judged == min(8, len(view.moves))
        assert first_batch * 4 + worlds_played(view, wide, *hidden) * judged <= 1024
    assert widened


def test_widen_is_checked() -> None:
    with pytest.raises(ValueError, match="0 <= widen <= "):
        simcasino.simulate("swedish", ("search:widen=-1", "greedy"), deals=1)
