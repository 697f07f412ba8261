"""Kasino as an OpenSpiel game (`simcasino.interop.openspiel_game`) and OpenSpiel's bots at
our table (`interop.openspiel_bots`): OpenSpiel's own consistency check on every preset and
player count, the same deal played through the game and through `DealState` scores the
same, the information state hides what the seat cannot see, the rules round-trip through
the game parameters, and a seeded ``openspiel-ismcts`` plays the same moves twice."""

from __future__ import annotations

import math
import subprocess
import sys

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")  # the openspiel extra; .ci/run installs it, so CI runs these

from helpers.tiers import quick_tier  # noqa: E402

from simcasino.core.protocol import Stream  # noqa: E402
from simcasino.core.rules import PRESETS, Rules  # noqa: E402
from simcasino.interop import openspiel_game  # noqa: E402
from simcasino.interop.actions import actions_of  # noqa: E402
from simcasino.interop.parameters import params_of, rules_of  # noqa: E402
from simcasino.reference.state import DealState  # noqa: E402
from simcasino.strategies import parse_strategy  # noqa: E402

TABLES = [(preset, players, 0) for preset in PRESETS for players in (2, 3, 4)] + [("swedish", 4, 2), ("finnish", 4, 2)]
QUICK_TABLES = [("swedish", 2, 0), ("rakennuskasino", 3, 0), ("finnish", 4, 2)]
QUICK_PRESETS = ["swedish", "rakennuskasino"]  # the quick tier's representatives (builds in one)


def game_of(rules: Rules) -> openspiel_game.KasinoGame:
    return pyspiel.load_game(openspiel_game.SHORT_NAME, params_of(rules))


def rules_for(preset: str, players: int, partnership: int) -> Rules:
    return Rules.preset(preset).replace(players=players, partnership=partnership)


@pytest.mark.parametrize("preset,players,partnership", quick_tier(TABLES, QUICK_TABLES, unpack=True))
def test_openspiel_consistency_check(preset: str, players: int, partnership: int) -> None:
    """pyspiel.random_sim_test: random play to the end, every state serialized and read back,
    legal actions, chance outcomes, returns and observations checked by OpenSpiel itself."""
    game = pyspiel.load_game(openspiel_game.SHORT_NAME,
                             {"preset": preset, "players": players, "partnership": partnership})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def random_deal(rules: Rules, seed: int) -> tuple[DealState, list]:
    """A deal played to the end by uniformly random legal moves, and its moves."""
    deal, moves = DealState.new(rules, seed, 0), []
    stream = Stream(deal.rng)
    while not deal.is_over:
        legal = deal.legal_moves()
        moves.append(legal[stream.draw(len(legal))])
        deal.apply(moves[-1])
    return deal, moves


def played_through_openspiel(rules: Rules, seed: int) -> tuple[DealState, pyspiel.State]:
    """The deal of ``seed`` played with random moves by `DealState`, and again through the
    OpenSpiel game: its deck as the chance outcomes, each move as its actions."""
    deal, moves = random_deal(rules, seed)
    state = game_of(rules).new_initial_state()
    for card in DealState.new(rules, seed, 0).deck:
        assert state.is_chance_node()
        state.apply_action(card)
    for move in moves:
        for action in actions_of(state.deal, move):
            assert action in state.legal_actions()
            state.apply_action(action)
    return deal, state


@pytest.mark.parametrize("preset", quick_tier(PRESETS, QUICK_PRESETS))
def test_the_same_moves_give_the_same_scores(preset: str) -> None:
    for players in (2, 3):
        rules = Rules.preset(preset).replace(players=players)
        deal, state = played_through_openspiel(rules, seed=players)
        assert state.is_terminal()
        sign = -1 if rules.low_wins else 1
        assert state.returns() == [sign * seat.points for seat in deal.result().seats]
        assert state.deal.result() == deal.result()


SEEN_TABLES = [("swedish", 2), ("finnish", 3), ("misere", 2), ("rakennuskasino", 3), ("mulle", 2)]


@pytest.mark.parametrize("preset,players", quick_tier(SEEN_TABLES, [("rakennuskasino", 3)], unpack=True))
def test_the_information_state_holds_no_hidden_card(preset: str, players: int) -> None:
    """Deal the cards a seat cannot see again (`resample_from_infostate`): its information
    state and observation, as strings and tensors, are unchanged, while the other hands do change."""
    rules = Rules.preset(preset).replace(players=players)
    game = game_of(rules)
    state, rng, changed = game.new_initial_state(), np.random.RandomState(0), 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(rng.choice([c for c, _ in state.chance_outcomes()])))
            continue
        for seat in range(players):
            other = state.resample_from_infostate(seat, rng.uniform)
            for method in ("information_state_string", "observation_string"):
                assert getattr(other, method)(seat) == getattr(state, method)(seat), method
            for method in ("information_state_tensor", "observation_tensor"):
                assert getattr(other, method)(seat) == getattr(state, method)(seat), method
            changed += other.deal.hands != state.deal.hands
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert changed > 0


