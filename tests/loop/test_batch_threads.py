"""The batch's threads (`loop.batch`): started once per process, each playing chunks on one
workspace of its own, and an interrupted block takes no new chunk."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from simcasino.core.rules import Rules
from simcasino.loop import batch
from simcasino.strategies import parse_strategy


def test_the_threads_start_once_and_a_thread_makes_one_workspace_for_its_chunks() -> None:
    made, played = [], []

    def chunk(workspace: np.ndarray, first: int) -> None:
        played.append((threading.get_ident(), id(workspace), first))

    def new_workspace() -> np.ndarray:
        made.append(threading.get_ident())
        return np.zeros(1)

    batch._play_block(chunk, new_workspace, range(0, 40, 4), workers=2)
    pool = batch._threads()
    batch._play_block(chunk, new_workspace, range(0, 40, 4), workers=2)
    assert batch._threads() is pool
    assert sorted(first for _, _, first in played) == sorted(2 * list(range(0, 40, 4)))
    assert len(made) <= 4  # a workspace per thread and block, not per chunk
    assert all(len({w for t, w, _ in played if t == thread}) <= 2 for thread, _, _ in played)


def test_an_exception_in_a_block_stops_the_threads_taking_chunks() -> None:
    played = []

    def chunk(workspace: np.ndarray, first: int) -> None:
        if first == 3:
            raise KeyboardInterrupt
        time.sleep(0.002)
        played.append(first)

    with pytest.raises(KeyboardInterrupt):
        batch._play_block(chunk, lambda: np.zeros(1), range(1000), workers=2)
    time.sleep(0.05)  # the other thread finishes the chunk it is on
    assert len(played) < 50


def test_deals_are_the_same_one_by_one_in_chunks_and_on_two_threads() -> None:
    rules, specs = Rules(), [parse_strategy("heuristic"), parse_strategy("greedy")]
    together = batch.simulate_deals(rules, specs, 5, 12, threads=2)
    alone = [batch.simulate_deals(rules, specs, 5, 1, threads=1, start=i) for i in range(12)]
    assert (together == np.concatenate(alone)).all()
