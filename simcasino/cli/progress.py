"""Progress on stderr, the one display of every long verb, and what Ctrl-C says.

`ProgressLine` is every verb's progress: on a terminal one line redrawn in place, a bar with the
share done, the count, the rate and the time left, fitted to the terminal's width whatever its label
(a long label is shortened, never wrapped); into a pipe or a log a plain line every few seconds, and
one at the end. It opens at the first report rather than before the call, so input errors, which the
API raises before any work, print nothing but the error line.

Ctrl-C during a long verb ends it with exit code 130 after saying what was done (`stopped`):
a verb that keeps its work in a folder says how to go on (`resumable`), the others print
their figures so far, marked partial.
"""

from __future__ import annotations

import datetime
import os
import shutil
import sys
import threading
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import NoReturn

import click

NOTE_AFTER = (
    1.5  # seconds before a compile's wait is shown: loading compiled code from the cache is quicker
)
MIXED = "at a mixed table (the reference engine referees; a workspace per kernel decision: slow)"
REDRAW = 0.2  # seconds between redraws on a terminal
PIPE_EVERY = 5.0  # seconds between plain lines into a pipe or a log
BAR, MIN_BAR, MIN_LABEL = (
    30,
    10,
    8,
)  # the bar's width, its narrowest, and the shortest label worth showing
WAITING = "waiting for the first results"  # before the first chunk: no rate, no ETA yet
INTERRUPTED = 130  # the exit code after Ctrl-C (128 + SIGINT), as shells give


def mixed_note(seats: Sequence[object]) -> str:
    """`MIXED` when a seat plays a plain-Python strategy (`simulation.pick_engine`), else
    nothing."""
    return MIXED if any(not getattr(seat, "in_kernel", True) for seat in seats) else ""


class Preparation:
    """The kernel of a job compiled, or loaded from the disk cache, in a thread of its own
    (`loop.entry.prepare`), and waited for with a line that moves: a first run of a version
    compiles for a minute or more and must neither look hung nor count in a run's rate. `play`
    starts one behind its first screen and waits only when a bot must answer."""

    def __init__(self, seats: Sequence[object]) -> None:
        from simcasino.loop.entry import cached, prepared
        from simcasino.strategies import tier_of

        kernel_seats = [seat for seat in seats if getattr(seat, "in_kernel", False)]
        self.tier = tier_of(kernel_seats)
        self.cached = bool(kernel_seats) and cached(self.tier)  # then the wait is a load
        self.error: BaseException | None = None
        self.thread: threading.Thread | None = None
        if kernel_seats and not prepared(self.tier):
            self.thread = threading.Thread(
                target=self._prepare, name="simcasino-compile", daemon=True
            )
            self.thread.start()

    def _prepare(self) -> None:
        from simcasino.loop.entry import prepare

        try:
            prepare(self.tier)
        except BaseException as error:  # raised again where the job waits
            self.error = error

    def wait(self) -> None:
        """Until the kernel is ready; after NOTE_AFTER seconds (a cache loads quicker) the wait is
        shown: on a terminal a line redrawn in place, into a pipe a line at its start and end."""
        if self.thread is not None:
            self.thread.join(NOTE_AFTER)
            if self.thread.is_alive():
                self._show()
            self.thread = None
        if self.error is not None:
            raise self.error

    def _show(self) -> None:
        from simcasino.loop.entry import expected_seconds
        from simcasino.strategies import TIER_WORDS

        words = TIER_WORDS[self.tier]
        if self.cached:
            what, about, done = f"loading the engine for {words} from the cache", "", "loaded"
            expected = 0.0
        else:
            expected, known = expected_seconds(self.tier)
            what = f"compiling the engine for {words} (once per version, then cached)"
            about = (
                f"the last compile here took {clock(expected)}"
                if known
                else f"about {clock(expected)} on 2 cores"
            )
            done = "compiled"
        start, tty = time.perf_counter() - NOTE_AFTER, sys.stderr.isatty()
        if not tty:
            click.echo(f"{what}: {about}..." if about else f"{what}...", err=True)
        while self.thread.is_alive():
            if tty:
                elapsed = time.perf_counter() - start
                click.echo("\r" + self._waiting(what, about, expected, elapsed), err=True, nl=False)
            self.thread.join(REDRAW if tty else PIPE_EVERY)
        done = f"{done} the engine for {words} in {clock(time.perf_counter() - start)}"
        click.echo(("\r" + done.ljust(terminal_width() - 1)) if tty else done, err=True)

    @staticmethod
    def _waiting(what: str, about: str, expected: float, elapsed: float) -> str:
        """The wait on a terminal, fitted to its width: a compile with a bar against what it
        should take and the time it took last, a load with its time only. What does not fit
        goes whole, the estimate first, then the bar; the words are shortened only when the
        time alone does not fit beside them."""
        width, spent = terminal_width() - 1, clock(elapsed)
        tails = [spent]
        if about:
            bar = "#" * int(min(elapsed / expected, 0.99) * MIN_BAR * 2)
            tails = [
                f"[{bar:<{MIN_BAR * 2}}] {spent} ({about})",
                f"[{bar:<{MIN_BAR * 2}}] {spent}",
                spent,
            ]
        for tail in tails:
            if len(what) + 1 + len(tail) <= width:
                return f"{what} {tail}".ljust(width)
        return f"{shorten(what, width - len(spent) - 1)} {spent}".ljust(width)


