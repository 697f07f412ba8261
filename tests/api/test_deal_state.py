"""`simcasino.DealState`, the public state of one deal: played move by move with strategies'
Python forms it ends with `simulate`'s rows in both engines; its JSON round trip is exact at
every step; `determinize` keeps what a seat sees and deals the rest again; `why_illegal`
names the rule the rule book's illegal moves break; one name per move reads back."""

from __future__ import annotations

import random

import pytest
from helpers.cards import ids
from helpers.positions import BUILD_RULE_SETS, position_deal, random_build_position, recorded_views
from helpers.tiers import quick_tier

import simcasino
from simcasino.core.notation import move_name
from simcasino.core.protocol import Move, MoveKind, Stream, View, ask
from simcasino.core.rules import PRESETS, Rules
from simcasino.core.table import Build
from simcasino.reference.moves import read_move
from simcasino.reference.state import DealState
from simcasino.strategies import parse_strategy

# every preset, and 3 and 4 players, partnerships, builds with more players
TABLES = {
    **{name: rules for name, rules in PRESETS.items()},
    "finnish-3": PRESETS["finnish"].replace(players=3),
    "swedish-4": PRESETS["swedish"].replace(players=4),
    "swedish-partners": PRESETS["swedish"].replace(players=4, partnership=2),
    "misere-3": PRESETS["misere"].replace(players=3),
    "krypkasino-4": PRESETS["krypkasino"].replace(players=4),
    "rakennuskasino-3": PRESETS["rakennuskasino"].replace(players=3),
    "glimne-partners": PRESETS["mulle_glimne"].replace(players=4, partnership=2),
}
LINEUP = ("greedy", "heuristic", "random", "heuristic:tabbe_denial=0")


def lineup(rules: Rules) -> list[str]:
    return list(LINEUP[: rules.players])


def play_out(state: DealState, strategies: list[str], check=None, stream: Stream | None = None) -> None:
    """Apply each seat's strategy (its Python form, drawing from ``stream``, else one begun at
    the deal's) until the deal is over; ``check(state)`` before every decision."""
    players = [parse_strategy(s).python() for s in strategies]
    stream = stream or Stream(state.rng)
    while not state.is_over:
        if check:
            check(state)
        state.apply(ask(players[state.to_move].choose, state.observation(state.to_move), stream))


@pytest.mark.parametrize("name", quick_tier(TABLES, ["finnish-3", "rakennuskasino", "swedish-partners"]))
def test_deals_through_the_state_end_with_the_rows_of_both_engines(name: str) -> None:
    rules, seats = TABLES[name], lineup(TABLES[name])
    kernel = simcasino.simulate(rules, seats, deals=3, seed=5)
    assert kernel.equals(simcasino.simulate(rules, seats, deals=3, seed=5, engine="reference"))
    for index in range(3):
        state = DealState.new(rules, seed=5, index=index)
        play_out(state, seats)
        rows = kernel.filter(kernel["deal"] == index).sort("seat").drop("deal", "seat", "strategy").rows()
        assert [seat.row() for seat in state.result().seats] == rows, (name, index)


def views_equal(one: View, other: View) -> bool:
    return one == other


@pytest.mark.parametrize("name", ["swedish", "finnish-3", "misere-3", "rakennuskasino", "glimne-partners"])
def test_a_json_round_trip_at_every_step_gives_an_equal_state(name: str) -> None:
    rules = TABLES[name]
    state, steps, picks = DealState.new(rules, seed=2, index=1), [0], [0]

    def check(now: DealState) -> None:
        again = DealState.from_json(now.to_json())
        assert again == now and again.to_json() == now.to_json()
        assert views_equal(again.observation(now.to_move), now.observation(now.to_move))
        steps[0] += 1
        picks[0] += now.pending is not None

    play_out(state, lineup(rules), check)
    again = DealState.from_json(state.to_json())
    assert again == state and again.result() == state.result() and again.history == state.history
    assert steps[0] >= 48 and (picks[0] > 0 or not rules.opponent_chooses)


