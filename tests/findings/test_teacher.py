"""Rules read off a stronger player (`findings.teacher`): a teacher that plays a planted rule
has that rule read back, with nothing taken away from its moves; each condition of a rule
read back earns its place; asking the teacher changes no deal."""

from __future__ import annotations

import functools

import pytest

from simcasino.advice.conditions import parse_rule
from simcasino.core.rules import Rules
from simcasino.findings.discovery import CONDITIONS
from simcasino.findings.teacher import Candidate, read_rules, record_lessons, strategy
from simcasino.strategies import StrategySpec

PLANTED = "S6@table<=1"  # docs/rules.md §7, S6 (leave nothing the next player can sweep)


@functools.cache
def planted_lessons(rules: str) -> tuple:
    """Greedy's own positions, the teacher greedy made to follow `PLANTED`."""
    teacher = strategy(f"greedy:follow={PLANTED}")
    return tuple(record_lessons(Rules.preset(rules), 30, 5, teacher=teacher))


@pytest.mark.parametrize("rules", ["swedish", "finnish"])
def test_a_planted_rule_is_read_back_first_and_brings_every_move_it_changes_to_the_teachers(
    rules: str,
) -> None:
    lessons = planted_lessons(rules)
    differ = sum(lesson.pupil != lesson.teacher for lesson in lessons)
    assert differ > 10  # the rule decides some of the teacher's moves
    best = read_rules(lessons, CONDITIONS)[0]
    assert best == Candidate(parse_rule(PLANTED), differ, differ, 0)


def test_every_condition_of_a_rule_read_back_earns_its_place() -> None:
    lessons = planted_lessons("swedish")
    found = read_rules(lessons, CONDITIONS, tests=["S6", "F4"])
    scored = {c.rule.text: c.net for c in read_rules(lessons, CONDITIONS, tests=["S6", "F4"], depth=1)}
    assert found and all(c.net > 0 and c.changed >= c.toward + c.away for c in found)
    for candidate in found:
        if len(candidate.rule.when) == 1:
            plain = candidate.rule.prefer
            assert candidate.net > scored.get(plain, 0), candidate  # more than the test alone
    assert "S6@table<=1&table<=2" not in {c.rule.text for c in found}  # adds nothing


def test_the_lessons_are_the_deals_the_player_plays_whoever_is_asked() -> None:
    """The teacher draws from a stream of its own: the same deals with any teacher."""
    swedish = Rules.preset("swedish")
    by_search = record_lessons(swedish, 3, 8, teacher=StrategySpec("search"))
    by_random = record_lessons(swedish, 3, 8, teacher=StrategySpec("random"))
    assert [(x.deal, x.view, x.pupil) for x in by_search] == [(x.deal, x.view, x.pupil) for x in by_random]
    assert any(x.teacher != y.teacher for x, y in zip(by_search, by_random))


def test_the_pupil_may_meet_positions_another_plays() -> None:
    """Played by the heuristic: the pupil's move is asked, not played, where they differ."""
    lessons = record_lessons(Rules.preset("swedish"), 3, 8, teacher=StrategySpec("search"),
                             played_by=StrategySpec("heuristic"))
    assert all(lesson.pupil in lesson.view.moves for lesson in lessons)
    assert any(lesson.pupil != lesson.teacher for lesson in lessons)


def test_a_teacher_that_is_no_built_in_strategy_is_refused_in_one_line() -> None:
    with pytest.raises(ValueError, match="built-in strategies"):
        strategy("strategies/spade_hoarder.py")
