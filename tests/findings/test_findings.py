"""The findings (`simcasino.findings`): the contested-position judge against positions whose
answer is known, the paired choice, the clustered means, the one family of intervals and its
coverage on simulated families of a page's size, the words, and the `findings run` verb's
bad input. (The move tests themselves: tests/advice/test_claims.py.)"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest
from helpers.cards import ids
from helpers.cli import run
from helpers.positions import position_deal

from simcasino.advice.claims import CLAIMS, claims_of, label
from simcasino.core.rules import Rules
from simcasino.findings import Budget, run_findings, write_page
from simcasino.findings.contest import Position, judge, paired_gain, stage_of
from simcasino.findings.run import PLAYERS
from simcasino.findings.verdict import Family, Measured, clustered_mean, words
from simcasino.loop.seat import deal_history
from simcasino.reference.state import DealState

SWEDISH = Rules.preset("swedish")


def test_every_claim_of_the_rule_book_is_registered() -> None:
    assert [c.id for c in CLAIMS] == ["S1", "S2", "S3", "S4", "S5", "S6", "S7", "S8", "F1", "F2", "F3", "F4", "F5"]
    assert {c.id for c in claims_of("swedish")} | {c.id for c in claims_of("finnish")} == {c.id for c in CLAIMS}


def _endgame(hand: str, other: str, table: str) -> DealState:
    """Two players in the last round, the stock empty: every card not in a hand or on the
    table lies in a pile (half each), so nothing is hidden and the judge solves exactly."""
    state = position_deal(SWEDISH, hand, table, last_round=True, others={1: other})
    used = set(ids(hand)) | set(ids(other)) | set(ids(table))
    rest = [c for c in range(52) if c not in used]
    return DealState.position(SWEDISH, state.hands, list(state.table), {c: k % 2 for k, c in enumerate(rest)},
                              to_move=0, last_round=True)


def _best_margin(state: DealState, seat: int) -> int:
    """The deal's margin for ``seat`` with both players playing perfectly (brute force)."""
    if state.is_over:
        seats = state.result().seats
        return seats[seat].points - seats[1 - seat].points
    values = []
    for move in state.legal_moves():
        after = state.clone()
        after.apply(move)
        value = _best_margin(after, seat)
        values.append(value)
    return max(values) if state.to_move == seat else min(values)


def test_the_judge_gives_the_known_answer_where_nothing_is_hidden() -> None:
    """S1 in an endgame solved by brute force: the gain is the best following move's exact
    margin less the best breaking move's (no error: ``exact``)."""
    state = _endgame("AH 5C", "7D 9S", "KD 4S")
    view = state.observation(0)
    truth = {}
    for move in view.moves:
        after = state.clone()
        after.apply(move)
        truth[move] = _best_margin(after, 0)
    follows = [truth[m] for m in view.moves if label("S1", view, m) == 1]
    breaks = [truth[m] for m in view.moves if label("S1", view, m) == -1]
    assert follows and breaks
    position = Position(0, stage_of(state), view, state.hands, [], deal_history(state), view.moves[0])
    (judged,) = judge(position, ["S1"], 8, 1)
    assert judged.exact and judged.se == 0
    assert judged.gain == max(follows) - max(breaks)
    assert judged.stage == "last"


def test_the_paired_gain_chooses_on_one_stream_and_values_on_the_other() -> None:
    choose = np.array([[5.0, 0.0, 1.0], [5.0, 0.0, 1.0]])  # move 0 looks best of the followers, 2 of the breakers
    value = np.array([[1.0, 9.0, 0.0], [3.0, 9.0, 2.0]])  # ... but is valued here
    gain, se = paired_gain(choose, value, follows=[0, 1], breaks=[2])
    assert gain == pytest.approx(1.0) and se == pytest.approx(0.0)  # (1 - 0, 3 - 2): paired, no spread


def test_the_clustered_standard_error_is_that_of_the_deals() -> None:
    """Positions of one deal move together: with every deal's positions equal, the clustered
    standard error is that of the 3 deal means (not of 6 independent positions)."""
    m = clustered_mean([1, 1, 3, 3, 5, 5], [0, 0, 1, 1, 2, 2])
    assert m.mean == 3 and m.se == pytest.approx(np.std([1, 3, 5], ddof=1) / np.sqrt(3)) and m.clusters == 3
    assert np.isnan(clustered_mean([1, 2, 3], [4, 4, 4]).se)  # one deal: nothing to judge by


