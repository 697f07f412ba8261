"""The experiment runner: the same tables for 1 or 2 workers, for any chunk size, in a fresh
process, on a Dask cluster, and after a kill -9 and a resume; a run folder refuses files it
did not write. Runs are small (a few hundred decks) so the suite stays fast."""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import time
from multiprocessing import get_context
from pathlib import Path

import polars as pl
import pytest
from helpers.cli import run
from helpers.paths import ROOT

from simcasino.experiment import resume, run_experiment, spec_from_table
from simcasino.experiment.backends import InlineExecutor
from simcasino.experiment.runner import FinishedRun, execute, look, make_plan
from simcasino.sequential import FIRST_LOOK, anytime_ci_from_sums
from simcasino.stats import mean_ci_from_sums


def small_spec(**changes):
    table = {"name": "t", "seed": 5, "decks": 600, "games": 0, "chunk": 128, "rules": {"preset": "swedish"},
             "arms": {"greedy": "greedy", "random": "random"}, "compare": {"baseline": "random"}}
    return spec_from_table({**table, **changes})


def in_memory(spec):
    return execute(spec, make_plan(spec), None, InlineExecutor(), 1)


def chunk_files(folder: Path) -> dict[str, pl.DataFrame]:
    return {p.name: pl.read_parquet(p) for p in sorted((folder / "chunks").iterdir())}


@pytest.mark.slow
def test_one_and_two_workers_write_identical_chunks_and_tables(tmp_path: Path) -> None:
    spec = small_spec(games=40, players=3)
    one = run_experiment(spec, tmp_path / "one", workers=1)
    two = run_experiment(spec, tmp_path / "two", workers=2)
    assert one.table.equals(two.table) and one.data == two.data
    a, b = chunk_files(tmp_path / "one"), chunk_files(tmp_path / "two")
    assert a.keys() == b.keys() and all(a[k].equals(b[k]) for k in a)
    assert pl.read_parquet(tmp_path / "one" / "summary.parquet").equals(one.table)


def test_chunk_size_does_not_change_the_answer() -> None:
    """Decks depend on (seed, deck index) only: 600 decks in chunks of 128 or of 600 agree."""
    assert in_memory(small_spec(chunk=128)).table.equals(in_memory(small_spec(chunk=600)).table)


@pytest.mark.slow
def test_fresh_process_gives_the_same_summary(tmp_path: Path) -> None:
    spec_file = tmp_path / "spec.toml"
    spec_file.write_text((ROOT / "experiments" / "quick.toml").read_text().replace("40_000", "700")
                         .replace("2_000 ", "30 ").replace("4_096", "256"))
    out = tmp_path / "fresh"
    command = [sys.executable, "-m", "simcasino", "experiment", "run", str(spec_file), "--out", str(out),
               "--workers", "1"]
    subprocess.run(command, check=True, capture_output=True, env=_env())
    from simcasino.experiment.spec import load_spec

    here = run_experiment(load_spec(spec_file), tmp_path / "here", workers=1)
    assert json.loads((out / "summary.json").read_text()) == json.loads(json.dumps(here.data))


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


@pytest.mark.slow
def test_resume_after_kill_gives_identical_summary(tmp_path: Path) -> None:
    spec_file = tmp_path / "spec.toml"
    spec_file.write_text((ROOT / "experiments" / "quick.toml").read_text().replace("40_000", "80_000")
                         .replace("games = 2_000", "games = 0").replace("[stop]", "[unused]").split("[unused]")[0])
    out = tmp_path / "killed"
    command = [sys.executable, "-m", "simcasino", "experiment", "run", str(spec_file), "--out", str(out),
               "--workers", "1"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=_env())
    deadline = time.time() + 120
    while time.time() < deadline and len(list(out.glob("chunks/decks-*.parquet"))) < 3:
        time.sleep(0.01)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    stored = len(list((out / "chunks").glob("decks-*.parquet")))
    assert 3 <= stored < 20, "the run should have been killed mid-way"
    assert not (out / "summary.json").exists()
    (out / "chunks" / ".decks-000019.parquet.tmp-123").write_bytes(b"half a file")  # a write cut short
    resumed = resume(out, workers=2)
    from simcasino.experiment.spec import load_spec

    whole = run_experiment(load_spec(spec_file), tmp_path / "whole", workers=1)
    assert resumed.table.equals(whole.table) and resumed.data == whole.data
    assert not list((out / "chunks").glob(".*"))
    assert (sorted(p.name for p in (out / "chunks").iterdir())
            == sorted(p.name for p in (tmp_path / "whole" / "chunks").iterdir()))


