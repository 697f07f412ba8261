"""Rules read off a stronger player (`findings.teacher`): a teacher that plays a planted rule
has that rule read back, with nothing taken away from its moves; each condition of a rule
read back earns its place; asking the teacher changes no deal."""

from __future__ import annotations

import functools

import pytest
from helpers.cli import ok, table

from simcasino.advice.conditions import parse_rule
from simcasino.core.rules import Rules
from simcasino.findings.card import in_words
from simcasino.findings.discovery import CONDITIONS
from simcasino.findings.teacher import Candidate, read_rules, record_lessons, strategy
from simcasino.strategies import StrategySpec

PLANTED = "S6@table<=1"  # docs/rules.md §7, S6 (leave nothing the next player can sweep)


@functools.cache
def planted_lessons(rules: str) -> tuple:
    """Greedy's own positions, the teacher greedy made to follow `PLANTED`."""
    teacher = strategy(f"greedy:follow={PLANTED}")
    return tuple(record_lessons(Rules.preset(rules), 12, 5, teacher=teacher))


@pytest.mark.parametrize("rules", ["swedish", "finnish"])
def test_a_planted_rule_is_read_back_first_and_brings_every_move_it_changes_to_the_teachers(
    rules: str,
) -> None:
    lessons = planted_lessons(rules)
    differ = sum(lesson.pupil != lesson.teacher for lesson in lessons)
    assert differ > 5  # the rule decides some of the teacher's moves
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
    by_search = record_lessons(swedish, 2, 8, teacher=StrategySpec("search"))
    by_random = record_lessons(swedish, 2, 8, teacher=StrategySpec("random"))
    assert [(x.deal, x.view, x.pupil) for x in by_search] == [(x.deal, x.view, x.pupil) for x in by_random]
    assert any(x.teacher != y.teacher for x, y in zip(by_search, by_random))


def test_the_pupil_may_meet_positions_another_plays() -> None:
    """Played by the heuristic: the pupil's move is asked, not played, where they differ."""
    lessons = record_lessons(Rules.preset("swedish"), 2, 8, teacher=StrategySpec("search"),
                             played_by=StrategySpec("heuristic"))
    assert all(lesson.pupil in lesson.view.moves for lesson in lessons)
    assert any(lesson.pupil != lesson.teacher for lesson in lessons)


def test_a_teacher_that_is_no_built_in_strategy_is_refused_in_one_line() -> None:
    with pytest.raises(ValueError, match="a teacher or a pupil must be a built-in strategy"):
        strategy("strategies/spade_hoarder.py")


def test_the_teach_verb_prints_the_candidates_and_how_to_measure_one() -> None:
    result = ok("findings", "teach", "--rules", "finnish", "--deals", "2", "--seed", "3", "--top", "3")
    first = result.stdout.splitlines()[0]
    assert first.startswith("96 decisions of greedy in 2 deals of greedy (finnish rules, 2 players, seed 3)")
    rows = table(result.stdout)
    assert 0 < len(rows) <= 3 and all(int(r["net"]) == int(r["toward"]) - int(r["away"]) > 0 for r in rows)
    assert all(r["in words"] == in_words(r["rule"]) for r in rows)
    assert result.stdout.splitlines()[-1] == (
        f"measure one in play: simcasino compare 'greedy:follow={rows[0]['rule']}' greedy --rules finnish "
        "--decks 2000")
