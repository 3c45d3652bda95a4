"""Transposition table: open addressing over a numpy ``uint64`` array.

An entry is a state's 64-bit key with its low four bits replaced by flags:
which of up to three searches (move orders, see ``engine.search``) have
entered the state, and whether one of them has finished it. Slot value 0 means
empty; a key whose high bits are all 0 is stored as 16 (a tiny, documented loss). The
table only grows on request of the Python driver (:func:`grown`), up to the
memory bound; the engine never evicts, so a state in the table was really
seen, which keeps ``lost`` verdicts exact.

The key is a 64-bit hash of the canonical state (60 bits are kept), so two
distinct states match with probability 2**-60 per pair: for a search of 10**8
states the chance of any false match is below 10**-2. We accept this (as
fc-solve and Solvitaire accept their hash-based caches) and say so in README.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

MAX_LOAD = 0.5  # grow past this fill: probing stays short
FLAGS = np.uint64(15)
FINISHED = np.uint64(8)   # bits 0-2: search 0, 1, 2 has entered the state
MAX_SEARCHES = 3


def new_table(slots: int) -> np.ndarray:
    assert slots & (slots - 1) == 0, "table size must be a power of two"
    return np.zeros(slots, dtype=np.uint64)


@njit(types.uint64(types.uint64), cache=True, inline="always")
def _tag(key):
    h = key & ~FLAGS
    return np.uint64(16) if h == 0 else h


@njit(types.int64(types.uint64[::1], types.uint64), cache=True, inline="always")
def _slot(table, h):
    """The slot holding tag ``h``, or the empty slot where it would go."""
    mask = np.uint64(table.shape[0] - 1)
    # Fibonacci hashing spreads keys whose low bits are alike
    slot = ((h * np.uint64(11400714819323198485)) >> np.uint64(20)) & mask
    while True:
        here = table[slot]
        if here == 0 or (here & ~FLAGS) == h:
            return slot
        slot = (slot + np.uint64(1)) & mask


@njit(types.int64(types.uint64[::1], types.uint64, types.uint64), cache=True, inline="always")
def visit(table, key, own):
    """Search ``own`` (bit 1, 2 or 4) reaches a state: 2 if the state is new (now
    stored), 1 if only another search has entered it and none has finished it
    (this one expands it too), 0 if it is to be skipped."""
    h = _tag(key)
    slot = _slot(table, h)
    here = table[slot]
    if here == 0:
        table[slot] = h | own
        return 2
    if here & (FINISHED | own):
        return 0
    table[slot] = here | own
    return 1


@njit(types.void(types.uint64[::1], types.uint64), cache=True, inline="always")
def finish(table, key):
    """Every move from the state has been searched."""
    slot = _slot(table, _tag(key))
    if table[slot] != 0:
        table[slot] |= FINISHED


@njit(types.int64(types.uint64[::1], types.uint64), cache=True, inline="always")
def insert(table, key):
    """1 if ``key`` was new (now stored), 0 if it was there already."""
    return 1 if visit(table, key, np.uint64(1)) == 2 else 0


@njit(types.void(types.uint64[::1], types.uint64[::1]), cache=True)
def rehash(old, new):
    for i in range(old.shape[0]):
        if old[i] != 0:
            new[_slot(new, old[i] & ~FLAGS)] = old[i]


def grown(table: np.ndarray) -> np.ndarray:
    bigger = new_table(table.shape[0] * 2)
    rehash(table, bigger)
    return bigger
