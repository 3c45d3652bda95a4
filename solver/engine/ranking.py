"""The order of ranked candidates, best first, for the searches that keep the best of many
(beam, best-first queue, staged pools): the whole order (:func:`best_first`), or only its
first ``k`` (:func:`best_of`, without sorting the rest).

Written out as a merge sort rather than ``np.argsort(-rank, kind="mergesort")``: the same
order (larger rank first, equal ranks in the order given, on every machine), but NumPy's
sort and the fancy indexing and slice copies around it cost several seconds of the first
compile, which a new user waits for.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .contract import copy_state


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
    """:func:`gather` for the rows (states) of a 2-D array, copied as the engine copies a
    state (no slice assignment: see the module's docstring)."""
    taken = np.empty((kept, rows.shape[1]), rows.dtype)
    for q in range(kept):
        copy_state(taken[q], rows[order[q]])
    for q in range(kept):
        copy_state(rows[q], taken[q])


@njit(cache=True)
def _kth_largest(values, k):
    """The ``k``-th largest of ``values`` (1-based; the array is reordered): a quickselect
    with the median of three as pivot, deterministic. Its quadratic worst case needs
    ranks laid out against the pivot rule; the searches' ranks end in key bits."""
    lo, hi = 0, values.shape[0] - 1
    target = k - 1   # its index in descending order
    while lo < hi:
        mid = (lo + hi) // 2
        a, b, c = values[lo], values[mid], values[hi]
        pivot = max(min(a, b), min(max(a, b), c))
        i, j = lo, hi
        while i <= j:
            while values[i] > pivot:
                i += 1
            while values[j] < pivot:
                j -= 1
            if i <= j:
                values[i], values[j] = values[j], values[i]
                i += 1
                j -= 1
        if target <= j:
            hi = j
        elif target >= i:
            lo = i
        else:
            return values[target]
    return values[target]


@njit(cache=True)
def best_of(rank, n, k):
    """The first ``min(k, n)`` indices of :func:`best_first` ``(rank, n)``, found without
    sorting the rest: the k-th largest rank is found first, then only the ranks above it,
    and the earliest of those equal to it, are sorted (a beam keeps a tenth of its
    candidates, a staged pool half)."""
    if k >= n:
        return best_first(rank, n)
    if k <= 0:
        return np.empty(0, np.int64)
    scratch = np.empty(n, np.int64)
    for i in range(n):
        scratch[i] = rank[i]
    edge = _kth_largest(scratch, k)
    above = 0
    for i in range(n):
        if rank[i] > edge:
            above += 1
    chosen = np.empty(k, np.int64)
    chosen_rank = np.empty(k, np.int64)
    ties = k - above   # the earliest ranks equal to the edge that still fit
    m = 0
    for i in range(n):
        r = rank[i]
        if r > edge or (r == edge and ties > 0):
            if r == edge:
                ties -= 1
            chosen[m] = i
            chosen_rank[m] = r
            m += 1
    inner = best_first(chosen_rank, k)
    for q in range(k):
        inner[q] = chosen[inner[q]]
    return inner
