"""The Python API's frames hand over to pandas (the ``pandas`` extra: pandas and pyarrow; the
test extra installs them, so this runs everywhere the suite does)."""

from __future__ import annotations

import pandas as pd
import polars as pl
import pytest

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


def test_a_frame_too_large_for_memory_is_refused_before_play() -> None:
    with pytest.raises(ValueError, match="would need about .* block by block"):
        simcasino.simulate("swedish", ("greedy", "random"), deals=10**14, seed=1)


def test_blocks_stream_the_same_rows() -> None:
    from simcasino.simulation import simulate_blocks

    blocks = list(simulate_blocks("swedish", ("greedy", "random"), 3000, 5, block=1024))
    assert [b.height for b in blocks] == [2048, 2048, 1904]
    assert pl.concat(blocks).equals(simcasino.simulate("swedish", ("greedy", "random"), deals=3000, seed=5))
