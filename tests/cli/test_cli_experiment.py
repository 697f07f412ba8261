"""`simcasino compare` and `simcasino experiment run/resume/list/show` end to end through
click's CliRunner, on a few hundred decks."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from helpers.cli import ok, run
from helpers.paths import ROOT

import simcasino

QUICK = (ROOT / "experiments" / "quick.toml").read_text()


def small_spec(tmp_path: Path) -> Path:
    path = tmp_path / "quick.toml"
    path.write_text(QUICK.replace("40_000", "600").replace("2_000 ", "20 ").replace("4_096", "128"))
    return path


@pytest.mark.parametrize("verb", [("compare",), ("evaluate",), ("experiment", "run"), ("experiment", "resume"),
                                  ("experiment", "list"), ("experiment", "show"), ("experiment",)])
def test_help_has_an_example(verb) -> None:
    assert "simcasino " + " ".join(verb) in ok(*verb, "--help").output.replace("\n      ", " ")


def test_compare_json_is_the_api_answer() -> None:
    out = ok("compare", "greedy", "random", "--rules", "finnish", "--players", "3", "--decks", "300", "--seed", "2",
             "--json").stdout
    data = json.loads(out)
    assert data == json.loads(json.dumps(simcasino.compare("greedy", "random", "finnish", 3, 300, 2).to_dict()))
    assert {"mean_diff", "ci_low", "ci_high", "decks", "p_value", "components"} <= set(data)
    assert set(data["components"]) == {"cards", "spades", "aces", "big_kasino", "small_kasino", "sistan", "tabbes",
                                       "mulles", "tabbe_penalty", "build_penalty"}


def test_compare_tables_and_games() -> None:
    out = ok("compare", "greedy", "random", "--decks", "200", "--games", "10", "--rule", "target=11").stdout
    assert "| greedy | random |" in out
    assert "anatomy" in out and "A wins (games)" in out


def test_compare_margin_says_no_difference_larger_than_it() -> None:
    """Equivalence reads the printed interval: inside ±D is 'no difference larger than D'."""
    same = ok("compare", "greedy", "greedy", "--decks", "300", "--margin", "0.1").stdout
    assert "greedy against greedy: no difference larger than 0.1 points per deal (+0.000 [+0.000, +0.000])" in same
    assert "| inside ±0.1 |" in same and "| yes " in same
    apart = ok("compare", "greedy", "random", "--decks", "300", "--margin", "0.5").stdout
    assert "greedy beats random by" in apart and "| no " in apart and "and by less than" not in apart
    assert json.loads(ok("compare", "greedy", "random", "--decks", "300", "--margin", "9", "--json").stdout)[
        "equivalent"] is True


def test_experiment_run_show_list_resume(tmp_path: Path, monkeypatch) -> None:
    spec = small_spec(tmp_path)
    out = tmp_path / "run"
    first = ok("experiment", "run", str(spec), "--out", str(out), "--workers", "1", "--seed", "3").output
    assert "seed 3" in first and "anatomy" in first and (out / "summary.parquet").exists()
    summary = json.loads((out / "summary.json").read_text())
    assert summary["seed"] == 3 and summary["comparisons"][0]["a"] == "greedy"
    shown = ok("experiment", "show", str(out)).output
    assert "/5 chunks of 128 stored" in shown and "(the SPRT stopped the run)" in shown and "anatomy" in shown
    assert ok("experiment", "resume", str(out), "--workers", "1").output.splitlines()[-1].startswith("wrote")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "experiments").mkdir()
    (tmp_path / "experiments" / "quick.toml").write_text(spec.read_text())
    listed = ok("experiment", "list", "--runs", str(tmp_path)).output
    assert "quick.toml" in listed and "greedy against random" in listed and "summarised" in listed
    decided = summary["comparisons"][0]["sprt"]["decks"]
    assert f"quick, seed 3: complete (the SPRT decided after {decided:,} decks), summarised" in listed
    (out / "chunks" / "decks-000000.parquet").unlink()  # a chunk missing: not complete
    assert "quick, seed 3: 2/6 chunks stored, summarised" in ok("experiment", "list", "--runs", str(tmp_path)).output


def test_default_folder_is_runs_name_seed(tmp_path: Path, monkeypatch) -> None:
    spec = small_spec(tmp_path)
    monkeypatch.chdir(tmp_path)
    ok("experiment", "run", str(spec), "--workers", "1", "--decks", "300")
    assert json.loads((tmp_path / "runs" / "quick-seed1" / "summary.json").read_text())["decks_asked"] == 300


@pytest.mark.parametrize("args, message", [
    (("compare", "greedy", "genius"), "unknown strategy 'genius'"),
    (("compare", "greedy", "random", "--decks", "1"), "decks"),
    (("compare", "greedy", "random", "--margin", "-0.1"), "--margin: expected a positive number of points per deal"),
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
    spec.write_text(QUICK.replace("decks = 40_000", 'decks = "lots"'))
    result = run("experiment", "run", str(spec))
    assert result.exit_code == 2 and f"{spec}: key 'decks': expected a whole number" in result.output


def test_a_finished_run_grows_to_the_figures_of_a_larger_run_with_anytime_intervals(tmp_path: Path) -> None:
    """--decks N on a finished run plays only what it lacks and ends with the figures of a run
    of N from the start, but its intervals are anytime ones: it went on after its result was
    seen, so N was chosen on the data; fewer decks than stored are refused (they would throw
    results away)."""
    spec = tmp_path / "nostop.toml"
    spec.write_text(small_spec(tmp_path).read_text().split("[stop]")[0])
    grown, fresh = tmp_path / "grown", tmp_path / "fresh"
    ok("experiment", "run", str(spec), "--out", str(grown), "--workers", "1", "--decks", "200")
    out = ok("experiment", "run", str(spec), "--out", str(grown), "--workers", "1", "--decks", "500").output
    ok("experiment", "run", str(spec), "--out", str(fresh), "--workers", "1", "--decks", "500")
    assert "95% CI (simultaneous, anytime)" in out and "seen at 200 decks" in out
    before, after = (json.loads((folder / "summary.json").read_text()) for folder in (fresh, grown))
    assert (before["interval"], after["interval"], after["decks"]) == ("fixed", "anytime", 500)
    for old, new in zip(before["comparisons"], after["comparisons"]):
        assert old["mean_diff"] == new["mean_diff"] and old["variance_reduction"] == new["variance_reduction"]
        assert new["sim_low"] < old["sim_low"] and old["sim_high"] < new["sim_high"]
    shrink = run("experiment", "run", str(spec), "--out", str(grown), "--workers", "1", "--decks", "300")
    assert shrink.exit_code == 2 and shrink.output.startswith("error: ") and "500" in shrink.output


def test_deals_and_decks_each_mean_one_thing(tmp_path: Path) -> None:
    """A deck is a shuffle, sized by --decks and dealt once per seat rotation; a deal is one hand,
    what the progress bar counts: at the end of a run without a stop the bar's count is the
    summary's (docs/glossary.md)."""
    spec = tmp_path / "fixed.toml"
    spec.write_text(small_spec(tmp_path).read_text().split("[stop]")[0])
    out = ok("experiment", "run", str(spec), "--workers", "1", "--out", str(tmp_path / "r")).output
    bar = re.findall(r"([0-9,]+) deals +[0-9,]+ deals/s", out)[-1]
    header = re.search(r"seed 1: 600 decks, each dealt once per seat rotation, and 20 games: ([0-9,]+) deals in", out)
    assert header and header[1] == bar and int(bar.replace(",", "")) > 2 * 600
    for verb in (("compare",), ("experiment", "run"), ("rules", "tune")):
        assert "--decks" in ok(*verb, "--help").output and "--deals" not in ok(*verb, "--help").output
    assert "once per seat rotation" in ok("compare", "--help").output.replace("\n ", "")