@pytest.mark.parametrize("size", [40, 300])
def test_the_family_covers_every_true_value_together_about_95_percent(size: int) -> None:
    """Simulated pages of ``size`` normal estimates (true value 0, standard errors 0.5-2):
    in about 95% of them every interval of the family covers the truth (Bonferroni: a little
    over, never under)."""
    rng = np.random.default_rng(size)
    family = Family(size)
    se = np.linspace(0.5, 2.0, size)
    estimates = rng.normal(0.0, se, size=(4000, size))
    covered = np.mean(np.all(np.abs(estimates) <= family.z * se, axis=1))
    assert 0.94 <= covered <= 0.962
    assert Family(1).z == pytest.approx(1.95996, abs=1e-4)


def test_the_words_follow_the_family_interval() -> None:
    family = Family(100)  # z about 3.48
    assert words(Measured(0.5, 0.1, 400, 40), family, 0.05, "deal").startswith("gains 0.500 points a deal [+0.15")
    assert words(Measured(-0.5, 0.1, 400, 40), family, 0.05, "deal").startswith("loses 0.500")
    assert words(Measured(0.001, 0.005, 400, 40), family, 0.05, "deal").startswith("no effect larger than ±0.05")
    assert words(Measured(0.1, 0.1, 400, 40), family, 0.05, "deal").startswith("cannot tell (+0.100")
    assert words(Measured(0.9, 0.1, 4, 2), family, 0.05, "position", rare=10) == "too rare to judge (4 positions)"


@pytest.mark.parametrize("option", ["--out", "--docs"])
def test_a_bad_folder_is_one_error_line(tmp_path: Path, option: str) -> None:
    afile = tmp_path / "afile"
    afile.write_text("")
    for bad in (afile, afile / "below"):
        result = run("findings", "run", "--quick", option, str(bad))
        assert result.exit_code == 2
        assert result.output.startswith("error: ") and result.output.count("\n") == 1, result.output
        assert "Traceback" not in result.output


def test_a_budget_can_play_fewer_decks_where_a_deal_costs_most() -> None:
    from simcasino.findings.page import _decks_by_count

    budget = Budget("b", {"greedy": 10, "heuristic": 10, "search": 12}, {"greedy": PLAYERS, "heuristic": PLAYERS,
                    "search": PLAYERS}, {2: 1, 3: 1, 4: 1}, 4, 1, decks_at={"search": {4: 5}})
    assert [budget.arm_decks("search", p) for p in PLAYERS] == [12, 12, 5]
    assert _decks_by_count(budget, "search") == [(12, [2, 3]), (5, [4])]
    assert _decks_by_count(budget, "greedy") == [(10, [2, 3, 4])]


@pytest.mark.slow
def test_a_tiny_findings_run_writes_the_page_in_its_folder_and_resumes(tmp_path: Path) -> None:
    """Every part into one folder, the page (every claim's verdict, the family's size), its
    figures; run again, everything is read back from the folder."""
    budget = Budget("tiny", {"greedy": 32, "heuristic": 32, "search": 2},
                    {"greedy": PLAYERS, "heuristic": PLAYERS, "search": (2,)}, {2: 2, 3: 1, 4: 1}, 4, 1)
    first = run_findings(tmp_path / "run", budget, say=lambda _: None, workers=1)
    page = write_page(first, tmp_path / "run", "abc1234", "tiny").read_text()
    assert all(f"**{c.id}, {c.tactic}**" in page for c in CLAIMS)
    assert "commit abc1234" in page and "These are the figures of the quick run" in page
    assert {p.name for p in (tmp_path / "run").glob("*.p[nd][gf]")} == {
        "findings-swedish.png", "findings-finnish.png"}
    made = json.loads((tmp_path / "run" / "provenance.json").read_text())
    assert made.keys() == json.loads((tmp_path / "run" / "seconds.json").read_text()).keys()
    assert all(m.startswith("commit ") and "; numba " in m for m in made.values())
    answers = json.loads((tmp_path / "run" / "findings.json").read_text())
    assert answers["commit"] == "abc1234" and answers["family"] > 0 and answers["made"] == made
    assert {(a["claim"], a["level"]) for a in answers["adopting"]} >= {("S6", "greedy"), ("F1", "search")}
    assert all(a["verdict"] in ("adopt it", "don't", "either way", "unproven") for a in answers["adopting"])
    again = run_findings(tmp_path / "run", budget, say=lambda _: None, workers=1)
    assert again.worths == first.worths and again.judged == first.judged and again.seconds == first.seconds
    assert list(itertools.chain(*first.judged.values()))  # some position was contested and judged
    judged = list(itertools.chain(*first.judged.values()))
    assert all(np.isfinite(j.changed) == j.played_breaks and np.isfinite(j.shuffled) for j in judged)
    assert "labels shuffled" in page and "its own move changed" in page and "better / worse" not in page
    s1 = next(line for line in page.splitlines() if line.startswith("- **S1,"))
    assert "a club player (greedy): 2p either way (+0.00)" in s1 and "(no move changed in 1 deal)" in s1  # greedy never
    # trails a point card it can keep: the filter has nothing to change
