"""Batches on all cores: threads over chunks of deals or games, each seeded by its index.

Each deal's deck depends only on (seed, deal index), so the result is the same for any
number of threads and any chunk size. Work goes in blocks so the caller can show progress
between them; inside a block, the process's Python threads (started once) take chunks in turn,
each on a workspace of its own, through a compiled loop that releases the GIL (``nogil``).

Why threads and not numba's ``parallel=True``: a parallel loop is compiled apart from its
body, one more time for each combination of argument types, and measured on an empty cache
it was the largest single piece of a strategy's compile time; a plain loop called from
threads compiles once, with the same speed.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait

import numba
import numpy as np

from simcasino.core.limits import refusals
from simcasino.core.rules import Rules
from simcasino.engine import layout
from simcasino.loop.entry import NO_DATA, TASK_DEALS, TASK_GAMES, flags, prepare, run
from simcasino.loop.workspace import make_workspace
from simcasino.strategies import StrategySpec, tier_of
from simcasino.strategies.search import value

BLOCK = 1 << 16  # deals between progress reports
CHUNK = 1 << 12  # deals a thread takes at a time


def seat_arrays(specs: list[StrategySpec]) -> tuple[np.ndarray, np.ndarray, bool]:
    """Each seat's strategy number, its parameters (N_PARAMS integers, zero-padded), and
    whether any seat counts the unseen cards."""
    ids = np.array([s.kernel_id for s in specs], dtype=np.int64)
    params = np.zeros((len(specs), layout.N_PARAMS), dtype=np.int64)
    for seat, spec in enumerate(specs):
        values = spec.kernel_params()
        params[seat, : len(values)] = values
    return ids, params, any(spec.counts_cards for spec in specs)


def _run(
    task: int,
    rules: Rules,
    specs: list[StrategySpec],
    key: int,
    count: int,
    columns: int,
    progress: Callable[[int], None] | None,
    threads: int | None,
    start: int = 0,
    rows: np.ndarray = NO_DATA,
) -> np.ndarray:
    """``rows``: room for `value.rows_per_deal` rows a deal, to record the rounds' ends in."""
    out = np.zeros((count, rules.players, columns), dtype=np.int16)
    ids, params, counts_cards = seat_arrays(specs)
    prepare(tier_of(specs))  # compiled or loaded once, under the lock other processes wait on
    advises, weighs, searches, sees = flags(tier_of(specs))
    rules_array = rules.to_array()
    per_deal = value.rows_per_deal(rules) if rows.size else 0
    words = per_deal * value.ROW

    def chunk(workspace: np.ndarray, first: int) -> None:
        end = min(count, first + size)
        run(
            workspace,
            advises,
            weighs,
            searches,
            sees,
            np.int64(task),
            np.int64(0),
            np.int64(start + first),
            np.int64(per_deal),
            np.uint64(key),
            rows[first * words : end * words],
            out[first:end],
        )

    def new_workspace() -> np.ndarray:
        workspace = make_workspace(rules_array, ids, params, counts_cards, weighs)
        value.load_into(workspace, rules)
        return workspace

    workers = max(1, min(threads or numba.config.NUMBA_NUM_THREADS, numba.config.NUMBA_NUM_THREADS))
    size = max(
        1, min(CHUNK, -(-count // (4 * workers)))
    )  # a few chunks a thread: none left alone at the end
    with refusals():
        for block in range(0, count, BLOCK):
            starts = range(block, min(count, block + BLOCK), size)
            _play_block(chunk, new_workspace, starts, workers)
            if progress:
                progress(min(count, block + BLOCK))
    return out


_pool: ThreadPoolExecutor | None = None


def _threads() -> ThreadPoolExecutor:
    """The process's threads for batches, started once: a batch of a few deals (the findings
    play thousands) would otherwise spend more on starting threads than on its deals."""
    global _pool
    if _pool is None:
        _pool = ThreadPoolExecutor(numba.config.NUMBA_NUM_THREADS, thread_name_prefix="batch")
    return _pool


def _forget_threads() -> None:
    """A forked child has none of its parent's threads: it starts its own when it needs them."""
    global _pool
    _pool = None


os.register_at_fork(after_in_child=_forget_threads)


def _play_block(
    chunk: Callable[[np.ndarray, int], None],
    new_workspace: Callable[[], np.ndarray],
    starts: range,
    workers: int,
) -> None:
    """Play the chunks at ``starts`` on up to ``workers`` threads, each taking the next chunk
    when it is free and playing it on a workspace of its own, made once (a deal's result
    depends on nothing a workspace keeps from the deal before: the same for any chunking).
    An exception here (Ctrl-C included) lets the threads finish the chunk they are on and take
    no other."""
    if len(starts) == 1:  # one chunk (a deal or a few): no thread to wake for it
        chunk(new_workspace(), starts[0])
        return
    pending, lock, stop = iter(starts), threading.Lock(), threading.Event()

    def drain() -> None:
        workspace = new_workspace()
        while not stop.is_set():
            with lock:
                first = next(pending, None)
            if first is None:
                return
            chunk(workspace, first)

    futures = [_threads().submit(drain) for _ in range(min(workers, len(starts)))]
    try:
        done, _ = wait(futures, return_when=FIRST_EXCEPTION)
    finally:
        stop.set()
    for future in done:
        future.result()  # a thread's exception, raised here


def simulate_deals(
    rules: Rules,
    specs: list[StrategySpec],
    key: int,
    deals: int,
    progress: Callable[[int], None] | None = None,
    threads: int | None = None,
    start: int = 0,
) -> np.ndarray:
    """(deals, seats, N_COLUMNS) int16 results of deals ``start .. start + deals`` (see
    `simcasino.simulate`); a range of deals is how the experiment runner splits work."""
    return _run(TASK_DEALS, rules, specs, key, deals, layout.N_COLUMNS, progress, threads, start)


def record_boundaries(
    rules: Rules,
    specs: list[StrategySpec],
    key: int,
    deals: int,
    progress: Callable[[int], None] | None = None,
    threads: int | None = None,
    start: int = 0,
) -> tuple[np.ndarray, np.ndarray]:
    """Deals ``start .. start + deals`` as `simulate_deals` plays them, and each round's end in
    them from every seat's side (`value.note`): a (rows, `value.ROW`) int64 array, its first
    column the deal's index, then the seat, the features and the deal's margin for that seat."""
    per_deal = value.rows_per_deal(rules)
    rows = np.zeros(deals * per_deal * value.ROW, dtype=np.int64)
    out = _run(
        TASK_DEALS, rules, specs, key, deals, layout.N_COLUMNS, progress, threads, start, rows
    )
    table = rows.reshape(deals * per_deal, value.ROW)
    filled = table[:, 0] == 1
    table[:, 0] = start + np.arange(deals * per_deal) // per_deal
    return table[filled], out


def simulate_games(
    rules: Rules,
    specs: list[StrategySpec],
    key: int,
    games: int,
    progress: Callable[[int], None] | None = None,
    threads: int | None = None,
    start: int = 0,
) -> np.ndarray:
    """(games, seats, 3) int16: final score, won (0/1; partners win together), deals played,
    of games ``start ..``."""
    return _run(TASK_GAMES, rules, specs, key, games, 3, progress, threads, start)
