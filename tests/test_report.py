"""`simcasino report` and `experiment run --report` on a small real run: the PDF has the
expected pages, every PNG is there and shows something, and bad input is one line, exit 2."""

from __future__ import annotations

import math
import re
from pathlib import Path

import matplotlib.image
import numpy as np
import pytest
from test_cli import ok, run

from simcasino.experiment import run_experiment, spec_from_table
from simcasino.report import make_report
from simcasino.report.data import load
from simcasino.report.tables import ROWS_PER_PAGE
from simcasino.report.text import verdict

FIGURE_PAGES = 4  # answer, forest, anatomy, convergence
SPEC = {"name": "small", "description": "greedy and heuristic against random", "seed": 2, "deals": 2_000,
        "games": 40, "chunk": 512, "rules": {"preset": "swedish"},
        "arms": {"greedy": "greedy", "heuristic": "heuristic", "random": "random"},
        "compare": {"baseline": "random"}}


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("runs") / "small-seed2"
    run_experiment(spec_from_table(SPEC), folder, workers=1)
    return folder


def pdf_pages(path: Path) -> int:
    """Pages counted by pypdf when installed (the test extra), else from the PDF's page objects."""
    try:
        import pypdf
    except ImportError:
        return len(re.findall(rb"/Type\s*/Page\b(?!s)", path.read_bytes()))
    return len(pypdf.PdfReader(path).pages)


def expected_pages(run_dir: Path) -> int:
    data = load(run_dir)
    return FIGURE_PAGES + sum(math.ceil(n / ROWS_PER_PAGE) for n in (data.result.table.height, data.convergence.height))


def assert_picture(path: Path) -> None:
    """A real figure: more than a few KB and not one flat colour."""
    assert path.stat().st_size > 10_000, path
    pixels = matplotlib.image.imread(path)[..., :3]
    assert pixels.std() > 0.05 and (pixels.mean(axis=-1) < 0.9).mean() > 0.005, path


def test_report_has_every_page_in_pdf_and_png(run_dir: Path, tmp_path: Path) -> None:
    report = make_report(run_dir, tmp_path / "out")
    assert report.pages == expected_pages(run_dir) == pdf_pages(report.pdf)
    assert [p.name for p in report.pngs][:FIGURE_PAGES] == ["01-summary.png", "02-forest.png", "03-anatomy.png",
                                                            "04-convergence.png"]
    assert len(report.pngs) == report.pages
    for png in report.pngs:
        assert_picture(png)


def test_cli_formats_and_default_folder(run_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pngs = ok("report", str(run_dir), "--format", "png", "--out", str(tmp_path / "p")).output
    assert "PNGs" in pngs and not (tmp_path / "p" / "report.pdf").exists() and (tmp_path / "p" / "02-forest.png").exists()
    ok("report", str(run_dir), "--format", "pdf", "--out", str(tmp_path / "d"))
    assert [p.name for p in (tmp_path / "d").iterdir()] == ["report.pdf"]
    monkeypatch.chdir(tmp_path)
    ok("report", str(run_dir))
    assert pdf_pages(tmp_path / "reports" / "small-seed2" / "report.pdf") == expected_pages(run_dir)


def test_partial_run_is_reported_as_in_progress(run_dir: Path, tmp_path: Path) -> None:
    partial = tmp_path / "partial"
    (partial / "chunks").mkdir(parents=True)
    (partial / "manifest.json").write_text((run_dir / "manifest.json").read_text())
    for name in ("deals-000000.parquet", "deals-000001.parquet"):
        (partial / "chunks" / name).write_bytes((run_dir / "chunks" / name).read_bytes())
    data = load(partial)
    assert not data.complete and data.convergence["decks"].to_list()[-2:] == [512, 1024]
    assert make_report(partial, tmp_path / "out", "pdf").pages == FIGURE_PAGES + 2


def test_experiment_run_with_report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    spec = tmp_path / "tiny.toml"
    spec.write_text('name = "tiny"\ndescription = "greedy vs random"\nseed = 4\ndeals = 600\nchunk = 256\n'
                    '[rules]\npreset = "swedish"\n[arms]\ngreedy = "greedy"\nrandom = "random"\n'
                    '[compare]\nbaseline = "random"\n')
    out = ok("experiment", "run", str(spec), "--workers", "1", "--report").output
    assert "wrote a report of" in out.splitlines()[-1]
    assert pdf_pages(tmp_path / "reports" / "tiny-seed4" / "report.pdf") >= FIGURE_PAGES + 2


@pytest.mark.parametrize("make, message", [
    (lambda tmp: tmp / "missing", "no such folder"),
    (lambda tmp: tmp, "not a run folder"),
    (lambda tmp: (tmp / "manifest.json").write_text("{}") and tmp, "not a simcasino run manifest"),
])
def test_bad_input_is_one_line_exit_2(tmp_path: Path, make, message: str) -> None:
    result = run("report", str(make(tmp_path)))
    assert result.exit_code == 2
    assert result.output.startswith("error: ") and message in result.output and len(result.output.splitlines()) == 1


def test_verdict_names_the_winner_and_says_when_there_is_none() -> None:
    base = {"a": "on", "b": "off", "mean_diff": -0.73, "ci_low": -0.78, "ci_high": -0.69, "p_holm": 1e-12}
    assert verdict(base) == "off beats on by 0.730 points per deal [0.690, 0.780]"
    assert verdict(base | {"p_holm": 0.2}).startswith("on vs off: no detectable difference")
