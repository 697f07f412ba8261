"""`simcasino report` and `experiment run --report` on a small real run: the PDF has the
expected pages, every PNG is there and shows something, and bad input is one line, exit 2.
The chunks' histograms add up to the deals played, the SPRT's path is the one the run
followed, and a run folder written before chunks kept histograms still reports."""

from __future__ import annotations

import math
import shutil
from pathlib import Path

import matplotlib.image
import polars as pl
import pytest
from helpers.cli import ok, run
from helpers.pdf import pdf_pages, pdf_text

from simcasino.experiment import run_experiment, spec_from_table
from simcasino.experiment.chunk import HIST_COLUMNS
from simcasino.experiment.summary import zero_components
from simcasino.report import make_report
from simcasino.report.data import load
from simcasino.report.figures import convergence_figure
from simcasino.report.tables import ROWS_PER_PAGE, summary_rows
from simcasino.report.text import answer, arm_words, significant, sprt_decision, sprt_reading, sprt_sentence, verdict

FIGURE_PAGES = 7  # answer, forest, anatomy, convergence, distributions, matrix (a round robin), glossary
TWO_ARM_PAGES = 6  # no matrix (the glossary is one)
SPEC = {"name": "small", "description": "greedy, heuristic and random, each pair", "seed": 2, "decks": 2_000,
        "games": 40, "chunk": 512, "rules": {"preset": "swedish"},
        "arms": {"greedy": "greedy", "heuristic": "heuristic", "random": "random"},
        "compare": {"design": "round-robin"}}


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("runs") / "small-seed2"
    run_experiment(spec_from_table(SPEC), folder, workers=1)
    return folder


def expected_pages(run_dir: Path) -> int:
    data = load(run_dir)
    rows = data.result.table.filter(~pl.col("measure").is_in(zero_components(data.result.table))).height
    return FIGURE_PAGES + sum(math.ceil(n / ROWS_PER_PAGE) for n in (rows, data.convergence.height))


def assert_picture(path: Path) -> None:
    """A real figure: more than a few KB and not one flat colour."""
    assert path.stat().st_size > 10_000, path
    pixels = matplotlib.image.imread(path)[..., :3]
    assert pixels.std() > 0.05 and (pixels.mean(axis=-1) < 0.9).mean() > 0.005, path


@pytest.mark.slow
def test_report_has_every_page_in_pdf_and_png(run_dir: Path, tmp_path: Path) -> None:
    report = make_report(run_dir, tmp_path / "out")
    assert report.pages == expected_pages(run_dir) == pdf_pages(report.pdf)
    assert [p.name for p in report.pngs][:FIGURE_PAGES] == ["01-summary.png", "02-forest.png", "03-anatomy.png",
                                                            "04-convergence.png", "05-distributions.png",
                                                            "06-matrix.png", "07-glossary.png"]
    assert len(report.pngs) == report.pages
    for png in report.pngs:
        assert_picture(png)
    pages, data = pdf_text(report.pdf), load(run_dir)
    for comparison in data.comparisons:  # page 1 answers in words; the tables hold the numbers
        assert verdict(comparison) in pages[0], (verdict(comparison), pages[0])
        assert f"{comparison['mean_diff']:+.4f}" in " ".join(pages[FIGURE_PAGES:])
    assert f"Seed: {data.result.data['seed']}" in pages[0] and "greedy = greedy" in pages[0]


