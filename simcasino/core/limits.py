"""What the engines refuse to enumerate, the same in both so they fail alike.

A capture is any union of disjoint groups, and on a huge table (a strategy that only ever
trails piles 40 cards up) there are astronomically many. Real play keeps tables small (in
greedy play 99% have at most 6 cards), so past these limits an engine stops with
`PositionTooLarge` rather than run for hours.
"""

from __future__ import annotations

TABLE_LIMIT = 63  # captures are 64-bit masks over table slots
GROUP_LIMIT = 2048  # groups of one value on one table
OPTION_LIMIT = 8192  # distinct captures of one card


class PositionTooLarge(RuntimeError):
    """A table with more captures than the engines list (see the module docstring)."""

    def __init__(self, what: str) -> None:
        super().__init__(
            f"position too large: {what} (limits: {TABLE_LIMIT} table cards, {GROUP_LIMIT} groups "
            f"of one value, {OPTION_LIMIT} captures of one card); such tables only arise when "
            "strategies almost never capture"
        )
