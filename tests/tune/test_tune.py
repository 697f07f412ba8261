"""House-rule tuning: ``simcasino rules tune`` on tiny sweeps (a few hundred decks) gives a table
with every metric for every setting, the same table for the same seed, a PDF with a page per
metric; bad --vary values are one line, exit 2. The self-play figures agree with `simulate`
and `play_games` on the same seed, and the switches set the knobs docs/rules.md gives them."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from helpers.cli import ok, run
from helpers.paths import ROOT
from helpers.pdf import pdf_pages, pdf_text

import simcasino
from simcasino.core.rules import OVERSPADER, SWEDISH, Rules
from simcasino.experiment import spec_from_table as experiment_from_table
from simcasino.experiment.backends import InlineExecutor
from simcasino.experiment.metrics import SELF_METRICS
from simcasino.experiment.runner import execute, make_plan
from simcasino.report.tune import metric_figure
from simcasino.stats import wilson_ci
from simcasino.tune import load_tune, metrics, parse_vary, spec_from_table
from simcasino.tune.run import TABLE_FILES, load_result, table_schema

TINY = ("--vary", "target=11,16", "--vary", "overspader=off,on", "--decks", "300", "--games", "40", "--workers", "1")


def tune(tmp_path: Path, name: str, *extra: str) -> tuple[str, pl.DataFrame]:
    out = tmp_path / name
    result = ok("rules", "tune", *TINY, "--out", str(out), "--format", "pdf", *extra)
    return result.output, pl.read_parquet(out / TABLE_FILES[0])


@pytest.fixture(scope="module")
def swept(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, pl.DataFrame]:
    folder = tmp_path_factory.mktemp("tune")
    output, table = tune(folder, "a", "--seed", "3")
    return folder, output, table


@pytest.mark.slow  # a whole sweep on the command line: the full suite runs it, the quick tier leaves it out
def test_cli_sweep_has_every_metric_for_every_setting(swept) -> None:
    folder, output, table = swept
    spec = spec_from_table({"decks": 300, "games": 40, "vary": {"target": [11, 16], "overspader": ["off", "on"]}})
    assert table.height == 4 and dict(table.schema) == table_schema(spec)
    assert table["setting"].to_list() == ["target=11, overspader=off", "target=11, overspader=on",
                                          "target=16, overspader=off", "target=16, overspader=on"]
    numbers = table.select(pl.col(pl.Float64))
    assert numbers.null_count().sum_horizontal().item() == 0
    for m in metrics(spec):  # every estimate inside its interval
        assert (table[f"{m.key}_ci_low"] <= table[m.key]).all() and (table[m.key] <= table[f"{m.key}_ci_high"]).all()
    assert (table["decks"] == 300).all() and (table["games"] == 40).all()
    assert (table["gap_interval"] == "fixed").all()
    printed = [line for line in output.splitlines() if line.startswith("| target=")]
    assert len(printed) == 4 and all(m.header in output for m in metrics(spec))
    assert pl.read_csv(folder / "a" / TABLE_FILES[1]).height == 4


@pytest.mark.slow
def test_pdf_answers_then_tables_then_a_chart_per_metric_that_changes(swept) -> None:
    """The answer page, the self-play and skill tables, then a chart per metric whose figures
    differ between settings; the flat ones (tabbes, tied cards: the same decks, and neither the
    target nor Överspader changes how the heuristic plays) are one sentence instead."""
    folder, _, table = swept
    every = metrics(spec_from_table({"decks": 2, "games": 2, "vary": {"target": [11]}}))
    assert len(every) == 10  # 6 self-play metrics, 2 skill gaps in points and 2 in wins
    flat = [m for m in every if table[m.key].n_unique() == 1]
    assert {"tabbes_per_deal", "cards_tied"} <= {m.key for m in flat}  # (and any rate at 100% everywhere)
    pages = 1 + 2 + len(every) - len(flat)
    assert pdf_pages(folder / "a" / "report.pdf") == pages
    answer = " ".join(pdf_text(folder / "a" / "report.pdf")[0].split())
    assert all(q in answer for q in ("Which setting lengthens games?", "Which setting moves the first player's edge?",
                                     "Which setting changes how much skill counts?"))
    assert "The same in every setting: tabbe rate, most cards tied" in answer
    drawn = ok("report", str(folder / "a"), "--format", "pdf", "--out", str(folder / "again")).output
    assert f"wrote a report of {pages} pages" in drawn and pdf_pages(folder / "again" / "report.pdf") == pages


def test_rate_charts_start_at_zero_and_keep_the_legend_off_the_data(swept) -> None:
    folder, _, _ = swept
    result = load_result(folder / "a")
    for metric in metrics(result.spec):
        fig = metric_figure(result, metric)
        assert not fig.axes[0].get_legend() and (fig.axes[0].get_ylim()[0] == 0 or not metric.percent), metric.key


def test_what_the_rules_do_and_do_not_change(swept) -> None:
    """Same decks in every setting: a higher target makes longer games, Överspader changes the
    scoring but not how the heuristic plays (its tabbes and card counts stay the same)."""
    _, _, table = swept
    by = {row["setting"]: row for row in table.iter_rows(named=True)}
    assert by["target=16, overspader=off"]["deals_per_game"] > by["target=11, overspader=off"]["deals_per_game"]
    assert by["target=11, overspader=off"]["tabbes_per_deal"] == by["target=11, overspader=on"]["tabbes_per_deal"]
    assert (by["target=11, overspader=off"]["first_player_points"]
            == by["target=16, overspader=off"]["first_player_points"])
    assert by["target=11, overspader=off"]["points_sd"] != by["target=11, overspader=on"]["points_sd"]


@pytest.mark.slow
def test_same_seed_same_table_other_seed_another(swept, tmp_path: Path) -> None:
    _, _, first = swept
    _, again = tune(tmp_path, "b", "--seed", "3")
    _, other = tune(tmp_path, "c", "--seed", "4")
    assert again.equals(first)
    assert not other.equals(first)


@pytest.mark.slow
def test_rerun_resumes_and_another_sweep_is_refused(swept) -> None:
    folder, output, table = swept
    chunks = sorted((folder / "a" / "settings").glob("*/chunks/*.parquet"))
    times = [p.stat().st_mtime_ns for p in chunks]
    again = ok("rules", "tune", *TINY, "--seed", "3", "--out", str(folder / "a"), "--format", "pdf")
    assert [p.stat().st_mtime_ns for p in chunks] == times  # nothing played twice
    assert pl.read_parquet(folder / "a" / TABLE_FILES[0]).equals(table)
    assert [line for line in again.output.splitlines() if line.startswith("|")] == \
        [line for line in output.splitlines() if line.startswith("|")]
    refused = run("rules", "tune", *TINY, "--seed", "5", "--out", str(folder / "a"))
    assert refused.exit_code == 2 and "holds another sweep (seed 3, now 5)" in refused.output


def test_a_setting_seen_before_its_end_has_anytime_skill_gaps(tmp_path: Path) -> None:
    """A setting whose results were looked at mid-run (`experiment show` of its folder notes
    the look, here at 300 of its 600 decks) went on after a look: its skill gaps' intervals
    are anytime ones, and the sweep's header says so."""
    small = ("--vary", "target=11", "--decks", "600", "--games", "20", "--workers", "1", "--format", "pdf",
             "--out", str(tmp_path))
    assert "(95% CIs):" in ok("rules", "tune", *small).output
    (tmp_path / "settings" / "01-target-11" / "looks.json").write_text('{"decks": [300]}')
    again = ok("rules", "tune", *small).output
    assert "the skill gaps' anytime, as the run went on after its results were seen: target=11" in again
    assert pl.read_parquet(tmp_path / TABLE_FILES[0])["gap_interval"].to_list() == ["anytime"]