@pytest.mark.slow
def test_cli_formats_and_default_folder(run_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pngs = ok("report", str(run_dir), "--format", "png", "--out", str(tmp_path / "p")).output
    assert ("PNGs" in pngs and not (tmp_path / "p" / "report.pdf").exists()
            and (tmp_path / "p" / "02-forest.png").exists())
    monkeypatch.chdir(tmp_path)
    ok("report", str(run_dir), "--format", "pdf")  # the default folder; PDF and PNGs together: the test above
    assert [p.name for p in (tmp_path / "reports" / "small-seed2").iterdir()] == ["report.pdf"]
    assert pdf_pages(tmp_path / "reports" / "small-seed2" / "report.pdf") == expected_pages(run_dir)


@pytest.mark.slow  # a fresh process (or many): the full suite runs it, the quick tier leaves it out
def test_partial_run_is_reported_as_in_progress(run_dir: Path, tmp_path: Path) -> None:
    partial = tmp_path / "partial"
    (partial / "chunks").mkdir(parents=True)
    (partial / "manifest.json").write_text((run_dir / "manifest.json").read_text())
    for name in ("decks-000000.parquet", "decks-000001.parquet"):
        (partial / "chunks" / name).write_bytes((run_dir / "chunks" / name).read_bytes())
    data = load(partial)
    assert not data.complete and data.convergence["decks"].to_list()[-2:] == [512, 1024]
    assert make_report(partial, tmp_path / "out", "pdf").pages == expected_pages(partial)


@pytest.mark.slow
def test_experiment_run_with_report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    spec = tmp_path / "tiny.toml"
    spec.write_text('name = "tiny"\ndescription = "greedy vs random"\nseed = 4\ndecks = 600\nchunk = 256\n'
                    '[rules]\npreset = "swedish"\n[arms]\ngreedy = "greedy"\nrandom = "random"\n'
                    '[compare]\nbaseline = "random"\n')
    out = ok("experiment", "run", str(spec), "--workers", "1", "--report").output
    assert "wrote a report of" in out.splitlines()[-1]
    table = load(tmp_path / "runs" / "tiny-seed4").result.table
    rows = table.filter(~pl.col("measure").is_in(zero_components(table))).height
    tables = sum(math.ceil(n / ROWS_PER_PAGE) for n in (rows, 3))
    assert pdf_pages(tmp_path / "reports" / "tiny-seed4" / "report.pdf") == TWO_ARM_PAGES + tables
    assert not list((tmp_path / "reports" / "tiny-seed4").glob("*matrix*"))  # two arms: no matrix page


@pytest.mark.parametrize("make, message", [
    (lambda tmp: tmp / "missing", "no such folder"),
    (lambda tmp: tmp, "not a run folder"),
    (lambda tmp: (tmp / "manifest.json").write_text("{}") and tmp, "not a simcasino run manifest"),
])
def test_bad_input_is_one_line_exit_2(tmp_path: Path, make, message: str) -> None:
    result = run("report", str(make(tmp_path)))
    assert result.exit_code == 2
    assert result.output.startswith("error: ") and message in result.output and len(result.output.splitlines()) == 1


def test_verdict_names_the_winner_in_words_and_says_when_there_is_none() -> None:
    base = {"a": "on", "b": "off", "strategy_a": "heuristic", "strategy_b": "heuristic:hold_twos=0",
            "mean_diff": -0.73, "sim_low": -0.78, "sim_high": -0.69, "p_adjusted": 1e-12}
    assert verdict(base) == "the heuristic without holding twos (S4) beats the heuristic by 0.730 points per deal " \
        "[0.690, 0.780]"
    assert verdict(base | {"p_adjusted": 0.2, "sim_high": 0.01}).startswith(
        "the heuristic against the heuristic without holding twos (S4): no detectable difference")
    close = base | {"mean_diff": 0.004, "sim_low": -0.02, "sim_high": 0.03, "p_adjusted": 0.6, "margin": 0.05}
    assert verdict(close | {"equivalent": True}) == "the heuristic against the heuristic without holding twos (S4): " \
        "no difference larger than 0.05 points per deal (+0.004 [-0.020, +0.030])"
    assert verdict(close | {"equivalent": False, "sim_high": 0.06}).endswith("; one of 0.05 is not ruled out")
    assert verdict(base | {"margin": 1.0, "equivalent": True}).endswith(", and by less than the margin of 1")


def test_a_follower_against_itself_free_is_said_as_what_following_gains_or_costs() -> None:
    """A player made to follow advice beside the same player free: the advice's gain or cost to
    that player, in a player's words, whichever side the follower sits."""
    base = {"strategy_a": "greedy:follow=S4", "strategy_b": "greedy", "mean_diff": -0.23,
            "sim_low": -0.30, "sim_high": -0.16, "p_adjusted": 1e-9}
    assert verdict(base) == "following S4 (holding twos) costs greedy 0.230 points per deal [0.160, 0.300]"
    swapped = base | {"strategy_a": "greedy", "strategy_b": "greedy:follow=card"}
    assert verdict(swapped) == "following the strategy card gains greedy 0.230 points per deal [0.160, 0.300]"
    other = base | {"strategy_b": "heuristic"}
    assert verdict(other).startswith("the heuristic beats greedy following S4 (holding twos) by 0.230")
    unsure = swapped | {"p_adjusted": 0.3, "sim_high": 0.02}
    assert "no detectable difference" in verdict(unsure)


def test_sprt_in_words_first() -> None:
    sprt = {"low": 0.0, "high": 0.25, "alpha": 0.05, "beta": 0.1, "comparisons": 3}
    assert sprt_decision(sprt | {"decision": "H1", "decks": 1_280}) == "favours 'at least 0.25' (H1) after 1,280 decks"
    assert sprt_decision(sprt | {"decision": "H0", "decks": 300}) == "favours 'at most 0' (H0) after 300 decks"
    assert sprt_decision(sprt | {"decision": None, "decks": None}) == "undecided"
    assert sprt_sentence(sprt).startswith("SPRT: 'A gains at most 0 points per deal' (H0) against 'at least 0.25' "
                                          "(H1), α = 0.05, β = 0.1 over all 3 comparisons together")


def test_every_verdict_agrees_with_its_interval(run_dir: Path) -> None:
    """A finding's simultaneous interval leaves out 0; no finding's holds it (the issue's
    "no detectable difference (+0.017 [+0.001, +0.033])" cannot be printed)."""
    comparisons = load(run_dir).comparisons
    assert len(comparisons) > 1
    for c in comparisons:
        assert significant(c) == (c["sim_low"] > 0 or c["sim_high"] < 0), c
        assert c["sim_low"] <= c["ci_low"] and c["ci_high"] <= c["sim_high"]


def test_chunk_histograms_add_up_to_the_deals_played(run_dir: Path) -> None:
    """Every deal chunk's points rows keep A's, B's and the difference's distribution; each
    counts one value per play (B: per B seat), so they sum to the decks times the rotations."""
    players, comparisons = 2, len(spec_from_table(SPEC).comparisons)
    for path in sorted((run_dir / "chunks").glob("decks-*.parquet")):
        frame = pl.read_parquet(path)
        assert set(HIST_COLUMNS) <= set(frame.columns)
        counts = frame.select("measure", "decks", *(pl.col(c).list.eval(pl.element().struct.field("count")).list.sum()
                                                    for c in HIST_COLUMNS))
        points = counts.filter(pl.col("measure") == "points")
        assert points.height == comparisons
        assert (points["hist"] == points["decks"] * players).all() and (points["hist_a"] == points["hist"]).all()
        assert (points["hist_b"] == points["decks"] * players * (players - 1)).all()
        assert (counts.filter(pl.col("measure") != "points")["hist"] == 0).all()
    data = load(run_dir)
    totals = data.distributions.group_by("comparison", "which").agg(pl.col("count").sum())
    assert (totals["count"] == data.comparisons[0]["decks"] * players).all() and totals.height == comparisons * 3


def test_matrix_page_holds_every_comparison(run_dir: Path) -> None:
    from simcasino.report.figures import matrix_figure

    data = load(run_dir)
    texts = [t.get_text() for ax in matrix_figure(data).axes for t in ax.texts]
    # two players: each measured difference and its mirror; win rates only where measured
    assert len(texts) == 2 * len(data.comparisons) + len(data.comparisons)
    assert f"{data.comparisons[0]['mean_diff']:+.2f}" in texts[0]


def test_sprt_path_is_the_one_the_run_followed(tmp_path: Path) -> None:
    """The path after each chunk stays inside the bounds until the comparison decided, at a
    deck that need not end a chunk (the SPRT looks after every deck), where it ends."""
    spec = spec_from_table({**SPEC, "name": "sprt", "arms": {"greedy": "greedy", "random": "random"},
                            "games": 0, "chunk": 128, "stop": {"low": 7.5, "high": 8.3}})
    run_experiment(spec, tmp_path / "run", workers=1)
    data = load(tmp_path / "run")
    decision = data.comparisons[0]["sprt"]
    path = data.convergence.filter(pl.col("decks") < decision["decks"])["llr"].to_list()
    lower, upper = spec.sprt.bounds()
    assert len(path) > 2 and all(lower < llr < upper for llr in path)  # inside the bounds until it decided
    assert decision["llr"] >= upper if decision["decision"] == "H1" else decision["llr"] <= lower
    figure = convergence_figure(data)
    assert len(figure.axes) == 2  # the running mean and, beside it, the SPRT's path
    assert list(figure.axes[1].lines[0].get_ydata()) == [0.0, *path, decision["llr"]]


@pytest.mark.slow  # a fresh process (or many): the full suite runs it, the quick tier leaves it out
def test_run_written_before_histograms_still_reports(run_dir: Path, tmp_path: Path) -> None:
    old = tmp_path / "old"
    (old / "chunks").mkdir(parents=True)
    (old / "manifest.json").write_text((run_dir / "manifest.json").read_text())
    for path in (run_dir / "chunks").iterdir():
        pl.read_parquet(path).drop(*HIST_COLUMNS).write_parquet(old / "chunks" / path.name)
    data = load(old)
    assert data.distributions is None and data.result.table.equals(load(run_dir).result.table)
    report = make_report(old, tmp_path / "out", "png")
    assert report.pages == expected_pages(run_dir) - 1 and not list(report.folder.glob("*distributions*"))


@pytest.mark.slow  # a fresh process (or many): the full suite runs it, the quick tier leaves it out
def test_the_default_folder_is_named_after_the_run_and_loses_stale_pages(run_dir: Path, tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Two run folders of one spec and seed report into two folders, and a page an earlier
    report left behind (a longer report, another run) is removed, not mixed in."""
    other = tmp_path / "other-run"
    shutil.copytree(run_dir, other)
    monkeypatch.chdir(tmp_path)
    stale = tmp_path / "reports" / "other-run" / "09-stale.png"
    stale.parent.mkdir(parents=True)
    stale.write_bytes(b"old")
    ok("report", str(other), "--format", "png")
    assert not stale.exists() and (tmp_path / "reports" / "other-run" / "01-summary.png").exists()
    assert not (tmp_path / "reports" / run_dir.name).exists()


HOLD_TWOS = {"both": "heuristic", "twos": "heuristic:hold_tens=0", "tens": "heuristic:hold_twos=0",
             "neither": "heuristic:hold_twos=0,hold_tens=0"}


def test_each_arm_is_described_by_what_it_does() -> None:
    """Page 1 names an arm by the tactics it plays among those the experiment sets apart
    (the §7.2 spec), a knock-out's arms by what each leaves out."""
    assert arm_words(HOLD_TWOS) == {
        "both": "the heuristic with holding twos (S4) and holding tens (S5)",
        "twos": "the heuristic with holding twos (S4), without holding tens (S5)",
        "tens": "the heuristic with holding tens (S5), without holding twos (S4)",
        "neither": "the heuristic without holding twos (S4) or holding tens (S5)"}
    knockout = arm_words({"full": "heuristic", "no_trailing": "heuristic:trail_points=0,trail_spades=0,"
                          "trail_dead_rank=0", "no_twos": "heuristic:hold_twos=0", "no_tens": "heuristic:hold_tens=0",
                          "no_denial": "heuristic:tabbe_denial=0", "greedy": "greedy"})
    assert knockout == {"full": "the heuristic as shipped",
                        "no_trailing": "the heuristic without careful trailing (S1-S3)",
                        "no_twos": "the heuristic without holding twos (S4)",
                        "no_tens": "the heuristic without holding tens (S5)",
                        "no_denial": "the heuristic without tabbe denial (S6)", "greedy": "greedy"}


def comparison(a: str, b: str, mean: float, low: float, high: float, p: float, **more) -> dict:
    return {"a": a, "b": b, "strategy_a": HOLD_TWOS.get(a, a), "strategy_b": HOLD_TWOS.get(b, b), "mean_diff": mean,
            "sim_low": low, "sim_high": high, "p_adjusted": p, **more}


def test_the_answer_is_one_sentence_with_its_size_in_a_players_words() -> None:
    """What A does that B does not, and what it is worth to the player both are; no detectable
    difference reads as the size it is below, either way."""
    assert answer(comparison("twos", "neither", 0.007, -0.021, 0.034, 1.0)) == (
        "holding twos (S4) is worth less than 0.034 points a deal to the heuristic without holding tens (S5), "
        "either way (no detectable difference: +0.007 [-0.021, +0.034])")
    assert answer(comparison("both", "neither", 0.012, 0.0004, 0.027, 0.01)) == (
        "holding twos (S4) and holding tens (S5) together are worth 0.012 points a deal to the heuristic "
        "[0.000, 0.027]")
    # the arm that leaves the tactic out first: its worth is the difference turned round
    assert answer(comparison("neither", "tens", -0.05, -0.07, -0.03, 1e-6)) == (
        "holding tens (S5) is worth 0.050 points a deal to the heuristic without holding twos (S4) [0.030, 0.070]")
    assert answer(comparison("tens", "neither", -0.05, -0.07, -0.03, 1e-6)) == (
        "holding tens (S5) costs the heuristic without holding twos (S4) 0.050 points a deal [0.030, 0.070]")
    greedy = comparison("greedy", "random", 7.5, 6.8, 8.2, 1e-12)
    assert answer(greedy) == verdict(greedy) == "greedy beats random by 7.500 points per deal [6.800, 8.200]"


def test_an_sprt_decision_beside_an_interval_that_seems_to_disagree_is_explained() -> None:
    sprt = {"low": 0.0, "high": 0.03, "decks": 56_839}
    above = comparison("tens", "neither", 0.012, 0.0004, 0.027, 0.04, sprt=sprt | {"decision": "H0"})
    assert sprt_reading(above).startswith("The SPRT favours 'at most 0', yet the interval lies above 0: the SPRT "
                                          "weighs only which of its two gains, 0 or 0.03, the decks fit better")
    below = comparison("tens", "neither", 0.012, 0.005, 0.02, 0.01, sprt=sprt | {"decision": "H1"})
    assert "yet the interval lies below 0.03" in sprt_reading(below)
    agreeing = comparison("tens", "neither", 0.001, -0.01, 0.02, 1.0, sprt=sprt | {"decision": "H0"})
    assert sprt_reading(agreeing) is None and sprt_reading(comparison("a", "b", 0, -1, 1, 1.0)) is None


def test_components_zero_in_every_comparison_are_left_out_with_a_line(run_dir: Path) -> None:
    """Swedish rules score no mulles and no penalties: the tables leave them out and say so."""
    data = load(run_dir)
    assert zero_components(data.result.table) == ["mulles", "tabbe_penalty", "build_penalty"]
    assert not {"mulles", "tabbe penalty", "build penalty"} & set(summary_rows(data)["measure"])
    out = ok("experiment", "show", str(run_dir)).stdout
    assert "mulles, tabbe penalty and build penalty: zero in every comparison, left out" in out
    assert "| mulles" not in out
