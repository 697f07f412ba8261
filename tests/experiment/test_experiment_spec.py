"""Experiment specs: the shipped files load, a spec round-trips through its manifest table,
and every malformed spec gets one error naming the file, the key and what was expected."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.paths import ROOT

from simcasino.core.rules import Rules, read_toml
from simcasino.experiment.spec import load_spec, spec_from_table
from simcasino.strategies import parse_strategy

# experiment specs; house-rule sweeps (a [vary] table) are tested in test_tune
SHIPPED = sorted(p for p in (ROOT / "experiments").glob("*.toml")
                 if "[vary]" not in p.read_text())
GOOD = """
name = "t"
seed = 3
decks = 100
[rules]
preset = "finnish"
[arms]
g = "greedy"
r = "random"
[compare]
baseline = "r"
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "spec.toml"
    path.write_text(text)
    return path


def test_shipped_specs_are_there() -> None:
    names = {p.stem for p in SHIPPED}
    assert {"quick", "trailing", "hold_twos", "finnish_avoid", "ladder", "knockout"} <= names


@pytest.mark.parametrize("path", SHIPPED, ids=[p.stem for p in SHIPPED])
def test_shipped_spec_loads_as_written(path: Path) -> None:
    """Each shipped spec means what its file says: its name is the file's, every arm is a
    strategy with the parameters written, its rules are the preset with the knobs written, every
    comparison pairs two of its arms, and it survives the run manifest's round trip."""
    raw = read_toml(path)
    spec = load_spec(path)
    assert spec.name == raw.get("name", path.stem) == path.stem
    assert {name: s.label for name, s in spec.arms.items()} == {n: parse_strategy(v).label
                                                                for n, v in raw["arms"].items()}
    written = {k: v for k, v in raw["rules"].items() if k != "preset"}
    assert spec.rules == Rules.preset(raw["rules"]["preset"]).replace(**{k: tuple(v) if isinstance(v, list) else v
                                                                         for k, v in written.items()})
    assert spec.comparisons and all(a in spec.arms and b in spec.arms and a != b for a, b in spec.comparisons)
    assert spec.decks == raw["decks"] and spec.seed == raw.get("seed", 0)
    assert spec_from_table(spec.to_table(), default_name=spec.name) == spec


def test_quick_needs_only_kernel_strategies() -> None:
    spec = load_spec(ROOT / "experiments" / "quick.toml")
    assert {s.name for s in spec.arms.values()} <= {"greedy", "random"}


def test_round_trip_through_table(tmp_path: Path) -> None:
    spec = load_spec(write(tmp_path, "margin = 0.05\n" + GOOD + "[stop]\nhigh = 0.5\n"))
    assert spec_from_table(spec.to_table()) == spec
    assert spec.rules.name == "finnish" and spec.comparisons == [("g", "r")] and spec.sprt.high == 0.5
    assert spec.margin == 0.05 and load_spec(write(tmp_path, GOOD)).margin is None


def test_round_robin_pairs(tmp_path: Path) -> None:
    text = (GOOD.replace('baseline = "r"', 'design = "round-robin"')
            .replace('r = "random"', 'r = "random"\ng2 = "greedy"'))
    assert load_spec(write(tmp_path, text)).comparisons == [("g", "r"), ("g", "g2"), ("r", "g2")]


