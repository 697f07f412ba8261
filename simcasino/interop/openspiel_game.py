"""Kasino as an OpenSpiel game: ``pyspiel.load_game("python_kasino(preset=finnish,players=3)")``.

Registered on import as the Python game ``python_kasino``. One game is one deal. Its
parameters are the rules (`interop.parameters`: a preset and every knob), the ``utility``
(`interop.outcome`: points, difference or win) and the deal's place in a game (``dealer``,
``scores``, ``carry``); the deal is dealt by chance nodes, one card of the deck at a time in
dealing order (R-DEAL, R-REDEAL: the deck is fixed before the first card goes out, as both
engines deal it), then each decision is the card and, when the card has two or more
options, the option (`interop.actions`). A state wraps a `PendingMove` over a
`simcasino.DealState` (its faster listing of the legal moves, `interop.lean`), which
referees every move, so the game plays and scores exactly as simcasino does.

What OpenSpiel's contract asks, and how it is kept:

- the state never throws: a position too large to list its moves (`core.limits`, reached
  only by near-random play) ends the deal there (`DealState.end_now`: what is left goes to
  the last capturer, and the deal is scored), a terminal like any other;
- ``history()`` replays to the state for every state the game hands out: `state_of` and
  `KasinoState.resample_from_infostate` build their states by playing the deck and the
  actions from the initial state;
- the bounds (``max_game_length``, ``min_utility``, ``max_utility``) are derived from the
  rules (`actions.max_actions`, `outcome.bounds`) and the utility type is the one the rules
  and the utility make (`outcome.utility_sum`: zero-sum, constant-sum or general-sum).

Observations are `interop.encoding`'s. `resample_from_infostate` deals the cards the seat
cannot see again (`DealState.determinize`), which is what OpenSpiel's ISMCTS needs to play it.
"""

from __future__ import annotations

from collections.abc import Callable

try:
    import pyspiel
except ImportError:  # the one line that says what to do, not a bare "No module named 'pyspiel'"
    raise ImportError(
        "simcasino.interop.openspiel_game needs the openspiel extra: "
        "pip install 'simcasino[openspiel]'"
    ) from None

from simcasino.core.cards import KINDS, card_code
from simcasino.core.notation import move_name
from simcasino.core.rules import Rules
from simcasino.interop.actions import NUM_ACTIONS, OPTION_BASE, PendingMove, actions_of, max_actions
from simcasino.interop.encoding import ObservationKind, Tensor, observation_text
from simcasino.interop.lean import LeanDeal
from simcasino.interop.outcome import bounds, returns, utility_sum
from simcasino.interop.parameters import (
    Setting,
    normal,
    params_of,
    rules_of,
    setting_of,
    setting_params,
    specification,
)
from simcasino.reference.state import DealState

SHORT_NAME = "python_kasino"
MAX_PLAYERS = 6  # two decks deal to 5-6 (Rules refuses more than 4 with one deck)
RESAMPLE_TRIES = (
    1000  # worlds drawn for one resample before giving up (§6 builds reveal held values)
)


def game_type(
    utility: pyspiel.GameType.Utility = pyspiel.GameType.Utility.GENERAL_SUM,
) -> pyspiel.GameType:
    """The game's type; its utility type depends on the rules and the utility (`KasinoGame`)."""
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="Python Nordic Kasino (simcasino)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=MAX_PLAYERS,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=specification(),
    )


