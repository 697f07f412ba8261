"""The batched environment (`simcasino.interop.batched`) against the single one, step by step:
the same observations, masks, rewards and terminations on random seeds and every preset it
covers, through autoresets; seeds that repeat; the tables it refuses."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")  # the single environment compared with needs the rl extra

from simcasino.core.rules import PRESETS  # noqa: E402
from simcasino.interop.batched import KasinoBatch  # noqa: E402
from simcasino.interop.gym_env import KasinoSoloEnv  # noqa: E402

COVERED = [name for name, rules in PRESETS.items() if not rules.builds and not rules.opponent_chooses]


def _pick(rng: np.random.Generator, mask: np.ndarray) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


@pytest.mark.parametrize("preset", COVERED)
def test_the_batch_steps_as_the_single_environment(preset: str) -> None:
    """Two tables of random seeds, three episodes each, every step equal to a single
    environment reset on the same seed (its later resets the next deals)."""
    rng = np.random.default_rng(abs(hash(preset)) % 2**32)
    seeds = [int(s) for s in rng.integers(0, 2**31, 2)]
    batch = KasinoBatch(preset, tables=2, opponent="greedy", seat=1, rotate=True, threads=1)
    singles = [KasinoSoloEnv(preset, opponent="greedy", seat=1) for _ in seeds]
    observations, masks = batch.reset(seed=seeds)
    episode, steps = [0, 0], 0
    views = [env.reset(seed=s) for env, s in zip(singles, seeds)]
    while min(episode) < 3:
        for i, (view, info) in enumerate(views):
            assert (observations[i] == view).all() and (masks[i] == info["action_mask"]).all(), (i, steps)
        actions = np.array([_pick(rng, m) for m in masks])
        observations, masks, rewards, terminated = batch.step(actions)
        steps += 1
        for i, env in enumerate(singles):
            view, reward, done, truncated, info = env.step(int(actions[i]))
            assert not truncated and rewards[i] == reward and terminated[i] == done, (i, steps)
            if done:
                assert (batch.final_observations[i] == view).all()
                episode[i] += 1
                rotated = (1 + episode[i]) % env.rules.players
                singles[i] = env = KasinoSoloEnv(preset, opponent="greedy", seat=rotated)
                view, info = env.reset(seed=seeds[i], options={"deal": episode[i]})
            views[i] = (view, info)
    assert steps > 20


def test_episodes_repeat_from_their_seeds_on_any_batch_size_and_threads() -> None:
    """Table 3 of a batch of 6 on two threads plays as table 0 of a batch of 1 on seed + 3."""
    wide = KasinoBatch("swedish", tables=6, opponent="heuristic", threads=2)
    alone = KasinoBatch("swedish", tables=1, opponent="heuristic", threads=1)
    (wide_obs, wide_masks), (obs, masks) = wide.reset(seed=10), alone.reset(seed=13)
    rng, ended = np.random.default_rng(0), 0
    for _ in range(150):
        assert (wide_obs[3] == obs[0]).all() and (wide_masks[3] == masks[0]).all()
        action = _pick(rng, masks[0])
        actions = np.array([_pick(rng, m) for m in wide_masks])
        actions[3] = action
        wide_obs, wide_masks, wide_rewards, _ = wide.step(actions)
        obs, masks, rewards, terminated = alone.step(np.array([action]))
        assert wide_rewards[3] == rewards[0]
        ended += int(terminated[0])
    wide.close()
    assert ended >= 2


def test_an_illegal_action_ends_the_episode_at_the_lowest_return() -> None:
    batch = KasinoBatch("swedish", tables=2, utility="difference", threads=1)
    _, masks = batch.reset(seed=1)
    actions = np.array([np.flatnonzero(~masks[0])[0], np.flatnonzero(masks[1])[0]])
    _, _, rewards, terminated = batch.step(actions)
    assert terminated.tolist() == [True, False] and batch.illegal.tolist() == [True, False]
    assert rewards[0] == -35.0


def test_tables_it_does_not_cover_are_refused_in_one_line() -> None:
    with pytest.raises(ValueError, match="does not cover §6 Builds"):
        KasinoBatch("rakennuskasino", tables=1)
    with pytest.raises(ValueError, match="seats random, greedy, heuristic"):
        KasinoBatch("swedish", tables=1, opponent="search")


@pytest.mark.parametrize("copy", [True, False])
def test_the_vector_env_face_is_the_batch_with_gymnasiums_autoreset(copy: bool) -> None:
    """`KasinoVectorEnv` against a `KasinoBatch` of the same seeds and actions: equal
    observations, masks and rewards; a finished episode's last observation in
    ``infos["final_obs"]`` where ``_final_obs``; every observation inside the space; and
    Gymnasium's episode statistics add up the rewards. With ``copy=False`` the arrays are the
    batch's own, the same numbers."""
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    from simcasino.interop.vector_env import KasinoVectorEnv

    env = RecordEpisodeStatistics(KasinoVectorEnv("finnish", num_envs=4, rotate=True, threads=1, copy=copy))
    batch = KasinoBatch("finnish", tables=4, rotate=True, threads=1)
    (observations, infos), (expected, masks) = env.reset(seed=11), batch.reset(seed=11)
    space, rng = env.unwrapped.single_observation_space, np.random.default_rng(11)
    totals, returns, paid = np.zeros(4), [], []
    for _ in range(120):
        assert (observations == expected).all() and (infos["action_mask"] == masks).all()
        assert all(space.contains(row) for row in observations)
        actions = np.array([_pick(rng, m) for m in masks])
        observations, rewards, ended, truncated, infos = env.step(actions)
        expected, masks, batch_rewards, terminated = batch.step(actions)
        assert (rewards == batch_rewards).all() and (ended == terminated).all() and not truncated.any()
        assert ("final_obs" in infos) == ended.any()
        if ended.any():
            assert (infos["final_obs"][ended] == batch.final_observations[ended]).all()
            assert (infos["_final_obs"] == ended).all() and (not copy or not infos["final_obs"][~ended].any())
        totals += rewards
        returns += totals[ended].tolist()
        totals[ended] = 0
        if "episode" in infos:
            paid += infos["episode"]["r"][infos["_episode"]].tolist()
    assert len(returns) > 4 and paid == returns


def test_the_vector_env_without_gymnasium_is_one_line_saying_what_to_install() -> None:
    import subprocess
    import sys

    script = "import sys; sys.modules['gymnasium'] = None\nimport simcasino.interop.vector_env"
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert result.stderr.strip().splitlines()[-1] == (
        "ImportError: simcasino.interop.vector_env needs the rl extra: pip install 'simcasino[rl]'")
