"""Rules with their conditions and strategy cards (`advice.conditions`, docs/rules.md "Advice
with conditions"): each condition on hand-built positions, the simple move tests on the rule
books' kind of examples, the kernel filter held to the Python one (`Follow`) on random
positions and whole deals, a rule that never applies leaving the free player's frames, and a
card file's rules followed in order.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.cli import ok, run
from helpers.hidden import deal_hidden
from helpers.positions import recorded_views
from helpers.scripted import find_move

import simcasino
from simcasino.advice.claims import BREAKS, FOLLOWS, SILENT, label
from simcasino.advice.conditions import MAX_RULES, Condition, Rule, encode, holds_in, parse_rule, read_card
from simcasino.advice.follow import Follow, allowed, set_aside_by
from simcasino.core.cards import parse_cards
from simcasino.core.notation import move_name
from simcasino.core.rules import Rules
from simcasino.loop.position import kernel_move
from simcasino.reference.state import position_view
from simcasino.strategies import parse_strategy

SWEDISH, FINNISH = Rules.preset("swedish"), Rules.preset("finnish")


def view_of(hand: str, table: str, seen: str = "", last_round: bool = False, rules: Rules = SWEDISH):
    return position_view(rules, parse_cards(hand), parse_cards(table), parse_cards(seen), last_round=last_round)


def test_a_rule_reads_back_from_its_text_and_its_code_holds_its_parts() -> None:
    rule = parse_rule("S6@last-round&table>2&points-out<=3")
    assert rule == Rule("S6", (Condition(1), Condition(5, 2), Condition(8, 3)))
    assert parse_rule(rule.text) == rule and rule.text == "S6@last-round&table>2&points-out<=3"
    assert encode(rule) == 6 | 1 << 8 | (5 | 2 << 8) << 24 | (8 | 3 << 8) << 40
    assert parse_rule("Lowest@STOCK<=8").text == "lowest@stock<=8"
    assert [c.words for c in parse_rule("capture@hand<=2&stock>16").when] == [
        "holding at most 2 cards", "while the stock has more than 16 cards"]


@pytest.mark.parametrize("text, message", [
    ("S9", "unknown rule 'S9'"), ("S6@moon", "unknown condition 'moon'"), ("S6@stock<8", "unknown condition"),
    ("S6@table>300", "at most 255"), ("S6@hand>1&hand>2&hand>3&hand>4", "at most 3 conditions"),
])
def test_a_bad_rule_is_refused_in_one_line(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_rule(text)


def test_each_condition_reads_what_the_player_sees() -> None:
    """The stock, the table, the hand, the point cards out of sight, the last round (R-LAST)."""
    view = view_of("2H 5C 9D", "3S 4H", seen="AS AH 10D")  # the cards nobody has seen lie in the stock
    assert view.stock_left == 52 - 3 - 2 - 3 and not view.last_round
    stock, table, hand, out = view.stock_left, 2, 3, 4 - 2 + 1  # AC AD and 2S are out of sight
    assert holds_in(view, parse_rule(f"S1@table<={table}&table>{table - 1}"))
    assert not holds_in(view, parse_rule(f"S1@table>{table}"))
    assert holds_in(view, parse_rule(f"S1@hand<={hand}")) and not holds_in(view, parse_rule(f"S1@hand<={hand - 1}"))
    assert holds_in(view, parse_rule(f"S1@points-out<={out}&points-out>{out - 1}"))
    assert holds_in(view, parse_rule(f"S1@stock<={stock}&stock>{stock - 1}"))
    assert not holds_in(view, parse_rule(f"S1@stock<={stock - 1}")) and not holds_in(view, parse_rule("S1@last-round"))
    assert holds_in(view_of("2H", "3S", last_round=True), parse_rule("S1@last-round"))
    assert holds_in(view, parse_rule("S1"))  # no condition: always


def test_lowest_prefers_the_trail_of_the_lowest_card_from_hand() -> None:
    """R-ACE-SE: a Swedish ace from hand plays as 1 or 14, so AS is the lowest of 3H AS KD;
    R-VAL-FI: a Finnish ace from hand plays as 14, so there 3H is."""
    view = view_of("3H AS KD", "JC")
    trail = {card: label("lowest", view, find_move(view, card)) for card in ("3H", "AS", "KD")}
    assert trail == {"3H": BREAKS, "AS": FOLLOWS, "KD": BREAKS}
    view = view_of("3H AS KD", "JC", rules=FINNISH)
    trail = {card: label("lowest", view, find_move(view, card)) for card in ("3H", "AS", "KD")}
    assert trail == {"3H": FOLLOWS, "AS": BREAKS, "KD": BREAKS}


def test_capture_and_points_say_what_their_names_say() -> None:
    view = view_of("5H 9D", "5S 4C AC")
    assert label("capture", view, find_move(view, "5H", "5S")) == FOLLOWS
    assert label("capture", view, find_move(view, "9D")) == BREAKS
    assert label("points", view, find_move(view, "5H", "4C AC")) == FOLLOWS  # 4 + 1 with a five: an ace
    assert label("points", view, find_move(view, "5H", "5S")) == BREAKS  # a capture of no point card
    assert label("points", view, find_move(view, "9D")) == BREAKS
    assert label("points", view_of("5H", "5S"), find_move(view_of("5H", "5S"), "5H", "5S")) == SILENT


def test_rules_apply_in_card_order_and_an_earlier_rule_wins() -> None:
    """lowest then capture: the trail kept is the lowest; capture then set aside every trail."""
    view = view_of("3H 9D 5C", "5S 2C")
    first = allowed([parse_rule("capture"), parse_rule("lowest")], view)
    assert {(m.card, m.is_trail) for m in first} == {(parse_cards("5C")[0], False)}
    second = allowed([parse_rule("lowest"), parse_rule("capture")], view)
    assert all(m.is_capture for m in second)  # lowest keeps 3H and the captures; capture then drops 3H
    assert allowed([parse_rule("capture@last-round")], view) == ()  # not the last round: no rule applied


def test_the_rule_that_sets_a_move_aside_is_the_first_to_drop_it() -> None:
    """capture then lowest: 3H (a trail) is dropped by capture; with lowest first, 9D by lowest."""
    view = view_of("3H 9D 5C", "5S 2C")
    trail = {move_name(m, view.table): m for m in view.moves}
    card = [parse_rule("capture"), parse_rule("lowest")]
    assert set_aside_by(card, view, trail["trail 3H"]) == parse_rule("capture")
    assert set_aside_by(card[::-1], view, trail["trail 9D"]) == parse_rule("lowest")
    assert set_aside_by(card, view, next(m for m in view.moves if m.is_capture)) is None


def test_a_move_is_set_aside_exactly_where_the_card_does_not_allow_it() -> None:
    card = read_card(Path(simcasino.__file__).parent / "advice" / "strategy_card.toml", "greedy")
    for view in (v for v in recorded_views(SWEDISH, deals=2) if v.chooser_for < 0):
        kept = allowed(card, view)
        for move in view.moves:
            assert (set_aside_by(card, view, move) is None) == (not kept or move in kept)


RULES = ["capture@stock>16", "lowest@table<=2&hand>1", "S6@points-out<=4", "points@stock<=8&table>2", "F1@last-round"]


@pytest.mark.parametrize("text", RULES)
def test_the_kernel_filter_chooses_the_python_filters_move(text: str) -> None:
    rules = FINNISH if text.startswith("F") else SWEDISH
    spec, python = parse_strategy(f"greedy:follow={text}"), Follow(parse_strategy("greedy").python(),
                                                                     [parse_rule(text)])
    views = [v for v in recorded_views(rules, deals=2) if v.chooser_for < 0]
    for view in views:
        hands, stock = deal_hidden(view, 1)
        assert kernel_move(view, spec, hands, stock) == python.choose(view), (text, view.hand, view.table)


def test_a_card_plays_the_same_deals_in_both_engines(tmp_path: Path) -> None:
    card = tmp_path / "card.toml"
    card.write_text("".join(f'[[rule]]\nrule = "{text}"\n' for text in RULES[:4]))
    lineup = (f"greedy:follow={card}", "heuristic")
    kernel = simcasino.simulate("swedish", lineup, deals=30, seed=7)
    assert kernel.equals(simcasino.simulate("swedish", lineup, deals=30, seed=7, engine="reference"))
    free = simcasino.simulate("swedish", ("greedy", "heuristic"), deals=30, seed=7)
    assert not kernel.drop("strategy").equals(free.drop("strategy"))


def test_a_rule_that_never_applies_plays_the_free_players_frames() -> None:
    """No hand holds more than four cards: the filter never sets a move aside."""
    follows = simcasino.simulate("swedish", ("greedy:follow=capture@hand>4", "greedy"), deals=200, seed=3)
    free = simcasino.simulate("swedish", ("greedy", "greedy"), deals=200, seed=3)
    assert follows.drop("strategy").equals(free.drop("strategy"))


def test_a_card_file_gives_each_level_and_game_its_rules(tmp_path: Path) -> None:
    card = tmp_path / "card.toml"
    card.write_text('[[rule]]\nrule = "S6@last-round"\nlevel = "greedy"\n[[rule]]\nrule = "lowest"\n'
                    '[[rule]]\nrule = "S2"\nlevel = "heuristic"\n[[rule]]\nrule = "F1"\ngame = "finnish"\n')
    assert [r.text for r in read_card(card, "greedy")] == ["S6@last-round", "lowest"]
    assert [r.text for r in read_card(card, "heuristic")] == ["lowest", "S2"]
    assert [r.text for r in read_card(card, "greedy", "finnish")] == ["F1"]
    too_many = tmp_path / "long.toml"
    too_many.write_text('[[rule]]\nrule = "S1"\n' * (MAX_RULES + 1))
    with pytest.raises(ValueError, match=f"13 rules for greedy; at most {MAX_RULES}"):
        read_card(too_many, "greedy")


def test_the_shipped_card_is_followed_by_name() -> None:
    shipped = Path(simcasino.__file__).parent / "advice" / "strategy_card.toml"
    spec = parse_strategy("greedy:follow=card")
    assert spec.rules() and spec.rules() == read_card(shipped, "greedy")
    finnish = parse_strategy("greedy:follow=card-finnish")
    assert finnish.rules() and finnish.rules() == read_card(shipped, "greedy", "finnish") != spec.rules()


@pytest.mark.parametrize("follow, message", [
    ("S6@moon", "follow=S6@moon in 'greedy:follow=S6@moon': unknown condition 'moon'"),
    ("nowhere.toml", "follow=nowhere.toml in 'greedy:follow=nowhere.toml': card nowhere.toml"),
    ("card-3p", "unknown card 'card-3p': the shipped cards are card, card-swedish, card-finnish"),
])
def test_bad_advice_on_the_command_line_is_one_line_exit_2(follow: str, message: str) -> None:
    result = run("simulate", "-s", f"greedy:follow={follow}", "-s", "greedy", "--deals", "2")
    assert result.exit_code == 2 and message in result.output and "Traceback" not in result.output


def test_compare_takes_a_rule_with_conditions() -> None:
    out = ok("compare", "greedy:follow=S6@last-round", "greedy", "--decks", "64").output
    assert "greedy:follow=S6@last-round" in out
