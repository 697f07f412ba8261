"""Reports: a run folder drawn as a multi-page PDF and one PNG per page, for a person who
would rather look than read tables.

Modules, one concept each: `data` (what a report is drawn from), `text` (the answer in
words), `style` (fonts, page size, a colour per arm), `figures` (the pages with plots),
`tables` (the pages of numbers), `document` (writing the PDF and PNGs).
"""

from simcasino.report.document import Report, make_report

__all__ = ["Report", "make_report"]
