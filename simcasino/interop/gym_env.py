"""Kasino as a Gymnasium environment for one learner: ``gymnasium.make("simcasino/Kasino-v0")``.

Why a single-agent environment beside the PettingZoo one: most reinforcement-learning
libraries train one agent against a fixed world. Here the learner holds one seat (``seat``,
default 0) and simcasino's strategies hold the others (``opponent``: ``greedy``, the
``heuristic``, the ``search`` or any strategy name; a strategy with a plain-Python form
decides in Python, the search through the kernel, `loop.seat.KernelSeat`, which compiles once).
An episode is one deal; the learner's steps are the actions of `interop.actions` (a card,
then an option), the opponents' moves are made between them, and the reward is the deal's
return for the learner's seat (`interop.outcome`, ``utility``) when the deal ends.

The observation is the learner's view as a flat float32 vector (`interop.encoding`, no hidden
card); the legal actions are in ``info["action_mask"]`` and `KasinoSoloEnv.action_masks` (the
name maskable learners call). An illegal action ends the episode with the lowest return the
rules allow (`outcome.bounds`) and ``info["illegal"]`` saying why; a table too large to list
its moves ends the deal as every face ends it (scored, ``info["cut_short"]`` saying why:
docs/interop.md, Limits). ``reset(seed=s)`` deals
deal 0 of seed ``s`` as ``simcasino simulate --seed s`` does, a ``reset()`` after it the next
deal (``options={"deal": k}``: deal ``k``). With ``episode="game"`` an episode is a whole game
to the target (`interop.episode`: ``options={"game": k}`` its game ``k``), paid at its end.

Registered on import under ``simcasino/Kasino-v0``; ``gymnasium.make`` also finds it by
``"simcasino.interop.gym_env:simcasino/Kasino-v0"``, importing this module itself.
"""

from __future__ import annotations

from typing import Any

try:
    import gymnasium
    from gymnasium import spaces
except ImportError:  # the one line that says what to do
    raise ImportError(
        "simcasino.interop.gym_env needs the rl extra: pip install 'simcasino[rl]'"
    ) from None

import numpy as np

from simcasino.core.protocol import Stream
from simcasino.core.rules import Rules, resolve
from simcasino.interop.actions import NUM_ACTIONS, PendingMove
from simcasino.interop.encoding import ObservationKind, Tensor, observation_bounds, observation_text
from simcasino.interop.episode import Episode
from simcasino.interop.lean import LeanDeal
from simcasino.interop.outcome import check_utility
from simcasino.loop.seat import KernelSeat
from simcasino.reference.referee import Seat, seated
from simcasino.strategies import StrategySpec, check_builds, parse_strategy

ENV_ID = "simcasino/Kasino-v0"


def opponent_seat(name: str, rules: Rules) -> Seat:
    """The seat a strategy name plays: its plain-Python form where it has one, else the kernel's."""
    strategy = parse_strategy(name)
    check_builds(rules.builds, [strategy])
    if isinstance(strategy, StrategySpec):
        try:
            return seated(strategy.python())
        except ValueError:  # no plain-Python form (the search)
            return KernelSeat(strategy)
    return seated(strategy.python())


class KasinoSoloEnv(gymnasium.Env):
    """One seat of Nordic Kasino against simcasino's strategies (see the module docstring)."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        rules: Rules | str | dict = "swedish",
        opponent: str = "greedy",
        seat: int = 0,
        utility: str = "points",
        render_mode: str | None = None,
        episode: str = "deal",
    ) -> None:
        self.rules, self.utility = resolve(rules), check_utility(utility)
        self.episode = Episode(self.rules, self.utility, episode)
        if not isinstance(seat, int) or not 0 <= seat < self.rules.players:
            raise ValueError(f"seat {seat!r}: this table has seats 0-{self.rules.players - 1}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi'; got {render_mode!r}")
        self.seat, self.render_mode, self.opponent = seat, render_mode, opponent
        self.others = {
            s: opponent_seat(opponent, self.rules) for s in range(self.rules.players) if s != seat
        }
        self._tensor = Tensor(self.rules, ObservationKind())
        self.observation_space = spaces.Box(
            *observation_bounds(self.rules, ObservationKind(), self.episode.deals),
            dtype=np.float32,
        )
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.deal_seed, self.deal_index = int(np.random.SeedSequence().entropy) % 2**63, -1
        self.decision: PendingMove | None = None

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict]:
        super().reset(seed=seed)
        self.deal_seed, self.deal_index = (
            (seed, 0) if seed is not None else (self.deal_seed, self.deal_index + 1)
        )
        self.deal_index = int((options or {}).get(self.episode.key, self.deal_index))
        self._deal(self.episode.first(self.deal_seed, self.deal_index))
        observation, _, _, _, info = self._others_play()
        return observation, info

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict]:
        legal = self.decision.legal_actions()
        if int(action) not in legal:
            low, _ = self.episode.bounds()
            reason = f"action {action} is not legal (legal: {legal})"
            return (
                self._observe(),
                low,
                True,
                False,
                {"action_mask": self.action_masks(), "illegal": reason},
            )
        self.decision.apply(int(action))
        return self._others_play()

    def _deal(self, deal: LeanDeal) -> None:
        self.decision, self.stream = PendingMove(deal), Stream(deal.rng)

    def _others_play(self) -> tuple[np.ndarray, float, bool, bool, dict]:
        """The other seats' moves until the learner is to move or the episode is over (a game
        episode's next deal dealt as one ends); what the learner gets then."""
        cut = None
        while True:
            cut = self.decision.end_if_too_large() or cut
            deal = self.decision.deal
            if deal.is_over and (following := self.episode.next(deal)) is not None:
                self._deal(following)
            elif deal.is_over or deal.to_move == self.seat:
                break
            else:
                self.decision.apply_move(self.others[deal.to_move].decide(deal, self.stream))
        info = {"action_mask": self.action_masks(), **({"cut_short": cut} if cut else {})}
        if deal.is_over:
            return self._observe(), self.episode.returns(deal)[self.seat], True, False, info
        return self._observe(), 0.0, False, False, info

    def _observe(self) -> np.ndarray:
        return self._tensor.fill(self.decision, self.seat).copy()

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions as a boolean mask (none when it is not to move)."""
        mask = np.zeros(NUM_ACTIONS, bool)
        if self.decision.deal.to_move == self.seat:
            mask[self.decision.legal_actions()] = True
        return mask

    def render(self) -> str | None:
        """The whole table as text (every hand: for a person watching)."""
        if self.render_mode != "ansi" or self.decision is None:
            return None
        return observation_text(self.decision, self.seat, ObservationKind(private="all"))


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="simcasino.interop.gym_env:KasinoSoloEnv")
