"""Page 1 of a report answers in sentences that stay on the page: every text, as matplotlib
draws it, lies inside the page and overlaps no other (and on the glossary page), for every shipped spec (run small) and
for a spec of long arm names and many comparisons; arms are named in words that cannot be
misread (docs/reports.md). A matrix page only for a round robin (else its cells stand empty)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.paths import ROOT
from helpers.tiers import quick_tier
from matplotlib.backends.backend_agg import FigureCanvasAgg

from simcasino.core.rules import read_toml
from simcasino.experiment import run_experiment, spec_from_table
from simcasino.experiment.spec import load_spec
from simcasino.report.data import load
from simcasino.report.figures import cover_page, matrix_figure
from simcasino.report.glossary import glossary_page
from simcasino.report.text import in_words

SHIPPED = sorted(p for p in (ROOT / "experiments").glob("*.toml") if "vary" not in read_toml(p))
MATERIAL = ("heuristic:trail_points=0,trail_spades=0,trail_dead_rank=0,hold_twos=0,hold_tens=0,tabbe_denial=0,"
            "finnish_threats=0,lone_ace=0,storan_early=0,risky_storan=0")
LONG = {"name": "long-names", "seed": 3, "decks": 64, "games": 2, "chunk": 64, "rules": {"preset": "finnish"},
        "description": "every arm with a long name and several weights off, in a round robin of ten comparisons, "
                       "to see that page 1 wraps what it cannot fit on one line " * 2,
        "arms": {"the_full_heuristic_as_shipped": "heuristic",
                 "without_holding_twos_or_tens_or_careful_trailing":
                     "heuristic:hold_twos=0,hold_tens=0,trail_points=0,trail_spades=0,trail_dead_rank=0",
                 "material_only_no_advice_of_section_seven": MATERIAL,
                 "greedy_the_capturer_of_the_most_points_now": "greedy",
                 "the_finnish_advice_switched_off_and_ties_kept": "heuristic:finnish_threats=0,lone_ace=0,"
                                                                  "storan_early=0,hold_twos=2"},
        "compare": {"design": "round-robin"}, "stop": {"low": 0.0, "high": 0.05}, "margin": 0.5}


def assert_page_one_fits(folder: Path) -> None:
    data = load(folder)
    assert (matrix_figure(data) is None) == (data.spec.design != "round-robin" or len(data.spec.arms) <= 2)
    for fig in (cover_page(data), glossary_page(data)):
        renderer = FigureCanvasAgg(fig).get_renderer()
        page = fig.bbox
        boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in fig.texts if t.get_text().strip()]
        for text, box in boxes:
            assert page.x0 <= box.x0 and box.x1 <= page.x1 and page.y0 <= box.y0 and box.y1 <= page.y1, text
        for i, (text, box) in enumerate(boxes):
            for other, second in boxes[i + 1:]:
                assert not box.overlaps(second), (text, other)


@pytest.mark.parametrize("path", quick_tier(SHIPPED, SHIPPED[:1]), ids=[p.stem for p in SHIPPED])
def test_page_one_of_every_shipped_spec_fits(path: Path, tmp_path: Path) -> None:
    spec = load_spec(path)
    small = spec.replace(decks=64, chunk=64, games=min(spec.games, 2))
    assert_page_one_fits(run_experiment(small, tmp_path / "run", workers=1).folder)


def test_page_one_of_long_arm_names_fits(tmp_path: Path) -> None:
    assert_page_one_fits(run_experiment(spec_from_table(LONG), tmp_path / "run", workers=1).folder)


@pytest.mark.parametrize("strategy, words", [
    ("heuristic:hold_twos=0", "the heuristic without holding twos (S4)"),
    ("heuristic:hold_twos=0,hold_tens=0", "the heuristic without holding twos (S4) or holding tens (S5)"),
    ("heuristic:hold_tens=0,hold_twos=0,tabbe_denial=0",
     "the heuristic without holding tens (S5), holding twos (S4) or tabbe denial (S6)"),
    ("heuristic:trail_points=0,trail_spades=0,trail_dead_rank=0", "the heuristic without careful trailing (S1-S3)"),
    (MATERIAL, "the heuristic without any advice of §7 (on material alone)"),
    ("heuristic:hold_twos=3,hold_tens=0", "the heuristic without holding tens (S5) and with holding twos (S4) at 3"),
    ("greedy", "greedy"),
])
def test_arms_in_words(strategy: str, words: str) -> None:
    assert in_words(strategy) == words