class KasinoGame(pyspiel.Game):
    """One deal of Nordic Kasino under the rules the parameters name."""

    def __init__(self, params: dict | None = None) -> None:
        self.rules = rules_of(params or {})
        self.setting = setting_of(params or {}, self.rules)
        low, high = bounds(self.rules, self.setting.utility, self.setting.carry)
        total = utility_sum(self.rules, self.setting.utility)
        kind = (
            pyspiel.GameType.Utility.GENERAL_SUM
            if total is None
            else pyspiel.GameType.Utility.ZERO_SUM
            if total == 0
            else pyspiel.GameType.Utility.CONSTANT_SUM
        )
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=self.rules.deck_size,
            num_players=self.rules.players,
            min_utility=low,
            max_utility=high,
            utility_sum=total,
            max_game_length=max_actions(self.rules),
        )
        super().__init__(
            game_type(kind), info, params_of(self.rules) | setting_params(self.setting)
        )

    def new_initial_state(self) -> KasinoState:
        return KasinoState(self)

    def state_of(self, decision: PendingMove) -> KasinoState:
        """A state at ``decision``'s position, reached from the initial state by its deck and
        the actions of its moves (so its ``history()`` is true): how a bot at a simcasino table
        is handed the deal. ValueError for a deal of another place in a game than this game's
        (its dealer, scores or carried points: load the game with them, `setting_params`)."""
        deal = decision.deal
        if self.setting_of(deal) != self.setting:
            have = setting_params(self.setting) or "of a first deal"
            raise ValueError(
                f"this {SHORT_NAME} game has the parameters {have}; the deal given needs "
                f"{setting_params(self.setting_of(deal))}"
            )
        state = self.new_initial_state()
        for card in deal.deck:
            state.apply_action(card)
        for action in deal.history:
            for step in actions_of(state.deal, action.move):
                state.apply_action(step)
        _check_replayed(state.deal, deal)
        if decision.card >= 0:
            state.apply_action(decision.card)
        for step in _narrowing(decision):
            state.apply_action(step)
        return state

    def setting_of(self, deal: DealState) -> Setting:
        """The setting (this game's utility) of ``deal``'s place in a game."""
        return normal(
            Setting(self.setting.utility, deal.dealer, tuple(deal.start_scores), deal.carry_in),
            self.rules,
        )

    def max_chance_nodes_in_history(self) -> int:
        return self.rules.deck_size

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: dict | None = None
    ) -> KasinoObserver:
        if params:
            raise ValueError(f"python_kasino observers take no parameters; got {params}")
        return KasinoObserver(self.rules, spec_of(iig_obs_type))


def _narrowing(decision: PendingMove) -> list[int]:
    """The option actions that narrowed ``decision``'s options to where they stand."""
    fresh, steps = PendingMove(decision.deal, decision.card), []
    while decision.choosing_option and fresh.span_now() != decision.span_now():
        low, high = decision.span_now()
        step = next(j for j, (a, b) in enumerate(fresh.blocks()) if a <= low and high <= b)
        steps.append(OPTION_BASE + step)
        fresh.span = fresh.blocks()[step]
    return steps


def spec_of(iig_obs_type: pyspiel.IIGObservationType | None) -> ObservationKind:
    """OpenSpiel's observation type as an `encoding.ObservationKind` (the default: the
    observation)."""
    if iig_obs_type is None:
        return ObservationKind()
    private = {
        pyspiel.PrivateInfoType.SINGLE_PLAYER: "own",
        pyspiel.PrivateInfoType.NONE: "none",
        pyspiel.PrivateInfoType.ALL_PLAYERS: "all",
    }[iig_obs_type.private_info]
    return ObservationKind(recall=iig_obs_type.perfect_recall, private=private)


