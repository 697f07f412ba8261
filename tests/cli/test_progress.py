"""What a long run says on stderr (docs/cli.md): a plain line every few seconds into a log, one
line redrawn in place and fitted to a terminal's width whatever its label, the compiling note when
the first results are slow to come, and what Ctrl-C says: the figures so far, marked partial, or
how to go on, with exit code 130."""

from __future__ import annotations

import fcntl
import io
import os
import pty
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import numba
import pytest
from helpers.paths import ROOT

from simcasino.cli import progress
from simcasino.cli.progress import Preparation, ProgressLine, resumable
from simcasino.loop import entry
from simcasino.strategies import PLAIN, parse_strategy

LONG = "a label of an experiment whose name nobody would want to type twice, " * 3


class Clock:
    """perf_counter for the progress line, a second a report."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def feed(line: ProgressLine, clock: Clock, steps: int = 20, seconds: float = 1.0) -> None:
    for k in range(1, steps + 1):
        clock.now += seconds
        line(k / steps, 1000 * k)
    line.close()


def test_into_a_log_a_plain_line_every_few_seconds_and_one_at_the_end(monkeypatch, capsys) -> None:
    clock = Clock()
    monkeypatch.setattr(progress.time, "perf_counter", clock)
    feed(ProgressLine("compare"), clock)  # 20 reports a second apart
    lines = capsys.readouterr().err.splitlines()
    assert "\r" not in "".join(lines)
    shares = [line.split("]")[1].split("%")[0].strip() for line in lines]
    assert shares == ["30.0", "55.0", "80.0", "100.0"]  # 5 s after the first report and each line, and the end
    assert lines[-1].startswith("compare [" + "#" * 30 + "] 100.0%")
    assert "20,000 deals" in lines[-1] and "1,000 deals/s" in lines[-1] and "ETA 0:00:00" in lines[-1]


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("label", ["", "simulate", LONG])
@pytest.mark.parametrize("columns", [80, 40, 20])
def test_on_a_terminal_one_line_fitted_to_its_width_whatever_the_label(monkeypatch, label: str,
                                                                       columns: int) -> None:
    screen, clock = Terminal(), Clock()
    monkeypatch.setattr("sys.stderr", screen)
    monkeypatch.setattr(progress.time, "perf_counter", clock)
    monkeypatch.setenv("COLUMNS", str(columns))
    feed(ProgressLine(label, "decks"), clock)
    drawn = screen.getvalue().split("\r")[1:]
    assert len(drawn) == 20
    assert all(len(text.rstrip("\n")) == columns - 1 for text in drawn)  # never wider: no wrapped redraw
    assert "\n" not in "".join(drawn[:-1]) and screen.getvalue().endswith("\n")
    if columns == 80:
        assert "] 100.0%" in drawn[-1] and "decks/s" in drawn[-1] and "ETA" in drawn[-1]
        assert (label[:8] in drawn[-1]) and (("…" in drawn[-1]) == (label == LONG))


def slow_preparation(monkeypatch, capsys, cached: bool, seconds: float) -> list[str]:
    """What greedy's preparation says on stderr when it takes ``seconds`` (past NOTE_AFTER), the
    tier in the cache (``cached``: a load) or not (a compile)."""
    monkeypatch.setattr(progress, "NOTE_AFTER", 0.05)
    monkeypatch.setattr(entry, "prepared", lambda tier: False)
    monkeypatch.setattr(entry, "cached", lambda tier: cached)
    monkeypatch.setattr(entry, "prepare", lambda tier: time.sleep(seconds))
    Preparation([parse_strategy("greedy")]).wait()
    return capsys.readouterr().err.splitlines()


def test_a_slow_compile_is_shown_with_what_to_expect_a_quick_one_is_not(monkeypatch, capsys, tmp_path) -> None:
    """The kernel is prepared in a thread; a wait longer than NOTE_AFTER is shown (into a log: a
    line at its start with the last compile's time here, one at its end), a cache load is not."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    entry.record_compile("plain", 65.0)  # this machine's last compile of the plain tier
    err = slow_preparation(monkeypatch, capsys, cached=False, seconds=0.5)
    assert err[0] == ("compiling the engine for random and greedy (once per version, then cached): "
                      "the last compile here took 1:05...")
    assert err[1].startswith("compiled the engine for random and greedy in 0:0")
    monkeypatch.setattr(entry, "prepare", lambda tier: None)
    Preparation([parse_strategy("greedy")]).wait()
    assert capsys.readouterr().err == ""


def test_a_slow_load_from_the_cache_says_it_loads_never_that_it_compiles(monkeypatch, capsys) -> None:
    """A tier this cache folder holds (`entry.cached`) is loaded: the wait says so, with no
    compile estimate."""
    err = slow_preparation(monkeypatch, capsys, cached=True, seconds=0.3)
    assert err[0] == "loading the engine for random and greedy from the cache..."
    assert err[1].startswith("loaded the engine for random and greedy in 0:0")
    assert "compil" not in "".join(err)


def test_a_prepared_tier_is_marked_in_the_cache_folder_it_was_written_to(monkeypatch, tmp_path) -> None:
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path))
    assert not entry.cached(PLAIN)
    entry.mark_cached(entry.TIER_NAMES[PLAIN])
    assert entry.cached(PLAIN) and not entry.cached(entry.SEARCHED)


