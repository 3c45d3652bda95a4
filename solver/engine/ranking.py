"""The order of ranked candidates, best first, for the searches that keep the best of many
(beam, best-first queue, staged pools).

Written out as a merge sort rather than ``np.argsort(-rank, kind="mergesort")``: the same
order (larger rank first, equal ranks in the order given, on every machine), but NumPy's
sort and the fancy indexing and slice copies around it cost several seconds of the first
compile, which a new user waits for.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def best_first(rank, n):
    """The indices of ``rank[:n]``, the largest rank first and equal ranks in index order.
    The ranks are merged beside their indices (not read through them): a beam's cut sorts
    tens of thousands, and reads in order stay in the cache."""
    order = np.empty(n, np.int64)
    spare = np.empty(n, np.int64)
    keys = np.empty(n, np.int64)
    spare_keys = np.empty(n, np.int64)
    for i in range(n):
        order[i] = i
        keys[i] = rank[i]
    width = 1
    while width < n:
        lo = 0
        while lo < n:
            mid = min(lo + width, n)
            hi = min(lo + 2 * width, n)
            a, b, k = lo, mid, lo
            while a < mid and b < hi:
                if keys[a] >= keys[b]:   # ties to the left run: a stable order
                    spare[k] = order[a]
                    spare_keys[k] = keys[a]
                    a += 1
                else:
                    spare[k] = order[b]
                    spare_keys[k] = keys[b]
                    b += 1
                k += 1
            while a < mid:
                spare[k] = order[a]
                spare_keys[k] = keys[a]
                a += 1
                k += 1
            while b < hi:
                spare[k] = order[b]
                spare_keys[k] = keys[b]
                b += 1
                k += 1
            lo = hi
        order, spare = spare, order
        keys, spare_keys = spare_keys, keys
        width *= 2
    return order

@njit(cache=True)
def gather(values, order, kept):
    """``values[:kept] = values[order[:kept]]``, in place."""
    taken = np.empty(kept, values.dtype)
    for q in range(kept):
        taken[q] = values[order[q]]
    for q in range(kept):
        values[q] = taken[q]


@njit(cache=True)
def gather_rows(rows, order, kept):
    """:func:`gather` for the rows of a 2-D array, byte by byte (no slice assignment: see
    the module's docstring)."""
    taken = np.empty((kept, rows.shape[1]), rows.dtype)
    for q in range(kept):
        for j in range(rows.shape[1]):
            taken[q, j] = rows[order[q], j]
    for q in range(kept):
        for j in range(rows.shape[1]):
            rows[q, j] = taken[q, j]
