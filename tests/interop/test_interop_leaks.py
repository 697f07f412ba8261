"""No hidden card leaks into what a seat observes: the twin-deal test.

A twin of a deal is another deck that differs from it only in cards a seat has not seen by
some point of the deal (its own hands, the table and the piles stay; the cards it never saw
are dealt to other places at random). The same actions are then played in both deals, up to
that point or until an action is not legal in the twin (an action can tell something, as a
§6 build tells the builder holds its value: such a twin is not one the seat could confuse).
At every node on the way the seat's observation and information state, as strings and as
tensors, must be the same in both deals; and the public observer (no private information)
must give the same for twins that differ in any card nobody has seen. Every preset and
player count is played (builds included), in the OpenSpiel game and the PettingZoo
environment.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from helpers.tiers import quick_tier

from simcasino.core.rules import PRESETS, Rules
from simcasino.core.table import item_cards

TABLES = [(preset, players) for preset, rules in PRESETS.items() for players in range(2, 4 * rules.decks - 1)]
TABLES += [("swedish", 4, 2), ("mulle", 6, 3)]  # partnerships
QUICK = [("swedish", 2), ("rakennuskasino", 3), ("swedish", 4, 2)]  # builds, a partnership


def _table_id(table: tuple) -> str:
    return "-".join(map(str, table))


def _rules(table: tuple) -> Rules:
    preset, players, *team = table
    return Rules.preset(preset).replace(players=players, partnership=team[0] if team else 0)


def _seen(deal, held: set[int]) -> set[int]:
    """Cards seen at ``deal``'s position by a seat that has held ``held`` (the public: none):
    the table, the piles, a §6 Misère card waiting for its pick, and those."""
    seen = set(deal.tally.owner) | {c for item in deal.table for c in item_cards(item)} | held
    if deal.pending is not None:
        seen.add(deal.pending.card)
    return seen


def _twin_deck(deck: list[int], hidden: set[int], rng: random.Random) -> list[int] | None:
    """``deck`` with the ``hidden`` cards dealt to each other's places at random (None if
    there are fewer than two)."""
    places = [i for i, card in enumerate(deck) if card in hidden]
    if len(places) < 2:
        return None
    cards = [deck[i] for i in places]
    rng.shuffle(cards)
    twin = list(deck)
    for i, card in zip(places, cards):
        twin[i] = card
    return twin


def _ends(length: int, rng: random.Random, count: int) -> list[int]:
    return sorted(rng.sample(range(1, length + 1), min(count, length)))


# --- OpenSpiel ---------------------------------------------------------------------------------

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.observation import make_observation  # noqa: E402

from simcasino.interop import openspiel_game  # noqa: E402
from simcasino.interop.parameters import params_of  # noqa: E402


def _views(game, state, seat: int | None, observers: dict) -> list:
    """What ``seat`` gets of ``state`` (None: the public observers): strings and tensors."""
    if seat is not None:
        return [state.observation_string(seat), state.information_state_string(seat),
                list(state.observation_tensor(seat)), list(state.information_state_tensor(seat))]
    out = []
    for observer in observers.values():
        observer.set_from(state, 0)
        out += [observer.string_from(state, 0), observer.tensor.tolist()]
    return out


def _public_observers(game) -> dict:
    return {recall: make_observation(game, pyspiel.IIGObservationType(
        perfect_recall=recall, private_info=pyspiel.PrivateInfoType.NONE)) for recall in (False, True)}


def _random_play(game, rng: random.Random) -> tuple[list[int], list[int], list]:
    """A deal played by random actions: its deck, the players' actions, and at each node
    (after the deal, after each action) the cards each seat has held so far."""
    state = game.new_initial_state()
    deck = []
    while state.is_chance_node():
        card = rng.choice([c for c, _ in state.chance_outcomes()])
        deck.append(card)
        state.apply_action(card)
    held = [set(h) for h in state.deal.hands]
    actions, history = [], [[set(h) for h in held]]
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        actions.append(action)
        state.apply_action(action)
        if not state.is_terminal():
            for seat, hand in enumerate(state.deal.hands):
                held[seat] |= set(hand)
        history.append([set(h) for h in held])
    return deck, actions, history


def _state_at(game, deck: list[int], actions: list[int]):
    state = game.new_initial_state()
    for card in deck:
        state.apply_action(card)
    for action in actions:
        state.apply_action(action)
    return state


def _compare_twins(game, deck, actions, held, seat, end, rng, observers) -> tuple[int, str | None]:
    """Play ``actions[:end]`` on the deal and on a twin hiding from ``seat`` what it has not
    seen by then: the nodes compared, and the first difference (None: none)."""
    at_end = _state_at(game, deck, actions[:end])
    if at_end.is_terminal():
        return 0, None
    seen = _seen(at_end.deal, set() if seat is None else held[end][seat])
    chosen = getattr(at_end.decision, "card", -1)
    if chosen >= 0:
        seen |= {c for c in at_end.deal.hands[at_end.deal.to_move] if c % 52 == chosen}
    twin_deck = _twin_deck(deck, set(range(len(deck))) - seen, rng)
    if twin_deck is None:
        return 0, None
    one, two = _state_at(game, deck, []), _state_at(game, twin_deck, [])
    compared = 0
    for step in range(end + 1):
        if _views(game, one, seat, observers) != _views(game, two, seat, observers):
            who = "the public" if seat is None else f"seat {seat}"
            return compared, (f"{who} tells the twins apart after {step} actions "
                              f"({actions[:step][-3:]}):\n{one.observation_string(seat or 0)}\n---\n"
                              f"{two.observation_string(seat or 0)}")
        compared += 1
        if step == end or actions[step] not in two.legal_actions():
            break
        one.apply_action(actions[step])
        two.apply_action(actions[step])
    return compared, None


@pytest.mark.parametrize("table", quick_tier(TABLES, QUICK), ids=_table_id)
def test_openspiel_twins_look_the_same(table: tuple) -> None:
    rules = _rules(table)
    game = pyspiel.load_game(openspiel_game.SHORT_NAME, params_of(rules))
    observers = _public_observers(game)
    rng, compared = random.Random(f"{table}"), 0
    deck, actions, held = _random_play(game, rng)
    for end in _ends(len(actions), rng, 3):
        for seat in [*rng.sample(range(rules.players), min(3, rules.players)), None]:  # three seats an end
            nodes, difference = _compare_twins(game, deck, actions, held, seat, end, rng, observers)
            assert difference is None, difference
            compared += nodes
    assert compared > 50  # the twins were followed a long way, not refused at once


# --- PettingZoo --------------------------------------------------------------------------------

pettingzoo_env = pytest.importorskip("simcasino.interop.pettingzoo_env")  # the rl extra; .ci/run installs it


def _env_play(rules: Rules, rng: random.Random):
    """A deal of the environment played by random legal actions: its deck, the actions, and
    at each step the cards each seat has held so far."""
    env = pettingzoo_env.raw_env(rules)
    env.reset(seed=rng.randrange(1000))
    deck, held = list(env.decision.deal.deck), [set(h) for h in env.decision.deal.hands]
    actions, history = [], [[set(h) for h in held]]
    while not any(env.terminations.values()) and not any(env.truncations.values()):
        action = rng.choice(list(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])))
        actions.append(int(action))
        env.step(int(action))
        for seat, hand in enumerate(env.decision.deal.hands):
            held[seat] |= set(hand)
        history.append([set(h) for h in held])
    return deck, actions, history


def _env_at(rules: Rules, deck: list[int], actions: list[int]):
    env = pettingzoo_env.raw_env(rules)
    env.reset(options={"deck": deck})
    for action in actions:
        env.step(action)
    return env


@pytest.mark.parametrize("table", quick_tier(TABLES, QUICK), ids=_table_id)
def test_pettingzoo_twins_look_the_same(table: tuple) -> None:
    """The environment's observation of a seat, at every step of the same actions, is the same
    in a deal and in its twin hiding from that seat what it has not seen."""
    rules = _rules(table)
    rng, compared = random.Random(f"pz {table}"), 0
    deck, actions, held = _env_play(rules, rng)
    for end in _ends(len(actions), rng, 2):
        at_end = _env_at(rules, deck, actions[:end])
        if at_end.decision.deal.is_over:
            continue
        for seat in rng.sample(range(rules.players), min(3, rules.players)):
            seen = _seen(at_end.decision.deal, held[end][seat])
            if at_end.decision.card >= 0:
                mover = at_end.decision.deal.to_move
                seen |= {c for c in at_end.decision.deal.hands[mover] if c % 52 == at_end.decision.card}
            twin = _twin_deck(deck, set(range(len(deck))) - seen, rng)
            if twin is None:
                continue
            one, two, agent = _env_at(rules, deck, []), _env_at(rules, twin, []), f"player_{seat}"
            for step in range(end + 1):
                assert (one.observe(agent)["observation"] == two.observe(agent)["observation"]).all(), (seat, step)
                compared += 1
                if step == end or not two.observe(two.agent_selection)["action_mask"][actions[step]]:
                    break
                one.step(actions[step])
                two.step(actions[step])
    assert compared > 20
