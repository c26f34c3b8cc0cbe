"""Python's ``random.Random`` inside compiled code: seeding, ``randrange`` and ``shuffle``.

The batched engine (:mod:`gendeneia_env.batched`) must shuffle exactly as
:class:`~gendeneia_env.game.GendeneiaGame` does, whose piles are shuffled by ``random.Random``
(a Mersenne Twister, MT19937). These are CPython's own routines (``Modules/_randommodule.c``
and ``Lib/random.py`` of Python 3.11) written for numba: ``init_by_array`` as ``random.seed``
calls it for an integer, ``genrand_uint32``, ``_randbelow_with_getrandbits`` and
``shuffle``. A state is 624 words in a ``uint32`` row plus its position, kept by the caller;
``tests/test_gendeneia_batched.py`` checks every routine against ``random.Random``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["N", "randbelow", "seed_keys", "seed_state", "shuffle"]

N = 624  # words of state
_M = 397
_MASK = 0xFFFFFFFF


def seed_keys(seed: int) -> tuple[int, int, int]:
    """The key ``random.seed(seed)`` passes to ``init_by_array`` for an integer seed: the
    32-bit words of ``abs(seed)``, lowest first (one word for 0). Returns (low, high, length);
    a seed of 64 bits or more raises ``ValueError`` naming it."""
    value = abs(int(seed))
    if value >= 1 << 64:
        raise ValueError(f"seed: must be below 2**64 in absolute value, got {seed!r}")
    return value & _MASK, value >> 32, 2 if value >> 32 else 1


@njit(inline="always", cache=True)
def _init_genrand(mt: np.ndarray, seed: int) -> None:  # pragma: no cover - compiled
    mt[0] = seed & _MASK
    previous = np.int64(mt[0])
    for i in range(1, N):
        previous = (1812433253 * (previous ^ (previous >> 30)) + i) & _MASK
        mt[i] = previous


@njit(cache=True)
def seed_state(mt: np.ndarray, low: int, high: int, length: int) -> int:  # pragma: no cover
    """Fill ``mt`` as ``random.seed`` does for the key (``low``, ``high``)[:length]; returns
    the position (624: the next draw regenerates the words)."""
    _init_genrand(mt, 19650218)
    i, j = 1, 0
    for _ in range(max(N, length)):
        key = low if j == 0 else high
        previous = np.int64(mt[i - 1])
        mt[i] = ((np.int64(mt[i]) ^ ((previous ^ (previous >> 30)) * 1664525)) + key + j) & _MASK
        i += 1
        j += 1
        if i >= N:
            mt[0] = mt[N - 1]
            i = 1
        if j >= length:
            j = 0
    for _ in range(N - 1):
        previous = np.int64(mt[i - 1])
        mt[i] = ((np.int64(mt[i]) ^ ((previous ^ (previous >> 30)) * 1566083941)) - i) & _MASK
        i += 1
        if i >= N:
            mt[0] = mt[N - 1]
            i = 1
    mt[0] = 0x80000000
    return N


@njit(inline="always", cache=True)
def _regenerate(mt: np.ndarray) -> None:  # pragma: no cover - compiled
    for k in range(N):
        y = (np.int64(mt[k]) & 0x80000000) | (np.int64(mt[(k + 1) % N]) & 0x7FFFFFFF)
        word = np.int64(mt[(k + _M) % N]) ^ (y >> 1)
        if y & 1:
            word ^= 0x9908B0DF
        mt[k] = word


@njit(inline="always", cache=True)
def _next_word(mt: np.ndarray, position: np.ndarray, row: int) -> int:  # pragma: no cover
    if position[row] >= N:
        _regenerate(mt)
        position[row] = 0
    y = np.int64(mt[position[row]])
    position[row] += 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y


@njit(inline="always", cache=True)
def randbelow(mt: np.ndarray, position: np.ndarray, row: int, n: int) -> int:  # pragma: no cover
    """``random.Random._randbelow(n)`` for 1 <= n < 2**32 (what ``randrange(n)`` returns):
    ``getrandbits(n.bit_length())`` redrawn until below ``n``. ``position[row]`` is the
    state's position, advanced here."""
    bits = 0
    while (1 << bits) <= n:
        bits += 1
    while True:
        r = _next_word(mt, position, row) >> (32 - bits)
        if r < n:
            return r


@njit(inline="always", cache=True)
def shuffle(
    mt: np.ndarray, position: np.ndarray, row: int, cards: np.ndarray, length: int
) -> None:  # pragma: no cover - compiled
    """``random.Random.shuffle`` of ``cards[:length]`` in place."""
    for i in range(length - 1, 0, -1):
        j = randbelow(mt, position, row, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