def test_a_restored_state_plays_on_as_the_original() -> None:
    rules = TABLES["misere"]
    state = DealState.new(rules, seed=3, index=0)
    players, stream = [parse_strategy(s).python() for s in ("greedy", "random")], Stream(state.rng)
    for _ in range(20):
        state.apply(ask(players[state.to_move].choose, state.observation(state.to_move), stream))
    copy = DealState.from_json(state.to_json())
    play_out(copy, ["greedy", "random"], stream=Stream(stream.state))
    play_out(state, ["greedy", "random"], stream=stream)
    assert copy == state


@pytest.mark.parametrize("text", ["[1]", "{\"format\": \"chess\"}", "not json"])
def test_json_that_is_not_a_state_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="not a deal state"):
        DealState.from_json(text)
    later = DealState.new(Rules()).to_json().replace('"version": 1', '"version": 2')
    with pytest.raises(ValueError, match="version 2; this simcasino reads version 1"):
        DealState.from_json(later)


@pytest.mark.parametrize("name", ["swedish", "finnish-3", "misere-3", "krypkasino-4", "rakennuskasino-3"])
def test_determinize_keeps_what_the_seat_sees_and_deals_the_rest_again(name: str) -> None:
    rules, changed, checked = TABLES[name], [0], [0]

    def check(state: DealState) -> None:
        for seat in range(rules.players):
            other = state.determinize(seat, seed=len(state.history))
            assert views_equal(other.observation(seat), state.observation(seat))
            assert other.hands[seat] == state.hands[seat] and other.table == state.table
            assert [len(h) for h in other.hands] == [len(h) for h in state.hands]
            assert len(other.stock) == len(state.stock) and sorted(other.deck) == sorted(state.deck)
            unseen = [c for s in range(rules.players) if s != seat for c in state.hands[s]] + state.stock
            again = [c for s in range(rules.players) if s != seat for c in other.hands[s]] + other.stock
            assert sorted(again) == sorted(unseen)
            changed[0] += (other.hands, other.stock) != (state.hands, state.stock)
            checked[0] += 1
            assert other.legal_moves() == other.clone().legal_moves()

    play_out(DealState.new(rules, seed=8, index=0), lineup(rules), check)
    assert changed[0] > checked[0] // 2  # the unseen cards are dealt again, not kept


def test_a_determinized_deal_plays_to_its_end_and_is_uniform_over_the_unseen_cards() -> None:
    """The deck of a determinized deal is consistent (it plays out); over many seeds each
    unseen card lands in the other hand about as often as its share says."""
    state = DealState.new(Rules(), seed=4, index=0)
    state.apply(state.legal_moves()[0])  # seat 1 to move: 4 cards in hand, 40 in the stock
    seen_by = 0
    counts = {c: 0 for c in state.hands[1] + state.stock}
    for seed in range(400):
        other = state.determinize(seen_by, seed)
        for card in other.hands[1]:
            counts[card] += 1
    assert sum(counts.values()) == 400 * 4
    assert max(counts.values()) < 400 * 4 / len(counts) * 2.2  # about 36 each of 44 cards
    play_out(state.determinize(0, 1), ["greedy", "greedy"])


# --- why a move is not legal: the rule books' examples -----------------------------------------------

FINNISH, SWEDISH, MISERE = PRESETS["finnish"], PRESETS["swedish"], PRESETS["misere"]
RAKENNUS = PRESETS["rakennuskasino"]


def capture(state: DealState, card: str, took: str) -> Move:
    """``card`` (in the hand of the seat to move) taking the table cards ``took``."""
    played, table = ids(card)[0], state.table
    mask = sum(1 << table.index(c) for c in ids(took))
    return Move.capture(state.hands[state.to_move].index(played), played, mask)


