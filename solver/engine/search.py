"""Iterative depth-first search over integer states, with a transposition table.

The compiled part (:func:`_run`) advances the search by at most ``budget``
nodes and returns; all of its state lives in numpy arrays (:class:`Search`), so
the Python driver (:func:`search`) can check the clock, grow the table, and
resume. Time is never read inside compiled code: the same deal and the same
node limit always give the same verdict and the same line.

Why the verdicts are exact:
* ``won``: the line is the stack of moves that reached a won state (the caller
  replays it with the reference rules before anyone trusts it).
* ``lost``: every state was expanded or found in the table. A state is put in
  the table when first reached and is then either expanded to the end, or is
  on the current path (a cycle), so skipping a repeated state loses no win.
  If any state was cut off at the depth limit, or the table could not grow,
  the verdict is ``unknown`` instead.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
from numba import njit, types

from .contract import ApplyFn, KeyFn, Kernels, MovesFn, WonFn
from .table import MAX_LOAD, grown, insert, new_table

# what _run returns
RUNNING, WON, EXHAUSTED, GROW = 0, 1, 2, 3
# counters slots
C_NODES, C_DEPTH, C_STORED, C_CUT, C_MAXDEPTH = 0, 1, 2, 3, 4

I32_2D = types.int32[:, ::1]


@njit(types.int64(MovesFn, ApplyFn, KeyFn, WonFn, types.uint8[:, ::1], I32_2D, types.int32[::1],
                  types.int32[::1], types.uint64[::1], types.int64[::1], types.int64, types.int64),
      cache=True)
def _run(moves, apply, key, is_won, states, stack, counts, cursor, table, counters, budget, grow_at):
    """Advance the DFS by up to ``budget`` nodes. See the module docstring."""
    depth = counters[C_DEPTH]
    max_depth = states.shape[0] - 1
    done = 0
    while done < budget:
        if cursor[depth] >= counts[depth]:
            if depth == 0:
                counters[C_DEPTH] = 0
                return EXHAUSTED
            depth -= 1
            continue
        if counters[C_STORED] >= grow_at:
            counters[C_DEPTH] = depth
            return GROW
        move = stack[depth, cursor[depth]]
        cursor[depth] += 1
        child = states[depth + 1]
        child[:] = states[depth]
        apply(child, move)
        done += 1
        counters[C_NODES] += 1
        if is_won(child):
            counters[C_DEPTH] = depth + 1
            return WON
        if insert(table, key(child)) == 0:
            continue
        counters[C_STORED] += 1
        if depth + 1 >= max_depth:
            counters[C_CUT] += 1  # this state is never expanded: no proof of loss any more
            continue
        depth += 1
        if depth > counters[C_MAXDEPTH]:
            counters[C_MAXDEPTH] = depth
        counts[depth] = moves(child, stack[depth])
        cursor[depth] = 0
    counters[C_DEPTH] = depth
    return RUNNING


@dataclass
class Outcome:
    """What a search found: ``verdict`` is ``won``, ``lost`` or ``unknown``."""

    verdict: str
    line: list = field(default_factory=list)   # kernel moves from the root, when won
    nodes: int = 0
    seconds: float = 0.0
    reason: str | None = None                  # for unknown: node_limit, time_limit, memory, depth
    stored: int = 0
    max_depth: int = 0


def search(kernels: Kernels, root: np.ndarray, *, max_nodes: int | None = None,
           time_limit: float | None = None, memory_mb: float = 1024, max_depth: int = 2000,
           chunk: int = 20000, initial_slots: int = 1 << 16) -> Outcome:
    """Decide whether a won state is reachable from ``root``."""
    start = time.perf_counter()
    # np.empty, not zeros: each row is written before it is read (a child state is
    # copied from its parent, a move list is generated on entering a depth), and
    # zeroing megabytes per search was most of the cost of an easy deal
    states = np.empty((max_depth + 1, kernels.state_size), dtype=np.uint8)
    states[0] = root
    stack = np.empty((max_depth + 1, kernels.max_moves), dtype=np.int32)
    counts = np.zeros(max_depth + 1, dtype=np.int32)
    cursor = np.zeros(max_depth + 1, dtype=np.int32)
    counters = np.zeros(8, dtype=np.int64)
    max_slots = 1 << max(10, int(memory_mb * 2 ** 20 / 8).bit_length() - 1)
    table = new_table(min(initial_slots, max_slots))

    def outcome(verdict, reason=None, line=()):
        return Outcome(verdict, list(line), int(counters[C_NODES]), time.perf_counter() - start, reason,
                       int(counters[C_STORED]), int(counters[C_MAXDEPTH]))

    if kernels.is_won(states[0]):
        return outcome("won")
    insert(table, kernels.key(states[0]))
    counters[C_STORED] = 1
    counts[0] = kernels.moves(states[0], stack[0])
    while True:
        budget = chunk
        if max_nodes is not None:
            budget = min(budget, max_nodes - int(counters[C_NODES]))
            if budget <= 0:
                return outcome("unknown", "node_limit")
        status = _run(kernels.moves, kernels.apply, kernels.key, kernels.is_won, states, stack, counts,
                      cursor, table, counters, budget, int(table.shape[0] * MAX_LOAD))
        if status == WON:
            depth = int(counters[C_DEPTH])
            line = [int(stack[d, cursor[d] - 1]) for d in range(depth)]
            return outcome("won", line=line)
        if status == EXHAUSTED:
            if counters[C_CUT]:
                return outcome("unknown", "depth")
            return outcome("lost")
        if status == GROW:
            if table.shape[0] * 2 > max_slots:
                return outcome("unknown", "memory")
            table = grown(table)
        if time_limit is not None and time.perf_counter() - start > time_limit:
            return outcome("unknown", "time_limit")
