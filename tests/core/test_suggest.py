"""A misspelt name is answered with the three nearest names at most, never the whole list, and
a true/false knob reads on/off, true/false and yes/no alike wherever rules are typed."""

from __future__ import annotations

import pytest

import simcasino
from simcasino.core.rules import knob_names
from simcasino.core.suggest import nearest, unknown
from simcasino.experiment import spec_from_table
from simcasino.strategies import parse_strategy
from tests.helpers.cli import ok


def test_the_nearest_names_are_three_at_most_and_closest_first() -> None:
    assert nearest("targte", knob_names())[0] == "target"
    assert len(nearest("s", ["sa", "sb", "sc", "sd", "se"])) == 3
    assert nearest("zzzzqq", knob_names()) == []
    assert unknown("strategy", "gredy", ["greedy", "random"], "x") == \
        "unknown strategy 'gredy': did you mean greedy? (all: x)"


SPEC = {"name": "x", "decks": 10, "arms": {"a": "greedy", "b": "random"}}


@pytest.mark.parametrize("call, meant", [
    (lambda: simcasino.Rules().replace(targte=21), "did you mean target"),
    (lambda: parse_strategy("heuristik"), "did you mean heuristic"),
    (lambda: simcasino.core.rules.from_table({"mokki_limt": 3}), "did you mean mokki_limit"),
    (lambda: simcasino.Rules.preset("swedsh"), "did you mean swedish"),
    (lambda: parse_strategy("heuristic:hold_twoz=0"), "did you mean hold_twos or hold_tens"),
    (lambda: parse_strategy("search:wrlds=8"), "did you mean worlds"),
    (lambda: spec_from_table(SPEC | {"sed": 3}, "spec"), "did you mean seed"),
    (lambda: spec_from_table(SPEC | {"stop": {"hihg": 0.1}}, "spec"), "did you mean high"),
    (lambda: simcasino.Rules().replace(max_capture="most_card"), "did you mean most_cards"),
    (lambda: simcasino.Rules().replace(must_capture_max="onn"), "did you mean on"),
])
def test_a_misspelling_suggests_and_lists_no_wall(call, meant: str) -> None:
    with pytest.raises(ValueError, match=meant) as caught:
        call()
    assert len(str(caught.value)) < 140 and "knobs are" not in str(caught.value)


def test_a_knob_value_near_no_choice_suggests_nothing() -> None:
    with pytest.raises(ValueError) as caught:
        simcasino.Rules().replace(spades_tie="xyz")
    assert str(caught.value) == "rule knob 'spades_tie' must be one of nobody, split, carry; got 'xyz'"


@pytest.mark.parametrize("word, meant", [("on", True), ("YES", True), ("true", True), ("off", False),
                                         ("no", False), ("False", False)])
def test_a_boolean_knob_takes_every_spelling(word: str, meant: bool) -> None:
    assert simcasino.Rules().replace(must_capture_max=word).must_capture_max is meant
    assert simcasino.core.rules.from_table({"must_capture_max": word}).must_capture_max is meant


def test_the_command_line_reads_on_for_a_rule_as_for_a_sweep() -> None:
    assert "must_capture_max      = true" in ok("rules", "show", "swedish", "--rule", "must_capture_max=on").stdout
