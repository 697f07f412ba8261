"""The strategy registry (`strategies.REGISTRY`) and the kernel's switch (`loop.dispatch`): every
registered strategy plays its own moves in the kernel and at a mixed table, a strategy the
switch does not handle is an error at import, a number no branch compiled for the job raises
rather than playing another strategy, and ``follow=`` is refused by name where it is not
honoured. The tests iterate over the registry, so a new strategy is tested by registering it."""

from __future__ import annotations

import functools
import subprocess
import sys

import numpy as np
import pytest
from helpers.cli import run

import simcasino
from simcasino.core.rules import Rules
from simcasino.engine.layout import N_COLUMNS
from simcasino.loop.batch import seat_arrays
from simcasino.loop.dispatch import check_switch
from simcasino.loop.entry import NO_DATA, TASK_DEALS, flags
from simcasino.loop.entry import run as run_kernel
from simcasino.loop.workspace import make_workspace
from simcasino.strategies import (
    ADVISED,
    BY_LIST,
    PLAIN,
    REGISTRY,
    TIER_NAMES,
    WEIGHED,
    Registered,
    StrategySpec,
    Tier,
    parse_strategy,
    tier_of,
)

LINEUP = ("greedy", "random")  # the other seats beside the strategy tested


@functools.cache
def _points_in_its_seat(name: str):
    """The points of 30 deals with ``name`` beside `LINEUP` (computed once for every test that
    compares a strategy with all the others)."""
    return simcasino.simulate("finnish", (name, *LINEUP), deals=30, seed=5)["points"]


@pytest.mark.parametrize("entry", REGISTRY, ids=lambda e: e.name)
def test_every_registered_strategy_plays_its_own_moves(entry: Registered) -> None:
    """In the kernel and at a mixed table (the reference engine refereeing, the kernel deciding
    through the position API) the same deals; where the strategy has a Python form, the
    reference engine playing that form gives them too. Where it has none, its deals differ from
    every other registered strategy's in its seat: its branch plays it, not another."""
    lineup = (entry.name, *LINEUP)
    kernel = simcasino.simulate("finnish", lineup, deals=4, seed=5)
    assert simcasino.simulate("finnish", lineup, deals=4, seed=5, engine="mixed").equals(kernel)
    try:
        StrategySpec(entry.name).python()
    except ValueError:  # no Python form: only the kernel plays it
        points = {e.name: _points_in_its_seat(e.name) for e in REGISTRY}
        assert not any(points[entry.name].equals(points[other]) for other in points if other != entry.name)
        return
    assert simcasino.simulate("finnish", lineup, deals=4, seed=5, engine="reference").equals(kernel)


def test_a_strategy_missing_from_the_switch_fails_at_import() -> None:
    """Registered without a branch in `loop.dispatch.choose` (nor a module of its own): importing
    the switch fails and names it."""
    code = ("import simcasino.strategies as s; "
            "s.REGISTRY = (*s.REGISTRY, s.Registered('dummy', s.PLAIN, s.BY_LIST)); "
            "import simcasino.loop.dispatch")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode != 0
    assert "'dummy' has no branch in loop.dispatch.choose" in result.stderr
    assert "'dummy' has no choose_kernel" in result.stderr


def test_the_check_names_every_disagreement() -> None:
    check_switch(REGISTRY)  # the package's own registry passes
    with pytest.raises(ValueError, match="'dummy' follows claims by list but has no branch"):
        check_switch((*REGISTRY, Registered("dummy", PLAIN, BY_LIST)))
    with pytest.raises(ValueError, match="uses memory 'nowhere'"):
        check_switch((Registered("greedy", PLAIN, BY_LIST, ("nowhere",)),))


@pytest.mark.parametrize("tier", [PLAIN, ADVISED], ids=lambda t: TIER_NAMES[t])
def test_a_number_the_job_did_not_compile_raises_rather_than_plays(tier: Tier) -> None:
    """The heuristic's number in a plain job, or in an advised one (a follower's: the advice
    compiled, the heuristic not): an error, where the switch once fell through to the
    clairvoyant's branch."""
    rules = Rules()
    ids, params, counts = seat_arrays([parse_strategy("heuristic"), parse_strategy("greedy")])
    advises, weighs, searches, sees = flags(tier)
    workspace = make_workspace(rules.to_array(), ids, params, counts, weighs)
    out = np.zeros((1, 2, N_COLUMNS), dtype=np.int16)
    with pytest.raises(ValueError, match="did not compile"):
        run_kernel(workspace, advises, weighs, searches, sees, np.int64(TASK_DEALS), np.int64(0), np.int64(0),
                   np.int64(0), np.uint64(1), NO_DATA, out)


@pytest.mark.parametrize("entry", [e for e in REGISTRY if e.follows], ids=lambda e: e.name)
def test_follow_is_honoured_by_every_strategy_registered_to(entry: Registered) -> None:
    """Some claim changes some move of each strategy that follows claims (each already plays
    some of the advice on its own, so one claim alone need not)."""
    def deals(strategy: str) -> object:
        return simcasino.simulate("finnish", (strategy, "greedy"), deals=30, seed=7).drop("strategy")

    free = deals(entry.name)
    assert any(not deals(f"{entry.name}:follow={claim}").equals(free) for claim in ("S6", "F1", "S2"))


def test_follow_is_refused_by_name_where_it_is_not_honoured() -> None:
    with pytest.raises(ValueError, match="strategy 'openspiel-ismcts' cannot follow a claim"):
        parse_strategy("openspiel-ismcts:follow=S1")
    result = run("compare", "openspiel-mcts:follow=S2", "greedy", "--decks", "2")
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        "error: strategy 'openspiel-mcts' cannot follow a claim (follow=S2 in 'openspiel-mcts:follow=S2'): "
        "these can: " + ", ".join(e.name for e in REGISTRY if e.follows)]


def test_a_follower_plays_on_the_advised_tier() -> None:
    """``greedy:follow=card`` compiles the advice, not the heuristic (the advised tier, whose
    job refuses a heuristic seat: `test_a_number_the_job_did_not_compile_raises_rather_than_plays`);
    the heuristic following advice needs the weighed tier."""
    assert tier_of([parse_strategy("greedy:follow=card"), parse_strategy("random:follow=S1")]) == ADVISED
    assert tier_of([parse_strategy("greedy"), parse_strategy("heuristic:follow=S1")]) == WEIGHED


def test_the_tiers_and_their_words_are_named() -> None:
    from simcasino.strategies import TIER_NAMES, TIER_WORDS, Tier

    assert set(TIER_NAMES) == set(TIER_WORDS) == set(Tier)
    assert [TIER_NAMES[t] for t in sorted(Tier)] == ["plain", "advised", "weighed", "searched", "clairvoyant"]


@pytest.mark.parametrize("old, new", [("simcasino.strategies.claims", "simcasino.advice.claims"),
                                      ("simcasino.strategies.clairvoyant", "simcasino.strategies.search.clairvoyant")])
def test_an_old_module_path_still_imports_with_one_warning(old: str, new: str) -> None:
    code = f"import warnings; warnings.simplefilter('always'); import {old} as a, {new} as b; assert a is b"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stderr.strip().splitlines() == [f"<string>:1: DeprecationWarning: {old} moved to {new}: import it "
                                                  "from there"]
