"""Kasino as an OpenSpiel game: ``pyspiel.load_game("python_kasino(preset=finnish,players=3)")``.

Registered on import as the Python game ``python_kasino``. One game is one deal. Its
parameters are the rules (`interop.parameters`: a preset and every knob); the deal is dealt
by chance nodes, one card of the deck at a time in dealing order (R-DEAL, R-REDEAL: the deck
is fixed before the first card goes out, as both engines deal it), then each decision is the
card and, when the card can be played in more than one way, the move (`interop.actions`). A
state wraps a `Decision` over a `simcasino.DealState` (its faster listing of the legal moves,
`interop.lean`), which referees every move, so the game plays and scores exactly as
simcasino does (`interop.outcome`: the deal's points, negated where the fewest win).
Observations are `interop.encoding`'s. `resample_from_infostate` deals the cards the seat
cannot see again (`DealState.determinize`), which is what OpenSpiel's ISMCTS needs to play it.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

import pyspiel

from simcasino.core.cards import KINDS, card_code
from simcasino.core.notation import move_name
from simcasino.core.rules import Rules
from simcasino.interop.actions import MORE, NUM_ACTIONS, PAGES, Decision
from simcasino.interop.encoding import Spec, Tensor, observation_text
from simcasino.interop.lean import LeanDeal
from simcasino.interop.outcome import bounds, returns
from simcasino.interop.parameters import params_of, rules_of, specification
from simcasino.reference.state import DealState

SHORT_NAME = "python_kasino"
MAX_PLAYERS = 6  # two decks deal to 5-6 (Rules refuses more than 4 with one deck)
GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Python Nordic Kasino (simcasino)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
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
        low, high = bounds(self.rules)
        plays = self.rules.deck_size - self.rules.table_cards
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS, max_chance_outcomes=self.rules.deck_size,
            num_players=self.rules.players, min_utility=low, max_utility=high, utility_sum=None,
            # a play: its card, a page turn at most PAGES - 1 times, its move, and a §6 Misère pick likewise
            max_game_length=plays * (1 + 2 * PAGES))
        super().__init__(GAME_TYPE, info, params_of(self.rules) | (params or {}))

    def new_initial_state(self) -> KasinoState:
        return KasinoState(self)

    def state_of(self, decision: Decision) -> KasinoState:
        """A state at ``decision``'s position (a copy; its OpenSpiel history holds no actions):
        how a bot at a simcasino table is handed the deal."""
        state = KasinoState(self)
        state.deck, state.decision = list(decision.deal.deck), copy.deepcopy(decision)
        return state

    def max_chance_nodes_in_history(self) -> int:
        return self.rules.deck_size

    def make_py_observer(self, iig_obs_type: pyspiel.IIGObservationType | None = None,
                         params: dict | None = None) -> KasinoObserver:
        if params:
            raise ValueError(f"python_kasino observers take no parameters; got {params}")
        return KasinoObserver(self.rules, spec_of(iig_obs_type))


def spec_of(iig_obs_type: pyspiel.IIGObservationType | None) -> Spec:
    """OpenSpiel's observation type as an `encoding.Spec` (the default: the observation)."""
    if iig_obs_type is None:
        return Spec()
    private = {pyspiel.PrivateInfoType.SINGLE_PLAYER: "own", pyspiel.PrivateInfoType.NONE: "none",
               pyspiel.PrivateInfoType.ALL_PLAYERS: "all"}[iig_obs_type.private_info]
    return Spec(recall=iig_obs_type.perfect_recall, private=private)


class KasinoState(pyspiel.State):
    """A deal being dealt (``deck`` grows by chance) and then played (``decision``)."""

    def __init__(self, game: KasinoGame) -> None:
        super().__init__(game)
        self.rules: Rules = game.rules
        self.deck: list[int] = []
        self.decision: Decision | None = None

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
        return self.decision.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next card of the deck: any card not dealt yet, all alike."""
        left = sorted(set(range(self.rules.deck_size)) - set(self.deck))
        return [(card, 1.0 / len(left)) for card in left]

    def _apply_action(self, action: int) -> None:
        if self.decision is not None:
            self.decision.apply(action)
            return
        self.deck.append(action)
        if len(self.deck) == self.rules.deck_size:
            self.decision = Decision(LeanDeal.dealt(self.rules, self.deck))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {card_code(action)} ({action})"
        if action < KINDS:
            return f"play {card_code(action)}"
        if action == MORE:
            return "more moves"
        return move_name(self.decision.move_of(action), self.decision.deal.table)

    def is_terminal(self) -> bool:
        return self.decision is not None and self.decision.deal.is_over

    def returns(self) -> list[float]:
        return returns(self.decision.deal) if self.decision else [0.0] * self.rules.players

    def resample_from_infostate(self, player: int, sampler: Callable[[], float]) -> KasinoState:
        """A state ``player`` cannot tell from this one: the cards it cannot see dealt again
        (a uniform draw from ``sampler``, a source of numbers in [0, 1))."""
        state = self.clone()
        if self.decision is not None:
            deal = self.decision.deal.determinize(player, int(sampler() * 2**53))
            if self.decision.card >= 0 and player != deal.to_move:
                hold_chosen(deal, player, self.decision.card, sampler)
            state.decision = Decision(deal, self.decision.card, self.decision.page)
            state.deck = list(deal.deck)
        return state

    def __str__(self) -> str:
        if self.decision is None:
            return f"dealing: {' '.join(map(card_code, self.deck))}"
        deal = self.decision.deal
        hands = " | ".join(" ".join(map(card_code, h)) for h in deal.hands)
        return f"hands {hands}\n{observation_text(self.decision, 0, Spec(recall=True, private='all'))}"


def hold_chosen(deal: DealState, observer: int, kind: int, sampler: Callable[[], float]) -> None:
    """Make the seat to move hold a card of ``kind``, the card it has chosen (every seat saw
    it chosen), in a deal just dealt again for ``observer`` (so nobody has listed its moves
    yet): if the card went elsewhere, it swaps places with a card of the mover's hand drawn
    uniformly, which keeps the deal uniform among those where the mover holds it."""
    hand = deal.hands[deal.to_move]
    if any(card % KINDS == kind for card in hand):
        return
    unseen = [c for s, h in enumerate(deal.hands) if s not in (observer, deal.to_move) for c in h] + deal.stock
    chosen, mine = next(c for c in unseen if c % KINDS == kind), hand[int(sampler() * len(hand))]
    swap = {chosen: mine, mine: chosen}
    for held in deal.hands:
        held[:] = [swap.get(c, c) for c in held]
    deal.deck[:] = [swap.get(c, c) for c in deal.deck]


class KasinoObserver:
    """OpenSpiel's observer (`open_spiel.python.observation`): a tensor with named parts and a string."""

    def __init__(self, rules: Rules, spec: Spec) -> None:
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


pyspiel.register_game(GAME_TYPE, KasinoGame)
