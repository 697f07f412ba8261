"""The findings: the claims registry, "does it apply here" per claim on the rule books'
own examples (docs/rules.md §7, cited by id), the audit's judge against exact play on
positions where nothing is hidden, the verdict words, and a quick findings run end to end."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_heuristic_tactics import describe

from simcasino.core.cards import parse_cards
from simcasino.core.protocol import Move
from simcasino.core.rules import Rules
from simcasino.findings import Budget, run_findings, write_page
from simcasino.findings.ablation import Worth
from simcasino.findings.audit import Judged, applies, decisive, history_of, judge
from simcasino.findings.claims import BY_ID, CLAIMS, claims_of
from simcasino.findings.verdict import audit_answer, audit_words, worth_words
from simcasino.reference.state import DealState, position_view
from simcasino.strategies.heuristic import PARAMS

SWEDISH, FINNISH = Rules.preset("swedish"), Rules.preset("finnish")


def test_every_claim_of_the_rule_book_is_registered_with_a_real_switch() -> None:
    book = (Path(__file__).parents[1] / "docs" / "rules.md").read_text()
    ids = set(re.findall(r"^\| ([SF]\d) \|", book, flags=re.M))
    assert ids == set(BY_ID) and len(ids) == 13
    for claim in CLAIMS:
        assert all(w in PARAMS for w in claim.off), claim
        assert claim.switchable or claim.why_no_switch, claim
    assert [c.id for c in claims_of("finnish")] == ["F1", "F2", "F3", "F5"]


# the rule books' examples: (claim, rules, hand, table, seen, the advice's move, the move without it)
EXAMPLES = [
    ("S1", SWEDISH, "2S JS", "KS 8H", "", "JS trails", "2S trails"),  # 2♠ is a point card
    ("S2", SWEDISH, "9S 9D", "KC", "", "9D trails", "9S trails"),
    ("S3", SWEDISH, "7H 8D", "KC", "8S 8H 8C", "8D trails", "7H trails"),  # after an 8 took an 8
    ("S4", SWEDISH, "2H 5C", "2D 5H", "", "5C takes 5H", "2H takes 2D"),
    ("S5", SWEDISH, "10C 6C", "10H 6H KS", "", "6C takes 6H", "10C takes 10H"),
    ("S6", SWEDISH, "QH", "3C 5D 7D QD", "", "QH takes 5D 7D", "QH takes 5D 7D QD"),  # 3-5-7-Q: take 5 + 7
    ("S7", SWEDISH, "10D 10S", "8C 2H KC", "10H 10C", "10S trails", "10D takes 8C 2H"),  # 10♦ + 10♠ on 8, 2
    ("S8", SWEDISH, "9H QS", "QD 2C 3D 4H", "", "QS takes QD", "9H takes 2C 3D 4H"),  # Q♠ alone over three cards
    ("F1", FINNISH, "9H 4D", "10C KS", "", "9H trails", "4D trails"),  # 4 onto 10 makes 14 for an ace
    ("F2", FINNISH, "9H QS", "QD 2C 3D 4H", "", "QS takes QD", "9H takes 2C 3D 4H"),
]


@pytest.mark.parametrize(("claim", "rules", "hand", "table", "seen", "advice", "without"), EXAMPLES,
                         ids=[e[0] for e in EXAMPLES])
def test_the_claim_applies_and_decides_in_the_rule_books_example(claim: str, rules: Rules, hand: str, table: str,
                                                                 seen: str, advice: str, without: str) -> None:
    view = position_view(rules, parse_cards(hand), parse_cards(table), parse_cards(seen))
    assert applies(view, BY_ID[claim])
    [(_, move, other)] = decisive([view], BY_ID[claim])
    assert (describe(view, move), describe(view, other)) == (advice, without)


# where the claim does not apply: (claim, rules, hand, table, seen)
NOT_HERE = [
    ("S1", SWEDISH, "9H 9D", "KC", ""),  # no point card in hand
    ("S3", SWEDISH, "7H 8D", "KC", ""),  # no rank is dead
    ("S4", SWEDISH, "2H 5C", "2D 5H", "2S"),  # 2♠ is gone: nothing to wait for
    ("S5", SWEDISH, "10C 6C", "10H 6H KS", "10D"),  # 10♦ is gone
    ("S7", SWEDISH, "10D 10S", "8C 2H KC", ""),  # 10♥ and 10♣ unseen: someone could take the ten
    ("F1", FINNISH, "9H 4D", "10C KS", "AS AH AD AC 2S 10D"),  # no ace, 2♠ or 10♦ unseen to take a 14
    ("F3", FINNISH, "KD 9H AH", "QC", ""),  # three cards: no move leaves a lone ace
    ("F5", FINNISH, "6H 9C", "6C 10S KC", ""),  # no 10♦ in hand
]


@pytest.mark.parametrize(("claim", "rules", "hand", "table", "seen"), NOT_HERE, ids=[e[0] for e in NOT_HERE])
def test_the_claim_does_not_apply_where_its_reason_is_absent(claim: str, rules: Rules, hand: str, table: str,
                                                             seen: str) -> None:
    view = position_view(rules, parse_cards(hand), parse_cards(table), parse_cards(seen))
    assert not applies(view, BY_ID[claim])
    assert decisive([view], BY_ID[claim]) == []


def test_f3_and_f5_apply_in_the_rule_books_positions() -> None:
    """F3 (an ace as the last card) and F5 (10♦ early) apply; the full heuristic's other terms
    (trailing a point card costs more than a lone ace) can still outweigh them."""
    assert applies(position_view(FINNISH, parse_cards("KD AH"), parse_cards("QC")), BY_ID["F3"])
    assert applies(position_view(FINNISH, parse_cards("6H 10D"), parse_cards("6C 10S KC")), BY_ID["F5"])


# --- the judge against exact play: last round, nothing hidden -----------------------------------


def endgame(rules: Rules, hands: list[str], table: str, piles: tuple[str, str]) -> DealState:
    """A last-round deal with nothing hidden: seat 0 to play, every card not in a hand or on the
    table in one of the two piles (``piles``: seat 0's cards; all others go to seat 1)."""
    held = [parse_cards(h) for h in hands]
    on_table, mine = parse_cards(table), set(parse_cards(piles[0]))
    named = {c for h in held for c in h} | set(on_table)
    rest = [c for c in range(rules.deck_size) if c not in named]
    return DealState.position(rules, held, on_table, {c: 0 if c in mine else 1 for c in rest}, last_round=True)


def exact_margin(state: DealState) -> int:
    """Seat 0's points minus seat 1's after the rest of the deal played best by both (minimax
    over the reference engine)."""
    if state.is_over:
        points = [s.points for s in state.result().seats]
        return points[0] - points[1]
    values = [exact_margin(after(state, move)) for move in state.legal_moves()]
    return max(values) if state.to_move == 0 else min(values)


def after(state: DealState, move: Move) -> DealState:
    played = state.clone()
    played.apply(move)
    return played


ENDGAMES = [  # (rules, hands, table, seat 0's pile)
    (SWEDISH, ["AH 9D", "AS 5C"], "KC", "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS 2H 3H"),
    (SWEDISH, ["10C 6C", "10D 6H"], "10H 4D", "2S 3S 4S 5S AC 2C 3C 4C 5C 7C 8C 9C JC"),
    (FINNISH, ["9H 7D", "AS 3C"], "5C", "2S 3S 4S 5S 6S 7S 8S 9S 10S 2H 3H 4H 5H 6H"),
]


@pytest.mark.parametrize(("rules", "hands", "table", "pile"), ENDGAMES)
def test_the_judge_is_exact_play_where_nothing_is_hidden(rules: Rules, hands: list[str], table: str,
                                                         pile: str) -> None:
    deal = endgame(rules, hands, table, (pile, ""))
    view = deal.observation(0)
    assert history_of(view).last_capturer == -1
    exact = {move: exact_margin(after(deal, move)) for move in view.moves}
    first, second = view.moves[0], view.moves[-1]
    judged = judge(view, first, second)
    assert (judged.advice, judged.alternative) == (exact[first], exact[second])
    assert judged.exact and judged.judge_agrees == (exact[first] == max(exact.values()))


def test_the_audit_answer_of_exact_positions_is_their_known_gain() -> None:
    """Over judged positions whose values are exact, the gain is their mean difference and
    "right" the share where the advice's move is the best."""
    judged = [Judged(2.0, 0.0, True, True), Judged(1.0, 1.0, True, True), Judged(-1.0, 2.0, False, True)]
    answer = audit_answer(judged, seen=30, applied=10, comparisons=1)
    assert answer.gain == pytest.approx(-1 / 3) and answer.agree == pytest.approx(2 / 3) and answer.exact == 3
    assert audit_words(answer).startswith("right in 67% [")
    assert audit_answer(judged[:1], 30, 10, 1) is None


def test_verdict_words_follow_the_interval() -> None:
    claim = BY_ID["S4"]
    pays = Worth(claim, "swedish", 2, 0.73, 0.69, 0.78, 1e-9, 8, 1000)
    assert worth_words(pays) == "pays 0.730 points a deal [+0.690, +0.780]"
    costs = Worth(claim, "swedish", 2, -0.2, -0.3, -0.1, 1e-3, 8, 1000)
    assert worth_words(costs).startswith("costs 0.200 points a deal")
    assert worth_words(Worth(claim, "swedish", 2, 0.02, -0.01, 0.05, 0.4, 8, 1000)).startswith("no detectable effect")




@pytest.mark.slow
def test_a_tiny_findings_run_writes_the_page_and_resumes(tmp_path: Path) -> None:
    """Every part into one folder, the page with every claim, a figure per rule set; run
    again, everything is read back from the folder (same answers, the seconds kept)."""
    budget = Budget(decks=200, audit_deals=1, worlds=4)
    first = run_findings(tmp_path / "runs", budget, say=lambda _: None)
    page = write_page(first, tmp_path / "docs", "abc1234", "tiny").read_text()
    assert all(f"### {c.id}: " in page for c in CLAIMS) and "## For the README" in page
    assert "commit abc1234" in page and "This is the quick form" in page
    assert {p.name for p in (tmp_path / "docs").glob("*.png")} == {"findings-swedish.png", "findings-finnish.png"}
    assert len(first.worths) == 3 * (len(claims_of("swedish")) + len(claims_of("finnish")))
    again = run_findings(tmp_path / "runs", budget, say=lambda _: None)
    assert again.worths == first.worths and again.audits == first.audits and again.seconds == first.seconds
