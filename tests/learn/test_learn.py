"""`simcasino learn` end to end on a tiny budget: a value file from the seed, again the same,
its making recorded, refused for other rules."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from simcasino.cli import main
from simcasino.core.rules import Rules
from simcasino.learn.fit import fit_value
from simcasino.strategies.search import value

TINY = ["learn", "--rules", "finnish", "--deals", "20", "--iterations", "2", "--budget", "16", "--seed", "3"]


def test_learn_on_a_tiny_budget_writes_a_value_the_search_can_read(tmp_path: Path) -> None:
    runs = [CliRunner().invoke(main, [*TINY, "--out", str(tmp_path / f"v{k}.json")]) for k in range(2)]
    assert all(r.exit_code == 0 for r in runs), runs[0].output
    assert "iteration 2: 20 deals of search:budget=16,value=2" in runs[0].output
    assert "held-out error" in runs[0].output
    first, again = (json.loads((tmp_path / f"v{k}.json").read_text()) for k in range(2))
    assert first["weights"] == again["weights"]  # the same seed, the same file
    made = value.load(tmp_path / "v0.json", Rules.preset("finnish")).made
    assert made["seed"] == 3 and made["commit"] and len(made["iterations"]) == 2
    with pytest.raises(ValueError, match="learned for finnish, 2 players"):
        value.load(tmp_path / "v0.json", Rules.preset("swedish"))


@pytest.mark.parametrize("args, says", [
    (["--rules", "swedish", "--rule", "players=3"], "for two players"),
    (["--deals", "5"], "--deals"),
    (["--out", "/proc/x.json"], "cannot write there"),
])
def test_learn_refuses_bad_input_in_one_line(args: list[str], says: str) -> None:
    out = [] if "--out" in args else ["--out", "/tmp/never-written.json"]
    result = CliRunner().invoke(main, ["learn", *args, *out])
    assert result.exit_code == 2 and says in result.output, result.output


def test_the_fit_beats_the_margin_as_it_stands_where_the_future_is_learnable() -> None:
    """On rows whose outcome is the margin now plus a smooth function of the features, the fit
    finds it: its held-out error well below the margin's own."""
    rng = np.random.default_rng(0)
    rows = rng.integers(-5, 6, size=(2000, value.N_FEATURES)).astype(float)
    margins = rows[:, 0] + 2 * np.tanh(rows[:, 1] / 3) + 0.5 * rows[:, 9] + rng.normal(0, 0.3, 2000)
    fit = fit_value(rows, margins, np.arange(2000) // 4, seed=1, steps=300)
    assert fit.held_out_rmse < 0.5 < fit.margin_now_rmse
    assert fit.held_out_rmse < fit.linear_rmse
