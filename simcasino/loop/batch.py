"""Batches on all cores: numba threads over blocks of deals or games, seeded by index.

Each deal's deck depends only on (seed, deal index), so the result is the same for any
number of threads and any block size. Work goes in blocks so the caller can show progress
between them; inside a block the threads split it into chunks with their own workspace.
"""

from __future__ import annotations

from collections.abc import Callable

import numba
import numpy as np
from numba import prange

from simcasino.core.jit import kernel
from simcasino.core.rules import Rules
from simcasino.engine.dealing import start_deck
from simcasino.engine.layout import GAME_SCORE, N_COLUMNS, N_PARAMS, UNIT, result_row
from simcasino.loop.deals import play_deal
from simcasino.loop.games import play_game
from simcasino.loop.workspace import make_workspace
from simcasino.strategies import StrategySpec, plain

BLOCK = 1 << 16  # deals between progress reports
CHUNK = 1 << 12  # deals a thread plays with one workspace (made afresh per chunk: 2 MiB of zeros)


@kernel(parallel=True)
def _deals_block(rules_array, strategy_ids, params, counts_cards, every, key, first, out):
    """Play deals ``first .. first + len(out)``; out[d, seat, column] gets the results."""
    count, players = out.shape[0], out.shape[1]
    chunks = (count + CHUNK - 1) // CHUNK
    for c in prange(chunks):
        ws = make_workspace(rules_array, strategy_ids, params, counts_cards, every)
        for d in range(c * CHUNK, min(count, (c + 1) * CHUNK)):
            start_deck(ws, key, first + d, 0)
            play_deal(ws, players - 1, every)
            for seat in range(players):
                for col in range(N_COLUMNS):
                    out[d, seat, col] = ws[result_row(seat) + col]


@kernel(parallel=True)
def _games_block(rules_array, strategy_ids, params, counts_cards, every, key, first, out):
    """Play games ``first .. first + len(out)``; out[g, seat] = (score, won, deals)."""
    count, players = out.shape[0], out.shape[1]
    chunks = (count + CHUNK - 1) // CHUNK
    for c in prange(chunks):
        ws = make_workspace(rules_array, strategy_ids, params, counts_cards, every)
        for g in range(c * CHUNK, min(count, (c + 1) * CHUNK)):
            winner, deals = play_game(ws, key, first + g, every)
            for seat in range(players):
                out[g, seat, 0] = ws[GAME_SCORE + seat]
                out[g, seat, 1] = winner >= 0 and winner == ws[UNIT + seat]
                out[g, seat, 2] = deals


def seat_arrays(specs: list[StrategySpec]) -> tuple[np.ndarray, np.ndarray, bool]:
    """Each seat's strategy number, its parameters (N_PARAMS integers, zero-padded), and
    whether any seat counts the unseen cards."""
    ids = np.array([s.kernel_id for s in specs], dtype=np.int64)
    params = np.zeros((len(specs), N_PARAMS), dtype=np.int64)
    for seat, spec in enumerate(specs):
        values = spec.kernel_params()
        params[seat, : len(values)] = values
    return ids, params, any(spec.counts_cards for spec in specs)


def _run(block_fn, rules: Rules, specs: list[StrategySpec], key: int, count: int, columns: int,
         progress: Callable[[int], None] | None, threads: int | None, start: int = 0) -> np.ndarray:
    out = np.zeros((count, rules.players, columns), dtype=np.int16)
    ids, params, counts_cards = seat_arrays(specs)
    previous = numba.get_num_threads()
    numba.set_num_threads(max(1, min(threads or numba.config.NUMBA_NUM_THREADS, numba.config.NUMBA_NUM_THREADS)))
    try:
        for first in range(0, count, BLOCK):
            block_fn(rules.to_array(), ids, params, counts_cards, None if plain(specs) else True, np.uint64(key),
                     start + first,
                     out[first : first + BLOCK])
            if progress:
                progress(min(count, first + BLOCK))
    finally:
        numba.set_num_threads(previous)
    return out


def simulate_deals(rules: Rules, specs: list[StrategySpec], key: int, deals: int,
                   progress: Callable[[int], None] | None = None, threads: int | None = None,
                   start: int = 0) -> np.ndarray:
    """(deals, seats, N_COLUMNS) int16 results of deals ``start .. start + deals`` (see
    `simcasino.simulate`); a range of deals is how the experiment runner splits work."""
    return _run(_deals_block, rules, specs, key, deals, N_COLUMNS, progress, threads, start)


def simulate_games(rules: Rules, specs: list[StrategySpec], key: int, games: int,
                   progress: Callable[[int], None] | None = None, threads: int | None = None,
                   start: int = 0) -> np.ndarray:
    """(games, seats, 3) int16: final score, won (0/1; partners win together), deals played,
    of games ``start ..``."""
    return _run(_games_block, rules, specs, key, games, 3, progress, threads, start)
