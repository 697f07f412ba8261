"""The batched tables as a Gymnasium `VectorEnv`: ``KasinoVectorEnv("swedish", num_envs=1024)``.

Why a second face over `interop.batched.KasinoBatch`: vectorised learners (CleanRL's PPO,
Gymnasium's vector wrappers) take a `VectorEnv`; the tables, their seeds and the kernel's
opponents are the batch's, so an episode is the same deal as on the array face and in
`KasinoSoloEnv` with that seed. Episodes reset in the step that ends them (Gymnasium's
``AutoresetMode.SAME_STEP``): the observation returned is the next episode's first, the
finished one's last is in ``infos["final_obs"]``, where ``infos["_final_obs"]`` is true. The
legal actions are in ``infos["action_mask"]``; an illegal action ends its episode at the lowest
return (``infos["illegal"]``). Nothing is truncated: a deal always ends. The arrays returned
are copies, as the batch writes its own in place at the next step; ``copy=False`` returns the
batch's own (faster; keep what you need before the next step), as Gymnasium's ``copy``
option of its vector environments does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

try:
    import gymnasium
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode
    from gymnasium.vector.utils import batch_space
except ImportError:  # the one line that says what to do
    raise ImportError(
        "simcasino.interop.vector_env needs the rl extra: pip install 'simcasino[rl]'"
    ) from None

import numpy as np

from simcasino.core.rules import Rules
from simcasino.interop.actions import NUM_ACTIONS
from simcasino.interop.batched import KasinoBatch
from simcasino.interop.encoding import ObservationKind, observation_bounds


class KasinoVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` tables of one learner against ``opponent`` (see the module docstring for
    ``copy`` and `KasinoBatch` for ``seat``, ``rotate``, ``utility`` and ``threads``)."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(
        self,
        rules: Rules | str | dict = "swedish",
        num_envs: int = 1024,
        opponent: str = "greedy",
        seat: int = 0,
        rotate: bool = False,
        utility: str = "points",
        threads: int | None = None,
        copy: bool = True,
    ) -> None:
        self.batch = KasinoBatch(rules, num_envs, opponent, seat, rotate, utility, threads)
        self.copy = copy
        self.num_envs = self.batch.tables
        self.single_observation_space = spaces.Box(
            *observation_bounds(self.batch.rules, ObservationKind()), dtype=np.float32
        )
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)

    def reset(
        self, *, seed: int | Sequence[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        """Every table at episode 0 of its seed (``seed + i``, or ``seed[i]``; a fresh seed
        when None)."""
        if seed is None:
            seed = int(np.random.SeedSequence().entropy) % 2**62
        observations, masks = self.batch.reset(seed)
        return self._own(observations), {"action_mask": self._own(masks)}

    def step(
        self, actions: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, np.ndarray]]:
        batch = self.batch
        observations, masks, rewards, terminated = batch.step(np.asarray(actions))
        ended, own = terminated.copy(), self._own
        infos = {"action_mask": own(masks), "illegal": own(batch.illegal)}
        infos["_illegal"] = infos["illegal"]
        if ended.any():  # as Gymnasium's own vector environments: there only when one ended
            infos["final_obs"], infos["_final_obs"] = self._finals(ended), ended
        truncated = np.zeros(self.num_envs, np.bool_)
        return own(observations), own(rewards), ended, truncated, infos

    def _finals(self, ended: np.ndarray) -> np.ndarray:
        """The last observations of the episodes that ended, zeros in the other rows (with
        ``copy=False``, the batch's own array: read only the rows that ended)."""
        if not self.copy:
            return self.batch.final_observations
        final = np.zeros_like(self.batch.final_observations)
        final[ended] = self.batch.final_observations[ended]
        return final

    def _own(self, array: np.ndarray) -> np.ndarray:
        """``array`` as the caller may keep it: a copy, unless ``copy`` is off."""
        return array.copy() if self.copy else array

    def close_extras(self, **kwargs: Any) -> None:
        self.batch.close()
