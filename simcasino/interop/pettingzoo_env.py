"""Kasino as a PettingZoo environment: ``env(rules="finnish")``, ``raw_env(...)``,
``parallel_env(...)``.

Why AEC: Kasino is played in turns, one seat at a time, which is what PettingZoo's
agent-environment cycle models. One episode is one deal. The agents are ``player_0`` ..
``player_{n-1}`` (seats: ``player_{n-1}`` deals, ``player_0`` leads). Each step is one
action of the fixed action space (`interop.actions`: a card, then, when the card has two or
more options, one of them), the same actions as the OpenSpiel game, so a deal plays and
scores exactly as `simcasino.DealState` does. The reward is the deal's return
(`interop.outcome`: ``utility`` points, difference or win), given when the deal ends.
``reset(seed=s)`` deals deal 0 of seed ``s`` as ``simcasino simulate --seed s`` deals it
(``options={"deal": k}``: its deal ``k``; ``options={"deck": cards}``: that deck); a
``reset()`` after it deals the next deal of that seed. With ``episode="game"`` an episode is a
whole game to the target instead (`interop.episode`: ``options={"game": k}`` its game ``k``),
paid at the game's end.

The observation (``observation=``):

- ``"dict"`` (the default, as PettingZoo's classic games): ``"observation"``, the seat's view
  as a float32 vector (`interop.encoding`: its hand, the table, every pile, the scores, the
  options on show; no hidden card), and ``"action_mask"``, int8 over the actions, ones where
  legal (all zeros for a seat not to move);
- ``"flat"``: the vector alone, a `Box`, which vector wrappers stack; the mask is in
  ``infos[agent]["action_mask"]`` (where PettingZoo's `TerminateIllegalWrapper` reads it).

``turns="cycle"`` makes every agent act once a cycle, in seat order, the game moving on at the
end of the cycle by the action of the seat to move (the others send action ``PASS``, the
only one their mask allows): that is what PettingZoo's parallel API needs, so
``aec_to_parallel`` works on it and `parallel_env` is that.

An illegal action (``illegal=``): ``"raise"`` (`raw_env`'s default) refuses it with a
ValueError; ``"end"`` ends the deal for every agent, the one who made it given the lowest return
the rules allow (`outcome.bounds`) and the others 0, ``infos[agent]["illegal"]`` saying who
played what; under ``turns="cycle"`` the deal ends at the end of that cycle, since PettingZoo's
parallel API ends agents only there (`parallel_env`'s default); ``"pass"`` plays nothing in its
place (the deal does not move, the agent gets ``infos[agent]["illegal"]``): what checkers that
send random actions from the whole action space need to play a deal for ``max_cycles`` cycles.

Truncation: once an agent has acted ``max_cycles`` times, a cycle being one action of every agent
under ``turns="cycle"`` (default: the most actions a deal can take, `actions.max_actions`, so
never), every agent is truncated with reward 0 and ``infos[agent]["truncated"]`` says why.

A table too large to list its moves (`core.limits`; real play never builds one, uniformly random
actions do, once in 80,000 deals measured) ends the deal as the OpenSpiel game ends it
(`PendingMove.end_if_too_large`: what is left goes to the last capturer, and the deal is
scored): every agent is terminated with its return, and ``infos[agent]["cut_short"]`` says why.
"""

from __future__ import annotations

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
    from pettingzoo.utils.conversions import aec_to_parallel
except ImportError:  # the one line that says what to do
    raise ImportError(
        "simcasino.interop.pettingzoo_env needs the rl extra: pip install 'simcasino[rl]'"
    ) from None

import numpy as np

from simcasino.core.rules import Rules, resolve
from simcasino.interop.actions import NUM_ACTIONS, PendingMove, max_actions
from simcasino.interop.encoding import ObservationKind, Tensor, observation_bounds, observation_text
from simcasino.interop.episode import Episode
from simcasino.interop.outcome import check_utility

PASS = NUM_ACTIONS  # under turns="cycle": the action of a seat not to move
OBSERVATIONS = ("dict", "flat")
TURNS = ("deal", "cycle")
ILLEGAL = ("raise", "end", "pass")


