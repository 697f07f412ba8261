"""A job reads each strategy's text once and its card file once (`strategies.parse_strategy`,
`advice.conditions.read_card`): ``simcasino compare`` names its strategies on the command
line, in its spec and in the summary's sentences, and asks for each seat's card rules in every
chunk it plays, so without the caches one comparison parsed each text five times and read its
card dozens of times. An edited card is read again."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from helpers.cli import ok

import simcasino.strategies
from simcasino.advice.conditions import read_card


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> tuple[Counter, Counter]:
    """The strategy names parsed (a parse looks its name's parameters up, `strategies.params_of`,
    once, and nothing else does in a comparison) and the files read, each counted."""
    names, files = Counter(), Counter()
    params_of, read_text = simcasino.strategies.params_of, Path.read_text

    def counting_params_of(name: str) -> dict:
        names[name] += 1
        return params_of(name)

    def counting_read_text(path: Path, *args, **kwargs) -> str:
        files[path.resolve()] += 1
        return read_text(path, *args, **kwargs)

    simcasino.strategies._parse_name.cache_clear()  # what earlier tests in this process parsed
    monkeypatch.setattr(simcasino.strategies, "params_of", counting_params_of)
    monkeypatch.setattr(Path, "read_text", counting_read_text)
    return names, files


def test_a_comparison_of_two_arms_following_a_card_parses_each_once_and_reads_the_card_once(
        tmp_path: Path, counted: tuple[Counter, Counter]) -> None:
    card = tmp_path / "card.toml"  # a card of this test's own: no earlier test has read it
    card.write_text('[[rule]]\nrule = "S6@last-round"\n[[rule]]\nrule = "lowest@stock<=8"\n')
    names, files = counted
    out = ok("compare", f"greedy:follow={card}", f"random:follow={card}", "--decks", "64").output
    assert f"greedy:follow={card}" in out and f"random:follow={card}" in out
    # each text once: "greedy:follow=CARD", and "greedy" the verdict names as the free player
    assert names == {"greedy": 2, "random": 2}
    assert files[card.resolve()] == 1


def test_an_edited_card_is_read_again(tmp_path: Path) -> None:
    card = tmp_path / "card.toml"
    card.write_text('[[rule]]\nrule = "S6"\n')
    assert [r.text for r in read_card(card)] == ["S6"]
    card.write_text('[[rule]]\nrule = "S6@last-round"\n[[rule]]\nrule = "S2"\n')
    assert [r.text for r in read_card(card)] == ["S6@last-round", "S2"]
