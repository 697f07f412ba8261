"""§6 Builds (Rakennuskasino, Glimne's Mulle) on the reference engine, rule by rule.

docs/rules.md gives the build rules as bullets under "Builds (Rakennuskasino)" in §6; each test
cites its bullet as "§6 Builds: …", Glimne's Mulle as "§6 Mulle (Glimne)". The readings of
points the rule book leaves open are those of `simcasino.reference.builds`.
"""

from __future__ import annotations

import pytest
from helpers.cards import codes, ids
from helpers.piles import score_piles

import simcasino
from simcasino.cli.deals import replay_line
from simcasino.core.protocol import Move
from simcasino.core.rng import seed_key
from simcasino.core.rules import FINNISH, MULLE, PRESETS, SWEDISH, Rules
from simcasino.core.table import Build, item_code
from simcasino.reference.deal import score_deal
from simcasino.reference.game import single_deal
from simcasino.reference.state import DealState
from simcasino.strategies.greedy import Greedy

RAKENNUS = Rules.preset("rakennuskasino")
GLIMNE = Rules.preset("mulle_glimne")


def build(cards: str, value: int, owner: int, double: bool = False) -> Build:
    return Build(tuple(ids(cards)), value, owner, double)


def deal_at(rules: Rules, hand: str, table: list, seat: int = 0, others: dict[int, str] | None = None,
            last_round: bool = False) -> DealState:
    """A deal with ``hand`` for ``seat`` (to move), ``table`` items (codes or `Build`s) on the
    table, and ``others``' hands."""
    hands = [ids((others or {}).get(s, "")) for s in range(rules.players)]
    hands[seat] = ids(hand)
    items = [ids(item)[0] if isinstance(item, str) else item for item in table]
    return DealState.position(rules, hands, items, to_move=seat, last_round=last_round)


def moves(deal: DealState, seat: int = 0) -> list[str]:
    """Every legal move of ``seat`` (to move) in words: ``7C``, ``7C takes 5H``, ``7C builds 12 on 0``."""
    assert deal.to_move == seat
    out = []
    for m in deal.legal_moves():
        card = codes([m.card])[0]
        if m.is_build:
            out.append(f"{card} builds {m.value} on {m.target}")
        elif m.is_capture:
            out.append(f"{card} takes " + " ".join(str(i) for i in range(len(deal.table)) if m.taken >> i & 1))
        else:
            out.append(card)
    return out


def play(deal: DealState, seat: int, text: str) -> None:
    """Apply the legal move written as in `moves`."""
    for m, words in zip(deal.legal_moves(), moves(deal, seat)):
        if words == text:
            deal.apply(m)
            return
    raise AssertionError(f"{text!r} is not legal: {moves(deal, seat)}")


# --- the rules knobs and presets --------------------------------------------------------------


def test_presets_rakennuskasino_and_glimne():
    """§6 Builds (Rakennuskasino, Finnish) and §6 Mulle (Glimne): the preset knobs."""
    assert RAKENNUS.builds and (
        RAKENNUS.replace(builds=False).replace(name="finnish", description=FINNISH.description) == FINNISH
    )
    assert (GLIMNE.decks, GLIMNE.hand_cards, GLIMNE.table_cards, GLIMNE.players) == (2, 4, 8, 2)
    assert (GLIMNE.ace_hand, GLIMNE.ace_table,
            GLIMNE.small_kasino_hand, GLIMNE.big_kasino_hand) == ((14,), (1,), 15, 16)
    assert GLIMNE.builds and GLIMNE.mulle_within and GLIMNE.mulle_value
    assert GLIMNE.replace(players=4, partnership=2).units == 2


@pytest.mark.parametrize("preset", ["misere", "krypkasino"])
def test_builds_refused_with_misere(preset):
    """§6 Builds: "any variant but Misère"; one line naming the knob."""
    with pytest.raises(ValueError, match="^rule knob 'builds' does not combine with 'low_wins'[^\n]*$"):
        Rules.preset(preset).replace(builds=True)