@pytest.mark.parametrize(("rules", "hand", "table", "card", "took", "rule"), [
    (SWEDISH, "10H", "2C 3C 5C 7C", "10H", "2C 3C 5C 7C", "R-CAPTURE"),  # {3,7} or {2,3,5}, never all four
    (SWEDISH, "JH", "5C 4D 3S", "JH", "5C 4D 3S", "R-CAPTURE"),  # 5+4+3 is 12, not a jack
    (FINNISH, "AH", "AC 5D", "AH", "AC", "R-VAL-FI"),  # an ace from hand (14) never takes a lone ace
    (FINNISH, "2S", "2C", "2S", "2C", "R-VAL-FI"),  # 2♠ from hand is 15
    (FINNISH, "10D", "10C", "10D", "10C", "R-VAL-FI"),  # 10♦ from hand is 16
    (SWEDISH, "AH", "5D 7C", "AH", "5D 7C", "R-ACE-SE"),  # 1 or 14, never 12
    (SWEDISH.replace(must_capture_max=True), "QH", "QC 9D 3S", "QH", "QC", "R-OPTIONAL (must_capture_max)"),
    (MISERE, "10H", "2C 4C 6C 8C", "10H", "2C 8C", "R-OPTIONAL (must_capture_max, §6 Misère)"),
])
def test_why_illegal_names_the_rule_a_capture_breaks(rules: Rules, hand: str, table: str, card: str, took: str,
                                                     rule: str) -> None:
    state = position_deal(rules, hand, table)
    move = capture(state, card, took)
    reason = state.why_illegal(move)
    assert reason and rule in reason, reason
    with pytest.raises(ValueError, match=f"illegal move .*{rule.split()[0]}"):
        state.apply(move)


def test_why_illegal_for_turns_trails_and_the_empty_table() -> None:
    state = position_deal(SWEDISH, "QH 5D", "QC 9D 3S")
    qh, kd = ids("QH KD")
    assert state.why_illegal(None).startswith("R-TURN: a move plays one card")
    assert state.why_illegal(Move.trail(0, kd)).startswith("R-TURN: seat 0 holds no KD")
    assert state.why_illegal(Move.trail(1, qh)) == "R-TURN: QH is at hand position 0, not 1"
    assert state.why_illegal(Move.capture(0, qh, 1 << 5)).startswith("R-CAPTURE: a capture takes items of the table")
    assert state.why_illegal(Move.trail(0, qh)) is None  # R-OPTIONAL: trailing a card that could take
    swept = position_deal(SWEDISH, "5D", "")
    assert swept.why_illegal(Move.capture(0, ids("5D")[0], 1)).startswith("R-TABBE: the table is empty")
    twins = position_deal(PRESETS["mulle"], "5C 5C' 9H", "5H")
    assert twins.why_illegal(Move.trail(1, ids("5C'")[0])).startswith("R-DECK")
    misere = position_deal(MISERE, "5H 9C", "5S 3D")
    assert misere.why_illegal(Move.trail(0, ids("5H")[0])).startswith("R-OPTIONAL (must_capture, §6 Misère)")
    over = DealState.new(SWEDISH, seed=1)
    play_out(over, ["greedy", "greedy"])
    assert over.why_illegal(Move.trail(0, 0)) == "R-TURN: the deal is over, nobody is to move"


def test_why_illegal_under_a_misere_pick_names_the_pick() -> None:
    state = position_deal(MISERE, "10H", "2C 3C 5C 7C", others={1: "KD"})
    state.apply(state.legal_moves()[0])
    assert state.to_move == 1 and state.pending is not None
    assert state.why_illegal(Move.trail(0, ids("KD")[0])).startswith("§6 Misère: seat 1 picks which capture seat 0's")
    assert all(state.why_illegal(m) is None for m in state.legal_moves())