def prepare_engine(seats: Sequence[object]) -> None:
    """Compile, or load, the kernel these seats play on before the job starts (`Preparation`)."""
    Preparation(seats).wait()


def clock(seconds: float) -> str:
    """Seconds as m:ss."""
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes}:{rest:02d}"


def terminal_width() -> int:
    """Columns of the terminal stderr writes to (``COLUMNS`` first, as shells set it), even
    when stdout goes to a file; 80 when there is no telling."""
    if os.environ.get("COLUMNS", "").isdigit():
        return int(os.environ["COLUMNS"])
    try:
        return os.get_terminal_size(sys.stderr.fileno()).columns
    except (
        AttributeError,
        OSError,
        ValueError,
    ):  # no file number (a test's stream), or not a terminal
        return shutil.get_terminal_size().columns


class ProgressLine:
    """The progress callback of a long verb, ``line(fraction, count)`` (the experiment
    runner's form; `counter` gives the simulation API's ``progress(done)``), drawn on stderr.

    The clock starts at the first report, after the engine is compiled, so compile time is in
    neither the rate nor the time left; what was done before that report (a resumed run's
    stored chunks) is left out of the rate too. The lock keeps reports from engine threads
    from interleaving."""

    def __init__(self, label: str = "", unit: str = "deals") -> None:
        self.label, self.unit, self.tty = label, unit, sys.stderr.isatty()
        self.created = time.perf_counter()  # the clock of a job whose first report is its last
        self.start: float | None = None
        self.shown, self.drawn = 0.0, False
        self.first, self.first_count = 0.0, 0  # what was done when the clock started (resume)
        self.fraction, self.count = 0.0, 0
        self.lock = threading.Lock()

    def __call__(self, fraction: float, count: int) -> None:
        with self.lock:
            now = time.perf_counter()
            if self.start is None:
                self.start, self.first, self.first_count, self.shown = now, fraction, count, now
            self.fraction, self.count = fraction, count
            if self.tty:
                if now - self.shown >= REDRAW or fraction >= 1 or not self.drawn:
                    width = terminal_width() - 1  # the last column would wrap on some terminals
                    click.echo("\r" + self.fitted(now, width).ljust(width), err=True, nl=False)
                    self.shown, self.drawn = now, True
            elif now - self.shown >= PIPE_EVERY or fraction >= 1:
                click.echo(self.plain(now), err=True)
                self.shown, self.drawn = now, True

    def counter(self, total: int) -> Callable[[int], None]:
        """The simulation API's ``progress(done)`` callback for ``total`` units."""
        return lambda done: self(done / total, done)

    def parts(self, now: float) -> list[str]:
        """Share done, count, rate, time left. A job done at its first report (one chunk) is
        timed from the line's making, not shown as "0 deals/s, ETA ?"."""
        start, first, first_count = self.start, self.first, self.first_count
        if self.fraction >= 1 and self.count == first_count:
            start, first, first_count = self.created, 0.0, 0
        elapsed = now - start
        if self.count == first_count and self.fraction < 1:  # no chunk back yet: no rate to show
            return [f"{self.fraction:6.1%}", f"{self.count:>12,} {self.unit}", WAITING, ""]
        rate = (self.count - first_count) / elapsed if elapsed > 0 else 0.0
        gained = self.fraction - first
        left = (
            str(datetime.timedelta(seconds=round(elapsed * (1 - self.fraction) / gained)))
            if gained > 0
            else "?"
        )
        return [
            f"{self.fraction:6.1%}",
            f"{self.count:>12,} {self.unit}",
            f"{rate:>10,.0f} {self.unit}/s",
            f"ETA {left}",
        ]

    def plain(self, now: float) -> str:
        """A line for a log: the label, the bar at its full width, every part."""
        return self._line(self.label, BAR, "  ".join(p for p in self.parts(now) if p))

    def fitted(self, now: float, width: int) -> str:
        """The line in at most ``width`` characters: the label whole and the bar up to its full
        width if they fit; else the bar at its narrowest and the label shortened; else fewer
        parts (the count, then the rate, then the time left go first)."""
        share, count, rate, left = self.parts(now)
        for kept in ([share, count, rate, left], [share, rate, left], [share, left], [share]):
            tail = "  ".join(part.strip() for part in kept if part.strip())
            room = width - len(tail) - 3  # the bar's brackets and the space before the tail
            label = len(self.label) + 1 if self.label else 0
            if room - label >= MIN_BAR:
                return self._line(self.label, min(BAR, room - label), tail)
            if self.label and room - MIN_BAR - 1 >= MIN_LABEL:
                return self._line(shorten(self.label, room - MIN_BAR - 1), MIN_BAR, tail)
        return self._line("", MIN_BAR, share.strip())[:width]

    def _line(self, label: str, bar: int, tail: str) -> str:
        filled = "#" * int(self.fraction * bar)
        return (f"{label} " if label else "") + f"[{filled:<{bar}}] {tail}"

    def close(self) -> None:
        """End a line drawn in place (anything printed next starts on a line of its own)."""
        with self.lock:
            if self.drawn and self.tty:
                click.echo("", err=True)
            self.drawn = False

    def done(self) -> str:
        """What was done so far, in words: "12,345 deals (4.5% of the work)"."""
        return f"{self.count:,} {self.unit} ({self.fraction:.1%} of the work)"