def test_builds_with_swedish_rules_and_penalty_knob():
    """§6 Builds: usable with Swedish rules; the −5 penalty is an option that needs builds."""
    swedish = SWEDISH.replace(builds=True, build_penalty=-5)
    assert swedish.builds and swedish.build_penalty == -5
    with pytest.raises(ValueError, match="'build_penalty' needs builds"):
        SWEDISH.replace(build_penalty=-5)
    with pytest.raises(ValueError, match="must be from -100 to 0"):
        RAKENNUS.replace(build_penalty=5)
    with pytest.raises(ValueError, match="'must_capture_max'"):
        SWEDISH.replace(builds=True, must_capture_max=True)


# --- making a build -------------------------------------------------------------------------------


def test_build_onto_a_card_declaring_a_value_held():
    """§6 Builds: a card from hand onto a table card forms a build of the stated value (7 onto
    5, "building queen"), and the builder must hold a card of that value."""
    deal = deal_at(RAKENNUS, "7C QH", ["5H", "9D"])
    assert "7C builds 12 on 0" in moves(deal)
    assert "7C builds 16 on 1" not in moves(deal)  # no 10♦ held
    play(deal, 0, "7C builds 12 on 0")
    assert deal.table == [build("5H 7C", 12, 0), ids("9D")[0]]
    assert deal.tally.builds == [1, 0] and deal.tally.unheld == [0, 0]
    alone = deal_at(RAKENNUS, "7C 7D", ["5H"])
    assert [m for m in moves(alone) if "builds" in m] == []  # the 7 played cannot be the 12 held


def test_build_values_count_the_cards_table_values():
    """§6 Builds with R-VAL-FI: in a build the played card lies on the table, so an ace counts
    1, 2♠ 2 and 10♦ 10 (Finnish); a Swedish ace 1 or 14 (R-ACE-SE)."""
    finnish = deal_at(RAKENNUS, "AH 6C 2S QD", ["5D", "10H"])
    assert ([m for m in moves(finnish) if m.startswith(("AH", "2S")) and "builds" in m]
            == ["AH builds 6 on 0", "2S builds 12 on 1"])
    swedish = deal_at(SWEDISH.replace(builds=True), "AH 6C KS", ["5D", "KC"])
    assert [m for m in moves(swedish) if m.startswith("AH") and "builds" in m] == ["AH builds 6 on 0"]
    ace_high = deal_at(SWEDISH.replace(builds=True), "KS AD", ["AH"])
    assert "KS builds 14 on 0" in moves(ace_high)  # K onto an ace: 1 + 13 = 14, taken by the ace


def test_builds_on_the_point_cards():
    """§6 Builds: builds may be made on the point cards (2♠, 10♦); whoever takes the build
    takes the kasino (Finnish: scored at capture)."""
    deal = deal_at(RAKENNUS, "5H 7C", ["2S", "10D"], others={1: "7D 3C"})
    assert "5H builds 7 on 0" in moves(deal)
    play(deal, 0, "5H builds 7 on 0")
    play(deal, 1, "7D takes 0")
    assert deal.tally.owner[ids("2S")[0]] == 1 and deal.immediate == [0, 1]
    onto_ten = deal_at(RAKENNUS, "2H QC", ["10D"])
    assert moves(onto_ten) == ["2H", "2H builds 12 on 0", "QC"]


def test_build_penalty_rule_allows_unheld_builds_at_a_cost():
    """§6 Builds: building without holding the value costs −5 points; without the option a
    simulator forbids it."""
    rules = RAKENNUS.replace(build_penalty=-5)
    deal = deal_at(rules, "7C 3D", ["5H"])
    assert [m for m in moves(deal) if m.startswith("7C")] == ["7C", "7C builds 12 on 0"]
    play(deal, 0, "7C builds 12 on 0")
    assert deal.tally.unheld == [1, 0]
    row = score_deal(deal.rules, deal.tally).seats[0]
    assert (row.builds, row.unheld_builds) == (1, 1)
    assert row.points - row.spades_points - row.cards_points == -5  # (nobody took a card: spades tied)
    held = deal_at(rules, "7C QD", ["5H"])
    play(held, 0, "7C builds 12 on 0")
    assert held.tally.unheld == [0, 0]


