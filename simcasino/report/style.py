"""The look every page shares: page size, readable fonts, and one colour per arm (or per line
of a rule sweep), so an arm is the same colour on the forest plot, the anatomy and the
convergence page, and a setting the same colour on every chart of a sweep."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import matplotlib

from simcasino.experiment.spec import Spec

matplotlib.use("Agg")  # reports are files: no display, no interactive backend

PAGE = (11.69, 8.27)  # A4 landscape, inches
DPI = 100
RC = {
    "font.size": 11,
    "axes.titlesize": 14,
    "axes.labelsize": 12,
    "legend.fontsize": 10,
    "figure.titlesize": 16,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "pdf.fonttype": 42,
}  # TrueType in the PDF: its text can be searched and copied
PALETTE = matplotlib.colormaps["tab10"].colors
SIGNIFICANT_MARK = "o"


@contextmanager
def report_style() -> Iterator[None]:
    """The report's matplotlib settings, for the pages drawn inside, then the caller's back."""
    with matplotlib.rc_context(RC):
        yield


def arm_colour(spec: Spec, arm: str) -> tuple[float, float, float]:
    """The colour of arm ``arm``: its place in the spec's [arms] table, so every page agrees."""
    return series_colour(list(spec.arms).index(arm))


def series_colour(index: int) -> tuple[float, float, float]:
    """The colour of the ``index``-th series (an arm, or a line of a rule sweep's chart)."""
    return PALETTE[index % len(PALETTE)]