def test_the_information_state_tells_apart_what_the_seat_saw() -> None:
    """The strings are not blind: another card in the seat's own hand changes its information state."""
    rules = Rules.preset("swedish")
    game = game_of(rules)
    state = game.new_initial_state()
    for card in DealState.new(rules, 1, 0).deck:
        state.apply_action(card)
    other = state.resample_from_infostate(1, np.random.RandomState(0).uniform)
    assert other.information_state_string(0) != state.information_state_string(0)
    assert other.observation_tensor(0) != state.observation_tensor(0)


@pytest.mark.parametrize("preset", quick_tier(PRESETS, QUICK_PRESETS))
def test_the_rules_round_trip_through_the_game_parameters(preset: str) -> None:
    rules = Rules.preset(preset).replace(players=3, target=21)
    assert rules_of(params_of(rules)) == rules
    assert game_of(rules).rules == rules
    assert str(pyspiel.load_game(openspiel_game.SHORT_NAME, params_of(rules))).startswith(
        f"{openspiel_game.SHORT_NAME}(")


def test_an_unknown_parameter_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown game parameter 'colour'"):
        rules_of({"colour": "red"})


def seat_moves(name: str, decisions: int) -> list:
    """The first ``decisions`` moves of a Swedish deal where ``name`` plays every seat."""
    seat, deal, moves = parse_strategy(name).python(), DealState.new(Rules.preset("swedish"), 3, 0), []
    stream = Stream(deal.rng)
    for _ in range(decisions):
        moves.append(seat.decide(deal, stream))
        deal.apply(moves[-1])
    return moves


@pytest.mark.parametrize("name", quick_tier(["openspiel-ismcts:iterations=25", "openspiel-mcts:iterations=25"],
                                            ["openspiel-ismcts:iterations=25"]))
def test_a_seeded_openspiel_bot_plays_the_same_moves_twice(name: str) -> None:
    assert seat_moves(name, 4) == seat_moves(name, 4)


def test_openspiel_ismcts_plays_the_game_in_openspiel() -> None:
    """OpenSpiel's ISMCTS bot, used as OpenSpiel's examples use it, plays a deal to the end."""
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("python_kasino(preset=finnish)")
    rng = np.random.RandomState(1)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 4.0, 4, random_state=rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(bot.step(state))
    assert state.returns() == [seat.points for seat in state.deal.result().seats]


def test_a_plugin_strategy_without_its_extra_is_one_error_line() -> None:
    """Without OpenSpiel installed, ``strategies list`` names the extra its bots need, and
    naming one to play is an ``error:`` line and exit status 2."""
    script = ("import sys; sys.modules['pyspiel'] = None\nfrom simcasino.cli import main\n"
              "try:\n    main(['strategies', 'list'])\nexcept SystemExit:\n    pass\n"
              "main(['compare', 'openspiel-ismcts', 'greedy', '--decks', '2'])")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert result.returncode == 2, result.stderr
    assert result.stderr.strip().splitlines() == [result.stderr.strip()]
    assert result.stderr.startswith("error: strategy 'openspiel-ismcts' needs the openspiel extra")
    assert "openspiel-mcts    (plug-in: needs the openspiel extra" in result.stdout


def test_strategies_list_describes_the_openspiel_bots() -> None:
    result = subprocess.run([sys.executable, "-m", "simcasino", "strategies", "list"], capture_output=True, text=True)
    lines = result.stdout.splitlines()
    for name in ("openspiel-ismcts", "openspiel-mcts"):
        assert any(line.startswith(f"{name}  ") and "[extra: openspiel] OpenSpiel's" in line for line in lines)
    assert sum("iterations=1000  simulations a search runs" in line for line in lines) == 2


def test_openspiel_bots_play_at_a_mixed_table_the_same_deals_from_the_same_seed() -> None:
    """`simulate` seats a plug-in at a mixed table (the reference engine referees, the
    kernel's greedy decides through the position API): the same seed, the same table."""
    import simcasino

    lineup = ("openspiel-ismcts:iterations=5", "greedy")
    first = simcasino.simulate("finnish", lineup, deals=1, seed=4)
    assert first.equals(simcasino.simulate("finnish", lineup, deals=1, seed=4))
    assert first["strategy"].to_list()[:2] == list(lineup)