class KasinoEnv(AECEnv):
    """One deal of Nordic Kasino under ``rules`` (a `Rules`, a preset name or a table such as
    ``{"preset": "finnish", "players": 3}``), as a PettingZoo AEC environment (see the
    module docstring for ``utility``, ``observation``, ``turns``, ``illegal`` and
    ``max_cycles``)."""

    metadata = {"render_modes": ["ansi", "human"], "name": "kasino_v1", "is_parallelizable": False}

    def __init__(
        self,
        rules: Rules | str | dict = "swedish",
        render_mode: str | None = None,
        *,
        utility: str = "points",
        observation: str = "dict",
        turns: str = "deal",
        illegal: str = "raise",
        max_cycles: int | None = None,
        episode: str = "deal",
    ) -> None:
        super().__init__()
        for name, value, choices in (
            ("render_mode", render_mode, (None, *self.metadata["render_modes"])),
            ("observation", observation, OBSERVATIONS),
            ("turns", turns, TURNS),
            ("illegal", illegal, ILLEGAL),
        ):
            if value not in choices:
                raise ValueError(
                    f"{name} must be one of {', '.join(map(repr, choices))}; got {value!r}"
                )
        self.rules, self.render_mode = resolve(rules), render_mode
        self.utility, self.flat, self.cycle = (
            check_utility(utility),
            observation == "flat",
            turns == "cycle",
        )
        self.illegal, self.episode = illegal, Episode(self.rules, self.utility, episode)
        self.max_cycles = (
            max_actions(self.rules) * self.episode.deals if max_cycles is None else int(max_cycles)
        )
        if self.max_cycles < 1:
            raise ValueError(f"max_cycles must be a positive whole number; got {max_cycles!r}")
        self.metadata = {**self.metadata, "is_parallelizable": self.cycle}
        self.possible_agents = [f"player_{seat}" for seat in range(self.rules.players)]
        self._tensor = Tensor(self.rules, ObservationKind())
        actions = NUM_ACTIONS + self.cycle
        vector = spaces.Box(
            *observation_bounds(self.rules, ObservationKind(), self.episode.deals),
            dtype=np.float32,
        )
        observed = (
            vector
            if self.flat
            else spaces.Dict(
                {"observation": vector, "action_mask": spaces.Box(0, 1, (actions,), np.int8)}
            )
        )
        self._spaces = {
            agent: (observed, spaces.Discrete(actions)) for agent in self.possible_agents
        }
        self.deal_seed, self.deal_index = int(np.random.SeedSequence().entropy) % 2**63, -1
        self.decision: PendingMove | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self._spaces[agent][0]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._spaces[agent][1]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Deal a new deal: deal 0 of ``seed`` (``options={"deal": k}``: deal ``k``;
        ``{"deck": cards}``: that deck, card ids in dealing order), else the next deal of the
        last seed."""
        options = options or {}
        self.deal_seed, self.deal_index = (
            (seed, 0) if seed is not None else (self.deal_seed, self.deal_index + 1)
        )
        self.deal_index = int(options.get(self.episode.key, self.deal_index))
        deal = self.episode.first(self.deal_seed, self.deal_index, options.get("deck"))
        self.decision, self.waiting, self.offender = PendingMove(deal), None, None
        self.acted = dict.fromkeys(self.possible_agents, 0)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[0 if self.cycle else deal.to_move]
        self._note_masks()

    def step(self, action: int | None) -> None:
        """The agent selected takes ``action`` (an illegal one as ``illegal`` says); None for
        an agent whose deal is over."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        seat = self.possible_agents.index(agent)
        self.infos[agent].pop("illegal", None)  # what its last action was, not an earlier one
        legal = bool(self._mask(seat)[int(action)])
        if not legal:
            self._note_illegal(agent, int(action))
        self.acted[agent] += 1
        if legal and seat == self.decision.deal.to_move:
            self.waiting = int(action)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if not self.cycle or seat == len(self.agents) - 1:
            self._end_turn()
        if not (self.cycle and seat < len(self.agents) - 1) or self.truncations[agent]:
            self.agent_selection = self.possible_agents[
                0 if self.cycle else max(0, self.decision.deal.to_move)
            ]
        else:
            self.agent_selection = self.possible_agents[seat + 1]
        if self.truncations[agent] or self.terminations[agent]:
            self.agent_selection = agent
        self._note_masks()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _note_illegal(self, agent: str, action: int) -> None:
        """Refused, remembered to end the deal by, or passed over (``illegal``)."""
        legal = np.flatnonzero(self._mask(self.possible_agents.index(agent)))
        said = f"action {action} is not legal for {agent} (legal: {legal})"
        if self.illegal == "raise":
            raise ValueError(said)
        self.infos[agent]["illegal"] = said
        if self.illegal == "end" and self.offender is None:
            self.offender = agent

    def _end_turn(self) -> None:
        """The game's move on by the action waiting (none after an illegal one passed over):
        rewards at the end, or the end an illegal action brings, or a truncation."""
        if self.offender is not None:
            low, _ = self.episode.bounds()
            self.rewards = {a: low if a == self.offender else 0.0 for a in self.agents}
            self.terminations = dict.fromkeys(self.agents, True)
            return
        if self.waiting is not None:
            self.decision.apply(self.waiting)
            self.waiting = None
        cut = self.decision.end_if_too_large()
        deal = self.decision.deal
        if deal.is_over and (following := self.episode.next(deal)) is not None:
            self.decision = PendingMove(following)  # a game episode's next deal
        elif deal.is_over:
            self.rewards = dict(zip(self.possible_agents, self.episode.returns(deal)))
            self.terminations = dict.fromkeys(self.agents, True)
            for agent in self.agents if cut else ():
                self.infos[agent]["cut_short"] = cut
        elif why := self._out_of_cycles():
            self.truncations = dict.fromkeys(self.agents, True)
            self.infos = {agent: {"truncated": why} for agent in self.agents}

    def _out_of_cycles(self) -> str | None:
        return (
            f"max_cycles: an agent has acted {self.max_cycles} times"
            if max(self.acted.values()) >= self.max_cycles
            else None
        )

    def _mask(self, seat: int) -> np.ndarray:
        mask = np.zeros(NUM_ACTIONS + self.cycle, np.int8)
        agent = self.possible_agents[seat]
        if self.terminations[agent] or self.truncations[agent]:
            return mask
        if seat == self.decision.deal.to_move:
            mask[self.decision.legal_actions()] = 1
        elif self.cycle:
            mask[PASS] = 1
        return mask

    def _note_masks(self) -> None:
        """With the flat observation the masks go in the infos."""
        if self.flat:
            for agent in self.agents:
                self.infos[agent]["action_mask"] = self._mask(self.possible_agents.index(agent))

    def observe(self, agent: str) -> np.ndarray | dict[str, np.ndarray]:
        """What ``agent`` sees (a fresh copy) and, in the dict form, the actions it may take."""
        seat = self.possible_agents.index(agent)
        vector = self._tensor.fill(self.decision, seat).copy()
        return vector if self.flat else {"observation": vector, "action_mask": self._mask(seat)}

    def render(self) -> str | None:
        """The whole table as text (every hand: for a person watching, not for a seat)."""
        if self.decision is None:
            text = "no deal yet: call reset()"
        else:
            text = observation_text(
                self.decision, self.decision.deal.to_move, ObservationKind(private="all")
            )
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release (no window, no process): here because PettingZoo asks an
        environment that renders to say how it closes."""


def raw_env(
    rules: Rules | str | dict = "swedish", render_mode: str | None = None, **options: object
) -> KasinoEnv:
    """The environment itself (`KasinoEnv`), no wrappers."""
    return KasinoEnv(rules, render_mode, **options)


def env(
    rules: Rules | str | dict = "swedish", render_mode: str | None = None, **options: object
) -> AECEnv:
    """The environment in PettingZoo's standard wrappers, as its classic games come: an
    illegal action ends the deal for every agent, the one who made it given the lowest return
    the rules allow (`outcome.bounds`); actions out of range and steps out of order are
    refused."""
    inner = raw_env(rules, render_mode, **options)
    low, _ = inner.episode.bounds()
    return wrappers.OrderEnforcingWrapper(
        wrappers.AssertOutOfBoundsWrapper(
            wrappers.TerminateIllegalWrapper(inner, illegal_reward=low)
        )
    )


def parallel_env(
    rules: Rules | str | dict = "swedish", render_mode: str | None = None, **options: object
):
    """PettingZoo's parallel API: every agent acts each step, the seat to move for real, the
    others with ``PASS`` (``turns="cycle"``, through ``aec_to_parallel``). An illegal action
    ends the deal at the end of its cycle (``illegal="end"`` unless said otherwise), its maker
    given the lowest return: the parallel API ends agents only between cycles, which
    PettingZoo's illegal-move wrapper, ending them at once, cannot do."""
    inner = raw_env(rules, render_mode, **{"illegal": "end", **options, "turns": "cycle"})
    return aec_to_parallel(wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(inner)))
