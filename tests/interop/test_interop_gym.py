"""Kasino as a Gymnasium environment for one learner (`simcasino.interop.gym_env`):
Gymnasium's own checker against each opponent, the registered id, the learner's returns
equal to the deal's points, an illegal action, and what a missing extra says."""

from __future__ import annotations

import subprocess
import sys
import warnings

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")  # the rl extra; .ci/run installs it, so CI runs these

from gymnasium.utils.env_checker import check_env  # noqa: E402

from simcasino.interop.gym_env import ENV_ID, KasinoSoloEnv  # noqa: E402


@pytest.mark.parametrize("rules,opponent", [("swedish", "greedy"), ("rakennuskasino", "heuristic"),
                                            ("misere", "random"), ("finnish", "search")])
def test_gymnasium_checks_the_environment(rules: str, opponent: str) -> None:
    """Gymnasium's checker passes without a warning (it warns of an unbounded Box)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(gymnasium.make(ENV_ID, rules=rules, opponent=opponent).unwrapped, skip_render_check=True)
    assert [str(w.message) for w in caught] == []


def test_a_deal_against_greedy_pays_the_learners_points() -> None:
    env = gymnasium.make(ENV_ID, rules={"preset": "finnish", "players": 3}, opponent="greedy", seat=1)
    observation, info = env.reset(seed=4)
    rng, done, reward = np.random.default_rng(4), False, 0.0
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        observation, reward, terminated, truncated, info = env.step(action)
        done = terminated or truncated
    deal = env.unwrapped.decision.deal
    assert reward == deal.result().seats[1].points and len(deal.hands) == 3


def test_an_illegal_action_ends_the_episode_at_the_lowest_return() -> None:
    env = KasinoSoloEnv("swedish", utility="difference")
    _, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(~info["action_mask"])[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert terminated and reward == -35.0 and info["illegal"].startswith(f"action {illegal} is not legal")


def test_a_table_too_large_to_list_ends_the_deal_scored_as_on_every_face() -> None:
    """The PettingZoo test's table (docs/interop.md, Limits): the learner trails 6D and the
    opponent's queens have more captures than the engines list; the deal ends there, scored
    as `DealState.end_now` scores it, with the reason in the info."""
    from simcasino.core.cards import parse_cards
    from simcasino.core.rules import Rules
    from simcasino.interop.actions import PendingMove, actions_of
    from simcasino.interop.lean import LeanDeal
    from simcasino.interop.outcome import returns
    from simcasino.reference.state import DealState

    table = parse_cards("2S 3S 4S 5S 6S 7S 2H 3H 4H 5H 6H 7H 2D 3D 4D 5D")
    hands = [parse_cards("6D KS KH KD"), parse_cards("QS QH QD")]
    deal = DealState.position(Rules.preset("finnish"), hands, table)
    env = KasinoSoloEnv("finnish", opponent="greedy", utility="difference")
    env.reset(seed=1)
    env.decision = PendingMove(LeanDeal.of(deal))
    twin = deal.clone()
    twin.apply(deal.legal_moves()[0])
    twin.end_now()
    for action in actions_of(deal, deal.legal_moves()[0]):  # trail 6D (a card, then its option)
        _, reward, terminated, truncated, info = env.step(action)
    assert terminated and not truncated and not info["action_mask"].any()
    assert info["cut_short"].startswith("position too large: over 8192 captures")
    assert reward == returns(twin, "difference")[0] < 0


def test_a_game_episode_against_greedy_pays_the_winner_at_the_games_end() -> None:
    """``episode="game"`` with ``utility="win"``: Gymnasium's checker passes, the learner's
    random play runs over several deals of one game, and the one reward, at the end, is +1
    if its seat won the game and -1 if not."""
    env = KasinoSoloEnv("finnish", opponent="greedy", utility="win", episode="game")
    check_env(env, skip_render_check=True)
    _, info = env.reset(seed=2)
    rng, rewards, terminated = np.random.default_rng(2), [], False
    while not terminated:
        _, reward, terminated, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        rewards.append(reward)
    game = env.episode.game
    assert game.is_over and game.deals > 1 and rewards[:-1] == [0.0] * (len(rewards) - 1)
    assert rewards[-1] == (1.0 if game.winner == 0 else -1.0)


def test_bad_arguments_name_the_argument_and_its_range() -> None:
    with pytest.raises(ValueError, match="seat 2: this table has seats 0-1"):
        KasinoSoloEnv("swedish", seat=2)
    with pytest.raises(ValueError, match="unknown strategy 'grumpy'"):
        KasinoSoloEnv("swedish", opponent="grumpy")


def test_a_missing_extra_is_one_line_saying_what_to_install() -> None:
    script = "import sys; sys.modules['gymnasium'] = None\nimport simcasino.interop.gym_env"
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert result.stderr.strip().splitlines()[-1] == (
        "ImportError: simcasino.interop.gym_env needs the rl extra: pip install 'simcasino[rl]'")
