"""The rule search and the strategy card (`findings.discovery`, `findings.card`): the
candidates, the three seeds (no rule is judged on the decks that chose it), the forward
selection, the verdict words (equivalence first), and the shipped card reproducing its
figure from its seed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers.paths import ROOT

from simcasino.advice.claims import preference_ids
from simcasino.advice.conditions import parse_rule
from simcasino.core.rules import Rules
from simcasino.findings import discovery
from simcasino.findings.card import in_words, interval
from simcasino.findings.discovery import (
    QUICK,
    Measure,
    adoption_worth,
    discover,
    extended_rules,
    single_rules,
    table_rules,
    taught_rules,
)
from simcasino.findings.verdict import Family, Measured, adoption

TAUGHT = "S3@stock<=8&table<=2&hand>2"


def test_every_move_test_is_a_candidate_alone_and_under_each_condition() -> None:
    rules = single_rules()
    assert len(rules) == len(set(rules)) == len(preference_ids()) * len(discovery.CONDITIONS)
    assert all(parse_rule(t).text == t for t in rules)


def test_a_second_condition_reads_another_quantity_and_each_pair_is_one_rule() -> None:
    pairs = extended_rules(["S6@table<=1", "S6@last-round", "S6@stock<=8"])
    assert len(pairs) == len(set(pairs)) and "S6@last-round&table<=1" in pairs
    for text in pairs:
        first, second = parse_rule(text).when
        assert first.quantity != second.quantity  # never stock<=8&last-round (both the stock)


def test_the_verdict_checks_the_margin_before_the_sign() -> None:
    """A sure but tiny effect is "either way" (the interval inside ±δ), never "don't"."""
    one = Family(1)
    assert adoption(Measured(-0.002, 0.0005, 1000), one, 0.02) == "either way"
    assert adoption(Measured(0.30, 0.01, 1000), one, 0.02) == "adopt it"
    assert adoption(Measured(-0.30, 0.01, 1000), one, 0.02) == "don't"
    assert adoption(Measured(0.03, 0.05, 1000), one, 0.02) == "unproven"


def test_the_adoption_worth_is_compares_difference_per_deal() -> None:
    import simcasino

    mean, se = adoption_worth("greedy", "S6@last-round", Rules.preset("swedish"), 500, 3)
    result = simcasino.compare("greedy:follow=S6@last-round", "greedy", decks=500, seed=3)
    assert mean == pytest.approx(result.mean_diff, abs=1e-12)
    assert result.ci_low < mean - 1.9 * se < mean + 1.9 * se < result.ci_high + 1e-3


def test_screen_validate_and_card_each_play_their_own_seed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A rule chosen on the screening decks is judged on other decks, and the card on a third."""
    seen: list[tuple[str, str, int]] = []

    def worth(level: str, follow: str, rules: Rules, decks: int, seed: int) -> tuple[float, float]:
        seen.append((follow, rules.name, seed))
        if follow.endswith(".toml"):  # a card: each rule adds 0.1
            return 0.1 * Path(follow).read_text().count("[[rule]]"), 0.01
        return {"S3": 0.4, "S6@last-round": 0.2, "lowest": 0.1}.get(follow, -0.1), 0.01

    monkeypatch.setattr(discovery, "adoption_worth", worth)
    monkeypatch.setattr(discovery, "single_rules", lambda: ["S3", "S6@last-round", "lowest", "S1@hand<=1"])
    monkeypatch.setattr(discovery, "taught_rules", lambda *_: [TAUGHT, "S3"])  # one new, one screened
    found = discover("greedy", tmp_path, QUICK, say=lambda line: None)
    seeds = {follow: {seed for f, _, seed in seen if f == follow} for follow, _, _ in seen}
    assert seeds["S3"] == {QUICK.seed, QUICK.seed + 1}  # screened on one seed, validated on the next
    card = found.checks[""]["swedish"]
    assert seeds[card.follow] == {QUICK.seed, QUICK.seed + 2} and card.seed == QUICK.seed + 2  # chosen, then checked
    assert found.screened == 4 + len(extended_rules(["S6@last-round", "S1@hand<=1"])) + 1
    assert QUICK.seed in seeds[TAUGHT]  # the rule read off the search is screened with the rest
    assert all(m.made.startswith("commit ") for m in found.validated["S3"].values())  # its provenance
    assert found.cards[""] == ("S3", "S6@last-round", "lowest") and set(found.validated) >= set(found.cards[""])
    assert found.cards["finnish"] == found.cards[""] and found.checks["finnish"].keys() == {
        "finnish", "finnish-3p", "finnish-4p"}  # a card for each game, checked in that game only


