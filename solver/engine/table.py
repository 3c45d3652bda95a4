"""Transposition table: open addressing over a numpy ``uint64`` array.

Slot value 0 means empty; a key that hashes to 0 is stored as 1 (a tiny,
documented loss: states whose key is 0 or 1 are merged). The table only grows
on request of the Python driver (:func:`grown`), up to the memory bound; the
engine never evicts, so a state in the table was really seen, which keeps
``lost`` verdicts exact.

The key is a 64-bit hash of the canonical state, so two distinct states match
with probability 2**-64 per pair: for a search of 10**8 states the chance of
any false match is below 10**-3. We accept this (as fc-solve and Solvitaire
accept their hash-based caches) and say so in README.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

MAX_LOAD = 0.5  # grow past this fill: probing stays short


def new_table(slots: int) -> np.ndarray:
    assert slots & (slots - 1) == 0, "table size must be a power of two"
    return np.zeros(slots, dtype=np.uint64)


@njit(types.int64(types.uint64[::1], types.uint64), cache=True, inline="always")
def insert(table, key):
    """1 if ``key`` was new (now stored), 0 if it was there already."""
    if key == 0:
        key = np.uint64(1)
    mask = np.uint64(table.shape[0] - 1)
    # Fibonacci hashing spreads keys whose low bits are alike
    slot = (key * np.uint64(11400714819323198485)) >> np.uint64(20)
    slot &= mask
    while True:
        here = table[slot]
        if here == 0:
            table[slot] = key
            return 1
        if here == key:
            return 0
        slot = (slot + np.uint64(1)) & mask


@njit(types.void(types.uint64[::1], types.uint64[::1]), cache=True)
def rehash(old, new):
    for i in range(old.shape[0]):
        if old[i] != 0:
            insert(new, old[i])


def grown(table: np.ndarray) -> np.ndarray:
    bigger = new_table(table.shape[0] * 2)
    rehash(table, bigger)
    return bigger