@pytest.mark.parametrize("columns", [120, 60, 30])
def test_the_compile_wait_fits_the_terminal_dropping_whole_parts(monkeypatch, columns: int) -> None:
    monkeypatch.setenv("COLUMNS", str(columns))
    what = "compiling the engine for the search (once per version, then cached)"
    line = Preparation._waiting(what, "about 1:10 on 2 cores", 70.0, 35.0)
    assert len(line) == columns - 1 and line.rstrip().endswith(("0:35", "cores)"))
    assert "(a…" not in line and ("(about 1:10 on 2 cores)" in line) == (columns == 120)


def test_before_the_first_chunk_the_line_says_it_waits_not_zero_a_second(monkeypatch, capsys) -> None:
    clock = Clock()
    monkeypatch.setattr(progress.time, "perf_counter", clock)
    line = ProgressLine("quick")
    line(0.0, 0)
    clock.now += 20.0
    assert line.plain(clock.now).endswith("0 deals  waiting for the first results")
    line(0.5, 500)
    clock.now += 1.0
    assert "deals/s" in line.plain(clock.now) and "waiting" not in line.plain(clock.now)


def test_a_job_done_at_its_first_report_shows_a_rate_not_a_question_mark(monkeypatch, capsys) -> None:
    clock = Clock()
    monkeypatch.setattr(progress.time, "perf_counter", clock)
    line = ProgressLine("simulate")
    clock.now += 2.0
    line(1.0, 4000)
    assert "2,000 deals/s" in capsys.readouterr().err and "?" not in line.plain(clock.now)


def test_a_compile_that_fails_fails_where_the_job_waits(monkeypatch) -> None:
    def broken(tier: int) -> None:
        raise RuntimeError("no compiler")

    monkeypatch.setattr(entry, "prepared", lambda tier: False)
    monkeypatch.setattr(entry, "prepare", broken)
    preparation = Preparation([parse_strategy("greedy")])
    with pytest.raises(RuntimeError, match="no compiler"):
        preparation.wait()


