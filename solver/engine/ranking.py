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
    """The indices of ``rank[:n]``, the largest rank first and equal ranks in index order."""
    order = np.empty(n, np.int64)
    spare = np.empty(n, np.int64)
    for i in range(n):
        order[i] = i
    width = 1
    while width < n:
        lo = 0
        while lo < n:
            mid = min(lo + width, n)
            hi = min(lo + 2 * width, n)
            a, b, k = lo, mid, lo
            while a < mid and b < hi:
                if rank[order[a]] >= rank[order[b]]:   # ties to the left run: a stable order
                    spare[k] = order[a]
                    a += 1
                else:
                    spare[k] = order[b]
                    b += 1
                k += 1
            while a < mid:
                spare[k] = order[a]
                a += 1
                k += 1
            while b < hi:
                spare[k] = order[b]
                b += 1
                k += 1
            lo = hi
        order, spare = spare, order
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
