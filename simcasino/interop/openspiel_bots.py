"""OpenSpiel's search bots at a simcasino table: strategies ``openspiel-ismcts`` and
``openspiel-mcts``.

Why here and loaded by name: the strategies layer lists them as plug-ins
(`strategies.PLUGINS`) and imports this module only when one is named, so the toolkit runs
without OpenSpiel and nothing below this package imports it. A bot is a seat
(`reference.referee.Seat`): the referee hands it the `DealState`, it hands OpenSpiel the
same position as a ``python_kasino`` state (`openspiel_game.KasinoGame.state_of`) and plays
the action, or the two actions, of its move (`interop.actions`), each chosen by a search of
``iterations`` simulations whose leaves are valued by ``rollouts`` random playouts.

- ``openspiel-ismcts``: OpenSpiel's information-set MCTS (`open_spiel.python.algorithms.ismcts`),
  each simulation in a world dealt again from what the seat has seen
  (`KasinoState.resample_from_infostate`): a fair player.
- ``openspiel-mcts``: OpenSpiel's MCTS, which reads the state it is given as perfect
  information; it is handed one world dealt from what the seat has seen
  (`KasinoState.resample_from_infostate`) a decision, so it never reads the hidden cards (and
  plays as if that one world were true).

Every random number a bot draws comes from the table's random stream (a seed drawn once a
decision, as the kernel's strategies draw theirs), so a table plays the same moves from the
same seed. A later deal of a game (another dealer, game scores) is a game of its own
(`interop.parameters.Setting`), loaded once.
"""

from __future__ import annotations

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts
from open_spiel.python.algorithms import mcts as open_mcts

from simcasino.core.limits import PositionTooLarge
from simcasino.core.protocol import Move, Stream
from simcasino.interop.actions import PendingMove
from simcasino.interop.lean import LeanDeal
from simcasino.interop.openspiel_game import KasinoGame
from simcasino.interop.parameters import Setting, normal, params_of, setting_params
from simcasino.reference.state import DealState

PARAMS: dict[str, tuple[float, str]] = {
    "iterations": (
        1000,
        "simulations a search runs (a move is one search, or two: the card, then its move)",
    ),
    "rollouts": (1, "random playouts that value a new leaf"),
    "uct_c": (4.0, "UCT's exploration constant (returns are points: a few points apart)"),
}
SEED_RANGE = 2**31


PLAYOUT_TRIES = (
    20  # random playouts a leaf may try before a table too large to list ends the search
)


class RolloutEvaluator(open_mcts.RandomRolloutEvaluator):
    """OpenSpiel's random-playout evaluator, a playout that reaches a table too large to list
    (`core.limits.PositionTooLarge`) played again from the leaf.

    Why: uniformly random actions trail often enough that a playout now and then piles up a
    table whose captures pass the engines' limits (it stopped 2 of the 22 deals ISMCTS played
    at 1,000 simulations a step in docs/strategies.md's runs); such tables do not arise in
    real play, so the playout is drawn again, which leaves every other playout as OpenSpiel
    plays it."""

    def evaluate(self, state: pyspiel.State) -> np.ndarray:
        for _ in range(PLAYOUT_TRIES - 1):
            try:
                return super().evaluate(state)
            except PositionTooLarge:
                continue
        return super().evaluate(state)


class OpenSpielSeat:
    """A seat played by an OpenSpiel bot; ``bot(game, rng)`` makes the bot for one decision."""

    def __init__(self, params: dict[str, float], perfect: bool) -> None:
        self.params = {name: params.get(name, default) for name, (default, _) in PARAMS.items()}
        self.perfect = perfect
        self.games: dict[object, KasinoGame] = {}

    def game(self, deal: DealState) -> KasinoGame:
        """The ``python_kasino`` game of the deal's rules and place in a game (made once each)."""
        setting = normal(
            Setting("points", deal.dealer, tuple(deal.start_scores), deal.carry_in), deal.rules
        )
        key = (deal.rules, setting)
        if key not in self.games:
            self.games[key] = pyspiel.load_game(
                "python_kasino", params_of(deal.rules) | setting_params(setting)
            )
        return self.games[key]

    def decide(self, state: DealState, stream: Stream) -> Move:
        seed = stream.draw(SEED_RANGE)
        game, rng = self.game(state), np.random.RandomState(seed)
        decision = PendingMove(LeanDeal.of(state))
        if self.perfect:  # one world dealt from what the seat saw
            decision = (
                game.state_of(decision).resample_from_infostate(state.to_move, rng.uniform).decision
            )
        bot = self.bot(game, rng)
        while True:
            move = decision.apply(int(bot.step(game.state_of(decision))))
            if move is not None:
                return move

    def bot(self, game: KasinoGame, rng: np.random.RandomState) -> pyspiel.Bot:
        iterations, rollouts = int(self.params["iterations"]), int(self.params["rollouts"])
        evaluator = RolloutEvaluator(n_rollouts=rollouts, random_state=rng)
        if self.perfect:
            return open_mcts.MCTSBot(
                game, self.params["uct_c"], iterations, evaluator, random_state=rng
            )
        bot = ismcts.ISMCTSBot(
            game,
            evaluator,
            self.params["uct_c"],
            iterations,
            random_state=rng,
            final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
        )
        bot.set_resampler(lambda state, player: state.resample_from_infostate(player, rng.uniform))
        return bot


def ismcts_seat(params: dict[str, float]) -> OpenSpielSeat:
    """OpenSpiel's information-set MCTS, each simulation in the deal dealt again from what the seat saw."""  # noqa: E501 (`strategies list` prints it)
    return OpenSpielSeat(params, perfect=False)


def mcts_seat(params: dict[str, float]) -> OpenSpielSeat:
    """OpenSpiel's MCTS on one world a decision, dealt again from what the seat saw."""
    return OpenSpielSeat(params, perfect=True)
