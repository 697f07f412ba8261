"""The command line run in the test's process (click's runner), and the Markdown tables it prints."""

from __future__ import annotations

from click.testing import CliRunner, Result

from simcasino.cli import main


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def ok(*args: str) -> Result:
    result = run(*args)
    assert result.exit_code == 0, f"exit {result.exit_code}\n{result.output}\n{result.exception!r}"
    return result


def table(text: str) -> list[dict[str, str]]:
    """The rows of the (first) Markdown table in ``text``, as dicts of header -> cell."""
    lines = [line for line in text.splitlines() if line.startswith("|")]
    cells = [[c.strip() for c in line.strip("|").split("|")] for line in lines]
    header, rows = cells[0], cells[2:]
    return [dict(zip(header, row)) for row in rows]
