"""A best-first search: a member of the search portfolio that finds wins neither the
depth-first runs nor the beam reach in time.

The beam (:mod:`.beam`) expands its states level by level, so every state it keeps at a
level has made as many moves as the others: where a good position is reached in few
moves (Ladder with one pass: cards played up before the stock is drawn deep), the beam
must fill its width with states that have drawn more, and on many deals every state it
keeps soon shares one buried waste. A best-first search has no levels: it always expands
the most promising state it holds, however many moves it took, so it can go on from a
position the beam would have had to leave (benchmarks/results.md).

Its states wait in a queue ordered by the game's ``beam_score`` (weighing 0) less the
round's *depth weight* times the state's depth: a weight above 0 makes states reached in
fewer moves come first, so it searches nearer the root. A round runs a fixed number of
nodes; the next starts again from the root with the next depth weight, with a fresh set
of seen keys (each round wins other deals early, or not at all). When the queue is
full, its worse half is dropped.

Like the beam it never proves a deal lost and never stops one from being proved: it
reads and writes only its own arrays. Ties in the order are broken by the state's key
and nothing reads the clock, so a deal and the settings give the same line everywhere.
The line of a won state is read back through each state's parent, kept by the number
the state got when it was queued.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from .beam import MIN_SEEN_SLOTS, _rank, children_ahead
from .contract import ApplyFn, BeamScoreFn, KeyFn, Kernels, MovesFn, WonFn, copy_state
from .ranking import best_first, gather
from .status import C_MAXDEPTH, C_NODES, C_SEEN, EXHAUSTED, GROW, RUNNING, WON
from .table import _slot, grown, new_table

GROW_LOAD = 0.5    # the seen set doubles when it is this full (an expansion adds at most max_moves keys)

# the queue's bookkeeping, one int64 array
Q_COUNT, Q_FREE, Q_NEXT_ID, Q_ROUND_NODES, Q_WON_ID = range(5)
Q_SIZE = 5


@njit(inline="always")
def _swap(rank, slot, i, j):
    rank[i], rank[j] = rank[j], rank[i]
    slot[i], slot[j] = slot[j], slot[i]


@njit(inline="always")
def _sift_up(rank, slot, i):
    """The heap's entry ``i`` moved up to its place (the best rank at the top)."""
    while i > 0 and rank[(i - 1) >> 1] < rank[i]:
        _swap(rank, slot, i, (i - 1) >> 1)
        i = (i - 1) >> 1


@njit(inline="always")
def _sift_down(rank, slot, i, n):
    """The heap's entry ``i`` moved down to its place among the first ``n``."""
    while 2 * i + 1 < n:
        child = 2 * i + 1
        if child + 1 < n and rank[child + 1] > rank[child]:
            child += 1
        if rank[i] >= rank[child]:
            break
        _swap(rank, slot, i, child)
        i = child


@njit(inline="always")
def _pop(rank, slot, n):
    """The row of the heap's best entry, taken off a heap of ``n`` entries (``n - 1`` are left)."""
    top = slot[0]
    rank[0] = rank[n - 1]
    slot[0] = slot[n - 1]
    _sift_down(rank, slot, 0, n - 1)
    return top


@njit(inline="always")
def _met_now(seen, counters, k):
    """Whether the key ``k`` is new to the seen set; it is recorded there now."""
    s = _slot(seen, k)
    if seen[s] == k:
        return False
    seen[s] = k
    counters[C_SEEN] += 1
    return True


@njit(inline="always")
def _counted(child, move, is_won, counters, book, round_at, next_at, won_at, parents, chosen, me):
    """The child made by ``move`` counted, in the node counter and the round's
    (``book[round_at]``). EXHAUSTED when no number is left for it (``book[next_at]`` is
    the next), WON when it is won (numbered, its parent and move written, the number in
    ``book[won_at]``), else RUNNING."""
    counters[C_NODES] += 1
    book[round_at] += 1
    if book[next_at] >= parents.shape[0]:
        return EXHAUSTED
    if is_won(child):
        parents[book[next_at]] = me
        chosen[book[next_at]] = move
        book[won_at] = book[next_at]
        return WON
    return RUNNING


def line_back(parents: np.ndarray, chosen: np.ndarray, number: int) -> list[int]:
    """The kernel moves from the root (number 0) to state ``number``, each state's move and
    parent's number read back."""
    line = []
    while number != 0:
        line.append(int(chosen[number]))
        number = int(parents[number])
    return line[::-1]


