"""Writing a report: every page into one PDF (matplotlib's PdfPages) and each page as a PNG,
in a folder of its own (by default ``reports/`` and the run folder's name: ``runs/quick-seed1``
is drawn into ``reports/quick-seed1``).

Pages are drawn one at a time as plain Figures (not pyplot's, so nothing global holds on to
them) and dropped once written, so memory does not grow with the number of table pages.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path

from matplotlib.backends.backend_pdf import PdfPages
from matplotlib.figure import Figure

from simcasino.report.data import ReportData, load
from simcasino.report.figures import (
    anatomy_figure,
    convergence_figure,
    cover_page,
    distributions_figure,
    forest_figure,
    matrix_figure,
)
from simcasino.report.glossary import glossary_page
from simcasino.report.style import DPI, report_style
from simcasino.report.tables import table_pages
from simcasino.report.tune import tune_pages
from simcasino.tune.run import is_tune_folder, load_result

FORMATS = ("pdf", "png", "both")
# every run's pages, then the tables; a page whose function returns None is left out (the
# distributions of a run written before chunks kept histograms, the matrix of two arms)
PAGES: tuple[tuple[str, Callable[[ReportData], Figure | None]], ...] = (
    ("summary", cover_page),
    ("forest", forest_figure),
    ("anatomy", anatomy_figure),
    ("convergence", convergence_figure),
    ("distributions", distributions_figure),
    ("matrix", matrix_figure),
    ("glossary", glossary_page),
)


@dataclass(frozen=True)
class Report:
    """What was written: the PDF (None with ``png`` only), the PNGs in page order, the page
    count."""

    folder: Path
    pdf: Path | None
    pngs: list[Path]
    pages: int


def default_out(run: Path) -> Path:
    """reports/ and the run folder's name: two runs of one spec and seed in other folders
    get reports of their own."""
    return Path("reports") / run.resolve().name


def make_report(run: Path, out: Path | None = None, fmt: str = "both") -> Report:
    """Draw the report of run folder ``run`` (or of a house-rule sweep's folder) into ``out``
    (default: `default_out`) as ``fmt`` (pdf, png or both)."""
    pages = tune_pages(load_result(run)) if is_tune_folder(run) else _pages(load(run))
    return write_pages(pages, out or default_out(run), fmt)


def _pages(data: ReportData) -> Iterator[tuple[str, Figure]]:
    for name, draw in PAGES:
        if (page := draw(data)) is not None:
            yield name, page
    for n, page in enumerate(table_pages(data), 1):
        yield f"table-{n}", page


def write_pages(pages: Iterator[tuple[str, Figure]], folder: Path, fmt: str) -> Report:
    """Each (name, figure) of ``pages`` (a generator: each page is drawn, in the report style,
    as it is written) into one PDF and/or one PNG per page (``NN-name.png``) in ``folder``."""
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}; got {fmt!r}")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise ValueError(f"cannot create {folder}: {err.strerror}") from None
    pdf_path = folder / "report.pdf" if fmt in ("pdf", "both") else None
    for stale in [*folder.glob("[0-9][0-9]-*.png"), folder / "report.pdf"]:  # a report drawn before
        stale.unlink(missing_ok=True)
    pngs: list[Path] = []
    with report_style(), PdfPages(pdf_path) if pdf_path else nullcontext() as pdf:
        for n, (name, fig) in enumerate(pages, 1):
            if pdf:
                pdf.savefig(fig)
            if fmt in ("png", "both"):
                pngs.append(folder / f"{n:02d}-{name}.png")
                fig.savefig(pngs[-1], dpi=DPI)
        pages_written = n
    return Report(folder, pdf_path, pngs, pages_written)