def shorten(text: str, width: int) -> str:
    """``text`` in at most ``width`` characters, an ellipsis where it was cut."""
    return text if len(text) <= width else text[: width - 1] + "…"


@contextmanager
def showing_progress(
    seats: Sequence[object], label: str, unit: str = "deals", prepare: bool = True
) -> Iterator[ProgressLine]:
    """A progress line for a run of ``seats``: first the note that a plain-Python seat plays at a
    slow mixed table, and the kernel compiled (or loaded) under a line of its own unless it
    does not play (``prepare``: `prepare_engine`); the line is ended whatever happens."""
    if mixed_note(seats):
        click.echo(f"playing {mixed_note(seats)}", err=True)
    if prepare:
        prepare_engine(seats)
    line = ProgressLine(label, unit)
    try:
        yield line
    finally:
        line.close()


def stopped(line: ProgressLine | None, what: str) -> NoReturn:
    """After Ctrl-C: end the progress line, say on stderr what was done and ``what`` follows
    from it, and exit with 130."""
    if line is not None:
        line.close()
    done = f" after {line.done()}" if line is not None and line.start is not None else ""
    click.echo(f"\ninterrupted{done}: {what}", err=True)
    sys.exit(INTERRUPTED)


@contextmanager
def noting(category: type[Warning]) -> Iterator[None]:
    """Warnings of ``category`` the API gives a caller, said on stderr as ``note: ...`` lines
    after the block (a run folder that held the run already done, `runner.FinishedRun`)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", category)
        yield
    for warning in caught:
        if issubclass(warning.category, category):
            click.echo(f"note: {warning.message}", err=True)
        else:
            warnings.warn_explicit(
                warning.message, warning.category, warning.filename, warning.lineno
            )


@contextmanager
def resumable(folder: Path, resume: str, line: ProgressLine | None = None) -> Iterator[None]:
    """Ctrl-C during a run that keeps its work in ``folder``: say what was done, that it is
    kept, and how to go on (``resume``); exit 130."""
    try:
        yield
    except KeyboardInterrupt:
        stopped(line, f"what was finished is kept in {folder}; go on with: {resume}")
