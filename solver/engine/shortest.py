"""A* search: a line with the fewest player moves, for games whose states are few.

The depth-first :mod:`~solver.engine.search` decides a deal fast, but its line is
the first one it met. This search takes states in order of the player moves
that reach them plus ``estimate(state)``, a lower bound on the moves still
needed. A won state reached is kept aside (the cheapest so far), and the search
ends when no queued state's cost plus bound is below it: then no line is
cheaper (a state reached again more cheaply is expanded again, so the bound
need not be consistent, only never too high). A game tells the cost of each kernel
move with a ``cost(state, move) -> int64`` kernel (how many player moves it
stands for: a macro move over the stock counts its draws), and encodes the position with only
reductions that never lengthen a line: forcing a move that some shortest line
also makes, pruning lost states, merging states with the same future (the same
moves at the same costs).

Every state reached is kept, with its parent, move and cost so far, so memory
grows with the states whose cost plus estimate is below the answer: fine for Pyramid, not for
Klondike. A state reached again more cheaply is updated in place and queued
again (its older queue entry is skipped when taken). Exactness of ``lost``: the
search stops only when every state reached has been expanded, so the stored
states are closed under moves, hold the root and hold no won state. A state is
found again by its key (see :mod:`~solver.engine.table` on 64-bit hashed keys).
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit, types

from .contract import (COST_SIG, ESTIMATE_SIG, ApplyFn, CostFn, EstimateFn, KeyFn, Kernels, MovesFn, WonFn, compiled,
                       copy_state)
from .memory import DEFAULT_MEMORY_MB, budget_bytes
from .search import Outcome
from .status import EXHAUSTED, GROW, RUNNING, WON
from .table import MAX_LOAD, _slot, rehash

# its counters' slots (an array of its own)
C_TAIL, C_HEAP, C_NODES, C_WON, C_BEST = 0, 1, 2, 3, 4
NO_WIN = 1 << 40
INITIAL_STATES = 1 << 14
INDEX_BITS = 36                        # a heap entry is cost << INDEX_BITS | state index
INDEX_MASK = (1 << INDEX_BITS) - 1


@njit(inline="always")
def _push(heap, n, item):
    """Binary min-heap insert; returns the new size."""
    i = n
    while i > 0:
        up = (i - 1) >> 1
        if heap[up] <= item:
            break
        heap[i] = heap[up]
        i = up
    heap[i] = item
    return n + 1


@njit(inline="always")
def _pop(heap, n):
    """Remove the least entry of a heap of ``n`` > 0; returns it."""
    top = heap[0]
    n -= 1
    last = heap[n]
    i = 0
    while True:
        child = 2 * i + 1
        if child >= n:
            break
        if child + 1 < n and heap[child + 1] < heap[child]:
            child += 1
        if heap[child] >= last:
            break
        heap[i] = heap[child]
        i = child
    heap[i] = last
    return top


@njit(types.int64(MovesFn, ApplyFn, KeyFn, WonFn, CostFn, EstimateFn, types.uint8[:, ::1], types.int32[::1],
                  types.int32[::1], types.int32[::1], types.int32[::1], types.uint64[::1], types.int32[::1],
                  types.int64[::1],
                  types.int32[::1], types.uint8[::1], types.int64[::1], types.int64),
      cache=True)
def _astar(moves, apply, key, is_won, cost, estimate, states, parent, via, dist, bound, table_keys, table_index, heap, buffer,
              child, counters, budget):
    """Take up to ``budget`` states off the queue ``heap`` and expand them."""
    tail, size = counters[C_TAIL], counters[C_HEAP]
    room = states.shape[0] - buffer.shape[0]                 # a state's children always fit
    grow_at = np.int64(table_keys.shape[0] * MAX_LOAD) - buffer.shape[0]
    heap_room = heap.shape[0] - buffer.shape[0]
    mask = np.int64(INDEX_MASK)
    done = 0
    status = RUNNING
    while done < budget:
        if size == 0 or heap[0] >> INDEX_BITS >= counters[C_BEST]:
            # nothing queued could still lead to a cheaper win than the best one reached
            status = EXHAUSTED if counters[C_WON] < 0 else WON
            break
        if tail >= room or tail >= grow_at or size >= heap_room:
            status = GROW
            break
        entry = _pop(heap, size)
        size -= 1
        here = entry & mask
        g = dist[here]
        if entry >> INDEX_BITS > g + bound[here]:
            continue                 # queued again more cheaply since
        done += 1
        n = moves(states[here], buffer)
        for i in range(n):
            m = buffer[i]
            copy_state(child, states[here])
            apply(child, m)
            g2 = g + cost(states[here], m)
            if is_won(child):
                # kept out of the table: a game may give a won state the key of another
                if g2 < counters[C_BEST]:
                    states[tail] = child
                    dist[tail], parent[tail], via[tail] = g2, here, m
                    counters[C_BEST], counters[C_WON] = g2, tail
                    tail += 1
                continue
            k = key(child)
            if k == 0:
                k = np.uint64(1)
            slot = _slot(table_keys, k)
            if table_keys[slot] != 0:
                j = table_index[slot]
                if dist[j] <= g2:
                    continue
            else:
                table_keys[slot] = k
                j = tail
                table_index[slot] = j
                states[j] = child
                bound[j] = estimate(child)   # a state's own: kept when it is reached again
                tail += 1
            dist[j] = g2
            parent[j] = here
            via[j] = m
            size = _push(heap, size, ((g2 + bound[j]) << INDEX_BITS) | j)
    counters[C_TAIL], counters[C_HEAP] = tail, size
    counters[C_NODES] += done
    return status


def fewest_moves(kernels: Kernels, cost, estimate, root: np.ndarray, *, max_nodes: int | None = None,
                 time_limit: float | None = None, memory_mb: float = DEFAULT_MEMORY_MB,
                chunk: int = 50_000) -> Outcome:
    """A line of fewest player moves (``cost``) from ``root`` to a won state (``won``),
    guided by ``estimate``, a lower bound on the moves a state still needs (0 for
    a won state), which makes the search take fewer states than plain Dijkstra;
    ``lost`` when none exists, or ``unknown`` (``node_limit``, ``time_limit``, ``memory``).

    ``nodes`` counts expanded states, ``stored`` the states kept, ``max_depth``
    the cost of the line found. ``memory_mb`` bounds the store, every array of the
    search at once, a growth's old and new copies included (:mod:`engine.memory`).
    """
    start = time.perf_counter()
    if kernels.is_won(root):
        return Outcome("won", [], 0, time.perf_counter() - start, None, 1, 0)
    cost, estimate = compiled(cost, COST_SIG), compiled(estimate, ESTIMATE_SIG)
    # the state, its parent, move, cost and bound, and two queue entries (a state is queued again
    # when reached more cheaply; the queue grows with the arrays)
    per_state = kernels.state_size + 16 + 2 * 8
    limit = budget_bytes(memory_mb) - (5 * kernels.max_moves + kernels.state_size + 40)   # buffer, child, counters
    size = INITIAL_STATES   # fewer when the budget is small (a state's children must fit beside it)
    while size > 4 * kernels.max_moves and _store_bytes(size, per_state) > limit:
        size //= 2
    if _store_bytes(size, per_state) > limit:
        return Outcome("unknown", [], 0, time.perf_counter() - start, "memory", 0, 0)
    states = np.empty((size, kernels.state_size), dtype=np.uint8)
    parent = np.empty(size, dtype=np.int32)
    via = np.empty(size, dtype=np.int32)
    dist = np.empty(size, dtype=np.int32)
    bound = np.empty(size, dtype=np.int32)      # estimate(state), computed once per state
    heap = np.empty(2 * size, dtype=np.int64)
    slots = _table_slots(size)
    table_keys, table_index = np.zeros(slots, dtype=np.uint64), np.empty(slots, dtype=np.int32)
    buffer = np.empty(kernels.max_moves, dtype=np.int32)
    child = np.empty(kernels.state_size, dtype=np.uint8)
    counters = np.zeros(5, dtype=np.int64)
    counters[C_WON], counters[C_BEST] = -1, NO_WIN
    states[0], parent[0], dist[0], bound[0], heap[0] = root, -1, 0, 0, 0
    rehash(np.array([kernels.key(root) or 1], dtype=np.uint64), np.zeros(1, dtype=np.int32),
            table_keys, table_index)     # the root's key, inserted
    counters[C_TAIL], counters[C_HEAP] = 1, 1

    def outcome(verdict, reason=None, line=(), depth=0):
        return Outcome(verdict, list(line), int(counters[C_NODES]), time.perf_counter() - start, reason,
                       int(counters[C_TAIL]), depth)

    while True:
        budget = chunk
        if max_nodes is not None:
            budget = min(budget, max_nodes - int(counters[C_NODES]))
            if budget <= 0:
                return outcome("unknown", "node_limit")
        status = _astar(*kernels.compiled, cost, estimate, states, parent, via, dist, bound, table_keys, table_index,
                        heap, buffer, child, counters, budget)
        if status == WON:
            line, i = [], int(counters[C_WON])
            total = int(dist[i])
            while parent[i] >= 0:
                line.append(int(via[i]))
                i = int(parent[i])
            return outcome("won", line=line[::-1], depth=total)
        if status == EXHAUSTED:
            return outcome("lost")
        if status == GROW:
            room = kernels.max_moves
            if counters[C_TAIL] >= size - room or counters[C_HEAP] >= heap.shape[0] - room:
                bigger = _capacity(size, 2 * size, per_state, limit)
                if bigger <= size:
                    return outcome("unknown", "memory")
                size = bigger
                states, parent, via, dist, bound = (_grown(a, size) for a in (states, parent, via, dist, bound))
                heap = _grown(heap, 2 * size)
            slots = _table_slots(size)
            if slots > table_keys.shape[0]:
                keys, index = np.zeros(slots, dtype=np.uint64), np.empty(slots, dtype=np.int32)
                rehash(table_keys, table_index, keys, index)
                table_keys, table_index = keys, index
            continue
        if time_limit is not None and time.perf_counter() - start > time_limit:
            return outcome("unknown", "time_limit")


def _table_slots(states: int) -> int:
    """Slots of a table that holds ``states`` keys at no more than MAX_LOAD."""
    return 1 << max(1, int(np.ceil(states / MAX_LOAD)) - 1).bit_length()


def _store_bytes(states: int, per_state: int) -> int:
    """The bytes of a store for ``states`` states: the arrays and the table (a key and an index a slot)."""
    return states * per_state + 12 * _table_slots(states)


def _capacity(size: int, wanted: int, per_state: int, limit: int) -> int:
    """The most states, up to ``wanted``, the store can grow to from ``size`` states within
    ``limit`` bytes: the arrays are copied while the old ones and the old table are held,
    then the table is rehashed while the old one is held."""
    def peak(bigger):
        old_table = 12 * _table_slots(size)
        return max(size * per_state + bigger * per_state + old_table, _store_bytes(bigger, per_state) + old_table)

    while wanted > size and peak(wanted) > limit:
        wanted = int(wanted * 0.9)
    return wanted


def _grown(a: np.ndarray, size: int) -> np.ndarray:
    out = np.empty((size,) + a.shape[1:], dtype=a.dtype)
    out[:a.shape[0]] = a
    return out
