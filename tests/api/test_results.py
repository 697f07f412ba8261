"""A notebook's view of the API: `compare` returns a `Comparison` that prints, frames, draws
and gives the old dict (with a deprecation line when read as one); a seat is what `simulate`
takes (a function as its file, the same figures); a Rules' player count is honoured; the top
level lists the public API only."""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import json
from pathlib import Path

import polars as pl
import pytest

import simcasino
from simcasino.experiment.compare import compare_run

HOARDER = "strategies/spade_hoarder.py"
DOCS = Path(__file__).parents[2] / "docs" / "python-api.md"
compare_module = importlib.import_module("simcasino.experiment.compare")


@pytest.fixture(scope="module")
def small() -> simcasino.Comparison:
    return simcasino.compare("greedy", "random", rules="finnish", decks=60, seed=5, games=4)


def test_the_doctest_of_compare_with_its_repr() -> None:
    result = doctest.testmod(compare_module)
    assert result.failed == 0 and result.attempted >= 3


def test_the_python_api_pages_examples_run_as_printed() -> None:
    """docs/python-api.md's notebook examples, reprs and the one-line errors included."""
    result = doctest.testfile(str(DOCS), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted >= 20


def test_a_comparison_frames_and_dicts_the_figures_it_prints(small: simcasino.Comparison) -> None:
    frame = small.to_frame()
    points = frame.filter(pl.col("measure") == "points").row(0, named=True)
    assert (points["mean_diff"], points["ci_low"], points["ci_high"]) == (small.mean_diff, small.ci_low, small.ci_high)
    assert set(frame["measure"]) >= {"points", "cards", "win_rate", "score"}
    data = small.to_dict()
    assert json.loads(json.dumps(data)) == data and data["mean_diff"] == small.mean_diff
    assert data["games"]["games"] == small.games.games == 4
    assert f"{small.mean_diff:+.3f} points a deal" in repr(small).splitlines()[0]
    assert "<table>" in small._repr_html_() and small.headline() in small._repr_html_().replace("&gt;", ">")


def test_reading_a_comparison_as_a_dict_warns_and_answers_as_before(small: simcasino.Comparison) -> None:
    with pytest.warns(DeprecationWarning, match=r"read \.ci_high"):
        assert small["ci_high"] == small.ci_high
    with pytest.warns(DeprecationWarning):
        assert small["components"]["aces"] == small.components["aces"].to_dict()
    assert "components" in small and set(small) == set(small.to_dict())


def test_a_comparison_draws_its_components(small: simcasino.Comparison) -> None:
    figure = small.plot()
    (axes,) = figure.axes
    labels = [t.get_text() for t in axes.get_yticklabels()]
    assert labels[0] == "points" and "aces" in labels and "sistan" not in labels  # Finnish: no sistan


def test_a_run_results_comparisons_are_the_compare_objects(small: simcasino.Comparison) -> None:
    run = compare_run("greedy", "random", rules="finnish", decks=60, seed=5, games=4)
    (again,) = run.comparisons
    assert again.to_dict() == small.to_dict() and run.to_frame().equals(run.table)
    assert small.headline() in repr(run)


def test_results_read_as_pandas_and_a_missing_pandas_names_the_extra(small: simcasino.Comparison,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("pandas")  # the test extra brings it
    run = compare_run("greedy", "random", rules="finnish", decks=60, seed=5, games=4)
    for result in (small, run):
        assert result.to_pandas().equals(result.to_frame().to_pandas())
    monkeypatch.setitem(__import__("sys").modules, "pandas", None)
    with pytest.raises(ImportError, match=r"^to_pandas needs the pandas extra: pip install 'simcasino\[pandas\]'$"):
        small.to_pandas()


def test_a_function_is_a_seat_as_its_file_is_with_the_same_figures() -> None:
    spec = importlib.util.spec_from_file_location("hoarder", HOARDER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    by_file = simcasino.compare(HOARDER, "greedy", decks=8, seed=2).to_dict()
    by_function = simcasino.compare(module.choose, "greedy", decks=8, seed=2).to_dict()
    by_object = simcasino.compare(module, "greedy", decks=8, seed=2).to_dict()
    assert by_function.pop("a") == "choose" and by_object.pop("a") == "hoarder" and by_file.pop("a") == "spade_hoarder"
    assert by_function == by_file == by_object


def test_a_rules_player_count_is_honoured_and_a_conflict_is_one_line() -> None:
    three = simcasino.Rules.preset("finnish").replace(players=3)
    assert simcasino.compare("greedy", "random", rules=three, decks=4, seed=1).players == 3
    assert simcasino.compare("greedy", "random", rules="finnish", players=3, decks=4, seed=1).players == 3
    with pytest.raises(ValueError, match=r"^the rules are for 3 players, but players=2: give one of them"):
        simcasino.compare("greedy", "random", rules=three, players=2, decks=4)
    with pytest.raises(ValueError, match=r"^the rules are for 3 players, but 2 strategies are given"):
        simcasino.simulate(three, ("greedy", "random"), deals=2)
    assert simcasino.simulate("finnish", ("greedy",) * 3, deals=2)["seat"].max() == 2  # a preset: the lineup counts


def test_the_top_level_is_the_public_api_only() -> None:
    assert dir(simcasino) == sorted(simcasino.__all__)
    assert not {"Any", "annotations", "importlib"} & set(dir(simcasino))
    assert simcasino.Comparison is compare_module.Comparison