class KasinoState(pyspiel.State):
    """A deal being dealt (``deck`` grows by chance) and then played (``decision``)."""

    def __init__(self, game: KasinoGame) -> None:
        super().__init__(game)
        self.rules: Rules = game.rules
        self.setting: Setting = game.setting
        self.deck: list[int] = []
        self.decision: PendingMove | None = None
        self.cut_short = ""  # why the deal ended early: a position too large to list its moves
        self._replaying = False  # actions only recorded in the history (`_recorded`)

    @property
    def deal(self) -> DealState | None:
        return self.decision.deal if self.decision else None

    def current_player(self) -> int:
        if self.decision is None:
            return pyspiel.PlayerId.CHANCE
        if self.decision.deal.is_over:
            return pyspiel.PlayerId.TERMINAL
        return self.decision.deal.to_move

    def _legal_actions(self, player: int) -> list[int]:
        return self.decision.legal_actions() if player == self.current_player() else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next card of the deck: any card not dealt yet, all alike."""
        left = sorted(set(range(self.rules.deck_size)) - set(self.deck))
        return [(card, 1.0 / len(left)) for card in left]

    def _apply_action(self, action: int) -> None:
        if self._replaying:
            return
        if self.decision is not None:
            self.decision.apply(action)
        else:
            self.deck.append(action)
            if len(self.deck) < self.rules.deck_size:
                return
            setting = self.setting
            self.decision = PendingMove(
                LeanDeal.dealt(
                    self.rules,
                    self.deck,
                    0,
                    None if setting.dealer < 0 else setting.dealer,
                    setting.scores or None,
                    setting.carry,
                )
            )
        self._end_if_too_large()

    def _end_if_too_large(self) -> None:
        """A position whose moves cannot be listed ends the deal (see the module docstring)."""
        self.cut_short = self.decision.end_if_too_large() or self.cut_short

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {card_code(action)} ({action})"
        if action < KINDS:
            return f"play {card_code(action)}"
        move = self.decision.move_of(action) if action in self.decision.legal_actions() else None
        return move_name(move, self.decision.deal.table) if move else f"option {action - KINDS}"

    def is_terminal(self) -> bool:
        return self.decision is not None and self.decision.deal.is_over

    def returns(self) -> list[float]:
        return (
            returns(self.decision.deal, self.setting.utility)
            if self.decision
            else [0.0] * self.rules.players
        )

    def resample_from_infostate(self, player: int, sampler: Callable[[], float]) -> KasinoState:
        """A state ``player`` cannot tell from this one, reached by the same actions: the cards
        it cannot see dealt again (a uniform draw from ``sampler``, a source of numbers in
        [0, 1)); a card the seat to move has chosen stays in its hand. A world in which an
        action so far would not be legal (a §6 build declaring a value the builder would not
        hold) is drawn again, so the worlds are uniform among those the seat cannot rule out."""
        if self.decision is None:
            return self.clone()
        deal, chance = self.decision.deal, self.rules.deck_size
        moves = self.history()[chance:]
        shown = (
            [c for c in deal.hands[deal.to_move] if c % KINDS == self.decision.card]
            if not deal.is_over
            else []
        )
        for _ in range(RESAMPLE_TRIES):
            world = deal.determinize(player, int(sampler() * 2**53), shown[:1])
            if (
                not self.rules.builds
            ):  # every world determinize deals is one the actions so far play in
                return self._recorded(
                    world.deck, moves, PendingMove(world, self.decision.card, self.decision.span)
                )
            state = self.get_game().new_initial_state()
            for card in world.deck:
                state.apply_action(card)
            if _replays(state, moves):
                return state
        raise pyspiel.SpielError(f"no world found for seat {player} in {RESAMPLE_TRIES} draws")

    def _recorded(self, deck: list[int], moves: list[int], decision: PendingMove) -> KasinoState:
        """A state at ``decision`` whose history is ``deck`` and ``moves`` (known to reach it),
        the actions recorded without being played again."""
        state = self.get_game().new_initial_state()
        state._replaying = True
        for action in [*deck, *moves]:
            state.apply_action(action)
        state._replaying, state.deck, state.decision = False, list(deck), decision
        state.cut_short = self.cut_short
        return state

    def __str__(self) -> str:
        if self.decision is None:
            return f"dealing: {' '.join(map(card_code, self.deck))}"
        deal = self.decision.deal
        hands = " | ".join(" ".join(map(card_code, h)) for h in deal.hands)
        return (
            f"hands {hands}\n"
            f"{observation_text(self.decision, 0, ObservationKind(recall=True, private='all'))}"
        )


def _replays(state: KasinoState, actions: list[int]) -> bool:
    """Apply ``actions`` to ``state`` while each is legal; were they all?"""
    for action in actions:
        if state.is_terminal() or action not in state.legal_actions():
            return False
        state.apply_action(action)
    return True


class KasinoObserver:
    """OpenSpiel's observer (`open_spiel.python.observation`): a tensor with named parts and a
    string."""

    def __init__(self, rules: Rules, spec: ObservationKind) -> None:
        self.spec = spec
        self._tensor = Tensor(rules, spec)
        self.tensor, self.dict = self._tensor.flat, self._tensor.parts

    def set_from(self, state: KasinoState, player: int) -> None:
        if state.decision is None:
            self.tensor.fill(0)
        else:
            self._tensor.fill(state.decision, player)

    def string_from(self, state: KasinoState, player: int) -> str:
        if state.decision is None:
            return f"seat {player}: dealing ({len(state.deck)} cards out)"
        return observation_text(state.decision, player, self.spec)


pyspiel.register_game(game_type(), KasinoGame)


def _check_replayed(replayed: DealState | None, deal: DealState) -> None:
    """ValueError unless the deck and the moves of ``deal`` lead to ``deal`` itself: a
    hand-built position (`DealState.position`: hands, table and piles named, no moves) is not
    reached from a deal's start, so its ``history()`` could not be true."""
    same = replayed is not None and (
        [sorted(hand) for hand in replayed.hands] == [sorted(hand) for hand in deal.hands]
        and sorted(map(str, replayed.table)) == sorted(map(str, deal.table))
        and replayed.tally.owner == deal.tally.owner
        and replayed.to_move == deal.to_move
    )
    if not same:
        raise ValueError(
            "the deal given is not reached from its deck by its moves (a hand-built position?): "
            "an OpenSpiel state is played from the deal's start, so give a deal of "
            "DealState.new or simcasino's tables"
        )