def test_rerun_resumes_and_plays_nothing_twice(tmp_path: Path) -> None:
    spec = small_spec()
    first = run_experiment(spec, tmp_path / "r", workers=1)
    (tmp_path / "r" / "chunks" / "decks-000002.parquet").unlink()
    played = []
    again = run_experiment(spec, tmp_path / "r", workers=1, progress=lambda f, d: played.append(d))
    # the count starts from the deals stored (as the summary counts them) and grows by one chunk, two rotations
    assert again.table.equals(first.table) and played[-1] - played[0] == 128 * 2
    assert played[-1] == first.data["deals_played"] == again.data["deals_played"]


def test_corrupt_foreign_and_other_run_files_are_reported(tmp_path: Path) -> None:
    spec = small_spec()
    run_experiment(spec, tmp_path / "a", workers=1)
    run_experiment(spec.replace(seed=6), tmp_path / "b", workers=1)
    chunk = tmp_path / "a" / "chunks" / "decks-000001.parquet"
    chunk.write_bytes(chunk.read_bytes()[:50])
    with pytest.raises(ValueError, match=r"decks-000001.parquet: corrupt chunk file"):
        run_experiment(spec, tmp_path / "a", workers=1)
    chunk.write_bytes((tmp_path / "b" / "chunks" / "decks-000001.parquet").read_bytes())
    with pytest.raises(ValueError, match=r"decks-000001.parquet: a chunk of another run"):
        run_experiment(spec, tmp_path / "a", workers=1)
    chunk.unlink()
    (tmp_path / "a" / "chunks" / "notes.txt").write_text("mine")
    with pytest.raises(ValueError, match=r"notes.txt: not a chunk file of this run"):
        run_experiment(spec, tmp_path / "a", workers=1)


def test_folder_of_another_run_is_refused(tmp_path: Path) -> None:
    run_experiment(small_spec(), tmp_path / "a", workers=1)
    with pytest.raises(ValueError, match=r"holds another run \(seed 5, now 6\)"):
        run_experiment(small_spec(seed=6), tmp_path / "a", workers=1)
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "x").write_text("")
    with pytest.raises(ValueError, match="not empty and has no manifest.json"):
        run_experiment(small_spec(), tmp_path / "c", workers=1)


def test_sprt_stops_at_the_same_chunk_for_any_worker_count(tmp_path: Path) -> None:
    spec = small_spec(decks=3000, chunk=64, stop={"low": 0.0, "high": 0.5})
    one = run_experiment(spec, tmp_path / "one", workers=1)
    two = run_experiment(spec, tmp_path / "two", workers=2)
    assert one.data["stopped_early"] and one.data["decks"] < 3000
    assert one.data == two.data and one.table.equals(two.table)
    assert one.data["comparisons"][0]["sprt"]["decision"] == "H1"


