"""A beam search: a member of the search portfolio that finds wins the depth-first
runs reach late.

A depth-first run commits to its first moves and spends its budget below them; a
restart run tries other first moves, but each restart is still a narrow dive. The
beam search keeps a *width* of states side by side instead: at each level it makes
every child of every state in the beam, drops the children it has met before (its
own set of keys: it never reads or writes the shared table), and keeps the ``width``
children the game's ``beam_score`` rates highest as the next level. Where a game's
lines are long and a good position is easy to recognise (Ladder with one pass: cards
up, ladder cards dug, empty piles, few cards buried in the waste), it wins deals that
no depth-first order reaches within the time (benchmarks/results.md).

It never proves a deal lost (it drops states), and never stops one from being proved:
the depth-first runs decide ``lost`` alone. Ties in the score are broken by the
state's key, and nothing reads the clock, so a deal and a width give the same beam,
and the same line, on every machine.

The driver (:func:`engine.search.search`) runs it in turns like the other runs: a
turn ends after the first level that brings its nodes to the turn's budget. A level
leaves its parents and moves in :class:`BeamRun`'s history, from which the line of a
won state is read back.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from .contract import ApplyFn, BeamScoreFn, KeyFn, Kernels, MovesFn, WonFn, copy_state
from .ranking import best_of, gather
from .status import C_DEPTH, C_MAXDEPTH, C_NODES, C_SEEN, EXHAUSTED, GROW, RUNNING, WON
from .table import _slot, grown, home, new_table, prefetch, stored_key

CANDIDATES_PER_STATE = 4   # room for candidates before they are cut down to the width
MIN_SEEN_SLOTS = 1 << 20
GROW_LOAD = 0.25   # the seen set doubles before a level when it is this full (a level adds many keys)
FULL_LOAD = 0.75   # past this, a level's further children are not recorded in it (probes stay short)


@njit(inline="always")
def _rank(score, key):
    """The order of a candidate: its score first, then its key (a tie break that is the
    same on every machine); larger is better."""
    s = min(max(score, -(np.int64(1) << 38)), np.int64(1) << 38)
    return (s << np.int64(24)) | np.int64(key >> np.uint64(40))


@njit(inline="always")
def _cut(cand_rank, cand_parent, cand_move, count, width):
    """Keep the ``width`` best of ``count`` candidates, best first, in the first rows."""
    order = best_of(cand_rank, count, width)
    kept = order.shape[0]
    gather(cand_rank, order, kept)
    gather(cand_parent, order, kept)
    gather(cand_move, order, kept)
    return kept


@njit(inline="always")
def children_ahead(parent, move_list, listed, apply, key, children, child_keys, seen):
    """Every child of ``parent`` made in ``children`` and its key as stored in
    ``child_keys``, its slot of the seen set loading: the probes that follow then wait on
    memory together, not one after another (the beam's, best-first and staged searches)."""
    for j in range(listed):
        child = children[j]
        copy_state(child, parent)
        apply(child, move_list[j])
        k = stored_key(key(child))
        child_keys[j] = k
        prefetch(seen, home(seen.shape[0], k))


@njit(types.int64(MovesFn, ApplyFn, KeyFn, WonFn, BeamScoreFn, types.uint8[:, ::1], types.int64, types.uint8[:, ::1],
                  types.int32[::1], types.int32[::1], types.int64[::1], types.uint64[::1], types.int32[::1],
                  types.uint8[:, ::1], types.int64[::1], types.int64, types.int64, types.int64, types.int64,
                  types.int64),
      cache=True)
def _level(moves, apply, key, is_won, score, beam, count, next_beam, parents, chosen, cand_rank, seen, move_list,
           children, counters, width, grow_at, full_at, weighing, siblings):
    """Expand the ``count`` states of ``beam`` into ``next_beam`` (at most ``width``
    states, the best by the game's ``weighing``), writing each kept state's parent row
    and move to ``parents`` and ``chosen``; the number kept is left in
    ``counters[C_DEPTH]``. Returns WON (the won state's parent row in ``parents[0]``,
    its move in ``chosen[0]``), EXHAUSTED (no child not met before), GROW (before
    anything is done: the seen set holds ``grow_at`` keys, the driver grows it and
    calls again) or RUNNING. Once the seen set holds ``full_at`` keys, further children
    are taken without being recorded (a state may then come back in a later level: it
    costs nodes, not exactness).

    The level kept is the first ``width`` of all the new children in the order of their
    rank, best first, and of their place in the level among equal ranks. With
    ``siblings`` (0: no limit), only the best ``siblings`` new children of each state are
    candidates (the others are not recorded as met: another state may offer them). Candidates are
    cut down to the ``width`` best when their room is full; after a cut, a child ranked no
    higher than the last one kept is not a candidate at all: ``width`` children come
    before it in that order, whatever comes later."""
    if counters[C_SEEN] >= grow_at:
        return GROW
    capacity = cand_rank.shape[0]
    cand_parent = np.empty(capacity, dtype=np.int32)
    cand_move = np.empty(capacity, dtype=np.int32)
    child_keys = np.empty(move_list.shape[0], dtype=np.uint64)
    fresh_rank = np.empty(move_list.shape[0], dtype=np.int64)    # a state's new children: rank, index
    fresh_index = np.empty(move_list.shape[0], dtype=np.int64)
    n = 0
    bounded = False        # a cut has been made: ``worst`` is the rank of the last child kept
    worst = np.int64(0)
    for b in range(count):
        listed = moves(beam[b], move_list)
        children_ahead(beam[b], move_list, listed, apply, key, children, child_keys, seen)
        fresh = 0
        for j in range(listed):
            child = children[j]
            counters[C_NODES] += 1
            if is_won(child):
                parents[0] = b
                chosen[0] = move_list[j]
                return WON
            k = child_keys[j]
            slot = _slot(seen, k)
            if seen[slot] == k:
                continue
            if siblings == 0 and counters[C_SEEN] < full_at:   # every new child is a candidate: met now
                seen[slot] = k
                counters[C_SEEN] += 1
            fresh_rank[fresh] = _rank(score(child, weighing), k)
            fresh_index[fresh] = j
            fresh += 1
        # with a limit, the rank a new child of this state needs: the siblings-th best of theirs
        capped = 0 < siblings < fresh
        edge = fresh_rank[best_of(fresh_rank, fresh, siblings)[siblings - 1]] if capped else np.int64(0)
        for f in range(fresh):
            rank = fresh_rank[f]
            if capped and rank < edge:
                continue
            j = fresh_index[f]
            if siblings > 0:   # met only now that it is a candidate (once: another move may make it too)
                k = child_keys[j]
                slot = _slot(seen, k)
                if seen[slot] == k:
                    continue
                if counters[C_SEEN] < full_at:
                    seen[slot] = k
                    counters[C_SEEN] += 1
            if n == capacity:
                n = _cut(cand_rank, cand_parent, cand_move, n, width)
                bounded, worst = True, cand_rank[n - 1]
            if bounded and rank <= worst:
                continue
            cand_rank[n] = rank
            cand_parent[n] = b
            cand_move[n] = move_list[j]
            n += 1
    if n == 0:
        return EXHAUSTED
    n = _cut(cand_rank, cand_parent, cand_move, n, width)
    for b in range(n):
        copy_state(next_beam[b], beam[cand_parent[b]])
        apply(next_beam[b], cand_move[b])
        parents[b] = cand_parent[b]
        chosen[b] = cand_move[b]
    counters[C_DEPTH] = n
    counters[C_MAXDEPTH] += 1
    return RUNNING


class BeamRun:
    """A beam search's arrays: the current level and the next, the candidates, the seen
    set and the history of parents and moves (one pair of rows per level). They are made
    at the beam's first turn (:meth:`start`), when the driver has found room for them in
    the memory budget: a search whose budget has none goes on without the beam.

    With ``weighings`` above 1, a beam that runs out of states starts again from the root
    with the game's next way of weighing states (a fresh seen set and history): beams
    weighed otherwise keep other states and win other deals (benchmarks/results.md)."""

    def __init__(self, kernels: Kernels, root: np.ndarray, width: int, counters_size: int, weighings: int = 1,
                 siblings: int = 0):
        self.kernels = kernels
        self.root = root
        self.width = width
        self.siblings = siblings
        self.weighings = weighings
        self.weighing = 0
        self.counters = np.zeros(counters_size, dtype=np.int64)
        self.started = False
        self.parents: list[np.ndarray] = []
        self.chosen: list[np.ndarray] = []

    def start(self):
        kernels, width = self.kernels, self.width
        self.beam = np.empty((width, kernels.state_size), dtype=np.uint8)
        self.next_beam = np.empty_like(self.beam)
        self.cand_rank = np.empty(CANDIDATES_PER_STATE * width, dtype=np.int64)
        self.move_list = np.empty(kernels.max_moves, dtype=np.int32)
        self.children = np.empty((kernels.max_moves, kernels.state_size), dtype=np.uint8)
        self._from_root()
        self.started = True

    def _from_root(self):
        """A beam of the root alone, with an empty seen set and history."""
        self.beam[0] = self.root
        self.count = 1
        self.seen_table = new_table(MIN_SEEN_SLOTS)   # the shared table's code; its flags are not used
        self.counters[C_SEEN] = 0
        self.parents, self.chosen = [], []

    def release(self):
        """Let go of the arrays (the beam has left the turns): the memory budget gets them back."""
        for name in ("beam", "next_beam", "cand_rank", "move_list", "children", "seen_table"):
            delattr(self, name)
        self.parents, self.chosen = [], []
        self.started = False

    def nbytes_to_start(self) -> int:
        """The bytes :meth:`start` makes."""
        kernels, width = self.kernels, self.width
        return (2 * width * kernels.state_size + CANDIDATES_PER_STATE * width * (8 + 4 + 4)
                + kernels.max_moves * (4 + kernels.state_size) + MIN_SEEN_SLOTS * (8 + 1))

    @property
    def nbytes(self) -> int:
        if not self.started:
            return self.counters.nbytes
        history = sum(a.nbytes for a in self.parents) + sum(a.nbytes for a in self.chosen)
        # the candidates' ranks, and (made inside a level) their parent and move rows as many bytes again
        return (self.beam.nbytes + self.next_beam.nbytes + 2 * self.cand_rank.nbytes + self.move_list.nbytes
                + self.children.nbytes + sum(a.nbytes for a in self.seen_table) + self.counters.nbytes + history)

    def grown_nbytes(self) -> int:
        return 2 * sum(a.nbytes for a in self.seen_table)

    def grow(self):
        self.seen_table = grown(self.seen_table)

    def advance(self, budget: int, max_depth: int) -> int:
        """Expand levels until ``budget`` nodes are spent (a level is never cut short).
        Returns WON, EXHAUSTED (no new child, or ``max_depth`` levels), GROW or RUNNING."""
        kernels = self.kernels
        moves, apply, key, is_won = kernels.compiled
        start = int(self.counters[C_NODES])
        while int(self.counters[C_NODES]) - start < budget:
            if len(self.parents) >= max_depth:
                if self._next_weighing():
                    continue
                return EXHAUSTED
            parents = np.empty(self.width, dtype=np.int32)
            chosen = np.empty(self.width, dtype=np.int32)
            seen = self.seen_table[0]
            status = _level(moves, apply, key, is_won, kernels.compiled_beam_score, self.beam, self.count,
                            self.next_beam, parents, chosen, self.cand_rank, seen, self.move_list, self.children,
                            self.counters, self.width, int(seen.shape[0] * GROW_LOAD), int(seen.shape[0] * FULL_LOAD),
                            self.weighing, self.siblings)
            if status == WON:
                self.won_at = (int(parents[0]), int(chosen[0]))
                return WON
            if status == EXHAUSTED and self._next_weighing():
                continue
            if status != RUNNING:
                return status
            self.count = int(self.counters[C_DEPTH])
            self.parents.append(parents[:self.count].copy())
            self.chosen.append(chosen[:self.count].copy())
            self.beam, self.next_beam = self.next_beam, self.beam
        return RUNNING

    def _next_weighing(self) -> bool:
        """Start again from the root with the next weighing, if there is one (the seen set
        back to its first size: the memory budget gets the rest back)."""
        if self.weighing + 1 >= self.weighings:
            return False
        self.weighing += 1
        self._from_root()
        return True

    def line(self) -> list[int]:
        """The kernel moves from the root to the won state (after a WON)."""
        row, move = self.won_at
        line = [move]
        for parents, chosen in zip(reversed(self.parents), reversed(self.chosen)):
            line.append(int(chosen[row]))
            row = int(parents[row])
        return line[::-1]