def test_identical_loose_cards_give_one_build():
    """R-DECK with §6 Builds: two identical table cards are interchangeable, so building on
    either is listed once (on the first)."""
    deal = deal_at(GLIMNE, "3C 8H", ["5H", "5H'"])
    assert [m for m in moves(deal) if "builds" in m] == ["3C builds 8 on 0"]


# --- capturing builds ---------------------------------------------------------------------------


def test_build_taken_whole_and_only_by_its_value():
    """§6 Builds: a build is captured only as a whole, only by a card of its value, alone or
    with other groups; it never joins loose cards in a sum."""
    table = [build("5H 7C", 12, 1), "9D", "3S", "2C"]
    deal = deal_at(RAKENNUS, "QD 5S 7S 9H", table)
    assert [m for m in moves(deal) if "takes" in m] == ["QD takes 0", "QD takes 1 2", "QD takes 0 1 2", "5S takes 2 3",
                                                         "9H takes 1"]
    play(deal, 0, "QD takes 0 1 2")
    assert deal.tally.owner == {c: 0 for c in ids("5H 7C 9D 3S QD")}
    assert deal.table == ids("2C")


def test_build_value_is_never_part_of_a_sum():
    """§6 Builds: a build of 5 and a loose 4 are not a 9."""
    deal = deal_at(RAKENNUS, "9H", [build("2H 3C", 5, 1), "4D"])
    assert moves(deal) == ["9H"]


def test_finnish_build_values_from_hand():
    """§6 Builds with R-VAL-FI: a build of 10 is not taken by 10♦ (16 from hand); a build of
    16 is, and a build of 14 is taken by an ace."""
    deal = deal_at(RAKENNUS, "10D 10C AH", [build("4H 6C", 10, 1), build("9H 7C", 16, 1), build("KC AS", 14, 1)])
    assert [m for m in moves(deal) if "takes" in m] == ["10D takes 1", "10C takes 0", "AH takes 2"]


def test_capturing_the_last_build_is_a_tabbe():
    """R-TABBE with §6 Builds: a capture that leaves neither cards nor builds is a tabbe."""
    deal = deal_at(RAKENNUS, "QD", [build("5H 7C", 12, 1)])
    play(deal, 0, "QD takes 0")
    assert (deal.tally.sweeps, deal.tally.scored_sweeps, deal.table) == ([1, 0], [1, 0], [])


# --- raising and doubling -------------------------------------------------------------------------


def test_any_player_may_raise_a_single_build_holding_the_new_value():
    """§6 Builds: any player may increase a single build if they hold the new value; the
    build becomes theirs."""
    deal = deal_at(RAKENNUS, "2C KS", [build("5H 6C", 11, 0)], seat=1)
    assert "2C builds 13 on 0" in moves(deal, 1)
    play(deal, 1, "2C builds 13 on 0")
    assert deal.table == [build("5H 6C 2C", 13, 1)]
    short = deal_at(RAKENNUS, "2C 9D", [build("5H 6C", 11, 0)], seat=1)
    assert [m for m in moves(short, 1) if "builds" in m] == []


def test_double_build_is_not_increased():
    """§6 Builds: a build and a card of the same value joined make a double build, which can
    no longer be increased (a card of its value may still be added)."""
    deal = deal_at(RAKENNUS, "QD QS", [build("5H 7C", 12, 0)], seat=1)
    assert "QD builds 12 on 0" in moves(deal, 1)
    play(deal, 1, "QD builds 12 on 0")
    assert deal.table == [build("5H 7C QD", 12, 1, double=True)]
    raise_it = deal_at(RAKENNUS, "AH KC QH QC", deal.table, seat=0)
    builds = [m for m in moves(raise_it, 0) if "builds" in m]
    assert builds == ["QH builds 12 on 0", "QC builds 12 on 0"]  # no ace raising it to K; a queen added
    play(raise_it, 0, "QH builds 12 on 0")
    assert raise_it.table == [build("5H 7C QD QH", 12, 0, double=True)]


