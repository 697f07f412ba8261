"""Both engines refuse the same positions (`core.limits`): the kernel sized by the same limits,
its refusals raised as `PositionTooLarge` as the reference engine raises them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from simcasino import capture_options
from simcasino.core import limits
from simcasino.core.limits import KERNEL_REFUSALS, PositionTooLarge, refusals
from simcasino.engine import layout

PACKAGE = Path(limits.__file__).parents[1]
KERNEL_SOURCES = [path for name in ("engine", "advice", "strategies", "loop")
                  for path in (PACKAGE / name).rglob("*.py")]
INTERNAL = {"too many builds on the table"}  # every seat owns at most one build: a broken invariant, not a position


def test_the_kernel_is_sized_by_the_limits():
    assert (layout.TABLE_CAP, layout.BUCKET_CAP) == (limits.TABLE_LIMIT, limits.GROUP_LIMIT)
    assert (layout.OPTION_CAP, layout.MOVE_CAP) == (limits.OPTION_LIMIT, limits.MOVE_LIMIT)


def test_every_refusal_the_kernel_raises_is_known():
    raised = {m for path in KERNEL_SOURCES for m in re.findall(r'raise RuntimeError\("([^"]+)"\)', path.read_text())}
    assert raised - INTERNAL == set(KERNEL_REFUSALS)


@pytest.mark.parametrize("engine", ["reference", "numba"])
def test_too_many_groups_of_one_value_are_refused_alike(engine):
    table = [f"{rank}{suit}" for rank in "2345" for suit in "CDHS"] * 2  # two decks: 32 low cards
    with pytest.raises(PositionTooLarge, match="over 2048 groups of"):
        capture_options("10H", table, "krypkasino", engine=engine)


@pytest.mark.parametrize("engine", ["reference", "numba"])
def test_a_table_past_the_limit_is_refused_alike(engine):
    table = [f"{rank}{suit}" for rank in ["K", "Q", "J", *map(str, range(2, 10))] for suit in "CDHS"] * 2
    with pytest.raises(PositionTooLarge, match="88 cards on the table"):
        capture_options("10H", table, "krypkasino", engine=engine)


def test_a_kernel_refusal_becomes_position_too_large_and_other_errors_stay():
    with pytest.raises(PositionTooLarge, match="over 16384 legal moves"):
        with refusals():
            raise RuntimeError("too many legal moves")
    with pytest.raises(RuntimeError, match="something else"):
        with refusals():
            raise RuntimeError("something else")