@njit(inline="always")
def _drop_worse_half(rank, slot, free, q):
    """Keep the better half of the queue (a heap again), its other states' rows freed."""
    n = q[Q_COUNT]
    order = best_first(rank, n)
    kept = n // 2
    for i in range(kept, n):
        free[q[Q_FREE]] = slot[order[i]]
        q[Q_FREE] += 1
    gather(rank, order, kept)   # sorted best first: already a heap
    gather(slot, order, kept)
    q[Q_COUNT] = kept


@njit(types.int64(MovesFn, ApplyFn, KeyFn, WonFn, BeamScoreFn, types.uint8[:, ::1], types.int64[::1],
                  types.int32[::1], types.int64[::1], types.int64[::1], types.int64[::1], types.int64[::1],
                  types.int32[::1], types.uint64[::1], types.int32[::1], types.uint8[:, ::1], types.uint64[::1],
                  types.int64[::1], types.int64[::1], types.int64, types.int64, types.int64, types.int64),
      cache=True)
def _expand(moves, apply, key, is_won, score, states, ids, depths, rank, slot, free, parents, chosen, seen,
            move_list, children, child_keys, q, counters, budget, round_nodes, depth_weight, grow_at):
    """Expand the queue's best states until ``budget`` nodes are spent. Returns WON (the
    won state's number in ``q[Q_WON_ID]``), EXHAUSTED (the queue is empty, or the round's
    ``round_nodes`` are spent, or its numbers), GROW (the seen set holds ``grow_at``
    keys: the driver grows it and calls again) or RUNNING."""
    start = counters[C_NODES]
    while counters[C_NODES] - start < budget:
        if q[Q_COUNT] == 0 or q[Q_ROUND_NODES] >= round_nodes:
            return EXHAUSTED
        if counters[C_SEEN] >= grow_at:
            return GROW
        top = _pop(rank, slot, q[Q_COUNT])
        q[Q_COUNT] -= 1
        me = ids[top]
        depth = depths[top] + 1
        if depth > counters[C_MAXDEPTH]:
            counters[C_MAXDEPTH] = depth
        listed = moves(states[top], move_list)
        children_ahead(states[top], move_list, listed, apply, key, children, child_keys, seen)
        for j in range(listed):
            child = children[j]
            made = _counted(child, move_list[j], is_won, counters, q, Q_ROUND_NODES, Q_NEXT_ID, Q_WON_ID, parents,
                            chosen, me)
            if made != RUNNING:
                return made
            k = child_keys[j]
            if not _met_now(seen, counters, k):
                continue
            if q[Q_FREE] == 0:
                _drop_worse_half(rank, slot, free, q)
            q[Q_FREE] -= 1
            row = free[q[Q_FREE]]
            copy_state(states[row], child)
            number = q[Q_NEXT_ID]
            q[Q_NEXT_ID] = number + 1
            parents[number] = me
            chosen[number] = move_list[j]
            ids[row] = number
            depths[row] = depth
            at = q[Q_COUNT]
            rank[at] = _rank(score(child, 0) - depth_weight * depth, k)
            slot[at] = row
            q[Q_COUNT] = at + 1
            _sift_up(rank, slot, at)
        free[q[Q_FREE]] = top   # the expanded state's row is free again
        q[Q_FREE] += 1
    return RUNNING


class RoundsRun:
    """What the side runs made of rounds from the root share (this search and the staged
    search): the arrays named in ``ARRAYS`` plus a seen set, made at :meth:`start` and let
    go at :meth:`release`, charged as they are; and the step to the next round when one is
    exhausted. A subclass makes its arrays, starts a round (``_from_root``) and says how many
    rounds there are (``_rounds``)."""

    ARRAYS: tuple[str, ...] = ()

    def release(self):
        """Let go of the arrays (the run has left the turns)."""
        for name in self.ARRAYS + ("seen_table",):
            delattr(self, name)
        self.started = False

    @property
    def nbytes(self) -> int:
        if not self.started:
            return self.counters.nbytes
        return (sum(getattr(self, name).nbytes for name in self.ARRAYS) + sum(a.nbytes for a in self.seen_table)
                + self.counters.nbytes)

    def grown_nbytes(self) -> int:
        return 2 * sum(a.nbytes for a in self.seen_table)

    def grow(self):
        self.seen_table = grown(self.seen_table)

    def _next_round(self, status: int) -> int:
        """After a round's status: an exhausted round that is not the last ends the turn,
        and the next round starts at the next one."""
        if status == EXHAUSTED and self.round + 1 < self._rounds:
            self.round += 1
            self._from_root()
            return RUNNING
        return status