def test_raising_a_build_onto_a_double_value_is_a_raise_not_a_double():
    """§6 Builds: a single build of 6 with a 6 from hand is a double of 6, or a raise to 12."""
    deal = deal_at(RAKENNUS, "6D 6S QH", [build("2H 4C", 6, 1)])
    assert [m for m in moves(deal) if m.startswith("6D") and "builds" in m] == ["6D builds 6 on 0", "6D builds 12 on 0"]


# --- the builder's obligation ---------------------------------------------------------------


def test_builder_must_take_increase_or_capture_something_else():
    """§6 Builds: a player with a build on the table must, on the next turn, take it,
    increase it, or capture something else: no plain trailing, no new build elsewhere."""
    table = [build("5H 2C", 7, 0), "9D", "4S"]
    deal = deal_at(RAKENNUS, "7D 9H 3C 10S", table)
    assert moves(deal) == ["7D takes 0", "9H takes 1", "3C builds 10 on 0"]  # not 3C onto 4S: 7
    other = deal_at(RAKENNUS, "7D 9H 3C 10S", [build("5H 2C", 7, 1), "9D", "4S"])
    assert "7D" in moves(other) and "3C builds 7 on 2" in moves(other)  # not obliged


def test_builder_with_nothing_to_do_trails():
    """§6 Builds (reading): a builder who can neither take, increase nor capture still plays
    a card (R-TURN): it trails."""
    deal = deal_at(RAKENNUS, "2D 3H", [build("5H 2C", 7, 0), "KD"])
    assert moves(deal) == ["2D", "3H"]


# --- end of deal, scoring, columns -------------------------------------------------------------


def test_builds_left_at_the_end_go_to_the_last_capturer():
    """R-SISTAN with §6 Builds (reading): builds left on the table go with the leftover cards."""
    deal = deal_at(RAKENNUS, "9H", [build("5H 7C", 12, 0), "3D"], last_round=True)
    deal.tally.last_capturer = 1
    deal.apply(Move.trail(0, ids("9H")[0]))  # the deal's last card
    assert deal.is_over and deal.tally.owner == {c: 1 for c in ids("5H 7C 3D 9H")} and deal.table == []


def test_builds_column_counts_every_build_move():
    """§6 Builds: the `builds` column counts builds made, raises and doubles, per seat."""
    deal = deal_at(RAKENNUS, "3C 7H", ["4D"], others={1: "2S 9S"})
    play(deal, 0, "3C builds 7 on 0")
    play(deal, 1, "2S builds 9 on 0")
    play(deal, 0, "7H")  # the build is seat 1's now: seat 0 may trail
    assert [s.builds for s in score_deal(deal.rules, deal.tally).seats] == [1, 1]


@pytest.mark.parametrize("preset", [p for p in PRESETS if not PRESETS[p].builds])
def test_builds_column_zero_without_builds(preset):
    """§6: in every rule set without builds no seat makes a build."""
    frame = simcasino.simulate(preset, ("greedy", "random"), deals=3, seed=2, engine="reference")
    assert (frame["builds"] == 0).all() and (frame["unheld_builds"] == 0).all()


def test_replay_shows_builds():
    """§6 Builds: a build reads [cards=value by seat] in the move log."""
    assert item_code(build("5H 7C", 12, 0)) == "[5H+7C=Q by seat 0]"
    assert item_code(build("5H 7C QD", 12, 1, True)) == "[5H+7C+QD=Q double by seat 1]"
    deal = deal_at(RAKENNUS, "AH KS", [build("5H 7C", 12, 1), "3D"])
    view = deal.observation(0)
    raise_move = next(m for m in view.moves if m.value == 13)
    assert replay_line(view, deal.apply(raise_move)) == (
        "seat 0 [AH KS] table [[5H+7C=Q by seat 1] 3D]: build AH on 5H+7C to K")
    assert item_code(deal.table[0]) == "[5H+7C+AH=K by seat 0]"  # the table the next line shows


# --- Glimne's Mulle -------------------------------------------------------------------------------


