"""The staged search (engine/staged.py) on the toy graph game, whose stages are its nodes
in groups of eight (0-7 stage 2, 8-15 stage 1, 16-23 stage 0): it keeps the verdicts,
explores a stage through before it goes on from the best ways into the next, keeps only
``width`` of them, never follows a move back to an earlier stage, starts each round
afresh with the next weighing, and stays inside the memory budget."""

import numpy as np
import pytest

from solver.engine.beam import BeamRun
from solver.engine.search import search
from solver.engine.staged import StagedRun
from solver.engine.status import COUNTERS, EXHAUSTED, RUNNING, WON
from tests import graph_game as T
from tests.test_engine import beam_or_region_graph, verdicts_hold_on_random_graphs

GOAL = T.N - 1


def graph(*edges):
    root = np.zeros(T.STATE_SIZE, dtype=np.uint8)
    for a, b in edges:
        root[1 + T.N * a + b] = 1
    return root


def staged(root, width, weighings=(0,), round_nodes=100):
    run = StagedRun(T.KERNELS_STAGED, root, width, round_nodes, weighings, COUNTERS)
    run.start()
    return run


def test_the_stages_of_the_graph_game():
    """The test game's stage kernel: the groups of eight nodes, the highest group lowest."""
    state = np.zeros(T.STATE_SIZE, dtype=np.uint8)
    stages = []
    for node in range(T.N):
        state[0] = node
        stages.append(int(T.stage(state)))
    assert stages == [2] * 8 + [1] * 8 + [0] * 8


def test_staged_search_keeps_the_verdicts_on_graphs_with_cycles():
    """Random graphs, a staged search with pools of one to three states and rounds of 1 to
    20 nodes in both weighings, taking turns beside a depth-first run: the verdict is still
    whether the goal is reachable, and a won line walks to it."""
    verdicts_hold_on_random_graphs(13, lambda rng, T, root: search(
        T.KERNELS_STAGED, root, chunk=rng.randint(1, 3), staged_width=rng.randint(1, 3),
        staged_round=rng.randint(1, 20), staged_weighings=(0, 1), staged_turn=rng.randint(1, 5)))


def test_a_stage_is_explored_through_before_the_best_way_into_the_next_is_taken():
    """From the root 0, the child 8 (stage 1) scores best at once but is a dead end; 9,
    also in stage 1, is reached through 1 and 2 (stage 2) and leads to the goal. A beam of
    one state keeps 8 and runs out. A staged search of width one first takes every state
    of stage 2 (1, then 2), offers 8 and 9 to stage 1's pool, keeps 9, and wins."""
    root = graph((0, 1), (1, 2), (0, 8), (2, 9), (9, GOAL))
    beam = BeamRun(T.KERNELS, root, 1, COUNTERS)
    beam.start()
    assert beam.advance(100, 100) == EXHAUSTED
    run = staged(root, 1)
    assert run.advance(100, 100) == WON and run.line() == [1, 2, 9, GOAL]
    assert int(run.counters[0]) == 5   # 0's two children, 1's one, 2's one, 9's one


@pytest.mark.parametrize("width", [1, 2])
def test_a_pool_keeps_the_best_width_of_the_states_offered(width):
    """The same graph with the goal behind 8 instead: a pool of one keeps 9 and the round
    ends without the goal (the depth-first runs decide such a deal); a pool of two keeps
    both, takes 9 first, then 8, and wins."""
    root = graph((0, 1), (1, 2), (0, 8), (2, 9), (8, GOAL))
    run = staged(root, width)
    if width == 1:
        assert run.advance(100, 100) == EXHAUSTED
    else:
        assert run.advance(100, 100) == WON and run.line() == [8, GOAL]
    out = search(T.KERNELS_STAGED, root, chunk=1, staged_width=width, staged_turn=100)
    assert out.verdict == "won"


