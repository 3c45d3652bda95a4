"""Randomised restarts: a member of the search portfolio that finds wins fast.

A depth-first search that takes a wrong turn near the root spends its whole
budget in the subtree below it. Deals that every depth-first move order leaves
undecided are often won quickly by a search that, at each state, takes the
game's first move part of the time and a random remaining move otherwise, and
starts again from the root after a Luby sequence of node budgets (1, 1, 2, 1, 1,
2, 4, ... times a unit): a winning line is found within the first few thousand
nodes of a lucky restart, or not at all (benchmarks/results.md).

Each restart starts from the next of the search's root rows (one per move order,
when the game has several), so "the game's first move" is each order's in turn.
Hard deals stay a lottery: which restart wins is luck, so orders add tickets.

A restart run never proves a deal lost, and never stops one from being proved:

* It keeps the states it has entered since its last restart in a private table
  (a generation stamp per slot, so a restart clears nothing) and skips a state
  already there, or one the shared table marks finished.
* It marks a state finished in the shared table only when every move from it
  led to a state that was finished at that time (*clean*): a state it skipped
  as entered since the restart (on its path, or abandoned below) makes the
  state and all its ancestors unclean. So a finished state from a restart run
  reaches no won state, whoever finishes the others (the argument is in
  ``engine.search``); the depth-first runs then skip it, and the work counts
  towards their proof.

The random choices come from a xorshift generator seeded by the run's number,
so a deal and a node limit give the same line on every machine.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from .contract import (CHILD_STATES, MOVE_LISTS, ApplyFn, DominanceFn, KeyFn, MovesFn, ProgressFn, TransientFn, WonFn,
                       copy_state, swap_states)
from .status import (C_DEPTH, C_DOMINATORS, C_MAXDEPTH, C_NODES, C_RESTART, C_RNG, C_SPENT, C_STORED, EXHAUSTED,
                     GROW, RUNNING, WON)
from .table import (KEYS_AHEAD, add_dominator, dominated, entry_key, expect, expect_group, home, is_finished,
                    mark_finished)


MAX_LUBY = 64   # the longest restart, in units: its private table is sized for it


@njit(inline="always")
def luby(i):
    """The i-th term (from 0) of the Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, ..."""
    i += 1
    while True:
        k = 1
        while (1 << k) - 1 < i:
            k += 1
        if i == (1 << k) - 1:
            return np.int64(1) << (k - 1)
        i -= (1 << (k - 1)) - 1


@njit(inline="always")
def _next_random(counters):
    """xorshift64 on the state kept in ``counters[C_RNG]``."""
    x = np.uint64(counters[C_RNG])
    x ^= x << np.uint64(13)
    x ^= x >> np.uint64(7)
    x ^= x << np.uint64(17)
    counters[C_RNG] = np.int64(x)
    return x


@njit(inline="always")
def _other_move(counters, first, count, near):
    """The index of the move a choice takes when it does not take the ``first`` remaining one
    (of moves ``first`` .. ``count`` - 1, at least two): any of them alike; or, with ``near``,
    the next one, or each one further with chance 1/4 a step (so the second remaining move
    3/4 of the time). Where the game's order puts a few good moves first and many poor ones
    after (Ladder's talon cards that bury others, with limited passes), a uniform choice
    mostly takes a poor one."""
    if not near:
        return first + np.int64(_next_random(counters) % np.uint64(count - first))
    j = first + 1
    bits = _next_random(counters)
    while j < count - 1 and (bits & np.uint64(3)) == np.uint64(3):
        j += 1
        bits >>= np.uint64(2)
    return j


@njit(inline="always")
def _generation(counters):
    """The private table's stamp for the current restart (its low bit says finished)."""
    return np.uint32(counters[C_RESTART] + 1) << np.uint32(1)


@njit(inline="always")
def _private_slot(pkeys, stamps, key, gen):
    """The slot of ``key`` in the private table if it was entered in generation ``gen``
    (a stamp is ``gen`` plus 1 when the state was found finished), else the free slot
    where it goes. Slots of an older generation count as free, so probing never
    crosses into stale entries and a restart clears nothing."""
    mask = np.uint64(pkeys.shape[0] - 1)
    slot = home(pkeys.shape[0], key)
    while (stamps[slot] & np.uint32(0xFFFFFFFE)) == gen:
        if pkeys[slot] == key:
            return slot
        slot = (slot + np.uint64(1)) & mask
    return slot


@njit(inline="always")
def _first_rising(moves, apply, progress, state, listed, count, look, look_states, look_moves):
    """(index of the first of the ``count`` moves ``listed`` from which ``progress`` rises
    within ``look`` (1 or 2) moves, or -1; the moves played to find out)."""
    base = progress(state)
    spent = 0
    for m in range(count):
        a = look_states[0]
        copy_state(a, state)
        apply(a, listed[m])
        spent += 1
        if progress(a) > base:
            return m, spent
        if look > 1:
            for q in range(moves(a, look_moves[0])):
                b = look_states[1]
                copy_state(b, a)
                apply(b, look_moves[0, q])
                spent += 1
                if progress(b) > base:
                    return m, spent
    return -1, spent


@njit(types.int64(MovesFn, ApplyFn, KeyFn, WonFn, DominanceFn, DominanceFn, ProgressFn, TransientFn,
                  types.uint8[:, ::1], CHILD_STATES, MOVE_LISTS, types.uint64[:, ::1], types.uint64[:, ::1],
                  types.int32[::1], types.int32[::1], types.uint64[::1], types.uint64[::1], types.uint8[::1],
                  types.uint64[::1],
                  types.uint64[::1], types.uint32[::1], types.uint64[::1], types.uint8[::1], types.uint64[:, ::1],
                  types.int64[::1], types.int64, types.int64, types.int64, types.int64, types.int64, types.int64,
                  types.uint8[:, ::1], types.int64, types.uint8[:, ::1], MOVE_LISTS, types.int64),
      cache=True)
def _run_restarts(moves, apply, key, is_won, dominance_group, dominance_vector, progress, transient, states, kids,
                  stack, child_keys, child_groups, counts,
                  cursor, keys, groups, clean, private, pkeys, stamps, table_keys, table_flags, dominators,
                  counters, budget, grow_at, dominators_grow_at, unit, keep, near, roots, look, look_states,
                  look_moves, max_depth):
    """Advance the restart run by up to ``budget`` nodes. ``keep``: percent of choices
    that take the game's first remaining move; the others take another (:func:`_other_move`,
    near the first with ``near``). Restart r starts from ``roots[r % len]``:
    the root once per move order, so the first moves it keeps differ from one restart
    to the next. ``look`` (0-2): in every other restart, a state's first move is the
    first in the game's order from which ``progress`` rises within ``look`` moves
    (the moves looked at count as nodes), if any. A transient state (``keys`` 0 on the
    stack) is entered without a probe of either table and is never marked: it is clean
    when all its successors are. The stacks grow as in :func:`engine.search._run`: a
    GROW with no row for the next child asks the driver for more rows.

    As in :func:`engine.search._run`, the keys of a state's children (and their
    dominance groups) are computed before the first child is taken, when they are at
    most :data:`KEYS_AHEAD`, and the slots they will probe in the private table, the
    shared table and the multimap are loaded into the cache meanwhile."""
    depth = counters[C_DEPTH]
    rows = states.shape[0]
    done = 0
    # this restart's nodes (worked out once a restart: the Luby term is a loop)
    allowed = 0 if counters[C_RESTART] < 0 else unit * min(luby(counters[C_RESTART]), MAX_LUBY)
    while done < budget:
        if counters[C_SPENT] >= allowed:
            counters[C_RESTART] += 1
            counters[C_SPENT] = 0
            allowed = unit * min(luby(counters[C_RESTART]), MAX_LUBY)
            depth = 0
            copy_state(states[0], roots[counters[C_RESTART] % roots.shape[0]])
            counts[0] = moves(states[0], stack[0])
            cursor[0] = 0
            clean[0] = 1
            gen = _generation(counters)
            private[0] = _private_slot(pkeys, stamps, keys[0], gen)
            pkeys[private[0]] = keys[0]
            stamps[private[0]] = gen
            continue
        if cursor[depth] >= counts[depth]:
            if clean[depth] and keys[depth] != 0:
                if counters[C_STORED] >= grow_at or (groups[depth] != 0 and
                                                     counters[C_DOMINATORS] >= dominators_grow_at):
                    counters[C_DEPTH] = depth
                    return GROW
                marked = mark_finished(table_keys, table_flags, keys[depth])
                if marked == 2:
                    counters[C_STORED] += 1
                if marked != 0 and groups[depth] != 0:
                    if add_dominator(dominators, groups[depth], dominance_vector(states[depth])):
                        counters[C_DOMINATORS] += 1
                stamps[private[depth]] |= np.uint32(1)
            if depth == 0:
                counters[C_DEPTH] = 0
                return EXHAUSTED   # nothing left to find from the root this restart
            depth -= 1
            if not clean[depth + 1]:
                clean[depth] = 0
            continue
        if depth + 1 >= rows:   # the child needs a row of its own
            counters[C_DEPTH] = depth
            return GROW
        c = cursor[depth]
        left = counts[depth] - c
        ahead = counts[depth] <= KEYS_AHEAD   # the children's keys are made first (a swap keeps them)
        if ahead and c == 0:
            for q in range(counts[depth]):
                child = kids[depth, q]
                copy_state(child, states[depth])
                apply(child, stack[depth, q])
                kq = entry_key(key, transient, child)
                child_keys[depth, q] = kq
                child_groups[depth, q] = 0
                if kq == 0:
                    continue
                expect(pkeys, stamps, kq)
                expect(table_keys, table_flags, kq)
                child_groups[depth, q] = dominance_group(child)
                if child_groups[depth, q] != 0:
                    expect_group(dominators, child_groups[depth, q])
        if left > 1:
            j = -1
            if look > 0 and c == 0 and (counters[C_RESTART] & 1) == 1:
                j, spent = _first_rising(moves, apply, progress, states[depth], stack[depth], counts[depth], look,
                                         look_states, look_moves)
                done += spent
                counters[C_NODES] += spent
                counters[C_SPENT] += spent
            if j < 0 and np.int64(_next_random(counters) % np.uint64(100)) >= keep:
                j = _other_move(counters, c, counts[depth], near)
            if j > c:
                move = stack[depth, j]
                stack[depth, j] = stack[depth, c]
                stack[depth, c] = move
                if ahead:
                    kj, gj = child_keys[depth, j], child_groups[depth, j]
                    child_keys[depth, j], child_groups[depth, j] = child_keys[depth, c], child_groups[depth, c]
                    child_keys[depth, c], child_groups[depth, c] = kj, gj
                    swap_states(kids[depth, j], kids[depth, c])
        move = stack[depth, c]
        cursor[depth] = c + 1
        child = states[depth + 1]
        if ahead:
            copy_state(child, kids[depth, c])
        else:
            copy_state(child, states[depth])
            apply(child, move)
        done += 1
        counters[C_NODES] += 1
        counters[C_SPENT] += 1
        if is_won(child):
            counters[C_DEPTH] = depth + 1
            return WON
        if ahead:
            k = child_keys[depth, c]
            group = child_groups[depth, c]
        else:
            k = entry_key(key, transient, child)
            group = dominance_group(child) if k != 0 else np.uint64(0)
        if k == 0:   # transient, entered with no probe: key 0, no group, no private slot
            slot = np.uint64(0)
        else:
            # the private table first: it is small and warm, and it remembers which of its
            # states are finished, so most repeated states cost no probe of the big table
            gen = _generation(counters)
            slot = _private_slot(pkeys, stamps, k, gen)
            if (stamps[slot] & np.uint32(0xFFFFFFFE)) == gen and pkeys[slot] == k:
                if stamps[slot] & np.uint32(1):
                    continue
                if is_finished(table_keys, table_flags, k):   # finished by another run since
                    stamps[slot] = gen | np.uint32(1)
                    continue
                clean[depth] = 0   # on the path or abandoned below: not proved dead
                continue
            pkeys[slot] = k
            if is_finished(table_keys, table_flags, k):
                stamps[slot] = gen | np.uint32(1)
                continue
            if group != 0 and dominated(dominators, group, dominance_vector(child)):
                stamps[slot] = gen | np.uint32(1)   # as good as finished: a finished state reaches it
                continue
            stamps[slot] = gen
        if depth + 1 >= max_depth:
            clean[depth] = 0   # cut: not proved dead
            continue
        depth += 1
        keys[depth] = k
        groups[depth] = group
        private[depth] = slot
        if depth > counters[C_MAXDEPTH]:
            counters[C_MAXDEPTH] = depth
        counts[depth] = moves(child, stack[depth])
        cursor[depth] = 0
        clean[depth] = 1
    counters[C_DEPTH] = depth
    return RUNNING
