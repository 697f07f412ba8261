"""Text that fits its page: blocks placed top-down, each wrapped to the width left for it as
matplotlib measures it (not as a character count guesses it), the next block below the last.
A page of sentences written this way never runs off its right edge, and never writes one
line over another, whatever the arms' names or the number of comparisons."""

from __future__ import annotations

import textwrap
from typing import Any

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

LEFT, RIGHT, BOTTOM = 0.05, 0.95, 0.06  # the writing area, in fractions of the page
AVERAGE_CHAR = (
    0.55  # a character's mean width in DejaVu Sans, in ems: the first guess of a line's length
)


class Column:
    """A writing position on a page: `write` a block at it, and it moves below the block."""

    def __init__(self, fig: Figure, top: float, left: float = LEFT, right: float = RIGHT) -> None:
        self.fig, self.y, self.left, self.right = fig, top, left, right
        self.renderer = FigureCanvasAgg(fig).get_renderer()

    def write(
        self, text: str, indent: float = 0.0, gap: float = 0.012, hanging: str = "", **style: Any
    ) -> None:
        """Draw ``text`` wrapped to the column (``indent`` further in, later lines after
        ``hanging``), then move below it by ``gap`` (fractions of the page)."""
        x = self.left + indent
        size = style.get("fontsize", 10)
        width = (self.right - x) * self.fig.get_figwidth() * 72  # points
        chars = max(20, int(width / (AVERAGE_CHAR * size)))
        item = self.fig.text(x, self.y, text, va="top", **style)
        while True:
            item.set_text(
                "\n".join(
                    textwrap.fill(line, chars, subsequent_indent=hanging) or " "
                    for line in text.split("\n")
                )
            )
            box = item.get_window_extent(self.renderer).transformed(self.fig.transFigure.inverted())
            if box.x1 <= self.right or chars <= 20:
                break
            chars = max(20, int(chars * min(0.97, (self.right - x) / (box.x1 - x))))
        self.y = box.y0 - gap

    def skip(self, space: float) -> None:
        self.y -= space

    @property
    def fits(self) -> bool:
        """Whether everything written so far lies above the page's bottom margin."""
        return self.y >= BOTTOM - 0.012