def test_sprt_decides_at_a_deck_and_freezes_the_comparison(tmp_path: Path) -> None:
    """Two comparisons under one SPRT (α and β split between them): twin − greedy (A against
    A: exactly 0) decides at once, at `FIRST_LOOK` decks; random − greedy (its truth, about
    −7.76, between the two gains −7.9 and −7.6) later, at the first deck whose look crosses a bound, worked
    out here by hand from the chunks' deck values. Each comparison's points figures are those
    of the decks it decided on, whatever was played after for the other."""
    spec = small_spec(seed=6, decks=4096, chunk=512, arms={"greedy": "greedy", "random": "random", "twin": "greedy"},
                      compare={"baseline": "greedy"}, stop={"low": -7.9, "high": -7.6})
    result = run_experiment(spec, tmp_path / "run", workers=1)
    values = [v for path in sorted((tmp_path / "run" / "chunks").glob("decks-*.parquet"))
              for v in pl.read_parquet(path).filter((pl.col("comparison") == 0) & (pl.col("measure") == "points"))
              ["deck_values"][0]]
    lower, upper = math.log(0.05 / 2), math.log(2 / 0.05)
    total = total_sq = 0
    for n, value in enumerate(values, 1):
        total, total_sq = total + value, total_sq + value * value
        mean, variance = total / n / 2, (total_sq - total * total / n) / (n - 1) / 4 if n > 1 else 0.0
        llr = 0.3 * n * (mean + 7.75) / variance if variance else 0.0  # (high − low)·n·(mean − middle)/σ²
        if n >= FIRST_LOOK and not lower < llr < upper:
            break
    random, twin = result.data["comparisons"]
    assert random["sprt"]["decks"] == n > FIRST_LOOK and random["decks"] == n and random["sprt"]["decision"]
    assert twin["sprt"] == {"decision": "H1", "decks": FIRST_LOOK, "llr": None, "low": -7.9, "high": -7.6}
    assert twin["decks"] == FIRST_LOOK and (twin["mean_diff"], twin["sim_low"], twin["sim_high"]) == (0, 0, 0)
    frozen = anytime_ci_from_sums(n, total, total_sq, scale=2, level=1 - 0.05 / 2)
    assert (random["mean_diff"], random["sim_low"], random["sim_high"]) == pytest.approx(
        (frozen.mean, frozen.ci_low, frozen.ci_high))
    assert result.data["interval"] == "anytime" and result.data["decks"] == -(-n // 512) * 512


def test_chunks_without_deck_values_are_looked_at_their_end(tmp_path: Path) -> None:
    """A run folder written before chunks kept each deck's value still summarises: its SPRT
    looks at each chunk's end, from the chunk's sums."""
    spec = small_spec(decks=3000, chunk=300, stop={"low": 0.0, "high": 0.5})
    run_experiment(spec, tmp_path / "run", workers=1)
    for path in (tmp_path / "run" / "chunks").glob("decks-*.parquet"):
        pl.read_parquet(path).drop("deck_values").write_parquet(path)
    with pytest.warns(FinishedRun):
        sprt = resume(tmp_path / "run", workers=1).data["comparisons"][0]["sprt"]
    assert sprt["decision"] == "H1" and sprt["decks"] == 300  # the first chunk's end, past FIRST_LOOK


def test_a_run_already_done_is_read_back_with_a_warning_and_a_note_and_no_bar(tmp_path: Path) -> None:
    """Run twice into one folder: the second plays nothing, and says so (a warning in Python, a
    note on the command line), with no progress bar for work not done."""
    first = run_experiment(small_spec(), tmp_path / "run", workers=1)
    reports = []
    with pytest.warns(FinishedRun, match="holds this run already done"):
        again = run_experiment(small_spec(), tmp_path / "run", workers=1,
                               progress=lambda *done: reports.append(done))
    assert again.table.equals(first.table) and reports == []
    result = run("experiment", "resume", str(tmp_path / "run"), "--workers", "1")
    assert result.exit_code == 0 and "note: " in result.stderr and "holds this run already done" in result.stderr


def test_a_fixed_size_run_keeps_its_t_intervals(tmp_path: Path) -> None:
    """No stopping rule and nobody looked before the end: Student-t intervals, the numbers of
    the decks' sums (as before anytime intervals existed)."""
    result = run_experiment(small_spec(), tmp_path / "run", workers=1)
    rows = pl.concat(pl.read_parquet(p) for p in (tmp_path / "run" / "chunks").iterdir())
    points = rows.filter((pl.col("measure") == "points") & (pl.col("comparison") == 0)).select(
        pl.col("decks", "sum", "sum_sq").sum()).row(0)
    fixed = mean_ci_from_sums(*points, scale=2)
    c = result.data["comparisons"][0]
    assert result.data["interval"] == "fixed" and set(result.table["interval"]) == {"fixed"}
    assert (c["ci_low"], c["ci_high"], c["sim_low"], c["sim_high"]) == (fixed.ci_low, fixed.ci_high) * 2


def test_a_run_resumed_after_a_look_prints_anytime_intervals(tmp_path: Path) -> None:
    """Interrupted after two chunks, a run resumed unseen ends with the fixed tables of an
    uninterrupted run; looked at first (`experiment show`), it ends with anytime intervals
    and says at how many decks it was seen."""
    spec, folder = small_spec(), tmp_path / "run"
    whole = run_experiment(spec, folder, workers=1)

    def interrupt() -> None:  # what Ctrl-C after two chunks leaves: no later chunk, no summary, no look
        for path in [*folder.glob("chunks/decks-00000[2-9].parquet"), *folder.glob("summary.*"), folder / "looks.json"]:
            path.unlink()

    interrupt()
    assert resume(folder, workers=1).data == whole.data
    interrupt()
    assert look(folder)[3].data["decks"] == 256
    resumed = resume(folder, workers=1)
    assert resumed.data["interval"] == "anytime" and "seen at 256 decks" in resumed.data["interval_why"]
    assert resumed.data["comparisons"][0]["mean_diff"] == whole.data["comparisons"][0]["mean_diff"]


@pytest.mark.slow
def test_local_dask_cluster_gives_the_same_tables(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")  # in the test extra; skipped only without it
    spec = small_spec(games=20)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster:
        on_dask = run_experiment(spec, tmp_path / "dask", scheduler=cluster.scheduler_address)
    assert on_dask.table.equals(run_experiment(spec, tmp_path / "local", workers=1).table)


def _watched_sleep(parent: int) -> None:
    from simcasino.experiment.backends import watch_parent

    watch_parent(parent, every=0.05)
    time.sleep(60)


@pytest.mark.slow
def test_a_worker_exits_when_the_run_that_started_it_dies() -> None:
    """kill -9 of `experiment run` must not leave its workers behind: each watches its parent."""
    parent = subprocess.Popen(["sleep", "60"])
    worker = get_context("spawn").Process(target=_watched_sleep, args=(parent.pid,))
    worker.start()
    try:
        time.sleep(0.5)
        assert worker.is_alive()
        parent.kill()
        parent.wait()
        worker.join(timeout=50)  # returns as soon as it exits; long for a loaded machine (its imports)
        assert worker.exitcode == 1
    finally:
        if worker.is_alive():
            worker.kill()
