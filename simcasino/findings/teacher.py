"""Rules read off a stronger player: where a teacher (the search) would play otherwise than a
pupil (greedy) at the positions the pupil meets, which rule a person can follow at the table
moves the pupil's play toward the teacher's?

Why this and not only the rule books' claims with conditions (`discovery`): the rule search
of the findings tries every claim under every condition and keeps what pays, but it has never
looked at what the strong player actually does differently. Here the teacher's own choices
point at the rules worth measuring.

A *lesson* is one decision of real play: the view of the seat to move, the pupil's move and
the teacher's move at the same position (the teacher asked, its move not played: the deal
goes on as ``played_by`` plays it, the pupil by default, so the positions are the ones the
pupil meets). A candidate rule is a move test of `advice.claims` with up to
`conditions.MAX_CONDITIONS` conditions (`advice.conditions`): where it applies and sets the
pupil's move aside, the pupil plays its own choice among the moves the rule allows
(`advice.follow.Follow`). Counted over the lessons where it changes the pupil's move:

- *toward*: the new move is the teacher's;
- *away*: the old move was the teacher's (the rule talks the pupil out of the teacher's move);
- *net* = toward − away: moves brought to the teacher's, less moves taken from it.

Every conjunction of the conditions is scored (`read_rules`), and a rule is kept only where
each of its conditions earns its place: its net exceeds that of every rule made of fewer of
its conditions. The net is a count of decisions, not a value in points: the candidates are
what the findings then measure in play, on decks that did not choose them (`discovery`).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from simcasino.advice.claims import preference_ids
from simcasino.advice.conditions import MAX_CONDITIONS, Condition, Rule, holds_in, parse_condition
from simcasino.advice.follow import allowed
from simcasino.core.protocol import Move, Stream, View, ask
from simcasino.core.rules import Rules
from simcasino.loop.seat import KernelSeat
from simcasino.reference.state import DealState
from simcasino.strategies import StrategySpec, built_in

PUPIL = StrategySpec("greedy")
TEACHER = StrategySpec("search")
TEACHER_STREAM = 0x7EAC  # the teacher draws from a stream of its own: asking it changes no deal


@dataclass(frozen=True)
class Lesson:
    """One decision of real play: the deal it belongs to, the view of the seat to move, and
    what the pupil and the teacher play there."""

    deal: int
    view: View
    pupil: Move
    teacher: Move


@dataclass(frozen=True)
class Candidate:
    """A rule and what it does to the pupil's play over the lessons (see the module
    docstring): ``changed`` moves, ``toward`` the teacher's, ``away`` from it."""

    rule: Rule
    changed: int
    toward: int
    away: int

    @property
    def net(self) -> int:
        return self.toward - self.away


def record_lessons(
    rules: Rules,
    deals: int,
    seed: int,
    pupil: StrategySpec = PUPIL,
    teacher: StrategySpec = TEACHER,
    played_by: StrategySpec | None = None,
    say: Callable[[int], None] = lambda _: None,
) -> list[Lesson]:
    """Every decision of every seat in ``deals`` deals of ``played_by`` (the pupil if None)
    against itself, the deals of ``seed`` as `simulate` numbers them, with the pupil's and the
    teacher's move (§6 Misère picks left out); ``say`` is told each deal done."""
    played_by = played_by or pupil
    n = rules.players
    player = KernelSeat(played_by)
    student = KernelSeat(pupil, [played_by] * n)
    teachers = [
        KernelSeat(teacher, [teacher if k == s else played_by for k in range(n)]) for s in range(n)
    ]
    out: list[Lesson] = []
    for index in range(deals):
        state = DealState.new(rules, seed, index)
        stream, own = Stream(state.rng), Stream(state.rng ^ TEACHER_STREAM)
        while not state.is_over:
            view, before = state.observation(state.to_move), stream.state
            move = player.decide(state, stream)
            if view.chooser_for < 0:
                mine = move if pupil == played_by else student.decide(state, Stream(before))
                out.append(Lesson(index, view, mine, teachers[view.seat].decide(state, own)))
            state.apply(move)
        say(index + 1)
    return out


