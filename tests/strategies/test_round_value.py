"""The learned value of a round's end (`strategies.search.value`): its features computed the
same by the kernel and the reference engine, its file refused for other rules."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest

from simcasino.core.rng import seed_key
from simcasino.core.rules import Rules
from simcasino.loop.batch import record_boundaries
from simcasino.loop.position import playout_margins
from simcasino.loop.seat import deal_history
from simcasino.reference.state import DealState
from simcasino.strategies import parse_strategy
from simcasino.strategies.search import value

PRESETS = ("swedish", "finnish", "rakennuskasino", "mulle")


def _reference_boundaries(rules: Rules, seed: int, deals: int) -> list[tuple[int, int, tuple[int, ...], int]]:
    """(deal, seat, features, margin) at every round's end of deals played by greedy in the
    reference engine. The state deals the next round at once, so the round's end is that state
    with the new hands back in the stock."""
    greedy = parse_strategy("greedy").python()
    found = []
    for index in range(deals):
        state, ends = DealState.new(rules, seed=seed, index=index), []
        while not state.is_over:
            rounds = state.rounds
            state.apply(greedy.choose(state.observation(state.to_move)))
            if state.rounds > rounds and not state.is_over:
                end = _round_end(state)
                ends += [(seat, value.python_features(end, seat)) for seat in range(rules.players)]
        points = [s.points for s in state.result().seats]
        for seat, features in ends:
            mine, theirs = points[seat], points[1 - seat]
            found.append((index, seat, features, theirs - mine if rules.low_wins else mine - theirs))
    return found


def _round_end(state: DealState) -> DealState:
    """A state just dealt a new round, as it was at the round's end: the new hands back in the stock."""
    dealt = sum(map(len, state.hands))
    return dataclasses.replace(state.clone(), hands=[[] for _ in state.hands], next_card=state.next_card - dealt)


@pytest.mark.parametrize("name", PRESETS)
def test_the_kernel_and_the_reference_see_the_same_rounds_ends(name: str) -> None:
    rules = Rules.preset(name)
    rows, _ = record_boundaries(rules, [parse_strategy("greedy")] * 2, seed_key(5), 12)
    kernel = [(int(r[0]), int(r[1]), tuple(int(x) for x in r[2:-1]), int(r[-1])) for r in rows]
    reference = _reference_boundaries(rules, 5, 12)
    assert len(kernel) >= 12 * 4
    assert kernel == reference


def test_a_round_end_is_every_hand_empty_with_cards_left_in_the_stock() -> None:
    rules = Rules.preset("swedish")
    rows, _ = record_boundaries(rules, [parse_strategy("greedy")] * 2, seed_key(5), 3)
    rounds = rules.deck_size // (2 * rules.hand_cards)  # 6 rounds of 8 cards: 5 ends before the last
    assert len(rows) == 3 * (rounds - 1) * 2
    stock = rows[:, 2 + value.FEATURES.index("stock cards")]
    assert sorted(set(stock.tolist()), reverse=True) == [40, 32, 24, 16, 8]


def _value(rules: Rules) -> value.Value:
    weights = tuple(np.random.default_rng(1).normal(size=value.N_WEIGHTS))
    return value.Value(rules, weights, {"commit": "abc1234", "seed": 1})


def test_a_value_file_round_trips(tmp_path: Path) -> None:
    made = _value(Rules.preset("swedish"))
    read = value.load(made.save(tmp_path / "v.json"), Rules.preset("swedish"))
    assert read.weights == made.weights and read.made == made.made
    assert np.array_equal(read.fixed(), made.fixed())


@pytest.mark.parametrize("other", [Rules.preset("finnish"), Rules.preset("swedish").replace(players=3),
                                   Rules.preset("swedish").replace(target=11)])
def test_a_value_file_is_refused_for_other_rules_or_players(tmp_path: Path, other: Rules) -> None:
    path = _value(Rules.preset("swedish")).save(tmp_path / "v.json")
    with pytest.raises(ValueError, match="was learned for swedish, 2 players") as err:
        value.load(path, other)
    assert "\n" not in str(err.value)


def test_a_file_that_is_not_a_value_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "v.json"
    path.write_text(json.dumps({"format": "something else"}))
    with pytest.raises(ValueError, match="not a round value file"):
        value.read(path)


def test_a_playout_that_ends_the_round_is_scored_by_the_value(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """At a round's last card every playout ends at once, at the round's end; its margin is
    the value of that state as numpy computes it (to the kernel's sixteenths of a point)."""
    rules = Rules.preset("swedish")
    made = _value(rules)
    monkeypatch.setenv(value.ENV_FILE, str(made.save(tmp_path / "v.json")))
    value.value_for.cache_clear()
    greedy = parse_strategy("greedy").python()
    state = DealState.new(rules, seed=3, index=0)
    while sum(map(len, state.hands)) != 1:
        state.apply(greedy.choose(state.observation(state.to_move)))
    seat = state.to_move
    moves, margins = playout_margins(state.observation(seat), parse_strategy("search:value=1"), state.hands,
                                     state.deck[state.next_card:], deal_history(state), 2, 0)
    for m, move in enumerate(moves):
        after = state.clone()
        after.apply(move)
        expected = made.predict(np.array([value.python_features(_round_end(after), seat)], dtype=float))[0]
        assert np.allclose(margins[:, m], expected, atol=1 / 32 + 1e-9), (move, margins[:, m], expected)
    value.value_for.cache_clear()


@pytest.mark.parametrize("name", ["swedish", "finnish"])
def test_the_shipped_value_is_found_for_its_rules_and_says_how_it_was_made(name: str) -> None:
    value.value_for.cache_clear()
    shipped = value.value_for(Rules.preset(name))
    assert shipped is not None and shipped.made["seed"] == 46 and len(shipped.made["commit"]) >= 7
    assert value.value_for(Rules.preset(name).replace(players=3)) is None  # no file: the search plays without
    assert value.value_for(Rules.preset("misere")) is None
