"""The heuristic's two forms, term by term: on positions from real play, every legal move's
term for every weight (and the points no weight scales) is the same in the kernel
(`heuristic.terms`, assembled by `kernel.move_terms`) as in the plain-Python twin, and the
kernel's choice values each move (the fast road of loose tables, or the builds road) exactly
as the twin does. And one tactic is one name: each weight is a kernel term, a Python method
and a hand-built test of the same name."""

from __future__ import annotations

import re

import pytest
from helpers.hidden import deal_hidden
from helpers.kernel_probes import heuristic_terms, heuristic_values
from helpers.paths import ROOT
from helpers.positions import recorded_views
from helpers.tiers import quick_tier

from simcasino.advice.sight import unseen_cards
from simcasino.core.rules import Rules
from simcasino.strategies import parse_strategy
from simcasino.strategies.heuristic import PARAMS, Heuristic, terms
from simcasino.strategies.heuristic.python import Play

RULE_SETS = {
    "swedish": Rules.preset("swedish"),
    "finnish-3": Rules.preset("finnish").replace(players=3),
    "mulle": Rules.preset("mulle"),  # two decks: mulles
    "misere": Rules.preset("misere"),  # the value changes sign
    "rakennuskasino": Rules.preset("rakennuskasino"),  # §6 builds
    "mulle_glimne": Rules.preset("mulle_glimne"),
}
WEIGHTS = ["heuristic",
           "heuristic:tabbe_denial=2,hold_twos=3,trail_points=0.5,trail_dead_rank=-0.3,lone_ace=1,risky_storan=4,builds=0"]


@pytest.mark.parametrize("name", quick_tier(RULE_SETS, ["misere", "rakennuskasino"]))
@pytest.mark.parametrize("strategy", WEIGHTS)
def test_every_term_of_every_move_matches_the_python_twin(name: str, strategy: str) -> None:
    spec = parse_strategy(strategy)
    python = spec.python()
    views = [v for v in recorded_views(RULE_SETS[name], deals=3) if v.chooser_for < 0]
    moves_checked, terms_seen = 0, set()
    for view in views[::3]:
        hands, stock = deal_hidden(view, 1)
        seen = unseen_cards(view)
        for move in view.moves:
            play = Play(view, move, seen)
            kernel_terms, kernel_fixed = heuristic_terms(view, spec, move, hands, stock)
            assert kernel_terms == python.terms(play), (view.hand, view.table, move)
            assert kernel_fixed == python.fixed(play), (view.hand, view.table, move)
            terms_seen |= {t for t, v in kernel_terms.items() if v}
            moves_checked += 1
    assert moves_checked > 100
    assert len(terms_seen) >= 5, terms_seen  # the positions exercise many terms, not only material


@pytest.mark.parametrize("name", RULE_SETS)
def test_the_kernel_choice_values_every_move_as_the_twin(name: str) -> None:
    spec = parse_strategy(WEIGHTS[1])
    python = spec.python()
    for view in [v for v in recorded_views(RULE_SETS[name], deals=2) if v.chooser_for < 0][::2]:
        hands, stock = deal_hidden(view, 2)
        seen = unseen_cards(view)
        values = heuristic_values(view, spec, hands, stock)
        assert values == {m: python.value(view, m, seen) for m in view.moves}, (view.hand, view.table)


def test_each_weight_is_one_kernel_term_one_python_method_and_a_test() -> None:
    """grep a weight's name: its kernel term, its Python twin, its hand-built test."""
    tests = "\n".join(path.read_text() for path in (ROOT / "tests").rglob("test_*.py"))
    for name in PARAMS:
        assert callable(getattr(terms, name, None)), f"no kernel term {name}"
        assert callable(getattr(Heuristic, name, None)), f"no Python twin {name}"
        assert re.search(rf"def test_{name}\w*\(", tests), f"no test named after {name}"