@pytest.mark.parametrize("args, message", [
    (["--vary", "colour=red,blue"], "--vary: unknown rule knob or switch 'colour'"),
    (["--vary", "target=11,abc"], "setting target=abc: rule knob 'target' must be a whole number"),
    (["--vary", "overspader=maybe"], "switch 'overspader' takes on or off; got 'maybe'"),
    (["--vary", "target"], "--vary 'target': expected KEY=VALUE,VALUE"),
    (["--vary", "target=11,,16"], "with no empty value"),
    (["--vary", "target=11", "--vary", "target=16"], "'target' is varied twice"),
    (["--vary", "target=0"], "rule knob 'target' must be from 1 to 10000; got 0"),
    ([], "nothing to vary"),
    (["--vary", "target=11", "--decks", "1"], "--decks: expected a whole number >= 2"),
    (["--vary", "target=11", "--strategy", "nobody"], "unknown strategy 'nobody'"),
    ([str(ROOT / "experiments" / "house_rules.toml"), "--vary", "target=11"], "give a sweep file or --base"),
    ([str(ROOT / "experiments" / "quick.toml")], "not a house-rule sweep"),
])
def test_bad_input_is_one_line_exit_2(args: list[str], message: str, tmp_path: Path) -> None:
    result = run("rules", "tune", *args, "--out", str(tmp_path / "out"))
    assert result.exit_code == 2, result.output
    assert result.output.startswith("error: ") and len(result.output.splitlines()) == 1
    assert message in result.output, result.output
    assert not (tmp_path / "out").exists()  # refused before anything is written


