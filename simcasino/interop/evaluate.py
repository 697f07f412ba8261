"""A trained policy seated at the paired-deck table: ``simcasino.evaluate(policy, "greedy")``.

Why: a learner trained on the environments (`interop.gym_env`, `interop.pettingzoo_env`,
`interop.batched`) acts on the observation tensor and the legal-action mask, not on a `View`;
to be measured on the ladder the toolkit publishes it must play the decks `compare` plays,
each once per seat rotation, with the same intervals. `PolicySeat` turns a function of
(observation, mask) -> action into a seat the referee asks for moves: at each decision it
encodes the deal as the single environments do (`encoding.Tensor` of a `PendingMove`, the
same observation and mask, so a policy trained there sees here what it saw there), asks the
policy for actions (a card, then an option, as many steps as the move takes) and hands the
move to the referee. ``batched=True`` takes a policy of arrays (k, features), (k, actions) ->
(k,) actions, as a vectorised learner is written, called with k = 1. `load_policy` reads
one from a file for ``simcasino evaluate POLICY.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from simcasino.core.protocol import Move, Stream
from simcasino.core.rules import Rules
from simcasino.experiment.compare import compare
from simcasino.experiment.result import Comparison
from simcasino.interop.actions import NUM_ACTIONS, PendingMove
from simcasino.interop.encoding import ObservationKind, Tensor
from simcasino.interop.lean import LeanDeal
from simcasino.reference.state import DealState
from simcasino.strategies import user_function

Policy = Callable[[np.ndarray, np.ndarray], Any]


class PolicySeat:
    """A seat played by ``policy(observation, mask) -> action`` (see the module docstring);
    ``recall`` observes the information state (the whole history) instead of the table now,
    as ``ObservationKind(recall=True)``. A policy's action that is not legal is a ValueError
    naming it and the legal ones (the referee reports it with the seat and the position)."""

    def __init__(
        self, policy: Policy, name: str = "", batched: bool = False, recall: bool = False
    ) -> None:
        if not callable(policy):
            raise TypeError(f"policy must be a function of (observation, mask); got {policy!r}")
        self.policy, self.batched, self.kind = policy, batched, ObservationKind(recall=recall)
        self.name = name or getattr(policy, "__name__", "policy")
        self._tensors: dict[Rules, Tensor] = {}

    def decide(self, state: DealState, stream: Stream) -> Move:
        decision, seat = PendingMove(LeanDeal.of(state)), state.to_move
        while True:
            if (why := decision.too_large()) is not None:
                raise ValueError(f"the action encoding cannot list this position's moves: {why}")
            mask = np.zeros(NUM_ACTIONS, bool)
            mask[decision.legal_actions()] = True
            action = self._act(self._tensor(state.rules).fill(decision, seat), mask)
            if action not in decision.legal_actions():
                legal = decision.legal_actions()
                raise ValueError(f"the policy chose action {action!r}, not legal (legal: {legal})")
            move = decision.apply(action)
            if move is not None:
                return move

    def _act(self, observation: np.ndarray, mask: np.ndarray) -> int:
        """The policy's action, as an int (a numpy integer or a 0-d array too)."""
        if self.batched:
            return int(np.asarray(self.policy(observation[None], mask[None])).reshape(-1)[0])
        return int(np.asarray(self.policy(observation.copy(), mask)).reshape(()))

    def _tensor(self, rules: Rules) -> Tensor:
        if rules not in self._tensors:
            self._tensors[rules] = Tensor(rules, self.kind)
        return self._tensors[rules]

    def __repr__(self) -> str:
        return f"PolicySeat({self.name})"


def load_policy(path: str, batched: bool = False, recall: bool = False) -> PolicySeat:
    """The seat of a file defining ``policy(observation, mask) -> action``, named after the
    file; a missing file or function is a one-line ValueError."""
    policy = user_function(path, "policy file", "policy", "policy(observation, mask)")
    return PolicySeat(policy, Path(path).stem, batched, recall)


def evaluate(
    policy: Policy,
    against: object = "greedy",
    rules: Rules | str | dict = "swedish",
    decks: int = 1_000,
    seed: int = 0,
    *,
    batched: bool = False,
    recall: bool = False,
    name: str = "",
    players: int | None = None,
    games: int = 0,
    margin: float | None = None,
) -> Comparison:
    """The policy minus ``against`` (any seat `compare` takes: a strategy's name, a file, a
    function of the view) in points a deal, on ``decks`` decks of ``seed``, each once per seat
    rotation: the same decks and intervals as ``compare(strategy, against, ...)``, so a policy
    that plays as a strategy plays gets that strategy's figures exactly. The policy plays at a
    refereed table (the reference engine, one decision at a time), which is slow next to the
    kernel: 400 deals of 2-player Swedish against greedy took 7.7 s (docs/interop.md).

    >>> import numpy as np, simcasino
    >>> def last_legal(observation, mask):  # the highest card, its last option
    ...     return int(np.flatnonzero(mask)[-1])
    >>> simcasino.evaluate(last_legal, "random", decks=20, seed=3).headline()
    'last_legal − random: +3.650 points a deal [+1.787, +5.513], p = 0.000609 (20 decks)'
    """
    seat = PolicySeat(policy, name, batched, recall)
    return compare(seat, against, rules, players, decks, seed, games, None, margin)
