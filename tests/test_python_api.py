"""The Python API's frames hand over to pandas (the ``pandas`` extra: pandas and pyarrow; the
test extra installs them, so this runs everywhere the suite does)."""

from __future__ import annotations

import pandas as pd

import simcasino


def test_simulate_frame_to_pandas() -> None:
    frame = simcasino.simulate("swedish", ("greedy", "random"), deals=50, seed=3)
    table = frame.to_pandas()
    assert isinstance(table, pd.DataFrame) and list(table.columns) == frame.columns
    assert len(table) == frame.height == 100
    assert table["points"].sum() == frame["points"].sum()
    assert list(table["strategy"].astype(str)[:2]) == ["greedy", "random"]


def test_games_frame_to_pandas() -> None:
    frame = simcasino.play_games("finnish", ("greedy", "greedy"), games=5, seed=3)
    table = frame.to_pandas()
    assert table["won"].sum() == frame["won"].sum() == 5
