"""Counter-based randomness: every deck depends only on (seed, a, b), never on chunking.

The master seed goes once through `numpy.random.SeedSequence` to a 64-bit key. A deck (and
the random choices made while it is played) draws from a splitmix64 stream started from
(key, a, b) — for single deals a = deal index, b = 0; in games a = game, b = deal in that
game. So the same seed gives the same decks whatever the number of workers, chunk size or
order, and both engines (numba and reference) see the same cards. The functions are jitted
so the kernel inlines them; the reference engine calls the very same functions.
"""

from __future__ import annotations

import numpy as np

from simcasino.core.jit import kernel

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


def seed_key(seed: int) -> int:
    """The 64-bit stream key of a master seed (a non-negative integer)."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer; got {seed!r}")
    return int(np.random.SeedSequence(int(seed)).generate_state(1, dtype=np.uint64)[0])


@kernel(inline="always")
def mix64(z: np.uint64) -> np.uint64:
    """The splitmix64 finalizer: a bijective scramble of 64 bits."""
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@kernel(inline="always")
def stream_start(key: np.uint64, a: np.int64, b: np.int64) -> np.uint64:
    """The first state of the stream for (key, a, b)."""
    h = mix64(np.uint64(a) * GOLDEN + np.uint64(1))
    h = mix64(h ^ (np.uint64(b) * _M1 + np.uint64(2)))
    return mix64(key ^ h)


@kernel(inline="always")
def next_below(state: np.uint64, n: np.int64) -> tuple[np.uint64, np.int64]:
    """Advance the stream; return the new state and a number in [0, n)."""
    state = state + GOLDEN
    return state, np.int64(mix64(state) % np.uint64(n))


@kernel
def shuffle_into(out: np.ndarray, key: np.uint64, a: np.int64, b: np.int64) -> np.uint64:
    """Fill ``out`` with the deck of stream (key, a, b) (Fisher-Yates over 0..len-1);
    return the stream state after the shuffle, which the deal's random choices go on from."""
    state = stream_start(key, a, b)
    n = out.shape[0]
    for i in range(n):
        out[i] = i
    for i in range(n - 1, 0, -1):
        state, j = next_below(state, i + 1)
        out[i], out[j] = out[j], out[i]
    return state


def shuffled_deck(key: int, a: int, b: int, cards: int = 52) -> tuple[list[int], int]:
    """The deck order for (key, a, b) (index 0 is dealt first) and the stream state after it."""
    out = np.empty(cards, dtype=np.int64)
    state = shuffle_into(out, np.uint64(key), np.int64(a), np.int64(b))
    return out.tolist(), int(state)


def draw_below(state: int, n: int) -> tuple[int, int]:
    """`next_below` for Python callers: the new state (int) and a number in [0, n)."""
    new_state, value = next_below(np.uint64(state), np.int64(n))
    return int(new_state), int(value)