def test_builds_settings_need_strategies_that_play_builds(monkeypatch: pytest.MonkeyPatch) -> None:
    """§6 Builds: every built-in strategy plays builds, so a builds sweep is accepted; one that
    did not would be refused, naming the setting."""
    table = {"decks": 2, "games": 2, "vary": {"builds": ["off", "on"]}, "ladder": ["greedy", "search"]}
    assert len(spec_from_table(table).settings()) == 2
    from simcasino.strategies import search

    monkeypatch.setattr(search, "PLAYS_BUILDS", False)
    with pytest.raises(ValueError, match="setting builds=on: strategy 'search' does not play builds"):
        spec_from_table(table)


def test_vary_values_and_switches() -> None:
    assert parse_vary("target=11,16,21") == ("target", (11, 16, 21))
    assert parse_vary("ace_hand=[1,14],[14]") == ("ace_hand", ((1, 14), (14,)))
    assert parse_vary("tie_break=spades,play_on") == ("tie_break", ("spades", "play_on"))
    spec = spec_from_table({"decks": 2, "games": 2,
                            "vary": {"overspader": ["off", "on"], "must_capture_max": ["off", "on"]}})
    rules = [s.rules for s in spec.settings()]
    assert rules[0] == SWEDISH  # off, off: the base
    assert rules[1] == SWEDISH.replace(must_capture_max=True)
    assert rules[2].knobs() == OVERSPADER.knobs()  # the switch sets every knob Överspader changes, target 21 too
    # knobs after switches: Överspader to 11
    to_eleven = spec_from_table({"decks": 2, "games": 2, "vary": {"target": [11], "overspader": ["on"]}}).settings()[0]
    assert to_eleven.rules.target == 11 and to_eleven.rules.spades_over == 6 and to_eleven.rules.most_spades_points == 0
    # off restores Swedish values, whatever the base
    off = spec_from_table({"decks": 2, "games": 2, "rules": {"preset": "overspader"}, "vary": {"overspader": ["off"]}})
    assert off.settings()[0].rules.knobs() == SWEDISH.knobs()


def test_shipped_sweep_loads_and_the_experiment_verbs_refuse_it() -> None:
    path = ROOT / "experiments" / "house_rules.toml"
    spec = load_tune(path)
    assert [s.label for s in spec.settings()][:2] == ["target=11, overspader=off", "target=11, overspader=on"]
    assert len(spec.settings()) == 6 and spec.strategy.label == "heuristic"
    assert [s.label for s in spec.ladder] == ["heuristic", "greedy", "random"]
    assert spec_from_table(spec.to_table()) == spec  # the record in tune.json reads back
    refused = run("experiment", "run", str(path))
    assert refused.exit_code == 2 and "a house-rule sweep" in refused.output and "rules tune" in refused.output


