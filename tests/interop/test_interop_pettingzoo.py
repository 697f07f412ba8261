"""Kasino as a PettingZoo environment (`simcasino.interop.pettingzoo_env`): PettingZoo's own
API, seed and render checks on every preset, and a deal played through the environment with
the moves `DealState` made ends with the same scores."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from types import SimpleNamespace

import numpy as np
import pytest
from helpers.paths import ROOT

pytest.importorskip("pettingzoo")  # the rl extra; .ci/run installs it, so CI runs these

from helpers.tiers import quick_tier
from pettingzoo.test import api_test, max_cycles_test, parallel_api_test, parallel_seed_test, render_test, seed_test  # noqa: E402
from pettingzoo.utils.conversions import aec_to_parallel  # noqa: E402

from simcasino.core.protocol import Stream  # noqa: E402
from simcasino.core.rules import PRESETS, Rules  # noqa: E402
from simcasino.interop.actions import actions_of  # noqa: E402
from simcasino.interop.encoding import ObservationKind, Tensor, observation_bounds  # noqa: E402
from simcasino.interop.outcome import bounds, returns  # noqa: E402
from simcasino.interop.pettingzoo_env import PASS, KasinoEnv, env, parallel_env, raw_env  # noqa: E402
from simcasino.reference.state import DealState  # noqa: E402


# PettingZoo warns of every observation that is a dict, as the action-masked ones of its own
# classic games are: the mask travels beside the vector, as PettingZoo's docs ask
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array", "ignore:Observation space for each agent")
@pytest.mark.parametrize("preset", quick_tier(PRESETS, ["swedish", "rakennuskasino"]))
def test_pettingzoo_checks(preset: str) -> None:
    api_test(env(preset), num_cycles=300)
    api_test(raw_env(preset, observation="flat", utility="difference"), num_cycles=300)
    seed_test(lambda: env(preset), num_cycles=300)
    render_test(lambda render_mode=None: KasinoEnv(preset, render_mode=render_mode),
                custom_tests={"ansi": lambda text: "table:" in text})


@pytest.mark.parametrize("preset,players", [("swedish", 2), ("finnish", 3), ("misere", 2), ("rakennuskasino", 4),
                                            ("mulle", 3)])
def test_the_same_moves_give_the_same_scores(preset: str, players: int) -> None:
    """Deal 0 of seed 5 played by random moves in `DealState`, then in the environment reset
    with seed 5: the same deal (the same hands), and each seat's return is its points."""
    rules = Rules.preset(preset).replace(players=players)
    deal, moves = DealState.new(rules, 5, 0), []
    stream = Stream(deal.rng)
    while not deal.is_over:
        legal = deal.legal_moves()
        moves.append(legal[stream.draw(len(legal))])
        deal.apply(moves[-1])
    env = KasinoEnv(rules)
    env.reset(seed=5)
    assert env.decision.deal.hands == DealState.new(rules, 5, 0).hands
    for move in moves:
        for action in actions_of(env.decision.deal, move):
            assert env.observe(env.agent_selection)["action_mask"][action] == 1
            env.step(action)
    sign = -1 if rules.low_wins else 1
    assert all(env.terminations.values())
    assert env.rewards == {f"player_{s}": sign * seat.points for s, seat in enumerate(deal.result().seats)}


@pytest.mark.parametrize("preset", quick_tier(PRESETS, ["swedish", "krypkasino"]))
def test_every_observation_lies_within_the_declared_bounds(preset: str) -> None:
    """Random legal play, three deals a preset (Krypkasino's penalties make scores negative,
    Glimne's two decks make counts of 2): every agent's observation is inside its space,
    whose bounds are finite, and so is every information-state tensor seeing every hand."""
    rules = Rules.preset(preset)
    env, rng = KasinoEnv(rules), random.Random(preset)
    space = env.observation_space("player_0")["observation"]
    assert np.isfinite(space.low).all() and np.isfinite(space.high).all()
    kind = ObservationKind(recall=True, private="all")
    tensor, (low, high) = Tensor(rules, kind), observation_bounds(rules, kind)
    for seed in range(3):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            assert space.contains(observation["observation"]), agent
            seat = env.possible_agents.index(agent)
            assert (low <= tensor.fill(env.decision, seat)).all() and (tensor.flat <= high).all()
            legal = np.flatnonzero(observation["action_mask"])
            env.step(None if terminated or truncated else int(rng.choice(legal)))


