"""What a PDF the reports and sweeps write holds: its pages and their text (pypdf, the test extra)."""

from __future__ import annotations

from pathlib import Path

import pypdf


def pdf_pages(path: Path) -> int:
    return len(pypdf.PdfReader(path).pages)


def pdf_text(path: Path) -> list[str]:
    """The text of each page of a PDF, with its runs of white space made single spaces."""
    return [" ".join(page.extract_text().split()) for page in pypdf.PdfReader(path).pages]
