"""`simcasino compare` and `simcasino experiment run/resume/list/show` end to end through
click's CliRunner, on a few hundred decks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import ok, run

import simcasino

QUICK = (Path(__file__).parent.parent / "experiments" / "quick.toml").read_text()


def small_spec(tmp_path: Path) -> Path:
    path = tmp_path / "quick.toml"
    path.write_text(QUICK.replace("40_000", "600").replace("2_000 ", "20 ").replace("4_096", "128"))
    return path


@pytest.mark.parametrize("verb", [("compare",), ("experiment", "run"), ("experiment", "resume"),
                                  ("experiment", "list"), ("experiment", "show"), ("experiment",)])
def test_help_has_an_example(verb) -> None:
    assert "simcasino " + " ".join(verb) in ok(*verb, "--help").output.replace("\n      ", " ")


def test_compare_json_is_the_api_answer() -> None:
    out = ok("compare", "greedy", "random", "--rules", "finnish", "--players", "3", "--deals", "300", "--seed", "2",
             "--json").output
    data = json.loads(out)
    assert data == json.loads(json.dumps(simcasino.compare("greedy", "random", "finnish", 3, 300, 2)))
    assert {"mean_diff", "ci_low", "ci_high", "deals", "p_value", "components"} <= set(data)
    assert set(data["components"]) == {"cards", "spades", "aces", "big_kasino", "small_kasino", "sistan", "tabbes",
                                       "mulles", "tabbe_penalty", "build_penalty"}


def test_compare_tables_and_games() -> None:
    out = ok("compare", "greedy", "random", "--deals", "200", "--games", "10", "--rule", "target=11").output
    assert "| greedy | random |" in out
    assert "anatomy" in out and "A wins (games)" in out


def test_experiment_run_show_list_resume(tmp_path: Path, monkeypatch) -> None:
    spec = small_spec(tmp_path)
    out = tmp_path / "run"
    first = ok("experiment", "run", str(spec), "--out", str(out), "--workers", "1", "--seed", "3").output
    assert "seed 3" in first and "anatomy" in first and (out / "summary.parquet").exists()
    summary = json.loads((out / "summary.json").read_text())
    assert summary["seed"] == 3 and summary["comparisons"][0]["a"] == "greedy"
    shown = ok("experiment", "show", str(out)).output
    assert "/5 chunks of 128 stored" in shown and "stopped early by the SPRT" in shown and "anatomy" in shown
    assert ok("experiment", "resume", str(out), "--workers", "1").output.splitlines()[-1].startswith("wrote")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "experiments").mkdir()
    (tmp_path / "experiments" / "quick.toml").write_text(spec.read_text())
    listed = ok("experiment", "list", "--runs", str(tmp_path)).output
    assert "quick.toml" in listed and "greedy against random" in listed and "summarised" in listed


def test_default_folder_is_runs_name_seed(tmp_path: Path, monkeypatch) -> None:
    spec = small_spec(tmp_path)
    monkeypatch.chdir(tmp_path)
    ok("experiment", "run", str(spec), "--workers", "1", "--deals", "300")
    assert json.loads((tmp_path / "runs" / "quick-seed1" / "summary.json").read_text())["deals_requested"] == 300


@pytest.mark.parametrize("args, message", [
    (("compare", "greedy", "genius"), "unknown strategy 'genius'"),
    (("compare", "greedy", "random", "--deals", "1"), "deals"),
    (("experiment", "run", "nowhere.toml"), "nowhere.toml: cannot read"),
    (("experiment", "show", "nowhere"), "nowhere does not exist"),
    (("experiment", "run", "x.toml", "--scheduler", "tcp://a:1", "--dask-local", "1"), "cannot read"),
])
def test_errors_are_one_line_exit_2(args, message) -> None:
    result = run(*args)
    assert result.exit_code == 2 and result.output.startswith("error: ") and message in result.output
    assert result.output.count("\n") == 1


def test_bad_spec_value_names_file_and_key(tmp_path: Path) -> None:
    spec = tmp_path / "bad.toml"
    spec.write_text(QUICK.replace("deals = 40_000", 'deals = "lots"'))
    result = run("experiment", "run", str(spec))
    assert result.exit_code == 2 and f"{spec}: key 'deals': expected a whole number" in result.output


def test_a_finished_run_grows_to_the_tables_of_a_larger_run(tmp_path: Path) -> None:
    """--deals N on a finished run plays only what it lacks and ends with the tables of a run
    of N from the start; fewer decks than stored are refused (they would throw results away)."""
    spec = tmp_path / "nostop.toml"
    spec.write_text(small_spec(tmp_path).read_text().split("[stop]")[0])
    grown, fresh = tmp_path / "grown", tmp_path / "fresh"
    ok("experiment", "run", str(spec), "--out", str(grown), "--workers", "1", "--deals", "200")
    ok("experiment", "run", str(spec), "--out", str(grown), "--workers", "1", "--deals", "500")
    ok("experiment", "run", str(spec), "--out", str(fresh), "--workers", "1", "--deals", "500")
    def read(folder: Path) -> list:
        return json.loads((folder / "summary.json").read_text())["comparisons"]

    assert read(grown) == read(fresh)
    assert json.loads((grown / "summary.json").read_text())["decks"] == 500
    shrink = run("experiment", "run", str(spec), "--out", str(grown), "--workers", "1", "--deals", "300")
    assert shrink.exit_code == 2 and shrink.output.startswith("error: ") and "500" in shrink.output