def test_self_play_figures_agree_with_simulate_and_play_games() -> None:
    """The runner's self-play chunks against a direct count on `simulate` and `play_games`
    frames of the same seed: first player's edge, tabbes, tied most cards (no cards point was
    given), spread of points, deals per game and the first player's wins."""
    rules = Rules.preset("finnish").replace(players=3)
    spec = experiment_from_table({"name": "s", "seed": 7, "decks": 700, "games": 90, "chunk": 256,
                                  "rules": {"preset": "finnish", "players": 3},
                                  "arms": {"greedy": "greedy", "random": "random"}, "compare": {"baseline": "random"},
                                  "selfplay": "greedy"})
    own = execute(spec, make_plan(spec), None, InlineExecutor(), 1).data["selfplay"]
    deals = simcasino.simulate(rules, ["greedy"] * 3, deals=700, seed=7)
    wide = deals.pivot("seat", index="deal", values=["points", "cards", "cards_points", "tabbes"])
    points = wide.select(pl.col("^points_.*$")).to_numpy()
    cards = wide.select(pl.col("^cards_[0-9]$")).to_numpy()
    tied = (cards == cards.max(axis=1, keepdims=True)).sum(axis=1) >= 2
    assert own["seat_points"]["mean"] == pytest.approx((points[:, 0] - points[:, 1:].mean(axis=1)).mean())
    assert own["tabbes"]["mean"] == pytest.approx(wide.select(pl.col("^tabbes_.*$")).to_numpy().sum(axis=1).mean())
    assert own["cards_tie"]["mean"] == pytest.approx(tied.mean()) and 0 < tied.sum()
    assert (wide.select(pl.col("^cards_points_.*$")).to_numpy()[tied] == 0).all()  # no one got the cards point
    assert own["points_sd"]["mean"] == pytest.approx(points.std(ddof=1))
    games = simcasino.play_games(rules, ["greedy"] * 3, games=90, seed=7)
    first = games.filter(pl.col("seat") == 0)
    assert own["deals_per_game"]["mean"] == pytest.approx(first["deals"].mean())
    assert own["seat_wins"]["mean"] == pytest.approx(first["won"].mean()) and own["fair"] == pytest.approx(1 / 3)
    assert np.isclose(own["seat_wins"]["ci_low"], wilson_ci(int(first["won"].sum()), 90)[0])


def test_self_play_chunks_keep_histograms_summing_to_the_deals(swept) -> None:
    folder, _, _ = swept
    for path in (folder / "a" / "settings").glob("*/chunks/self_decks-*.parquet"):
        frame = pl.read_parquet(path)
        counts = {m: sum(v["count"] for v in hist) for m, hist in zip(frame["measure"], frame["hist"])}
        decks = frame["decks"][0]
        assert counts["seat_points"] == decks and counts["points"] == 2 * decks  # one value per player and deal
    record = json.loads((folder / "a" / "tune.json").read_text())
    assert record["tune"]["seed"] == 3 and record["tune"]["vary"] == {"target": [11, 16], "overspader": ["off", "on"]}


def test_experiment_with_selfplay_prints_it(tmp_path: Path) -> None:
    spec = tmp_path / "own.toml"
    spec.write_text('name = "own"\nseed = 2\ndecks = 300\ngames = 30\nselfplay = "greedy"\n[arms]\n'
                    'greedy = "greedy"\nrandom = "random"\n[compare]\nbaseline = "random"\n')
    out = ok("experiment", "run", str(spec), "--workers", "1", "--out", str(tmp_path / "run")).output
    row = [line for line in out.splitlines() if line.startswith("| greedy ") and "[" in line]
    assert "self-play, the strategy in every seat" in out and len(row) == 2  # the comparison and the self-play
    assert all(m.header in out for m in SELF_METRICS)
    listed = ok("experiment", "list", "--specs", str(ROOT / "experiments"), "--runs", str(tmp_path)).output
    assert "house_rules.toml" in listed and "a house-rule sweep: simcasino rules tune" in listed


def test_help_has_an_example() -> None:
    text = ok("rules", "tune", "--help").output
    assert "simcasino rules tune --base swedish --vary target=11,16,21" in text.split("Example", 1)[1]


@pytest.mark.slow  # reads the sweep the fixture plays
def test_a_sweep_result_prints_frames_and_dicts_its_table(swept) -> None:
    folder, _, table = swept
    result = load_result(folder / "a")
    assert result.to_frame().equals(result.table) and len(result.to_dict()["settings"]) == len(result.settings)
    assert repr(result).startswith(f"TuneResult: {result.spec.name} in {folder / 'a'}, {len(result.settings)} settings")
    assert "<table" in result._repr_html_()
