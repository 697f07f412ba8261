"""A trained policy at the paired-deck table (`simcasino.interop.evaluate`): it sees what the
single environment shows, plays compare's decks (a policy that plays as a strategy file plays
gets that file's figures exactly), a batched policy plays as its single form, and an illegal
action is refused with the legal ones named."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from helpers.cli import ok, run

import simcasino
from simcasino.interop.evaluate import PolicySeat
from simcasino.reference.referee import play_deal
from simcasino.reference.state import DealState
from simcasino.strategies import parse_strategy

# the highest legal action at every step: the highest card kind, then its last option block,
# which (no builds) ends in the last of that card's legal moves in canonical order
LAST_LEGAL_POLICY = '''
import numpy as np


def policy(observation, mask):
    return int(np.flatnonzero(mask)[-1])
'''
LAST_LEGAL_FILE = '''
def choose(view):
    highest = max(move.card % 52 for move in view.moves)
    return [move for move in view.moves if move.card % 52 == highest][-1]
'''


def last_legal(observation: np.ndarray, mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[-1])


def test_the_policy_sees_the_single_environments_observation_and_mask() -> None:
    """Deal 0 of seed 5 played by the policy in seat 0 against greedy, and the same deal in
    `KasinoSoloEnv`: the same observations and masks at every step, the same return."""
    gym_env = pytest.importorskip("simcasino.interop.gym_env")
    seen: list[tuple[np.ndarray, np.ndarray]] = []

    def recording(observation: np.ndarray, mask: np.ndarray) -> int:
        seen.append((observation.copy(), mask.copy()))
        return last_legal(observation, mask)

    rules = simcasino.Rules.preset("finnish")
    result = play_deal(DealState.new(rules, seed=5), [PolicySeat(recording), parse_strategy("greedy").python()])
    env = gym_env.KasinoSoloEnv(rules, opponent="greedy")
    observation, info = env.reset(seed=5)
    shown, reward, done = [], 0.0, False
    while not done:
        shown.append((observation, info["action_mask"]))
        observation, reward, terminated, truncated, info = env.step(last_legal(observation, info["action_mask"]))
        done = terminated or truncated
    assert len(seen) == len(shown) > 10
    assert all(np.array_equal(a, b) and np.array_equal(m, k) for (a, m), (b, k) in zip(seen, shown))
    assert reward == result.seats[0].points


@pytest.mark.parametrize("rules", ["swedish", "finnish"])
def test_a_policy_gets_the_figures_of_the_strategy_file_that_plays_as_it(tmp_path: Path, rules: str) -> None:
    path = tmp_path / "last_legal.py"
    path.write_text(LAST_LEGAL_FILE)
    by_policy = simcasino.evaluate(last_legal, "greedy", rules=rules, decks=12, seed=2)
    by_file = simcasino.compare(str(path), "greedy", rules=rules, decks=12, seed=2)
    assert by_policy.mean_diff == by_file.mean_diff and by_policy.decks == by_file.decks == 12
    assert repr(by_policy).split("\n", 1)[1] == repr(by_file).split("\n", 1)[1]  # every component
    assert by_policy.headline().startswith("last_legal − greedy:")


def test_a_batched_policy_plays_as_its_single_form() -> None:
    def batched(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        assert observations.ndim == 2 and masks.shape == (1, masks.shape[1])
        return masks.shape[1] - 1 - np.argmax(masks[:, ::-1], axis=1)  # the last legal

    single = simcasino.evaluate(last_legal, "random", decks=6, seed=9)
    assert simcasino.evaluate(batched, "random", decks=6, seed=9, batched=True).mean_diff == single.mean_diff


def test_an_illegal_action_is_refused_with_the_legal_ones_named() -> None:
    with pytest.raises(Exception, match=r"chose action 99, not legal \(legal: \["):
        simcasino.evaluate(lambda observation, mask: 99, "greedy", decks=2, seed=1)


def test_a_policy_must_be_a_function() -> None:
    with pytest.raises(TypeError, match="function of \\(observation, mask\\)"):
        simcasino.evaluate("greedy", "random", decks=2)


def test_the_command_line_plays_a_policy_file_as_the_api_does(tmp_path: Path) -> None:
    path = tmp_path / "last_legal.py"
    path.write_text(LAST_LEGAL_POLICY)
    out = ok("evaluate", str(path), "random", "--rules", "finnish", "--decks", "8", "--seed", "4", "--json").stdout
    expected = simcasino.evaluate(last_legal, "random", rules="finnish", decks=8, seed=4).to_dict()
    assert json.loads(out) == json.loads(json.dumps(expected))


@pytest.mark.parametrize(("text", "message"), [(None, "not found"), ("x = 1", "defines no function policy"),
                                               ("1/0", "failed to load: ZeroDivisionError")])
def test_a_bad_policy_file_is_one_line(tmp_path: Path, text: str | None, message: str) -> None:
    path = tmp_path / "broken.py"
    if text is not None:
        path.write_text(text)
    result = run("evaluate", str(path), "--decks", "2")
    assert result.exit_code == 2 and message in result.output and "Traceback" not in result.output