def test_a_move_back_to_an_earlier_stage_is_not_followed():
    """8 (stage 1) leads on only through 3 (stage 2): the staged search drops 3 and ends
    the round; the depth-first run still wins the deal."""
    root = graph((0, 8), (8, 3), (3, GOAL))
    assert staged(root, 4).advance(100, 100) == EXHAUSTED
    out = search(T.KERNELS_STAGED, root, chunk=1, staged_width=4, staged_turn=100)
    assert out.verdict == "won" and out.line == [8, 3, GOAL]


def test_each_round_starts_from_the_root_with_the_next_weighing():
    """With the goal behind 8, weighing 0 (higher nodes first) keeps 9 in a pool of one;
    the next round, weighing 1 (lower nodes first), keeps 8 and wins. One search with both
    weighings gives the same line and nodes each time."""
    root = graph((0, 1), (1, 2), (0, 8), (2, 9), (8, GOAL))
    run = staged(root, 1, weighings=(0, 1))
    assert run.advance(100, 100) == RUNNING and run.round == 1   # the first round ended the turn
    assert run.advance(100, 100) == WON and run.line() == [8, GOAL]
    out = search(T.KERNELS_STAGED, root, chunk=1, staged_width=1, staged_weighings=(0, 1), staged_turn=100)
    again = search(T.KERNELS_STAGED, root, chunk=1, staged_width=1, staged_weighings=(0, 1), staged_turn=100)
    assert out.verdict == "won" and (out.line, out.nodes) == (again.line, again.nodes)


def test_a_round_ends_at_its_nodes():
    """A round of three nodes: the root's two children and 1's child are all it makes."""
    root = graph((0, 1), (1, 2), (0, 8), (2, 9), (9, GOAL))
    run = staged(root, 1, round_nodes=3)
    assert run.advance(100, 100) == EXHAUSTED and int(run.counters[0]) == 3


def test_staged_settings_are_checked():
    root = graph((0, GOAL))
    for kernels, bad in ((T.KERNELS, {"staged_width": 5}),   # the game has no stage kernel
                         (T.KERNELS_STAGED, {"staged_width": 5, "staged_round": 0}),
                         (T.KERNELS_STAGED, {"staged_width": 5, "staged_weighings": ()}),
                         (T.KERNELS_STAGED, {"staged_width": 5, "staged_turn": 0})):
        with pytest.raises(ValueError, match="staged"):
            search(kernels, root, **bad)


def test_a_negative_stage_is_refused():
    from numba import njit

    from solver.engine.contract import STAGE_SIG, Kernels

    below_zero = njit(STAGE_SIG)(lambda s: np.int64(-1))
    kernels = Kernels(moves=T.moves, apply=T.apply, key=T.key, is_won=T.is_won, state_size=T.STATE_SIZE,
                      max_moves=T.N, beam_score=T.beam_score, stage=below_zero)
    with pytest.raises(ValueError, match="stage of 0 or more"):
        search(kernels, graph((0, GOAL)), staged_width=5)


def test_a_staged_search_the_memory_budget_has_no_room_for_is_left_out():
    """Pools of 2,000 graph states per stage (about 30 MB) do not fit in a budget of 20 MB:
    the search goes on exactly as without them (its depth-first run searches a cyclic
    region of hundreds of nodes first); in 300 MB the staged search takes its turns (the
    search comes out otherwise). Its arrays are what it was charged."""
    root = beam_or_region_graph()[1]
    plain = search(T.KERNELS_STAGED, root, chunk=5, memory_mb=20)
    left_out = search(T.KERNELS_STAGED, root, chunk=5, memory_mb=20, staged_width=2000, staged_turn=10)
    runs = search(T.KERNELS_STAGED, root, chunk=5, memory_mb=300, staged_width=2000, staged_turn=10)
    assert plain.verdict == left_out.verdict == runs.verdict == "won"
    assert (left_out.nodes, left_out.line) == (plain.nodes, plain.line)
    assert plain.nodes > 300 and runs.line == [T.N - 3, T.N - 1] and runs.nodes != plain.nodes
    run = StagedRun(T.KERNELS_STAGED, root, 2000, 1000, (0,), COUNTERS)
    before = run.nbytes
    run.start()
    assert run.nbytes - before == run.nbytes_to_start() > 20 * 2 ** 20