@pytest.mark.parametrize("change, key, expected", [
    (("decks = 100", "decks = -5"), "'decks'", "whole number >= 2"),
    (("decks = 100", 'decks = "many"'), "'decks'", "whole number"),
    (("seed = 3", "seed = 3\ncolour = 1"), "'colour'", "expected one of name"),
    (('baseline = "r"', 'baseline = "x"'), "'compare.baseline'", "one of the arms"),
    (('r = "random"', 'r = "genius"'), "'arms.r'", "unknown strategy"),
    (('r = "random"', 'r = "greedy:depth=3"'), "'arms.r'", "no parameter"),
    (('r = "random"', "r = 5"), "'arms.r'", "expected a string"),
    (('preset = "finnish"', 'preset = "finnish"\ntarget = "x"'), "[rules]", "target"),
    (('preset = "finnish"', 'preset = "finish"'), "[rules]", "unknown rules"),
    (('baseline = "r"', 'design = "league"'), "'compare.design'", "baseline, round-robin"),
    (("seed = 3", "seed = 3\ngames = 1"), "'games'", "at least 2"),
    (("seed = 3", "seed = 3\nplayers = 7"), "'players'", "players"),
    (("decks = 100", "deals = 100"), "'deals' is now 'decks'", "a deck is one shuffle, played once per seat rotation"),
    (("seed = 3", "seed = 3\nmargin = -0.1"), "'margin'", "expected a positive number of points per deal"),
    (("seed = 3", "seed = 3\nmargin = 0"), "'margin'", "expected a positive number"),
    (("seed = 3", "seed = 3\nmargin = nan"), "'margin'", "expected a positive number"),
    (("seed = 3", 'seed = 3\nmargin = "small"'), "'margin'", "expected a positive number"),
])
def test_spec_errors_name_file_key_and_expectation(tmp_path: Path, change, key, expected) -> None:
    path = write(tmp_path, GOOD.replace(*change))
    with pytest.raises(ValueError) as err:
        load_spec(path)
    message = str(err.value)
    assert str(path) in message and key in message and expected in message and "\n" not in message


@pytest.mark.parametrize("extra, expected", [
    ("[stop]\nlow = 0.1\n", "'stop.high' is missing"),
    ("[stop]\nhigh = 0.1\nlow = 0.2\n", "high > low"),
    ("[stop]\nhigh = 0.1\nalpha = \"x\"\n", "'stop.alpha': expected a number"),
    ("[stop]\nhigh = 0.1\ngamma = 1\n", "unknown key 'stop.gamma'"),
])
def test_stop_errors(tmp_path: Path, extra: str, expected: str) -> None:
    with pytest.raises(ValueError, match=expected):
        load_spec(write(tmp_path, GOOD + extra))


def test_missing_arms_and_bad_toml(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="key 'arms' is missing"):
        load_spec(write(tmp_path, "decks = 10\n"))
    with pytest.raises(ValueError, match="malformed TOML"):
        load_spec(write(tmp_path, "decks = = 10\n"))
    with pytest.raises(ValueError, match="cannot read"):
        load_spec(tmp_path / "missing.toml")


def test_design_pairs_plays_just_the_listed_comparisons_and_reads_back() -> None:
    table = {"name": "p", "seed": 1, "decks": 64, "arms": {"g": "greedy", "g1": "greedy:follow=S1", "r": "random"},
             "compare": {"pairs": [["g1", "g"], ["g", "r"]]}}
    spec = spec_from_table(table, "p.toml")
    assert spec.design == "pairs" and spec.comparisons == [("g1", "g"), ("g", "r")]
    assert spec_from_table(spec.to_table(), "again").comparisons == spec.comparisons


@pytest.mark.parametrize("compare, message", [
    ({"pairs": [["g", "x"]]}, "key 'compare.pairs': expected a list of \\[A, B\\] pairs of two different arms"),
    ({"pairs": [["g", "g"]]}, "pairs of two different arms"),
    ({"pairs": []}, "key 'compare.pairs'"),
    ({"baseline": "g", "pairs": [["g", "r"]]}, "key 'compare.pairs' is for design = \"pairs\""),
])
def test_bad_pairs_are_one_line_naming_the_key(compare: dict, message: str) -> None:
    table = {"name": "p", "seed": 1, "decks": 64, "arms": {"g": "greedy", "r": "random"}, "compare": compare}
    with pytest.raises(ValueError, match=message):
        spec_from_table(table, "p.toml")
