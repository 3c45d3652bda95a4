"""The best-first search (engine/best_first.py) on the toy graph game: it keeps the
verdicts, expands the best state whatever its depth, starts each round afresh with
the next depth weight, and stays inside the memory budget."""

import numpy as np
import pytest

from solver.engine.best_first import BestFirstRun
from solver.engine.search import search
from solver.engine.status import COUNTERS, EXHAUSTED, RUNNING, WON
from tests import graph_game as T
from tests.test_engine import beam_or_region_graph, verdicts_hold_on_random_graphs


def graph(*edges):
    root = np.zeros(T.STATE_SIZE, dtype=np.uint8)
    for a, b in edges:
        root[1 + T.N * a + b] = 1
    return root


def test_best_first_keeps_the_verdicts_on_graphs_with_cycles():
    """Random graphs, a best-first search of two to four states (so its queue often drops
    its worse half) with rounds of 1 to 20 nodes taking turns beside a depth-first run:
    the verdict is still whether the goal is reachable, and a won line walks to it."""
    verdicts_hold_on_random_graphs(12, lambda rng, T, root: search(
        T.KERNELS, root, chunk=rng.randint(1, 3), best_first_queue=rng.randint(2, 4),
        best_first_round=rng.randint(1, 20), best_first_depth_weights=(0, rng.randint(0, 3)),
        best_first_turn=rng.randint(1, 5)))


def test_best_first_goes_back_to_a_state_a_beam_of_the_same_size_drops():
    """From the root 0 the higher child 5 is a dead end, the lower child 1 leads to the
    goal. A beam of one state keeps 5 and runs out; a best-first search expands 5 first
    too, finds nothing, and goes on with 1, which it still holds."""
    from solver.engine.beam import BeamRun

    root = graph((0, 1), (0, 5), (1, T.N - 1))
    beam = BeamRun(T.KERNELS, root, 1, COUNTERS)
    beam.start()
    assert beam.advance(100, 100) == EXHAUSTED
    best = BestFirstRun(T.KERNELS, root, 3, 100, (0,), COUNTERS)
    best.start()
    assert best.advance(100, 100) == WON and best.line() == [1, T.N - 1]
    assert int(best.counters[0]) == 3   # the root's two children, then 1's one


def test_a_round_ends_at_its_nodes_and_the_next_starts_from_the_root_with_its_depth_weight():
    """The root's children are 2 (next to the goal) and 20, which leads round a cycle of
    high nodes 20 -> 21 -> 22 -> 20. Weighed by the node alone, a round of 4 nodes spends
    them in the cycle; with a depth weight of 100 a deeper node ranks below a shallower
    one, and 2 is expanded after 20. One round alone is exhausted without the goal."""
    root = graph((0, 2), (0, 20), (20, 21), (21, 22), (22, 20), (2, T.N - 1))
    one = BestFirstRun(T.KERNELS, root, 8, 4, (0,), COUNTERS)
    one.start()
    assert one.advance(100, 100) == EXHAUSTED and int(one.counters[0]) == 4
    two = BestFirstRun(T.KERNELS, root, 8, 4, (0, 100), COUNTERS)
    two.start()
    assert two.advance(100, 100) == RUNNING and two.round == 1   # the first round ended the turn
    assert two.advance(100, 100) == WON and two.line() == [2, T.N - 1]
    assert int(two.counters[0]) == 4 + 4
    # the same settings, the same line and nodes; in a search beside a depth-first run too
    out = search(T.KERNELS, root, chunk=1, best_first_queue=8, best_first_round=4, best_first_depth_weights=(0, 100),
                 best_first_turn=100)
    again = search(T.KERNELS, root, chunk=1, best_first_queue=8, best_first_round=4,
                   best_first_depth_weights=(0, 100), best_first_turn=100)
    assert out.verdict == "won" and (out.line, out.nodes) == (again.line, again.nodes)


def test_a_full_queue_drops_its_worse_half_and_keeps_the_best():
    """The root has children 1..10 and only 10 leads to the goal: a queue of three states
    drops the lower children as the higher come, and still wins. If only 1 leads to the
    goal, the queue has dropped it: the round is exhausted without a win (the depth-first
    runs decide such a deal)."""
    children = [(0, b) for b in range(1, 11)]
    high = BestFirstRun(T.KERNELS, graph(*children, (10, T.N - 1)), 3, 100, (0,), COUNTERS)
    high.start()
    assert high.advance(100, 100) == WON and high.line() == [10, T.N - 1]
    low = BestFirstRun(T.KERNELS, graph(*children, (1, T.N - 1)), 3, 100, (0,), COUNTERS)
    low.start()
    assert low.advance(100, 100) == EXHAUSTED
    out = search(T.KERNELS, graph(*children, (1, T.N - 1)), chunk=1, best_first_queue=3, best_first_turn=1)
    assert out.verdict == "won" and out.line == [1, T.N - 1]


def test_best_first_settings_are_checked():
    root = graph((0, T.N - 1))
    for bad in ({"best_first_queue": 1}, {"best_first_queue": 10, "best_first_round": 0},
                {"best_first_queue": 10, "best_first_depth_weights": ()},
                {"best_first_queue": 10, "best_first_turn": 0}):
        with pytest.raises(ValueError, match="best-first"):
            search(T.KERNELS, root, **bad)


def test_best_first_the_memory_budget_has_no_room_for_is_left_out():
    """A queue of 50,000 graph states (about 30 MB) does not fit in a budget of 20 MB: the
    search goes on exactly as without it (its depth-first run searches a cyclic region of
    hundreds of nodes first); in 200 MB it runs and wins at once. Its arrays are what it
    was charged."""
    root = beam_or_region_graph()[1]
    plain = search(T.KERNELS, root, chunk=5, memory_mb=20)
    left_out = search(T.KERNELS, root, chunk=5, memory_mb=20, best_first_queue=50_000, best_first_turn=10)
    runs = search(T.KERNELS, root, chunk=5, memory_mb=200, best_first_queue=50_000, best_first_turn=10)
    assert plain.verdict == left_out.verdict == runs.verdict == "won"
    assert (left_out.nodes, left_out.line) == (plain.nodes, plain.line)
    assert plain.nodes > 300 and runs.nodes == 5 + 3 and runs.line == [T.N - 3, T.N - 1]
    best = BestFirstRun(T.KERNELS, root, 50_000, 1000, (0,), COUNTERS)
    before = best.nbytes
    best.start()
    assert best.nbytes - before == best.nbytes_to_start() > 20 * 2 ** 20
