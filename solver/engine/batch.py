"""Many short searches in one compiled call: each root decided under the same node limit.

A player that weighs a move over sampled tables (:mod:`solver.play`) needs thousands of
searches of a few thousand nodes each. Through :func:`solver.engine.search.search` each
pays for its own arrays and for Numba typing the kernels at every call, several times
the search itself. Here the arrays are made once for all the roots: the stacks for the
deepest search, the table for a short one (cleared between roots; grown within the
memory budget for a long search, and small again for the next root).

Each root gets the search of :func:`solver.engine.search.search` with one move order,
no restarts and no clock: the same compiled loop (:func:`solver.engine.search._run`),
so the verdicts are as exact (``won`` is a reached won state; ``lost`` is an exhausted
search with no state cut off at the depth limit) and as deterministic. A search that
spends ``max_nodes``, reaches ``max_depth`` or would outgrow the memory budget is
``unknown``. What comes back is the verdict, the first kernel move of the line
found (a root that is won already has none), and the nodes.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from .contract import ApplyFn, DominanceFn, KeyFn, Kernels, MovesFn, TransientFn, WonFn
from .memory import DEFAULT_MEMORY_MB, budget_bytes
from .search import _Run, _run
from .status import C_CUT, C_DEPTH, C_DOMINATORS, C_NODES, C_STORED, COUNTERS, EXHAUSTED, GROW, WON
from .table import BYTES_PER_SLOT, KEYS_AHEAD, MAX_LOAD, _rehash_dominators, rehash, stored_key, visit

LOST, WON_ROOT, UNKNOWN = 0, 1, 2     # the verdict codes of :func:`solve_each`
NO_MOVE = -1                          # first move of a root that is won as it stands
FIRST_NODES = 1 << 15                 # a root's table starts with room for this many nodes
MAX_NODES = 1 << 62                   # a node limit above this is this (no search comes near it)


@njit(types.void(MovesFn, ApplyFn, KeyFn, WonFn, DominanceFn, DominanceFn, TransientFn, types.uint8[:, ::1],
                 types.int64, types.int64, types.int64, types.boolean, types.int64, types.int8[::1], types.int32[::1],
                 types.int64[::1], types.int32[:, ::1], types.int32[::1]),
      cache=True)
def _solve_each(moves, apply, key, is_won, dominance_group, dominance_vector, transient, roots, max_moves,
                max_nodes, max_depth, has_dominance, max_slots, verdicts, first, nodes, lines, lengths):
    width = roots.shape[1]
    rows = max_depth + 1
    states = np.empty((rows, width), dtype=np.uint8)
    kids = np.empty((rows, KEYS_AHEAD, width), dtype=np.uint8)
    stack = np.empty((rows, max_moves), dtype=np.int32)
    child_keys = np.empty((rows, KEYS_AHEAD), dtype=np.uint64)
    counts = np.zeros(rows, dtype=np.int32)
    cursor = np.zeros(rows, dtype=np.int32)
    keys = np.empty(rows, dtype=np.uint64)
    groups = np.empty(rows, dtype=np.uint64)
    counters = np.zeros(COUNTERS, dtype=np.int64)
    # a search stores at most one state per node (and the root): a table of FIRST_NODES
    # nodes or of max_nodes if fewer, under MAX_LOAD; a longer search grows it (up to
    # max_slots) and the next root starts with a small one again, cleared at little cost
    first_slots = 1
    while first_slots * MAX_LOAD < min(max_nodes, FIRST_NODES) + 2:
        first_slots *= 2
    first_slots = max(1, min(first_slots, max_slots))
    table_keys = np.zeros(first_slots, dtype=np.uint64)
    table_flags = np.zeros(first_slots, dtype=np.uint8)
    # (a game without dominance adds no rows: one empty row)
    dominators = np.zeros((first_slots if has_dominance else 1, 2), dtype=np.uint64)
    own = np.uint8(1)
    for r in range(roots.shape[0]):
        first[r] = NO_MOVE
        nodes[r] = 0
        lengths[r] = 0
        if is_won(roots[r]):
            verdicts[r] = WON_ROOT
            continue
        if table_keys.shape[0] != first_slots:
            table_keys = np.zeros(first_slots, dtype=np.uint64)
            table_flags = np.zeros(first_slots, dtype=np.uint8)
        else:
            table_keys[:] = 0
            table_flags[:] = 0
        if dominators.shape[0] > first_slots:
            dominators = np.zeros((first_slots, 2), dtype=np.uint64)
        else:
            dominators[:] = 0
        counters[:] = 0
        states[0] = roots[r]
        keys[0] = stored_key(key(states[0]))
        groups[0] = dominance_group(states[0])
        counts[0] = moves(states[0], stack[0])
        cursor[0] = 0
        if visit(table_keys, table_flags, keys[0], own, 0) == 2:
            counters[C_STORED] = 1
        while True:
            status = _run(moves, apply, key, is_won, dominance_group, dominance_vector, transient, states, kids,
                          stack, child_keys, counts, cursor, keys, groups, table_keys, table_flags, dominators,
                          counters, max_nodes - counters[C_NODES], np.int64(table_keys.shape[0] * MAX_LOAD),
                          np.int64(dominators.shape[0] * MAX_LOAD), own, max_depth, 0)
            if status != GROW:
                break
            if counters[C_STORED] >= table_keys.shape[0] * MAX_LOAD:
                if 2 * table_keys.shape[0] > max_slots:
                    break
                bigger_keys = np.zeros(2 * table_keys.shape[0], dtype=np.uint64)
                bigger_flags = np.zeros(2 * table_keys.shape[0], dtype=np.uint8)
                rehash(table_keys, table_flags, bigger_keys, bigger_flags)
                table_keys, table_flags = bigger_keys, bigger_flags
            elif has_dominance and counters[C_DOMINATORS] >= dominators.shape[0] * MAX_LOAD:
                if 2 * dominators.shape[0] > max_slots:
                    break
                bigger = np.zeros((2 * dominators.shape[0], 2), dtype=np.uint64)
                _rehash_dominators(dominators, bigger)
                dominators = bigger
            else:
                break    # (the stacks hold max_depth + 1 rows: a state deeper is cut, not grown into)
        nodes[r] = counters[C_NODES]
        if status == WON:
            verdicts[r] = WON_ROOT
            first[r] = stack[0, cursor[0] - 1]
            depth = counters[C_DEPTH]
            if depth <= lines.shape[1]:      # (lines.shape[1] is 0 when no line is asked for)
                for d in range(depth):
                    lines[r, d] = stack[d, cursor[d] - 1]
                lengths[r] = depth
        elif status == EXHAUSTED and counters[C_CUT] == 0:
            verdicts[r] = LOST
        else:
            verdicts[r] = UNKNOWN


def solve_each(kernels: Kernels, roots: np.ndarray, max_nodes: int, max_depth: int = 2000,
               memory_mb: float = DEFAULT_MEMORY_MB, lines: bool = False):
    """Decide each row of ``roots`` (states of one game) within ``max_nodes`` nodes:
    ``(verdicts, first, nodes)``, arrays of one entry per root (verdicts :data:`LOST`,
    :data:`WON_ROOT` or :data:`UNKNOWN`; ``first`` the first kernel move of the winning
    line, :data:`NO_MOVE` when there is none). With ``lines``, also a list of each root's
    winning line (kernel moves; empty when it is not won). ``memory_mb`` bounds the arrays
    as it does a search's (:mod:`solver.engine.memory`): a search whose table would outgrow
    it is ``unknown``."""
    if max_nodes < 1 or max_depth < 1:
        raise ValueError("solve_each needs max_nodes >= 1 and max_depth >= 1")
    roots = np.ascontiguousarray(roots, dtype=np.uint8).reshape(-1, kernels.state_size)
    n = roots.shape[0]
    verdicts = np.empty(n, dtype=np.int8)
    first = np.empty(n, dtype=np.int32)
    nodes = np.empty(n, dtype=np.int64)
    line_moves = np.empty((n, max_depth if lines else 0), dtype=np.int32)
    lengths = np.zeros(n, dtype=np.int32)
    # the stacks, then the table and the multimap, each grown while its old copy is held
    stacks = (max_depth + 1) * _Run.row_nbytes(kernels) + line_moves.nbytes
    per_slot = 2 * (BYTES_PER_SLOT + (16 if kernels.has_dominance else 0))
    max_slots = 1 << max(0, ((budget_bytes(memory_mb) - stacks) // per_slot).bit_length() - 1)
    if n:
        _solve_each(*kernels.compiled, *kernels.dominance, kernels.compiled_transient, roots, kernels.max_moves,
                    min(int(max_nodes), MAX_NODES), max_depth, kernels.has_dominance, max_slots, verdicts, first,
                    nodes, line_moves, lengths)
    if lines:
        return verdicts, first, nodes, [line_moves[r, :lengths[r]].tolist() for r in range(n)]
    return verdicts, first, nodes