def test_a_playout_that_piles_up_a_table_too_large_to_list_is_played_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """`openspiel_bots.RolloutEvaluator`: a playout that raises PositionTooLarge is drawn
    again, the next one's value returned; one that keeps raising ends the search with it."""
    from open_spiel.python.algorithms import mcts

    from simcasino.core.limits import PositionTooLarge
    from simcasino.interop.openspiel_bots import PLAYOUT_TRIES, RolloutEvaluator

    outcomes = iter([PositionTooLarge("a table of 40 cards"), np.array([3.0, 5.0])])

    def playout(self: object, state: object) -> np.ndarray:
        outcome = next(outcomes)
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    monkeypatch.setattr(mcts.RandomRolloutEvaluator, "evaluate", playout)
    assert list(RolloutEvaluator(1, np.random.RandomState(0)).evaluate(None)) == [3.0, 5.0]
    outcomes = iter([PositionTooLarge("a table of 40 cards")] * PLAYOUT_TRIES)
    with pytest.raises(PositionTooLarge):
        RolloutEvaluator(1, np.random.RandomState(0)).evaluate(None)


# --- OpenSpiel's contract: bounds, utilities, histories, no exception --------------------------

def _random_states(game, rng: np.random.RandomState, deals: int):
    """Every state of ``deals`` deals played by random actions (chance by its odds)."""
    for _ in range(deals):
        state = game.new_initial_state()
        while not state.is_terminal():
            yield state
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(outcomes, p=probs)))
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
        yield state


def _positive_zero(value: float) -> bool:
    return value != 0 or math.copysign(1.0, value) > 0


@pytest.mark.parametrize("preset", quick_tier(PRESETS, QUICK_PRESETS))
@pytest.mark.parametrize("utility", ["points", "difference", "win"])
def test_no_played_deal_passes_the_bounds_the_game_declares(preset: str, utility: str) -> None:
    """Random deals stay within max_game_length, min_utility and max_utility; the returns of
    a constant-sum or zero-sum game add up to utility_sum; no bound and no return is -0.0."""
    game = pyspiel.load_game(openspiel_game.SHORT_NAME, {"preset": preset, "utility": utility})
    low, high, kind = game.min_utility(), game.max_utility(), game.get_type().utility
    assert low < high and _positive_zero(low) and _positive_zero(high)
    for state in _random_states(game, np.random.RandomState(len(preset)), 4):
        if state.is_terminal():
            returns = state.returns()
            assert all(low <= r <= high and _positive_zero(r) for r in returns), returns
            assert len(state.history()) - game.max_chance_nodes_in_history() <= game.max_game_length()
            if kind != pyspiel.GameType.Utility.GENERAL_SUM:
                assert sum(returns) == game.utility_sum()
    if utility == "win":
        assert kind == pyspiel.GameType.Utility.ZERO_SUM


def test_the_utility_types_follow_from_the_rules() -> None:
    """Krypkasino hands out 42 points a deal (fewest win: -42 in returns); Misère's total
    varies (its sweeps and most-cards and most-spades items); differences and wins between
    two sides are zero-sum, between three they are not."""
    def kind(text: str) -> object:
        return pyspiel.load_game(f"python_kasino({text})").get_type().utility

    utility = pyspiel.GameType.Utility
    assert kind("preset=krypkasino") == utility.CONSTANT_SUM
    assert pyspiel.load_game("python_kasino(preset=krypkasino)").utility_sum() == -42.0
    assert kind("preset=misere") == kind("preset=swedish") == utility.GENERAL_SUM
    assert kind("preset=swedish,utility=difference") == kind("preset=finnish,utility=win") == utility.ZERO_SUM
    assert kind("preset=swedish,players=3,utility=win") == utility.GENERAL_SUM
    assert kind("preset=swedish,players=4,partnership=2,utility=difference") == utility.ZERO_SUM
    with pytest.raises(ValueError, match="'utility' must be one of points, difference, win"):
        pyspiel.load_game("python_kasino(utility=money)")


@pytest.mark.parametrize("preset", quick_tier(["swedish", "misere", "rakennuskasino", "mulle_glimne"],
                                             ["rakennuskasino"]))
def test_every_state_the_game_hands_out_has_a_true_history(preset: str) -> None:
    """The history of a deserialized, a resampled and a `state_of` state replays from the
    initial state to the same position (the same deal, every seat seeing the same)."""
    game = pyspiel.load_game(openspiel_game.SHORT_NAME, {"preset": preset})
    rng = np.random.RandomState(3)

    def replayed(state):
        again = game.new_initial_state()
        for action in state.history():
            again.apply_action(action)
        return again

    checked = 0
    for state in _random_states(game, rng, 1):
        if state.is_chance_node() or rng.uniform() > 0.2:
            continue
        others = [game.deserialize_state(state.serialize()), game.state_of(state.decision)]
        if not state.is_terminal():
            others.append(state.resample_from_infostate(state.current_player(), rng.uniform))
        for other in others:
            again = replayed(other)
            assert again.deal.to_json() == other.deal.to_json()
            assert str(again) == str(other)  # the hands in the same order (two decks too)
            assert [again.information_state_string(p) for p in range(game.num_players())] == \
                [other.information_state_string(p) for p in range(game.num_players())]
        assert others[1].history() == state.history()
        checked += 1
    assert checked > 5


