"""Writing a report: every page into one PDF (matplotlib's PdfPages) and each page as a PNG,
in a folder of its own (``reports/NAME-seedS/`` by default, beside ``runs/NAME-seedS/``).

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
from simcasino.report.figures import anatomy_figure, convergence_figure, cover_page, forest_figure
from simcasino.report.style import DPI, report_style
from simcasino.report.tables import table_pages

FORMATS = ("pdf", "png", "both")
PAGES: tuple[tuple[str, Callable[[ReportData], Figure]], ...] = (
    ("summary", cover_page), ("forest", forest_figure), ("anatomy", anatomy_figure),
    ("convergence", convergence_figure))


@dataclass(frozen=True)
class Report:
    """What was written: the PDF (None with ``png`` only), the PNGs in page order, the page count."""

    folder: Path
    pdf: Path | None
    pngs: list[Path]
    pages: int


def default_out(data: ReportData) -> Path:
    return Path("reports") / f"{data.spec.name}-seed{data.spec.seed}"


def make_report(run: Path, out: Path | None = None, fmt: str = "both") -> Report:
    """Draw the report of run folder ``run`` into ``out`` as ``fmt`` (pdf, png or both)."""
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}; got {fmt!r}")
    data = load(run)
    folder = out or default_out(data)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise ValueError(f"cannot create {folder}: {err.strerror}") from None
    with report_style():
        return _write(data, folder, fmt)


def _pages(data: ReportData) -> Iterator[tuple[str, Figure]]:
    for name, draw in PAGES:
        yield name, draw(data)
    for n, page in enumerate(table_pages(data), 1):
        yield f"table-{n}", page


def _write(data: ReportData, folder: Path, fmt: str) -> Report:
    pdf_path = folder / "report.pdf" if fmt in ("pdf", "both") else None
    pngs: list[Path] = []
    with PdfPages(pdf_path) if pdf_path else nullcontext() as pdf:
        for n, (name, fig) in enumerate(_pages(data), 1):
            if pdf:
                pdf.savefig(fig)
            if fmt in ("png", "both"):
                pngs.append(folder / f"{n:02d}-{name}.png")
                fig.savefig(pngs[-1], dpi=DPI)
        pages = n
    return Report(folder, pdf_path, pngs, pages)
