"""The engine's best-first order against NumPy's stable sort (its slow reference)."""

import numpy as np
import pytest

from solver.engine.ranking import best_first, best_of, gather, gather_rows


@pytest.mark.parametrize("n", [0, 1, 2, 3, 7, 64, 1000, 1025])
def test_best_first_is_numpys_stable_sort_of_the_negated_ranks(n):
    rng = np.random.default_rng(n)
    rank = np.zeros(n + 5, np.int64)
    rank[:n] = rng.integers(-4, 5, n) << np.int64(40)   # few distinct ranks: many ties, and large values
    rank[n:] = 10 ** 15   # past n: must be ignored
    got = best_first(rank, n)
    assert got.tolist() == np.argsort(-rank[:n], kind="mergesort").tolist()


def test_gather_puts_the_chosen_entries_and_rows_first_and_leaves_the_rest():
    values = np.array([5, 6, 7, 8, 9], np.int32)
    rows = np.arange(15, dtype=np.uint8).reshape(5, 3)
    order = np.array([3, 0, 4, 1, 2])
    gather(values, order, 3)
    gather_rows(rows, order, 3)
    assert values.tolist() == [8, 5, 9, 8, 9]
    assert rows.tolist() == [[9, 10, 11], [0, 1, 2], [12, 13, 14], [9, 10, 11], [12, 13, 14]]


@pytest.mark.parametrize("n,k", [(10, 0), (10, 1), (10, 3), (10, 10), (10, 20), (1000, 100), (5000, 2500), (7, 6)])
def test_best_of_is_the_head_of_the_whole_order(n, k):
    rng = np.random.default_rng(n + k)
    rank = rng.integers(-3, 4, n + 3) * np.int64(1 << 30)   # many ties at the edge
    got = best_of(rank, n, k)
    assert got.tolist() == np.argsort(-rank[:n], kind="mergesort")[:k].tolist()