def test_a_later_deal_of_a_game_is_a_game_of_its_own() -> None:
    """`state_of` refuses a deal dealt by another seat with game scores, naming the parameters
    that load its game; that game takes it, with a true history."""
    from simcasino.interop.actions import PendingMove
    from simcasino.reference.game import GameState

    rules = Rules.preset("finnish")
    game = GameState.new(rules, seed=1)
    game.end_deal(_played(game.next_deal()).result())
    deal = game.next_deal()
    with pytest.raises(ValueError, match="the deal given needs"):
        game_of(rules).state_of(PendingMove(deal))
    params = openspiel_game.setting_params(game_of(rules).setting_of(deal))
    later = pyspiel.load_game(openspiel_game.SHORT_NAME, params_of(rules) | params)
    state = later.state_of(PendingMove(deal))
    assert state.deal.hands == deal.hands and state.deal.deck == deal.deck and state.deal.dealer == deal.dealer
    assert state.deal.start_scores == deal.start_scores and state.current_player() == deal.to_move


def test_a_hand_built_position_is_refused_as_no_deal_reaches_it() -> None:
    """`DealState.position` names hands, table and piles with no moves: no history leads there,
    so `state_of` says so in one line rather than hand out a state of another deal."""
    from simcasino.interop.actions import PendingMove

    rules = Rules.preset("swedish")
    hand_built = DealState.position(rules, [[0, 13], [1, 14]], [2, 15], {3: 0, 4: 1})
    with pytest.raises(ValueError, match="not reached from its deck by its moves"):
        game_of(rules).state_of(PendingMove(hand_built))
    dealt = DealState.new(rules, seed=3)
    assert game_of(rules).state_of(PendingMove(dealt)).deal.hands == dealt.hands


def _played(deal: DealState) -> DealState:
    from simcasino.reference.referee import play_deal
    from simcasino.strategies.greedy import Greedy

    play_deal(deal, [Greedy(), Greedy()])
    return deal


def test_a_position_too_large_to_list_ends_the_deal_as_a_terminal() -> None:
    """A table of 30 low cards (its captures pass `core.limits`): the state is terminal, with
    no legal action and returns within the bounds, every card in a pile (`DealState.end_now`)."""
    from simcasino.core.cards import parse_cards
    from simcasino.interop.actions import PendingMove

    rules = Rules.preset("swedish")
    table = [c for c in range(52) if c % 13 < 8][:30]
    hand = [c for c in range(52) if c not in table and c % 13 == 9][:2]
    deal = DealState.position(rules, [hand, parse_cards("KS KH")], table)
    game = game_of(rules)
    state = game.new_initial_state()
    state.decision = PendingMove(deal)
    state._end_if_too_large()
    assert state.is_terminal() and state.legal_actions() == [] and "position too large" in state.cut_short
    assert all(game.min_utility() <= r <= game.max_utility() for r in state.returns())
    assert len(state.deal.tally.owner) == 52


@pytest.mark.parametrize("preset", quick_tier(PRESETS, QUICK_PRESETS))
def test_openspiel_search_runs_on_every_preset_without_an_exception(preset: str) -> None:
    """OpenSpiel's RandomRolloutEvaluator on positions of a random deal, and MCTSBot and
    ISMCTSBot (two simulations a step) for the first dozen decisions of a deal, each playout a
    whole deal; benchmarks/bench_openspiel_contract.py plays 1,000 deals a preset, evaluator
    on their positions, and whole deals of both bots."""
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(openspiel_game.SHORT_NAME, {"preset": preset})
    rng = np.random.RandomState(11)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    for state in _random_states(game, rng, 1):
        if not state.is_chance_node() and not state.is_terminal() and rng.uniform() < 0.25:
            evaluator.evaluate(state)
    bots = [mcts.MCTSBot(game, 2.0, 2, evaluator, random_state=rng),
            ismcts.ISMCTSBot(game, evaluator, 2.0, 2, random_state=rng)]
    for bot in bots:
        state, decisions = game.new_initial_state(), 0
        while not state.is_terminal() and decisions < 12:
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(outcomes, p=probs)))
            else:
                state.apply_action(bot.step(state))
                decisions += 1
        assert decisions == 12
