"""Progress on stderr: a bar for a batch of deals or games, a line for an experiment run.

Both open at the first report rather than before the call, so input errors, which the API
raises before any work, print nothing but the error line.
"""

from __future__ import annotations

import datetime
import shutil
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click


class _Bar:
    """The API's ``progress`` callback (called with the number finished), drawn on stderr.
    The lock keeps reports from engine threads from interleaving."""

    def __init__(self, total: int, label: str) -> None:
        self.total, self.label, self.done = total, label, 0
        self.bar: Any = None
        self.lock = threading.Lock()

    def __call__(self, done: int) -> None:
        with self.lock:
            if self.bar is None:
                self.bar = click.progressbar(length=self.total, label=self.label, file=sys.stderr)
                self.bar.__enter__()
            self.bar.update(done - self.done)
            self.done = done

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)


@contextmanager
def progress_bar(total: int, label: str) -> Iterator[_Bar]:
    bar = _Bar(total, label)
    try:
        yield bar
    finally:
        bar.close()


COMPILE_NOTE = ("compiling the engine for these strategies (once per version of simcasino, then cached; "
                "about {} on 2 cores)...")
# measured cold: benchmarks/bench_compile.py plain (22.9 s), every (101.4 s), play (89.9 s)
COMPILE_SECONDS = {"plain": "30 s", "all": "2 minutes", "play": "1½ minutes"}
NOTE_AFTER = 1.5  # seconds of silence before the note: loading compiled code from the cache is quicker
MIXED = "at a mixed table (the reference engine referees; a workspace per kernel decision: slow)"


def mixed_note(seats: Sequence[object]) -> str:
    """`MIXED` when a seat plays a plain-Python strategy (`simulation.pick_engine`), else nothing."""
    return MIXED if any(not getattr(seat, "in_kernel", True) for seat in seats) else ""


class CompileNote:
    """Says, on stderr, that the engine is being compiled if the first results are slow to
    come: a first run of this version compiles for minutes and should not look hung."""

    def __init__(self, seats: Sequence[object], job: str = "all") -> None:
        from simcasino.strategies import plain

        text = COMPILE_NOTE.format(COMPILE_SECONDS["plain" if plain(seats) else job])
        self.timer = threading.Timer(NOTE_AFTER, lambda: click.echo(text, err=True))
        self.timer.daemon = True

    def __enter__(self) -> CompileNote:
        self.timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.timer.cancel()


class ProgressLine:
    """The runner's progress callback on stderr: done, deals/s, ETA. On a terminal one line
    redrawn in place, fitted to its width; into a pipe or a log a plain line at each tenth of
    the work. The clock starts at the runner's first report, after the engine is compiled, so
    compile time is in neither the rate nor the ETA."""

    def __init__(self, note: CompileNote | None = None) -> None:
        self.note, self.tty = note, sys.stderr.isatty()
        self.start: float | None = None
        self.shown, self.drawn, self.next_tenth = 0.0, False, 0.1
        self.first, self.first_deals = 0.0, 0  # what was done when the clock started (resume)

    def __call__(self, fraction: float, deals: int) -> None:
        now = time.perf_counter()
        if self.start is None:
            self.start, self.first, self.first_deals = now, fraction, deals
            if self.note:
                self.note.__exit__()
        if self.tty:
            if now - self.shown >= 0.2 or fraction >= 1:
                width = shutil.get_terminal_size().columns - 1
                click.echo("\r" + self.text(now, fraction, deals)[:width].ljust(width), err=True, nl=False)
                self.shown, self.drawn = now, True
        elif fraction >= self.next_tenth or fraction >= 1:
            click.echo(self.text(now, fraction, deals), err=True)
            self.next_tenth = (int(fraction * 10) + 1) / 10

    def text(self, now: float, fraction: float, deals: int) -> str:
        elapsed = now - self.start
        rate = (deals - self.first_deals) / elapsed if elapsed > 0 else 0.0
        gained = fraction - self.first
        eta = str(datetime.timedelta(seconds=round(elapsed * (1 - fraction) / gained))) if gained > 0 else "?"
        bar = "#" * int(fraction * 30)
        return f"[{bar:<30}] {fraction:6.1%}  {deals:>12,} deals  {rate:>10,.0f} deals/s  ETA {eta}"

    def close(self) -> None:
        if self.drawn:
            click.echo("", err=True)


def run_with_progress(seats: Sequence[object], call: Any, *args: Any, **kwargs: Any) -> Any:
    """``call(*args, progress=..., **kwargs)`` with a progress line on stderr, the note that
    the engine is compiling while the run (for these ``seats``) has not reported yet, and that
    a plain-Python seat plays at a slow mixed table."""
    if mixed_note(seats):
        click.echo(f"playing {mixed_note(seats)}", err=True)
    with CompileNote(seats) as note:
        line = ProgressLine(note)
        try:
            return call(*args, progress=line, **kwargs)
        finally:
            line.close()


@contextmanager
def resumable(folder: Path, resume: str) -> Iterator[None]:
    """Ctrl-C during a run: say that the stored chunks are kept and how to go on, exit 130."""
    try:
        yield
    except KeyboardInterrupt:
        click.echo(f"\ninterrupted: the chunks finished so far are kept in {folder}; go on with: {resume}", err=True)
        sys.exit(130)
