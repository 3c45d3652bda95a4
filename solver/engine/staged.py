"""A staged search: a member of the search portfolio that finds wins where the game has
moves that can never be taken back (Ladder with one pass: every draw).

The beam (:mod:`.beam`) keeps, level by level, the states that made as many moves as
each other; the best-first search (:mod:`.best_first`) the best states whatever their
depth. Where some moves can never be undone, neither compares like with like: a state
that drew deep into the stock may score well now and have nothing left to come. The
game's ``stage`` kernel counts what no move raises (the stock cards left), and this
search goes through the stages in order, from the root's down. A stage starts from its
*pool*: the ``width`` best states (by the game's ``beam_score``) that entered it from an
earlier stage. From them it expands, best first, every state it can reach within the
stage (up to a room of :data:`STAGE_ROOM` ``* width`` states), and every child that
leaves the stage goes to the pool of the stage it enters, which keeps the ``width`` best
it is offered. So each stage is explored through before anything commits further, and
only the best ways into each later stage are kept.

A round runs with one of the game's weighings, from the root, with a fresh set of seen
keys, until the last stage is done or the round's nodes are spent; then the next
weighing. A child that would enter an earlier stage (its count higher: not a game's
stage) is dropped. Like the beam it never proves a deal lost and never stops one from
being proved: it reads and writes only its own arrays. Ties are broken by the state's
key and nothing reads the clock, so a deal and the settings give the same line
everywhere. The line of a won state is read back through each kept state's parent.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from .beam import MIN_SEEN_SLOTS, _rank, children_ahead
from .best_first import RoundsRun, _counted, _met_now, _pop, _sift_up, line_back
from .contract import ApplyFn, BeamScoreFn, KeyFn, Kernels, MovesFn, StageFn, WonFn, copy_state
from .ranking import best_of, gather, gather_rows
from .status import C_MAXDEPTH, C_NODES, C_SEEN, EXHAUSTED, GROW, RUNNING
from .table import new_table

GROW_LOAD = 0.5    # the seen set doubles when it is this full (an expansion adds at most max_moves keys)
STAGE_ROOM = 32    # the states one stage may hold, in widths (stages of Ladder's one-pass deals hold 1-25)

# the run's bookkeeping, one int64 array
G_STAGE, G_OPEN, G_COUNT, G_HELD, G_NEXT_ID, G_ROUND_NODES, G_WON_ID = range(7)
G_SIZE = 7


@njit(inline="always")
def _offer(pool, pool_rank, pool_id, counts, stage, state, rank, number, width):
    """Offer ``state`` to the pool of ``stage``, which keeps the ``width`` best offered:
    it has room for twice as many, and when full it is cut to the best ``width``, after
    which a state no better than the last one kept is not taken."""
    n = counts[stage]
    if n == pool.shape[1]:
        order = best_of(pool_rank[stage], n, width)
        gather_rows(pool[stage], order, width)
        gather(pool_rank[stage], order, width)
        gather(pool_id[stage], order, width)
        n = width
        counts[stage] = n
        if rank <= pool_rank[stage, width - 1]:
            return
    copy_state(pool[stage, n], state)
    pool_rank[stage, n] = rank
    pool_id[stage, n] = number
    counts[stage] = n + 1


@njit(types.int64(MovesFn, ApplyFn, KeyFn, WonFn, BeamScoreFn, StageFn, types.uint8[:, :, ::1], types.int64[:, ::1],
                  types.int64[:, ::1], types.int64[::1], types.uint8[:, ::1], types.int64[::1], types.int64[::1],
                  types.int64[::1], types.int64[::1], types.int32[::1], types.uint64[::1], types.int32[::1],
                  types.uint8[:, ::1], types.uint64[::1], types.int64[::1], types.int64[::1], types.int64, types.int64,
                  types.int64, types.int64, types.int64),
      cache=True)
def _advance(moves, apply, key, is_won, score, stage, pool, pool_rank, pool_id, counts, held, held_id, rank, slot,
             parents, chosen, seen, move_list, children, child_keys, g, counters, budget, round_nodes, width, weighing,
             grow_at):
    """Go on through the stages until ``budget`` nodes are spent. Returns WON (the won
    state's number in ``g[G_WON_ID]``), EXHAUSTED (the last stage is done, or the round's
    ``round_nodes`` are spent, or its numbers), GROW (the seen set holds ``grow_at`` keys:
    the driver grows it and calls again) or RUNNING."""
    start = counters[C_NODES]
    room = held.shape[0]
    while counters[C_NODES] - start < budget:
        if g[G_ROUND_NODES] >= round_nodes:
            return EXHAUSTED
        if counters[C_SEEN] >= grow_at:
            return GROW
        k = g[G_STAGE]
        if g[G_OPEN] == 0:
            # open the next stage with states in its pool: its best ``width`` are its first states
            while k >= 0 and counts[k] == 0:
                k -= 1
            if k < 0:
                return EXHAUSTED
            n = counts[k]
            order = best_of(pool_rank[k], n, width)
            kept = order.shape[0]
            for q in range(kept):
                copy_state(held[q], pool[k, order[q]])
                held_id[q] = pool_id[k, order[q]]
                rank[q] = pool_rank[k, order[q]]
                slot[q] = q
                _sift_up(rank, slot, q)
            counts[k] = 0
            g[G_STAGE] = k
            g[G_OPEN] = 1
            g[G_COUNT] = kept
            g[G_HELD] = kept
        if g[G_COUNT] == 0:   # the stage is explored through: the next one
            g[G_OPEN] = 0
            g[G_STAGE] = k - 1
            continue
        top = _pop(rank, slot, g[G_COUNT])
        g[G_COUNT] -= 1
        me = held_id[top]
        listed = moves(held[top], move_list)
        children_ahead(held[top], move_list, listed, apply, key, children, child_keys, seen)
        for j in range(listed):
            child = children[j]
            made = _counted(child, move_list[j], is_won, counters, g, G_ROUND_NODES, G_NEXT_ID, G_WON_ID, parents,
                            chosen, me)
            if made != RUNNING:
                return made
            kc = child_keys[j]
            if not _met_now(seen, counters, kc):
                continue
            at = stage(child)
            if at > k or at < 0 or (at == k and g[G_HELD] == room):
                continue   # not a stage the search can go on to, or no room left in this one
            number = g[G_NEXT_ID]
            g[G_NEXT_ID] = number + 1
            parents[number] = me
            chosen[number] = move_list[j]
            r = _rank(score(child, weighing), kc)
            if at == k:
                row = g[G_HELD]
                g[G_HELD] = row + 1
                copy_state(held[row], child)
                held_id[row] = number
                c = g[G_COUNT]
                rank[c] = r
                slot[c] = row
                g[G_COUNT] = c + 1
                _sift_up(rank, slot, c)
            else:
                _offer(pool, pool_rank, pool_id, counts, at, child, r, number, width)
    return RUNNING


class StagedRun(RoundsRun):
    """A staged search's arrays: a pool per stage (states, ranks, numbers), the states of
    the stage being explored and their heap, each kept state's parent number and move, and
    the seen set. Made at its first turn (:meth:`start`), when the memory budget has room.

    ``weighings`` gives one round per weighing of the game's ``beam_score``, each of at most
    ``round_nodes`` nodes from the root; after the last the run is exhausted."""

    def __init__(self, kernels: Kernels, root: np.ndarray, width: int, round_nodes: int,
                 weighings: tuple[int, ...], counters_size: int):
        self.kernels = kernels
        self.root = root
        self.width = width
        self.round_nodes = round_nodes
        self.weighings = tuple(weighings)
        self._rounds = len(self.weighings)
        self.round = 0
        top = int(kernels.stage(root))
        if top < 0:
            raise ValueError(f"a staged search needs a stage of 0 or more (the root's is {top})")
        self.stages = top + 1
        self.counters = np.zeros(counters_size, dtype=np.int64)
        self.started = False

    def start(self):
        kernels, width, room = self.kernels, self.width, STAGE_ROOM * self.width
        self.pool = np.empty((self.stages, 2 * width, kernels.state_size), dtype=np.uint8)
        self.pool_rank = np.empty((self.stages, 2 * width), dtype=np.int64)
        self.pool_id = np.empty((self.stages, 2 * width), dtype=np.int64)
        self.pool_count = np.zeros(self.stages, dtype=np.int64)
        self.held = np.empty((room, kernels.state_size), dtype=np.uint8)
        self.held_id = np.empty(room, dtype=np.int64)
        self.rank = np.empty(room, dtype=np.int64)
        self.slot = np.empty(room, dtype=np.int64)
        self.parents = np.empty(self.round_nodes + 1, dtype=np.int64)
        self.chosen = np.empty(self.round_nodes + 1, dtype=np.int32)
        self.move_list = np.empty(kernels.max_moves, dtype=np.int32)
        self.children = np.empty((kernels.max_moves, kernels.state_size), dtype=np.uint8)
        self.child_keys = np.empty(kernels.max_moves, dtype=np.uint64)
        self.g = np.zeros(G_SIZE, dtype=np.int64)
        self._from_root()
        self.started = True

    def _from_root(self):
        """The root (number 0) alone in its stage's pool, an empty seen set, the round's nodes at 0."""
        self.pool_count[:] = 0
        top = self.stages - 1
        self.pool[top, 0] = self.root
        self.pool_rank[top, 0] = 0
        self.pool_id[top, 0] = 0
        self.pool_count[top] = 1
        self.g[:] = 0
        self.g[G_STAGE] = top
        self.g[G_NEXT_ID] = 1
        self.seen_table = new_table(MIN_SEEN_SLOTS)
        self.counters[C_SEEN] = 0

    ARRAYS = ("pool", "pool_rank", "pool_id", "pool_count", "held", "held_id", "rank", "slot", "parents", "chosen",
              "move_list", "children", "child_keys", "g")

    def nbytes_to_start(self) -> int:
        kernels, width, room = self.kernels, self.width, STAGE_ROOM * self.width
        return (self.stages * (2 * width * (kernels.state_size + 16) + 8) + room * (kernels.state_size + 24)
                + (self.round_nodes + 1) * (8 + 4) + kernels.max_moves * (4 + kernels.state_size + 8) + 8 * G_SIZE
                + MIN_SEEN_SLOTS * (8 + 1))

    def advance(self, budget: int, max_depth: int) -> int:
        """Go on until ``budget`` nodes are spent. Returns WON, EXHAUSTED (the last round is
        over), GROW or RUNNING. (``max_depth`` is not a limit here: the stages end every round.)"""
        moves, apply, key, is_won = self.kernels.compiled
        seen = self.seen_table[0]
        before = int(self.counters[C_NODES])
        status = _advance(moves, apply, key, is_won, self.kernels.compiled_beam_score, self.kernels.compiled_stage,
                          self.pool, self.pool_rank, self.pool_id, self.pool_count, self.held, self.held_id,
                          self.rank, self.slot, self.parents, self.chosen, seen, self.move_list, self.children,
                          self.child_keys, self.g, self.counters, budget, self.round_nodes, self.width,
                          self.weighings[self.round], int(seen.shape[0] * GROW_LOAD))
        if int(self.counters[C_NODES]) > before:
            self.counters[C_MAXDEPTH] = max(int(self.counters[C_MAXDEPTH]), self.stages - int(self.g[G_STAGE]))
        return self._next_round(status)

    def line(self) -> list[int]:
        """The kernel moves from the root to the won state (after a WON)."""
        return line_back(self.parents, self.chosen, int(self.g[G_WON_ID]))