def read_rules(
    lessons: Sequence[Lesson],
    conditions: Sequence[str],
    pupil: StrategySpec = PUPIL,
    tests: Sequence[str] | None = None,
    depth: int = MAX_CONDITIONS,
) -> list[Candidate]:
    """Every move test of ``tests`` (all of `claims.preference_ids` if None) with every
    conjunction of up to ``depth`` of ``conditions`` (their texts, ``''`` skipped: the rule
    search's `discovery.CONDITIONS`), scored on ``lessons``; those whose every
    condition earns its place (see the module docstring) and that bring some move to the
    teacher's, best net first (then fewer conditions, then the test's order)."""
    when = [parse_condition(c) for c in conditions if c]
    holds = np.array([[_holds(lesson.view, c) for c in when] for lesson in lessons], dtype=bool)
    choose = pupil.python().choose
    out: list[Candidate] = []
    for test in tests or preference_ids():
        effect = np.array([_effect(test, lesson, choose) for lesson in lessons], dtype=np.int8)
        out += _conjunctions(test, when, effect.reshape(len(lessons), 2), holds, depth)
    return sorted(
        out, key=lambda c: (-c.net, len(c.rule.when), preference_ids().index(c.rule.prefer))
    )


def _holds(view: View, condition: Condition) -> bool:
    return holds_in(view, Rule("", (condition,)))


def _effect(test: str, lesson: Lesson, choose: Callable[..., Move]) -> tuple[int, int]:
    """What rule ``test`` (no condition) does to the pupil's move in ``lesson``: (1, 0) it
    brings the move to the teacher's, (0, 1) it takes it away from the teacher's, (1, 1) it
    changes the move and neither is the teacher's (a change of no use), (0, 0) no change."""
    view = lesson.view
    kept = allowed((Rule(test),), view)
    if not kept or lesson.pupil in kept:
        return 0, 0
    new = ask(choose, replace(view, moves=kept), None)
    if new == lesson.teacher:
        return 1, 0
    return (0, 1) if lesson.pupil == lesson.teacher else (1, 1)


def _conjunctions(
    test: str, when: list[Condition], effect: np.ndarray, holds: np.ndarray, depth: int
) -> list[Candidate]:
    """``test`` under each conjunction of up to ``depth`` conditions (indices into ``when``,
    columns of ``holds``), kept where every condition earns its place."""
    changed = effect.any(axis=1)
    toward = (effect[:, 0] == 1) & (effect[:, 1] == 0)
    away = (effect[:, 0] == 0) & (effect[:, 1] == 1)
    net: dict[tuple[int, ...], int] = {(): int(toward.sum()) - int(away.sum())}
    out = []
    for size in range(depth + 1):
        for combo in itertools.combinations(range(len(when)), size):
            applies = holds[:, list(combo)].all(axis=1) if combo else np.ones(len(holds), bool)
            net[combo] = int((toward & applies).sum()) - int((away & applies).sum())
            earned = all(net[combo] > net[sub] for sub in _fewer(combo))
            if earned and net[combo] > 0:
                rule = Rule(test, tuple(when[k] for k in combo))
                out.append(
                    Candidate(
                        rule,
                        int((changed & applies).sum()),
                        int((toward & applies).sum()),
                        int((away & applies).sum()),
                    )
                )
    return out


def _fewer(combo: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The conjunctions made of fewer of ``combo``'s conditions (each already scored)."""
    return [sub for size in range(len(combo)) for sub in itertools.combinations(combo, size)]


def strategy(text: str) -> StrategySpec:
    """A pupil's or a teacher's text: a kernel strategy (ValueError in one line otherwise)."""
    return built_in(text, "a teacher or a pupil")
