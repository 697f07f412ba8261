"""Progress on stderr: a bar for a batch of deals or games, a line for an experiment run.

Both open at the first report rather than before the call, so input errors, which the API
raises before any work, print nothing but the error line.
"""

from __future__ import annotations

import datetime
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
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


class ProgressLine:
    """The runner's progress callback, drawn as one line on stderr: done, deals/s, ETA."""

    def __init__(self) -> None:
        self.start, self.shown, self.drawn = time.perf_counter(), 0.0, False
        self.first: float | None = None  # the fraction already done when this call began (resume)

    def __call__(self, fraction: float, deals: int) -> None:
        now = time.perf_counter()
        if now - self.shown < 0.2 and fraction < 1:
            return
        self.shown, self.drawn = now, True
        elapsed = now - self.start
        rate = deals / elapsed if elapsed > 0 else 0.0
        if self.first is None:
            self.first = fraction
        gained = fraction - self.first
        eta = elapsed * (1 - fraction) / gained if gained > 0 else None
        bar = "#" * int(fraction * 30)
        eta_text = str(datetime.timedelta(seconds=round(eta))) if eta is not None else "?"
        click.echo(f"\r[{bar:<30}] {fraction:6.1%}  {deals:>12,} deals  {rate:>10,.0f} deals/s  ETA {eta_text}   ",
                   err=True, nl=False)

    def close(self) -> None:
        if self.drawn:
            click.echo("", err=True)


def run_with_progress(call: Any, *args: Any, **kwargs: Any) -> Any:
    """``call(*args, progress=..., **kwargs)`` with a progress line on stderr."""
    line = ProgressLine()
    try:
        return call(*args, progress=line, **kwargs)
    finally:
        line.close()
