"""What the engines refuse to enumerate, the same in both so they fail alike.

A capture is any union of disjoint groups, and on a huge table (a strategy that only ever
trails piles 40 cards up) there are astronomically many. Real play keeps tables small (in
greedy play 99% have at most 6 cards), so past these limits an engine stops with
`PositionTooLarge` rather than run for hours.

The kernel sizes its workspace by these limits (`engine.layout`). Compiled code can raise
only a RuntimeError with a fixed message, so the kernel's Python entries turn its refusals
(`KERNEL_REFUSALS`) into `PositionTooLarge` with `refusals`: both engines fail alike, and
`tests/loop/test_limits.py` holds them to it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

TABLE_LIMIT = 63  # captures are 64-bit masks over table slots
GROUP_LIMIT = 2048  # groups of one value on one table
OPTION_LIMIT = 8192  # distinct captures of one card
MOVE_LIMIT = 16384  # legal moves of one player


class PositionTooLarge(RuntimeError):
    """A table with more captures than the engines list (see the module docstring)."""

    def __init__(self, what: str) -> None:
        super().__init__(
            f"position too large: {what} (limits: {TABLE_LIMIT} table cards, {GROUP_LIMIT} groups "
            f"of one value, {OPTION_LIMIT} captures of one card, {MOVE_LIMIT} legal moves); such "
            "tables only arise when strategies almost never capture"
        )


# the kernel's RuntimeError messages that are refusals of a position, and what each refuses
KERNEL_REFUSALS = {
    "table full": f"over {TABLE_LIMIT} cards on the table",
    "too many capture groups on one table": f"over {GROUP_LIMIT} groups of one value",
    "too many captures for one card": f"over {OPTION_LIMIT} captures for one card",
    "too many legal moves": f"over {MOVE_LIMIT} legal moves",
}


@contextmanager
def refusals() -> Iterator[None]:
    """Around a call into the kernel: its refusals of a position raise `PositionTooLarge`."""
    try:
        yield
    except RuntimeError as error:
        if str(error) in KERNEL_REFUSALS:
            raise PositionTooLarge(KERNEL_REFUSALS[str(error)]) from None
        raise