def test_expected_seconds_are_the_last_compile_here_else_a_guess(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert entry.expected_seconds(PLAIN) == (entry.COMPILE_GUESS[PLAIN], False)
    entry.record_compile("plain", 12.34)
    assert entry.expected_seconds(PLAIN) == (12.3, True)


def test_no_kernel_seat_prepares_nothing() -> None:
    assert Preparation([]).thread is None


def test_ctrl_c_keeps_the_chunks_and_says_what_was_done_and_how_to_go_on(capsys) -> None:
    line = ProgressLine("quick")
    line(0.25, 4096)
    with pytest.raises(SystemExit) as stop:
        with resumable(Path("runs/x"), "simcasino experiment resume runs/x", line):
            raise KeyboardInterrupt
    assert stop.value.code == 130
    err = capsys.readouterr().err
    assert "interrupted after 4,096 deals (25.0% of the work)" in err
    assert "go on with: simcasino experiment resume runs/x" in err


# --- the real verbs: in a terminal of 80 columns, and interrupted by SIGINT ----------------------

SIMCASINO = [sys.executable, "-m", "simcasino"]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


@pytest.mark.slow  # a fresh process (or many): the full suite runs it, the quick tier leaves it out
def test_a_run_in_an_80_column_terminal_draws_its_bar_within_the_width(tmp_path: Path) -> None:
    """An experiment named with a long name, its progress on a pseudo-terminal of 80 columns:
    every redraw fits in 79 columns (none wraps onto a new line), the name shortened."""
    spec = tmp_path / "spec.toml"
    spec.write_text(f'name = "{"a_very_long_experiment_name_" * 6}"\nseed = 1\ndecks = 2048\nchunk = 256\n'
                    '[rules]\npreset = "swedish"\n[arms]\ngreedy = "greedy"\nrandom = "random"\n'
                    '[compare]\nbaseline = "random"\n')
    screen, terminal = pty.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = {key: value for key, value in ENV.items() if key not in ("COLUMNS", "LINES")}
    run = subprocess.Popen([*SIMCASINO, "experiment", "run", str(spec), "--workers", "1", "--out",
                            str(tmp_path / "run")], stdout=subprocess.DEVNULL, stderr=terminal, env=env)
    os.close(terminal)
    drawn = b""
    while True:
        ready, _, _ = select.select([screen], [], [], 120)
        if not ready:
            break
        try:
            chunk = os.read(screen, 4096)
        except OSError:  # the other end closed
            break
        if not chunk:
            break
        drawn += chunk
    assert run.wait(timeout=120) == 0
    lines = [part for part in drawn.decode().replace("\r\n", "\n").replace("\n", "\r").split("\r") if "[" in part]
    assert lines and all(len(part) <= 79 for part in lines)
    assert "100.0%" in lines[-1] and "…" in lines[-1]


KILLER = """import os, signal
calls = 0


def choose(view):
    global calls
    calls += 1
    if calls == {stop}:
        os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C, at a point of the run the test knows
    return view.moves[0]
"""


def interrupted(tmp_path: Path, stop: int, *args: str) -> subprocess.CompletedProcess:
    strategy = tmp_path / "killer.py"
    strategy.write_text(KILLER.format(stop=stop))
    command = [*SIMCASINO, *[str(strategy) if a == "KILLER" else a for a in args]]
    return subprocess.run(command, capture_output=True, text=True, env=ENV, timeout=300, cwd=tmp_path)


@pytest.mark.slow  # a fresh process (or many): the full suite runs it, the quick tier leaves it out
def test_sigint_to_simulate_prints_the_deals_played_marked_partial_and_exits_130(tmp_path: Path) -> None:
    """The killer strategy makes 24 moves a deal in seat 0: its 7,000th comes in the second
    block of 256 deals, so the figures, and the --out table, are those of the first block."""
    done = interrupted(tmp_path, 7000, "simulate", "-s", "KILLER", "-s", "greedy", "--deals", "2000", "--engine",
                       "reference", "--seed", "1", "--out", "deals.parquet")
    assert done.returncode == 130, done.stderr
    assert "256 of 2,000 deals (interrupted: partial figures)" in done.stdout
    assert "wrote deals.parquet (512 rows)" in done.stdout  # --out: the deals played, one row a seat
    assert "| seat | strategy | deals |" in done.stdout and "|    0 | killer   |   256 |" in done.stdout
    assert "interrupted after" in done.stderr and "marked partial" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.slow  # a fresh process (or many): the full suite runs it, the quick tier leaves it out
def test_sigint_to_compare_prints_the_decks_played_marked_partial_and_exits_130(tmp_path: Path) -> None:
    """At a mixed table compare plays chunks of 8 decks here (400 decks): each takes 384 of the
    killer's moves, so its 1,000th (after the one deck of warming up) stops the third chunk."""
    done = interrupted(tmp_path, 1000, "compare", "KILLER", "greedy", "--decks", "400", "--seed", "1")
    assert done.returncode == 130, done.stderr
    assert "16 of 400 decks (interrupted: partial figures)" in done.stdout
    assert "| killer | greedy |    16 |" in done.stdout
    assert "interrupted after" in done.stderr and "marked partial" in done.stderr
    assert "Traceback" not in done.stderr


SLEEPER = """import multiprocessing, pathlib, time


def choose(view):
    if multiprocessing.parent_process() is not None:  # a worker's chunk, not the run's warm-up
        pathlib.Path({marker!r}).touch()
        time.sleep(3600)  # a chunk that would take an hour
    return view.moves[0]
"""


@pytest.mark.slow  # a fresh process (or many): the full suite runs it, the quick tier leaves it out
def test_ctrl_c_in_an_experiment_stops_its_workers_at_once_instead_of_waiting_for_their_chunks(
        tmp_path: Path) -> None:
    """Two workers each in a chunk that would take an hour: Ctrl-C ends the run (exit 130, the
    folder kept for a resume) without waiting for them."""
    marker = tmp_path / "playing"
    (tmp_path / "sleeper.py").write_text(SLEEPER.format(marker=str(marker)))
    spec = tmp_path / "spec.toml"
    spec.write_text('name = "sleepy"\nseed = 1\ndecks = 64\nchunk = 8\n[rules]\npreset = "swedish"\n'
                    f'[arms]\nsleeper = "{tmp_path / "sleeper.py"}"\ngreedy = "greedy"\n'
                    '[compare]\nbaseline = "greedy"\n')
    run = subprocess.Popen([*SIMCASINO, "experiment", "run", str(spec), "--workers", "2", "--out",
                            str(tmp_path / "run")], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           env=ENV, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        for _ in range(1200):
            if marker.exists() or run.poll() is not None:
                break
            time.sleep(0.1)
        assert marker.exists(), run.communicate()
        run.send_signal(signal.SIGINT)
        _, err = run.communicate(timeout=120)  # waiting for the chunks would take an hour
    finally:
        run.kill()  # a hung run is not left behind (its workers follow it, `watch_parent`)
    assert run.returncode == 130, err
    assert "go on with: simcasino experiment resume" in err and "Traceback" not in err