def test_each_claims_refined_form_is_validated_beside_the_best(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With room for one best rule, S6's and S1's best conditioned forms are validated too (a
    claim's refined form, in its own rule set), and a simple test that is neither is not."""
    def worth(level: str, follow: str, rules: Rules, decks: int, seed: int) -> tuple[float, float]:
        if follow.endswith(".toml"):
            return 0.1, 0.01
        return {"S3": 0.4, "S6@last-round": 0.2, "lowest": 0.3, "S1@hand<=1": -0.1}.get(follow, -0.2), 0.01

    monkeypatch.setattr(discovery, "adoption_worth", worth)
    monkeypatch.setattr(discovery, "KEEP", 1)
    monkeypatch.setattr(discovery, "single_rules", lambda: ["S3", "S6@last-round", "lowest", "S1@hand<=1"])
    monkeypatch.setattr(discovery, "taught_rules", lambda *_: [])
    found = discover("greedy", tmp_path, QUICK, say=lambda line: None)
    assert set(found.validated) == {"S3", "S6@last-round", "S1@hand<=1"}


def test_the_rules_read_off_the_search_are_kept_in_the_folder_and_read_back(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = taught_rules("greedy", tmp_path, 4, 7)
    assert first and all(parse_rule(t).text == t for t in first)
    assert len(first) <= 2 * discovery.TAUGHT
    monkeypatch.setattr(discovery, "record_lessons", None)  # a resumed search asks the search nothing
    assert taught_rules("greedy", tmp_path, 4, 7) == first


def test_a_rule_reads_in_a_players_words() -> None:
    assert in_words("S6@last-round&table<=2") == ("In the last round and with at most 2 cards on the table: "
                                                  "leave nothing the next player can sweep (one to three cards "
                                                  "one unseen card takes)")
    assert in_words("lowest") == "Trail the lowest card: of the trails, those of a card with the lowest value from hand"


@pytest.mark.slow  # 400,000 deals a rule set (seconds each): the full suite
def test_a_rule_that_changed_no_move_says_so_instead_of_a_zero_width_interval() -> None:
    family = Family(4)
    assert interval(Measure("validate", "S1", "swedish", 0.0, 0.0, 1000, 36), family) == "0 (it changed no move)"
    shown = interval(Measure("validate", "S3", "swedish", 0.5, 0.01, 1000, 36), family)
    assert shown.startswith("+0.500 [+0.4") and shown.endswith("]")


def test_the_shipped_card_reproduces_its_figure_from_its_seed() -> None:
    """greedy:follow=card, 2 players, Swedish and Finnish: the figure the card prints, digit for
    digit, from its seed (the other levels and player counts are measured the same way)."""
    shipped = json.loads((ROOT / "docs" / "strategy-card.json").read_text())
    for level in (entry for entry in shipped["levels"] if entry["level"] == "greedy"):
        for table, check in ((t, c) for t, c in level["cards"]["both"]["check"].items() if t in ("swedish", "finnish")):
            mean, se = adoption_worth(level["level"], "card", table_rules(table), check["decks"], check["seed"])
            assert (mean, se) == pytest.approx((check["mean"], check["se"]), abs=1e-12), (level["level"], table)