def test_glimne_deal_four_each_and_eight_to_the_table():
    """§6 Mulle (Glimne): first deal 4 each and 8 to the table, then 4 each (two decks)."""
    log = []

    class Log(Greedy):
        def choose(self, view):
            log.append(view)
            return super().choose(view)

    single_deal(GLIMNE, [Log(), Log()], seed_key(4), 0)
    assert (len(log[0].hand), len(log[0].table)) == (4, 8)
    assert len(log) == 96 and all(len(v.hand) == 4 for v in log[::8])


def test_glimne_mulle_is_any_capture_with_the_identical_card():
    """§6 Mulle (Glimne): a mulle is any capture that includes a card identical to the played
    one, worth the played card's capture value: 6♥ taking 6♥ + 2 + 4 scores 6, the ace-mulle
    A♥ (14) taking A♥ (1) + K scores 14; Sassarson's mulle needs the twin alone."""
    deal = deal_at(GLIMNE, "6H'", ["6H", "2C", "4D"])
    play(deal, 0, "6H takes 0 1 2")
    assert (deal.tally.mulles, deal.tally.mulle_scores) == ([1, 0], [6, 0])
    ace = deal_at(GLIMNE, "AH'", ["AH", "KC"])
    assert moves(ace) == ["AH", "AH takes 0 1"]
    play(ace, 0, "AH takes 0 1")
    assert ace.tally.mulle_scores == [14, 0]
    sassarson = deal_at(MULLE, "6H'", ["6H", "2C", "4D"])
    play(sassarson, 0, "6H takes 0 1 2")
    assert sassarson.tally.mulles == [0, 0]


def test_glimne_mulle_inside_a_build():
    """§6 Mulle (Glimne) with §6 Builds: the identical card may lie in the build taken."""
    deal = deal_at(GLIMNE, "AH'", [build("KC AH", 14, 1)])
    play(deal, 0, "AH takes 0")
    assert deal.tally.mulle_scores == [14, 0]


def test_glimne_scoring():
    """§6 Mulle (Glimne): 10♦ 3, 2♠ 2, A♠ 2, every other spade 1, each tabbe 1, each mulle
    its value; no most-cards, most-spades or sistan points, other aces nothing."""
    result = score_piles(GLIMNE, {0: "AS 2S 3S 10D AH"}, rest_to=1, last_capturer=1, sweeps=[1, 0])
    s0, s1 = result.seats
    assert s0.points == 2 + 2 + 1 + 3 + 1  # and the tabbe
    assert s0.spades_points == 3 + 1  # each spade, A♠ once more (2♠'s second point is its kasino point)
    assert s1.points == 36 - 8  # 18 a deck: 13 spades, A♠ and 2♠ one more each, 10♦ 3
    deal = deal_at(GLIMNE, "6H'", ["6H", "2C", "4D"])
    play(deal, 0, "6H takes 0 1 2")
    row = score_deal(deal.rules, deal.tally).seats[0]
    assert (row.mulles, row.mulles_points, row.points) == (1, 6, 6 + 1)  # the mulle and the tabbe


# --- greedy -------------------------------------------------------------------------------------


def test_greedy_builds_what_it_can_take_next_turn():
    """§6 Builds: with no capture greedy builds a value it holds rather than trail."""
    deal = deal_at(RAKENNUS, "3C QH 8S", ["9D", "KC"])
    move = Greedy().choose(deal.observation(0))
    assert move == Move.build(0, ids("3C")[0], 0, 12)
    off = Greedy(builds=False).choose(deal.observation(0))
    assert off == Move.trail(0, ids("3C")[0])


def test_greedy_raises_the_opponents_build():
    """§6 Builds: greedy raises an opponent's build when it holds the new value (its cards
    are worth more than a fresh build of its own)."""
    deal = deal_at(RAKENNUS, "2C KS 9H", [build("5S 6S", 11, 1), "3D"])
    move = Greedy().choose(deal.observation(0))
    assert move == Move.build(0, ids("2C")[0], 0, 13)


def test_greedy_takes_its_build():
    """§6 Builds: with its build on the table and the card of its value greedy takes it."""
    deal = deal_at(RAKENNUS, "QH 4D", [build("5H 7C", 12, 0), "KD"])
    move = Greedy().choose(deal.observation(0))
    assert move == Move.capture(0, ids("QH")[0], 0b01)
