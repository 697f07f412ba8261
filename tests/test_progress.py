"""What a long run says on stderr (docs/cli.md): a plain line each tenth into a log, one line
redrawn in place and fitted to a terminal's width, the compiling note when the first results are
slow to come, and Ctrl-C's resume hint with exit code 130."""

from __future__ import annotations

import io
import os
import time
from pathlib import Path

import pytest

from simcasino.cli import progress
from simcasino.cli.progress import CompileNote, ProgressLine, resumable


def feed(line: ProgressLine, steps: int = 20) -> None:
    for k in range(1, steps + 1):
        line(k / steps, 1000 * k)
    line.close()


def test_into_a_log_a_plain_line_each_tenth(capsys) -> None:
    feed(ProgressLine())
    err = capsys.readouterr().err
    assert "\r" not in err and len(err.splitlines()) == 10
    assert err.splitlines()[-1].startswith("[" + "#" * 30 + "] 100.0%")


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_on_a_terminal_one_line_fitted_to_its_width(monkeypatch) -> None:
    screen = Terminal()
    monkeypatch.setattr("sys.stderr", screen)
    monkeypatch.setattr(progress.shutil, "get_terminal_size", lambda: os.terminal_size((40, 24)))
    feed(ProgressLine())
    drawn = screen.getvalue().split("\r")[1:]
    assert drawn and all(len(text.rstrip("\n")) == 39 for text in drawn)
    assert screen.getvalue().endswith("\n")


def test_the_compiling_note_comes_only_when_the_first_results_are_slow(monkeypatch, capsys) -> None:
    monkeypatch.setattr(progress, "NOTE_AFTER", 0.05)
    with CompileNote(["greedy"]):
        time.sleep(0.5)
    assert "compiling the engine" in capsys.readouterr().err
    monkeypatch.setattr(progress, "NOTE_AFTER", 30)
    with CompileNote(["greedy"]):
        pass
    assert capsys.readouterr().err == ""


def test_ctrl_c_keeps_the_chunks_and_says_how_to_go_on(capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        with resumable(Path("runs/x"), "simcasino experiment resume runs/x"):
            raise KeyboardInterrupt
    assert stop.value.code == 130
    assert "go on with: simcasino experiment resume runs/x" in capsys.readouterr().err