def test_why_illegal_names_the_build_rules() -> None:
    """§6 Builds (R-BUILD): the value must be held; a double build is not raised; the owner of
    a build may not trail; rules without builds have none."""
    state = position_deal(RAKENNUS, "7C 3D", "5H")
    assert "must hold a card of the announced value Q" in state.why_illegal(Move.build(0, ids("7C")[0], 0, 12))
    assert "makes Q, not K" in state.why_illegal(Move.build(0, ids("7C")[0], 0, 13))
    double = DealState.position(RAKENNUS, [ids("AH KC")], [Build(tuple(ids("5H 7C QD")), 12, 1, True)])
    assert "is a double build, which can no longer be raised" in double.why_illegal(Move.build(0, ids("AH")[0], 0, 13))
    owner = DealState.position(RAKENNUS, [ids("7D 9H 3C 10S")], [Build(tuple(ids("5H 2C")), 7, 0), *ids("9D 4S")])
    assert owner.why_illegal(Move.trail(3, ids("10S")[0])).startswith("R-BUILD: seat 0 owns a build on the table")
    assert owner.why_illegal(Move.build(2, ids("3C")[0], 2, 7)).startswith("R-BUILD: seat 0 owns a build")
    plain = position_deal(SWEDISH, "7C 2D", "5H")
    no_builds = "R-BUILD: these rules have no builds (knob builds = false)"
    assert plain.why_illegal(Move.build(0, ids("7C")[0], 0, 12)) == no_builds


@pytest.mark.parametrize("name", BUILD_RULE_SETS)
def test_why_illegal_agrees_with_the_legal_moves_on_random_moves(name: str) -> None:
    """A reason exactly for the moves that are not legal, on random positions and random moves
    of every kind (hand positions, masks, targets and values)."""
    rules, rng = BUILD_RULE_SETS[name], random.Random(name)
    refused = 0
    for _ in range(200):
        state, seat = random_build_position(rules, rng)
        hand, size = state.hands[seat], len(state.table)
        for _ in range(8):
            i = rng.randrange(len(hand))
            kind = rng.choice(list(MoveKind))
            move = {MoveKind.TRAIL: Move.trail(i, hand[i]),
                    MoveKind.CAPTURE: Move.capture(i, hand[i], rng.randrange(1, 1 << size) if size else 1),
                    MoveKind.BUILD: Move.build(i, hand[i], rng.randrange(max(size, 1)), rng.randint(2, 16))}[kind]
            legal = move in state.legal_moves()
            assert (state.why_illegal(move) is None) == legal, (move, state.legal_moves())
            refused += not legal
        assert all(state.why_illegal(m) is None for m in state.legal_moves())
    assert refused > 500


# --- one name a move -----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", BUILD_RULE_SETS)
def test_every_legal_move_of_random_positions_reads_back_from_its_name(name: str) -> None:
    rng = random.Random(name)
    for _ in range(200):
        state, seat = random_build_position(BUILD_RULE_SETS[name], rng)
        view = state.observation(seat)
        assert list(view.moves) == sorted(view.moves)  # the canonical order is the moves' own
        for move in view.moves:
            assert read_move(view, move_name(move, view.table)) == move, move_name(move, view.table)


@pytest.mark.parametrize("rules", ["mulle", "misere"])
def test_every_legal_move_of_real_play_reads_back_from_its_name(rules: str) -> None:
    for view in recorded_views(Rules.preset(rules), deals=2):
        for move in view.moves:
            assert read_move(view, move_name(move, view.table)) == move


def test_move_names() -> None:
    """Trails, captures (a build taken by its cards) and builds, by name, in canonical order."""
    state = DealState.position(RAKENNUS, [ids("QD 3H 7S")], [*ids("3S 9S 7H"), Build(tuple(ids("5H 2C")), 7, 1)])
    assert [move_name(m, state.table) for m in state.legal_moves()] == [
        "trail QD", "QD takes 3S 9S", "trail 3H", "3H takes 3S", "build 3H on 9S to Q",
        "trail 7S", "7S takes 7H", "7S takes 5H+2C", "7S takes 7H 5H+2C"]
    assert repr(Move.capture(0, 5, 0b101)) == "Move.capture(0, 5, 0b101)"
    assert repr(Move.build(1, 5, 2, 12)) == "Move.build(1, 5, 2, 12)" and repr(Move.trail(0, 5)) == "Move.trail(0, 5)"
