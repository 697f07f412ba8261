"""Kasino as a PettingZoo AEC environment: ``KasinoEnv(rules="finnish", render_mode="ansi")``.

Why AEC: Kasino is played in turns, one seat at a time, which is what PettingZoo's
agent-environment cycle models. One episode is one deal. The agents are ``player_0`` ..
``player_{n-1}`` (seats: ``player_{n-1}`` deals, ``player_0`` leads). Each step is one
action of the fixed action space (`interop.actions`: a card, then, when the card can be
played in more than one way, one of its moves), the same actions as the OpenSpiel game, so
a deal plays and scores exactly as `simcasino.DealState` does. An observation is a dict:
``"observation"``, the seat's view as a float32 vector (`interop.encoding`: its hand, the
table, every pile, the scores, the moves on offer; no hidden card), and ``"action_mask"``,
int8 over the actions, ones where legal (all zeros for a seat not to move). The reward is
the deal's points (`interop.outcome`, negated where the fewest win), given when the deal
ends. ``reset(seed=s)`` deals deal 0 of seed ``s`` as ``simcasino simulate --seed s`` deals
it (``options={"deal": k}``: its deal ``k``); a ``reset()`` after it deals the next deal of
that seed.

A table too large to list its moves (`core.limits`; real play never builds one, uniformly
random actions do, once in 80,000 deals measured) truncates the episode: every agent is
truncated with reward 0, and ``infos[agent]["truncated"]`` says why. A learner then resets,
as after any truncation, instead of meeting an exception mid-training.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from simcasino.core.limits import PositionTooLarge
from simcasino.core.rules import Rules, resolve
from simcasino.interop.actions import NUM_ACTIONS, Decision
from simcasino.interop.encoding import Spec, Tensor, observation_text
from simcasino.interop.lean import LeanDeal
from simcasino.interop.outcome import returns


class KasinoEnv(AECEnv):
    """One deal of Nordic Kasino under ``rules`` (a `Rules`, a preset name or a table such as
    ``{"preset": "finnish", "players": 3}``), as a PettingZoo AEC environment."""

    metadata = {"render_modes": ["ansi", "human"], "name": "kasino_v0", "is_parallelizable": False}

    def __init__(self, rules: Rules | str | dict = "swedish", render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}; got {render_mode!r}")
        self.rules, self.render_mode = resolve(rules), render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(self.rules.players)]
        self._tensor = Tensor(self.rules, Spec())
        size = self._tensor.flat.size
        self._spaces = {agent: (spaces.Dict({"observation": spaces.Box(-np.inf, np.inf, (size,), np.float32),
                                             "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8)}),
                                spaces.Discrete(NUM_ACTIONS)) for agent in self.possible_agents}
        self.deal_seed, self.deal_index = int(np.random.SeedSequence().entropy) % 2**63, -1
        self.decision: Decision | None = None

    def observation_space(self, agent: str) -> spaces.Dict:
        return self._spaces[agent][0]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._spaces[agent][1]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Deal a new deal: deal 0 of ``seed`` (``options={"deal": k}``: deal ``k``), else the
        next deal of the last seed."""
        self.deal_seed, self.deal_index = (seed, 0) if seed is not None else (self.deal_seed, self.deal_index + 1)
        if options and "deal" in options:
            self.deal_index = int(options["deal"])
        self.decision = Decision(LeanDeal.new(self.rules, self.deal_seed, self.deal_index))
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.decision.deal.to_move]

    def step(self, action: int | None) -> None:
        """The agent to move takes ``action`` (ValueError if it is not legal); None for a
        seat whose deal is over."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.decision.apply(int(action))
        deal = self.decision.deal
        if deal.is_over:
            self.rewards = dict(zip(self.possible_agents, returns(deal)))
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            if too_large := self._too_large():
                self.truncations = dict.fromkeys(self.agents, True)
                self.infos = {agent: {"truncated": too_large} for agent in self.agents}
            else:
                self.agent_selection = self.possible_agents[deal.to_move]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _too_large(self) -> str | None:
        """Why the position's moves cannot be listed (`PositionTooLarge`), or None."""
        try:
            self.decision.legal_actions()
        except PositionTooLarge as error:
            return str(error)
        return None

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """What ``agent`` sees (a fresh copy) and the actions it may take."""
        seat = self.possible_agents.index(agent)
        mask = np.zeros(NUM_ACTIONS, np.int8)
        if seat == self.decision.deal.to_move and not self.truncations[agent]:
            mask[self.decision.legal_actions()] = 1
        return {"observation": self._tensor.fill(self.decision, seat).copy(), "action_mask": mask}

    def render(self) -> str | None:
        """The whole table as text (every hand: for a person watching, not for a seat)."""
        if self.decision is None:
            text = "no deal yet: call reset()"
        else:
            text = observation_text(self.decision, self.decision.deal.to_move, Spec(private="all"))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release (no window, no process): here because PettingZoo asks an
        environment that renders to say how it closes."""