@pytest.mark.parametrize("utility", ["points", "win"])
def test_a_game_episode_plays_the_deals_of_the_game_to_the_target(utility: str) -> None:
    """``episode="game"``: random legal play through game 1 of seed 5 (Finnish, to 16); the
    same moves played deal by deal on `GameState` give the same game, and the episode pays
    the game at its end (the game points, or +1 to the winner and -1 to the other), nothing
    before, every observation inside its space."""
    from simcasino.reference.game import GameState

    rules = Rules.preset("finnish")
    env, rng = KasinoEnv(rules, episode="game", utility=utility), random.Random(5)
    env.reset(seed=5, options={"game": 1})
    space, deals, paid = env.observation_space("player_0")["observation"], [], {}
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        assert space.contains(observation["observation"]) and not truncated
        deal = env.decision.deal
        if terminated:
            paid[agent] = reward
        else:
            assert reward == 0.0
        env.step(None if terminated else int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        if env.decision.deal is not deal:
            deals.append([action.move for action in deal.history])
    game = GameState.new(rules, 5, 1)
    for moves in [*deals, [action.move for action in env.decision.deal.history]]:
        replay = game.next_deal()
        for move in moves:
            replay.apply(move)
        game.end_deal(replay.result())
    assert game.is_over and game.deals == env.episode.game.deals > 1
    assert game.scores == env.episode.game.scores
    expected = {0: [float(p) for p in game.scores], 1: [1.0 if s == game.winner else -1.0 for s in (0, 1)]}
    assert paid == dict(zip(env.possible_agents, expected[utility == "win"]))


def test_an_unknown_episode_is_one_line_naming_the_choices() -> None:
    with pytest.raises(ValueError, match="episode must be one of 'deal', 'game'; got 'match'"):
        KasinoEnv("swedish", episode="match")
    with pytest.raises(ValueError, match="a deck deals one deal"):
        KasinoEnv("swedish", episode="game").reset(options={"deck": list(range(52))})


def test_reset_deals_the_next_deal_of_the_seed() -> None:
    env = KasinoEnv("swedish")
    env.reset(seed=7)
    env.reset()
    assert env.decision.deal.hands == DealState.new(Rules.preset("swedish"), 7, 1).hands


def test_only_the_seat_to_move_has_legal_actions() -> None:
    env = KasinoEnv("finnish")
    env.reset(seed=1)
    masks = {agent: env.observe(agent)["action_mask"] for agent in env.agents}
    assert masks[env.agent_selection].sum() > 0
    assert all(not mask.any() for agent, mask in masks.items() if agent != env.agent_selection)
    with pytest.raises(ValueError, match="not legal"):
        env.step(int(np.flatnonzero(masks[env.agent_selection] == 0)[0]))


def test_a_table_too_large_to_list_ends_the_deal_as_the_openspiel_game_does() -> None:
    """A Finnish table of 16 low cards (2-7 of spades and hearts, 2-5 of diamonds): seat 0
    trails 6D, and seat 1's queens then have more captures than the engines list
    (`core.limits`): the deal ends there as every face ends it (docs/interop.md, Limits:
    what is left goes to the last capturer, the dealer here, and the deal is scored), every
    agent terminated with its return and the reason in its infos. (Uniformly random actions
    pile up such a table once in some 80,000 deals.)"""
    from simcasino.core.cards import parse_cards
    from simcasino.interop.actions import PendingMove
    from simcasino.interop.lean import LeanDeal

    table = parse_cards("2S 3S 4S 5S 6S 7S 2H 3H 4H 5H 6H 7H 2D 3D 4D 5D")
    deal = DealState.position(Rules.preset("finnish"), [parse_cards("6D KS KH KD"), parse_cards("QS QH QD")], table)
    env = KasinoEnv("finnish")
    env.reset(seed=1)
    env.decision = PendingMove(LeanDeal.of(deal))
    for action in actions_of(deal, deal.legal_moves()[0]):  # trail 6D (a card, then its option)
        env.step(action)
    twin = deal.clone()
    twin.apply(deal.legal_moves()[0])
    twin.end_now()
    steps, rewards = 0, {}
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        assert terminated and not truncated and not observation["action_mask"].any()
        assert info["cut_short"].startswith("position too large: over 8192 captures")
        rewards[agent] = reward
        env.step(None)
        steps += 1
    assert all(env.terminations.values()) and not any(env.truncations.values()) and not env.agents
    assert steps == 2 and env.decision.deal.is_over
    assert rewards == dict(zip(env.possible_agents, returns(twin)))
    assert sorted(rewards.values()) != [0.0, 0.0]


def test_the_random_agent_loop_of_docs_interop_prints_what_the_page_shows(capsys: pytest.CaptureFixture) -> None:
    """docs/interop.md's PettingZoo example, run again: the same output, line for line."""
    page = (ROOT / "docs" / "interop.md").read_text()
    section = page[page.index("A random-agent loop:"):]
    code, shown = re.search(r"```python\n(.*?)```\n\n```text\n(.*?)```", section, flags=re.S).groups()
    exec(compile(code, "docs/interop.md", "exec"), {})
    assert capsys.readouterr().out == shown


@pytest.mark.filterwarnings("ignore:Observation space for each agent", "ignore:.*infinity")
@pytest.mark.parametrize("preset", ["swedish", "misere", "rakennuskasino"])
def test_the_parallel_api(preset: str) -> None:
    """Every agent acts once a cycle (the seat to move for real, the others PASS), so
    ``aec_to_parallel`` takes the environment, and PettingZoo's parallel check passes."""
    parallel_api_test(parallel_env(preset), num_cycles=300)
    api_test(raw_env(preset, turns="cycle"), num_cycles=300)
    parallel = aec_to_parallel(raw_env(preset, turns="cycle", observation="flat"))
    observations, infos = parallel.reset(seed=2)
    rng, rewards = random.Random(2), {}
    while parallel.agents:
        actions = {agent: rng.choice(np.flatnonzero(infos[agent]["action_mask"])) for agent in parallel.agents}
        assert sum(action != PASS for action in actions.values()) == 1
        observations, rewards, terminations, truncations, infos = parallel.step(actions)
    assert all(terminations.values()) and set(rewards) == set(parallel.possible_agents)


def test_max_cycles_counts_each_agents_actions() -> None:
    """Truncated once an agent has acted ``max_cycles`` times (a seat with a capture to choose
    acts twice a turn), not after so many actions of the game."""
    kasino = raw_env("swedish", max_cycles=5)
    kasino.reset(seed=1)
    acted = dict.fromkeys(kasino.possible_agents, 0)
    while not any(kasino.truncations.values()):
        acted[kasino.agent_selection] += 1
        kasino.step(int(np.flatnonzero(kasino.observe(kasino.agent_selection)["action_mask"])[0]))
    assert max(acted.values()) == 5 and sum(acted.values()) > 5
    assert kasino.infos["player_0"]["truncated"] == "max_cycles: an agent has acted 5 times"
    with pytest.raises(ValueError, match="max_cycles must be a positive whole number"):
        raw_env("swedish", max_cycles=0)


@pytest.mark.filterwarnings("ignore:Observation space for each agent", "ignore:.*infinity")
@pytest.mark.parametrize("preset", quick_tier(PRESETS, ["swedish", "rakennuskasino"]))
def test_pettingzoos_parallel_seed_and_max_cycles_checks(preset: str) -> None:
    """Both send random actions from the whole action space: the parallel API's illegal action
    ends the deal at the end of its cycle (`parallel_seed_test`); with ``illegal="pass"`` a
    deal lasts exactly ``max_cycles`` cycles (`max_cycles_test`)."""
    parallel_seed_test(lambda: parallel_env(preset), num_cycles=100)
    max_cycles_test(SimpleNamespace(
        env=lambda **options: raw_env(preset, turns="cycle", illegal="pass", **options),
        parallel_env=lambda **options: parallel_env(preset, illegal="pass", **options)))


def test_an_illegal_action_in_a_cycle_ends_the_deal_when_the_cycle_ends() -> None:
    kasino = raw_env("swedish", turns="cycle", illegal="end", utility="difference")
    kasino.reset(seed=3)
    assert kasino.decision.deal.to_move == 0
    kasino.step(PASS)  # player_0 is to move: PASS is not its action
    assert not any(kasino.terminations.values()) and kasino.agent_selection == "player_1"
    kasino.step(PASS)
    assert all(kasino.terminations.values())
    assert kasino.rewards == {"player_0": bounds(kasino.rules, "difference")[0], "player_1": 0.0}
    assert kasino.rewards["player_0"] < 0
    assert kasino.infos["player_0"]["illegal"].startswith("action 68 is not legal for player_0")


def test_an_illegal_action_passed_over_leaves_the_deal_where_it_was() -> None:
    kasino, fresh = raw_env("finnish", illegal="pass"), raw_env("finnish")
    kasino.reset(seed=4)
    fresh.reset(seed=4)
    illegal = int(np.flatnonzero(kasino.observe("player_0")["action_mask"] == 0)[0])
    kasino.step(illegal)
    assert kasino.agent_selection == "player_0" and "illegal" in kasino.infos["player_0"]
    assert np.array_equal(kasino.observe("player_0")["observation"], fresh.observe("player_0")["observation"])
    kasino.step(int(np.flatnonzero(kasino.observe("player_0")["action_mask"])[0]))
    assert "illegal" not in kasino.infos["player_0"]
    with pytest.raises(ValueError, match="illegal must be one of 'raise', 'end', 'pass'; got 'skip'"):
        raw_env("finnish", illegal="skip")


def test_an_illegal_action_under_the_standard_wrappers_ends_the_deal_at_the_lowest_return() -> None:
    wrapped = env("finnish")
    wrapped.reset(seed=1)
    agent = wrapped.agent_selection
    illegal = int(np.flatnonzero(wrapped.observe(agent)["action_mask"] == 0)[0])
    wrapped.step(illegal)
    assert all(wrapped.terminations.values()) and wrapped.rewards[agent] == 0.0  # Finnish points: 0 the lowest


@pytest.mark.filterwarnings("ignore:.*infinity", "ignore:.*is not a NumPy array")
def test_vector_wrappers_take_the_flat_observation() -> None:
    """SuperSuit's vector environments stack the flat Box; the masks come in the infos."""
    supersuit = pytest.importorskip("supersuit")  # the rl extra installs it
    vector = supersuit.concat_vec_envs_v1(supersuit.pettingzoo_env_to_vec_env_v1(
        parallel_env("swedish", observation="flat")), 2, num_cpus=0, base_class="gymnasium")
    observations, infos = vector.reset(seed=1)
    rng = np.random.default_rng(1)
    for _ in range(60):
        actions = np.array([rng.choice(np.flatnonzero(info["action_mask"])) for info in infos])
        observations, rewards, terminations, truncations, infos = vector.step(actions)
    size = raw_env("swedish", observation="flat").observation_space("player_0").shape[0]
    assert observations.shape == (4, size) == (4, 1255)


def test_a_missing_extra_is_one_line_saying_what_to_install() -> None:
    script = ("import sys; sys.modules['pettingzoo'] = None\n"
              "import simcasino.interop.pettingzoo_env")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert result.stderr.strip().splitlines()[-1] == (
        "ImportError: simcasino.interop.pettingzoo_env needs the rl extra: pip install 'simcasino[rl]'")