class BestFirstRun(RoundsRun):
    """A best-first search's arrays: the queue (states, their numbers and depths, the heap
    of ranks and rows, the free rows), each queued state's parent number and move, and the
    seen set. Made at its first turn (:meth:`start`), when the memory budget has room.

    ``depth_weights`` gives one round per weight, each of ``round_nodes`` nodes from the
    root (see the module docstring); after the last the run is exhausted."""

    def __init__(self, kernels: Kernels, root: np.ndarray, queue: int, round_nodes: int,
                 depth_weights: tuple[int, ...], counters_size: int):
        self.kernels = kernels
        self.root = root
        self.queue = queue
        self.round_nodes = round_nodes
        self.depth_weights = tuple(depth_weights)
        self._rounds = len(self.depth_weights)
        self.round = 0
        self.counters = np.zeros(counters_size, dtype=np.int64)
        self.started = False

    def start(self):
        kernels, queue = self.kernels, self.queue
        self.states = np.empty((queue, kernels.state_size), dtype=np.uint8)
        self.ids = np.empty(queue, dtype=np.int64)
        self.depths = np.empty(queue, dtype=np.int32)
        self.rank = np.empty(queue, dtype=np.int64)
        self.slot = np.empty(queue, dtype=np.int64)
        self.free = np.empty(queue, dtype=np.int64)
        self.parents = np.empty(self.round_nodes + 1, dtype=np.int64)
        self.chosen = np.empty(self.round_nodes + 1, dtype=np.int32)
        self.move_list = np.empty(kernels.max_moves, dtype=np.int32)
        self.children = np.empty((kernels.max_moves, kernels.state_size), dtype=np.uint8)
        self.child_keys = np.empty(kernels.max_moves, dtype=np.uint64)
        self.q = np.zeros(Q_SIZE, dtype=np.int64)
        self._from_root()
        self.started = True

    def _from_root(self):
        """A queue of the root alone (number 0), an empty seen set, the round's nodes at 0."""
        queue = self.queue
        self.free[:] = np.arange(queue)
        self.q[:] = 0
        self.q[Q_FREE] = queue - 1
        row = int(self.free[queue - 1])
        self.states[row] = self.root
        self.ids[row] = 0
        self.depths[row] = 0
        self.rank[0] = 0
        self.slot[0] = row
        self.q[Q_COUNT] = 1
        self.q[Q_NEXT_ID] = 1
        self.seen_table = new_table(MIN_SEEN_SLOTS)
        self.counters[C_SEEN] = 0

    ARRAYS = ("states", "ids", "depths", "rank", "slot", "free", "parents", "chosen", "move_list", "children",
              "child_keys", "q")

    def nbytes_to_start(self) -> int:
        kernels, queue = self.kernels, self.queue
        return (queue * (kernels.state_size + 8 + 4 + 8 + 8 + 8) + (self.round_nodes + 1) * (8 + 4)
                + kernels.max_moves * (4 + kernels.state_size + 8) + 8 * Q_SIZE + MIN_SEEN_SLOTS * (8 + 1))

    def advance(self, budget: int, max_depth: int) -> int:
        """Expand states until ``budget`` nodes are spent. Returns WON, EXHAUSTED (the last
        round is over), GROW or RUNNING. (``max_depth`` is not a limit here: a state's
        depth only orders the queue.)"""
        moves, apply, key, is_won = self.kernels.compiled
        seen = self.seen_table[0]
        status = _expand(moves, apply, key, is_won, self.kernels.compiled_beam_score, self.states, self.ids,
                         self.depths, self.rank, self.slot, self.free, self.parents, self.chosen, seen,
                         self.move_list, self.children, self.child_keys, self.q, self.counters, budget,
                         self.round_nodes, self.depth_weights[self.round], int(seen.shape[0] * GROW_LOAD))
        return self._next_round(status)

    def line(self) -> list[int]:
        """The kernel moves from the root to the won state (after a WON)."""
        return line_back(self.parents, self.chosen, int(self.q[Q_WON_ID]))
