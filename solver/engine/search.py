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
  If any state was cut off at the depth limit, or the memory budget could not
  hold a growth of the arrays, the verdict is ``unknown`` instead. (With several move orders, see
  :func:`search`.) A state the game calls transient is not put in the table
  but expanded each time it is reached; no cycle is made of transient states
  alone, so every path through them ends at a stored state or a won one.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
from numba import njit, types

from .contract import (CHILD_STATES, MOVE_LISTS, ApplyFn, DominanceFn, KeyFn, Kernels, MovesFn, TransientFn, WonFn,
                       copy_state, mix64_int)
from .memory import DEFAULT_MEMORY_MB, budget_bytes
from .status import (C_CUT, C_DEPTH, C_DOMINATORS, C_MAXDEPTH, C_NODES, C_PRUNED, C_RESTART, C_RNG, C_STORED,
                     COUNTERS, EXHAUSTED, GROW, RUNNING, WON)
from .table import (BYTES_PER_SLOT, KEYS_AHEAD, MAX_LOAD, MAX_SEARCHES, add_dominator, dominated, enter, entry_key,
                    expect, finish, grown, grown_dominators, new_dominators, new_table, visit)
from .warm import compiled_aside

INITIAL_ROWS = 64      # a run's stacks start with this many depths and double (searches seldom go deep)
INITIAL_DOMINATORS = 1 << 12
MIN_SLOTS = 1 << 10    # the smallest first table a small memory budget gets


@njit(types.int64(MovesFn, ApplyFn, KeyFn, WonFn, DominanceFn, DominanceFn, TransientFn, types.uint8[:, ::1],
                  CHILD_STATES, MOVE_LISTS, types.uint64[:, ::1],
                  types.int32[::1], types.int32[::1], types.uint64[::1], types.uint64[::1], types.uint64[::1],
                  types.uint8[::1], types.uint64[:, ::1], types.int64[::1], types.int64, types.int64, types.int64,
                  types.uint8, types.int64, types.int64),
      cache=True)
def _run(moves, apply, key, is_won, dominance_group, dominance_vector, transient, states, kids, stack, child_keys,
         counts, cursor, keys, groups, table_keys, table_flags, dominators, counters, budget, grow_at,
         dominators_grow_at, own, max_depth, field_bits):
    """Advance the DFS by up to ``budget`` nodes. See the module docstring. A transient
    state (``keys`` 0 on the stack) is expanded each time it is reached, never stored:
    its successors are stored, or transient and expanded in turn (no cycle of them).
    The stacks have a row per depth up to ``states.shape[0] - 1`` (the driver doubles them
    on GROW, up to ``max_depth + 1`` rows); a state at ``max_depth`` is cut.

    Before the first child of a state with at most :data:`KEYS_AHEAD` children is
    searched, the keys of all its children are computed (``child_keys``, 0 for a
    transient child) and their table slots loaded into the cache (:func:`expect`): the
    probes then wait on memory side by side, not one at a time. The children made are
    kept (``kids``, a row of them per depth), and a child's turn copies it instead of
    making it again (a copy and an apply)."""
    depth = counters[C_DEPTH]
    rows = states.shape[0]
    done = 0
    while done < budget:
        if cursor[depth] >= counts[depth]:
            if groups[depth] != 0 and counters[C_DOMINATORS] >= dominators_grow_at:
                counters[C_DEPTH] = depth
                return GROW
            if keys[depth] != 0 and finish(table_keys, table_flags, keys[depth]) and groups[depth] != 0:
                if add_dominator(dominators, groups[depth], dominance_vector(states[depth])):
                    counters[C_DOMINATORS] += 1
            if depth == 0:
                counters[C_DEPTH] = 0
                return EXHAUSTED
            depth -= 1
            continue
        if counters[C_STORED] >= grow_at or depth + 1 >= rows:   # (the child needs a row of its own)
            counters[C_DEPTH] = depth
            return GROW
        child = states[depth + 1]
        c = cursor[depth]
        ahead = counts[depth] <= KEYS_AHEAD
        if ahead and c == 0:
            for q in range(counts[depth]):
                kid = kids[depth, q]
                copy_state(kid, states[depth])
                apply(kid, stack[depth, q])
                child_keys[depth, q] = entry_key(key, transient, kid)
                if child_keys[depth, q] != 0:
                    expect(table_keys, table_flags, child_keys[depth, q])
        move = stack[depth, c]
        cursor[depth] = c + 1
        if ahead:
            copy_state(child, kids[depth, c])
        else:
            copy_state(child, states[depth])
            apply(child, move)
        done += 1
        counters[C_NODES] += 1
        if is_won(child):
            counters[C_DEPTH] = depth + 1
            return WON
        k = child_keys[depth, c] if ahead else entry_key(key, transient, child)   # (0: transient)
        if k == 0:
            seen = 1   # expanded, as a state another search is inside
            group = np.uint64(0)
        else:
            seen = visit(table_keys, table_flags, k, own, field_bits)
            if seen == 0:
                continue
            group = dominance_group(child)
        if seen == 2:
            counters[C_STORED] += 1
            if group != 0 and dominated(dominators, group, dominance_vector(child)):
                finish(table_keys, table_flags, k)   # a finished state reaches it (see the contract)
                counters[C_PRUNED] += 1
                continue
        if depth + 1 >= max_depth:
            counters[C_CUT] += 1  # this state is never expanded: no proof of loss any more
            continue
        depth += 1
        keys[depth] = k
        groups[depth] = group   # for its finish: the group is computed once a state
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
           time_limit: float | None = None, memory_mb: float = DEFAULT_MEMORY_MB, max_depth: int = 2000,
           chunk: int = 20000, initial_slots: int = 1 << 16, restarts: int = 0, restart_turn: int = 20000,
           restart_unit: int = 1000, restart_keep: int = 50, restart_near: bool = False, restart_look: int = 0,
           restart_seed: int = 0, restart_nodes: int = 0, beam_width: int = 0, beam_turn: int = 1_000_000,
           beam_weighings: int = 1, beam_siblings: int = 0, best_first_queue: int = 0,
           best_first_round: int = 2_000_000, best_first_depth_weights=(0,), best_first_turn: int = 1_000_000,
           staged_width: int = 0, staged_round: int = 2_000_000, staged_weighings=(0,), staged_turn: int = 1_000_000,
           progress=None, interruptible: bool = False) -> Outcome:
    """Decide whether a won state is reachable from ``root``.

    ``root`` may also be a 2-D array of up to seven rows: the same position once per move
    order (the rows differ only in a byte the game's move generator reads to
    order its list). Then one depth-first search per order runs in turns of
    ``chunk`` nodes over one shared table: DFS time on won deals is
    heavy-tailed and the orders are slow on different deals, so the first to
    find a win ends the search. A search skips a state it has entered itself
    or that any search has *finished* (searched every move from); a state
    only other searches are still inside, it expands too. So a ``lost`` costs
    about one search, not several, and stays a proof: when all searches have run
    out of moves, every stored state was expanded by some search, and every
    successor of an expanded state is stored, so the stored states are closed
    under moves, hold the root and hold no won state.

    ``restarts`` adds that many randomised restart runs (:mod:`engine.restarts`)
    to the turns, each ``restart_turn`` nodes a turn, restarting after
    ``restart_unit`` times a Luby term nodes and taking the game's first move
    ``restart_keep`` percent of the time (and otherwise any other move alike, or with
    ``restart_near`` mostly the next one); restart r starts from row r of ``root``
    (cyclically), so the restarts keep to each move order in turn. They find wins; a state they mark
    finished has only finished successors, so the proof above still holds: if a
    finished state reached a won state, take the last finished state on the way;
    whoever finished it saw its successor there finished (a restart run marks
    only those), or entered it itself (a depth-first run then finishes it before
    it is exhausted). The depth-first runs alone decide ``lost``. ``restart_seed``
    gives the restart runs another stream of random choices (0, the default, is the
    one every verdict is made with; ``benchmarks/restart_seeds.py`` counts how many
    streams decide a deal, so that a won deal is not a lucky draw). With ``restart_nodes``,
    a restart run leaves the turns once it has searched that many nodes (the states it
    finished stay finished), so that a long search goes to the depth-first runs, the
    only ones that can prove a deal lost.

    ``beam_width`` adds a beam search of that width (:mod:`engine.beam`; the game must
    provide ``beam_score``), run in turns of at least ``beam_turn`` nodes after the
    restart runs. It finds wins only, from row 0 of ``root``, and leaves the turns when
    no state is left in its beam, or when the memory budget has no room for its arrays
    (at its first turn) or for its seen set to grow. With ``beam_weighings`` above 1, a
    beam left without states starts again with the game's next weighing, up to that many.
    With ``beam_siblings``, a level keeps no more than that many children of one state, so
    that it holds the lines of many states.

    ``best_first_queue`` adds a best-first search holding that many states
    (:mod:`engine.best_first`; ``beam_score`` again), run in turns of at least
    ``best_first_turn`` nodes after the beam: one round of ``best_first_round`` nodes
    from row 0 of ``root`` per weight of ``best_first_depth_weights``. It finds wins
    only, and leaves the turns after its last round or when the memory budget has no
    room for it, as the beam does.

    ``staged_width`` adds a staged search (:mod:`engine.staged`; the game must provide
    ``beam_score`` and ``stage``) whose pools keep that many states, run in turns of at
    least ``staged_turn`` nodes after the best-first search: one round of at most
    ``staged_round`` nodes from row 0 of ``root`` per weighing of ``staged_weighings``.
    It finds wins only, and leaves the turns as the beam does.

    ``memory_mb`` bounds the search memory, every array the search holds at once (its
    runs' stacks, the restart runs' private tables, the table and the multimap; see
    :mod:`engine.memory`): a growth that would not fit ends the search ``unknown``
    (``memory``), and so does a budget that cannot hold the first arrays (then at once).

    ``progress(nodes, stored, seconds)``, if given, is called after every turn (so a
    person watching a long search sees it move). With ``interruptible``, Ctrl-C
    (KeyboardInterrupt, which reaches Python between turns) ends the search ``unknown``
    (``interrupted``) with what it reached; otherwise it propagates (a study must not
    record an interrupted deal as a verdict).
    """
    start = time.perf_counter()
    roots = np.ascontiguousarray(root.reshape(1, -1) if root.ndim == 1 else root)
    if kernels.is_won(roots[0]):
        return Outcome("won", [], 0, time.perf_counter() - start, None, 1, 0)
    if len(roots) > MAX_SEARCHES:
        raise ValueError(f"the table has flags for {MAX_SEARCHES} move orders")
    if restarts and not (restart_turn >= 1 and 1 <= restart_unit <= 1 << 20 and 0 <= restart_keep <= 100
                         and 0 <= restart_look <= 2 and restart_nodes >= 0):
        raise ValueError("restart runs need restart_turn >= 1, restart_unit in 1..2**20, restart_keep in 0..100, "
                         "restart_look in 0..2, restart_nodes >= 0")
    if max_depth < 1:
        raise ValueError("max_depth must be at least 1")
    if beam_width and not (beam_width >= 1 and beam_turn >= 1 and beam_weighings >= 1 and beam_siblings >= 0
                           and kernels.has_beam_score):
        raise ValueError("a beam search needs beam_width >= 1, beam_turn >= 1, beam_weighings >= 1, "
                         "beam_siblings >= 0 and a game with a beam_score kernel")
    if best_first_queue and not (best_first_queue >= 2 and best_first_round >= 1 and best_first_turn >= 1
                                 and len(best_first_depth_weights) >= 1 and kernels.has_beam_score):
        raise ValueError("a best-first search needs best_first_queue >= 2, best_first_round >= 1, "
                         "best_first_turn >= 1, a depth weight and a game with a beam_score kernel")
    if staged_width and not (staged_width >= 1 and staged_round >= 1 and staged_turn >= 1
                             and len(staged_weighings) >= 1 and kernels.has_beam_score and kernels.has_stage):
        raise ValueError("a staged search needs staged_width >= 1, staged_round >= 1, staged_turn >= 1, a "
                         "weighing and a game with beam_score and stage kernels")
    # each compiled on first use (or by a first run's child: engine/warm.py): only the games
    # whose settings run it pay for it
    if restarts:
        compiled_aside("solver.engine.restarts")
        from .restarts import _run_restarts
    beam = None
    if beam_width:
        compiled_aside("solver.engine.beam")
        from .beam import BeamRun
    if best_first_queue:
        compiled_aside("solver.engine.best_first")
        from .best_first import BestFirstRun
    if staged_width:
        compiled_aside("solver.engine.staged")
        from .staged import StagedRun
    start = time.perf_counter()   # a compile of the runs above (a first use) is not search time
    # the budget: the runs' first rows and the restart runs' tables first, then the table
    # (smaller than initial_slots if need be) and the multimap; each growth is checked
    limit = budget_bytes(memory_mb)
    fixed = (len(roots) * _Run.nbytes_for(kernels, max_depth)
             + (restarts * _RestartRun.nbytes_for(kernels, max_depth, restart_unit) if restarts else 0))
    dominator_rows = INITIAL_DOMINATORS if kernels.has_dominance else 1
    slots = initial_slots
    while slots > MIN_SLOTS and fixed + slots * BYTES_PER_SLOT + dominator_rows * 16 > limit:
        slots //= 2
    if fixed + slots * BYTES_PER_SLOT + dominator_rows * 16 > limit:
        return Outcome("unknown", [], 0, time.perf_counter() - start, "memory", 0, 0)
    table = new_table(slots)
    dominators = new_dominators(dominator_rows)
    field_bits = kernels.key_dominance(roots[0])
    runs = [_Run(kernels, r, max_depth) for r in roots]
    for i, run in enumerate(runs):
        if enter(table[0], table[1], run.keys[0], np.uint8(1 << i)) == 2:
            run.counters[C_STORED] = 1
    depth_first = len(runs)
    runs += [_RestartRun(kernels, roots[0], max_depth, number, restart_unit, restart_seed)
             for number in range(restarts)]
    if beam_width:
        beam = BeamRun(kernels, roots[0], beam_width, COUNTERS, beam_weighings, beam_siblings)
        runs.append(beam)
    best_first = None
    if best_first_queue:
        best_first = BestFirstRun(kernels, roots[0], best_first_queue, best_first_round,
                                  tuple(best_first_depth_weights), COUNTERS)
        runs.append(best_first)
    staged = None
    if staged_width:
        staged = StagedRun(kernels, roots[0], staged_width, staged_round, tuple(staged_weighings), COUNTERS)
        runs.append(staged)
    # the runs that find wins only, each with its own arrays and seen set, and its turn's nodes
    turns = {run: turn for run, turn in ((beam, beam_turn), (best_first, best_first_turn), (staged, staged_turn))
             if run is not None}
    side = list(turns)
    # turns: the first depth-first run (it wins most deals in its first turn), the
    # restart runs, the beam, the best-first search, the staged search, then the other
    # depth-first runs
    live = [0] + list(range(depth_first, len(runs))) + list(range(1, depth_first))

    def outcome(verdict, reason=None, line=()):
        return Outcome(verdict, list(line), sum(int(r.counters[C_NODES]) for r in runs),
                       time.perf_counter() - start, reason, sum(int(r.counters[C_STORED]) for r in runs),
                       max(int(r.counters[C_MAXDEPTH]) for r in runs))

    def held():
        """The bytes of every array the search holds now."""
        return sum(r.nbytes for r in runs) + table[0].nbytes + table[1].nbytes + dominators.nbytes

    try:
        turn = 0
        turn_left = 0   # nodes left in the current turn (0: the next turn starts)
        while True:
            i = live[turn % len(live)]
            run = runs[i]
            capped = restart_nodes and depth_first <= i and run not in side   # a restart run with a cap
            if turn_left <= 0:
                turn_left = chunk if i < depth_first else turns.get(run, restart_turn)
                if capped:
                    turn_left = min(turn_left, max(1, restart_nodes - int(run.counters[C_NODES])))
            budget = turn_left
            nodes = sum(int(r.counters[C_NODES]) for r in runs)
            if time_limit is not None:
                budget = _within_time(budget, time_limit, time.perf_counter() - start, nodes)
            if max_nodes is not None:
                budget = min(budget, max_nodes - nodes)
                if budget <= 0:
                    return outcome("unknown", "node_limit")
            stored_by_others = sum(int(r.counters[C_STORED]) for r in runs) - int(run.counters[C_STORED])
            grow_at = int(table[0].shape[0] * MAX_LOAD) - stored_by_others
            # the rows all runs added bound the multimap's fill (its rehash may drop some)
            rows_by_others = sum(int(r.counters[C_DOMINATORS]) for r in runs) - int(run.counters[C_DOMINATORS])
            dominators_grow_at = int(dominators.shape[0] * MAX_LOAD) - rows_by_others
            nodes_before = int(run.counters[C_NODES])
            if run in side:
                if not run.started:
                    if held() + run.nbytes_to_start() > limit:   # no room: the search goes on without it
                        live.remove(i)
                        turn_left = 0
                        continue
                    run.start()
                status = run.advance(budget, max_depth)
            elif i < depth_first:
                status = _run(*kernels.compiled, *kernels.dominance, kernels.compiled_transient, run.states, run.kids,
                              run.stack, run.child_keys, run.counts, run.cursor,
                              run.keys, run.groups, table[0], table[1], dominators, run.counters, budget, grow_at,
                              dominators_grow_at, np.uint8(1 << i), max_depth, field_bits)
            else:
                status = _run_restarts(*kernels.compiled, *kernels.dominance, kernels.compiled_progress,
                                       kernels.compiled_transient, run.states,
                                       run.kids, run.stack, run.child_keys, run.child_groups, run.counts,
                                       run.cursor, run.keys, run.groups, run.clean, run.private, run.private_keys,
                                       run.stamps,
                                       table[0], table[1], dominators, run.counters,
                                       budget, grow_at, dominators_grow_at, restart_unit, restart_keep,
                                       int(bool(restart_near)), roots,
                                       restart_look, run.look_states, run.look_moves, max_depth)
            # a turn's length does not depend on when the arrays grow (a GROW resumes the turn)
            turn_left -= int(run.counters[C_NODES]) - nodes_before
            if capped and status == RUNNING and run.counters[C_NODES] >= restart_nodes:
                status = EXHAUSTED   # its share is spent: it leaves the turns like an exhausted run
            if status == WON and run in side:
                return outcome("won", line=run.line())
            if status == WON:
                depth = int(run.counters[C_DEPTH])
                return outcome("won", line=[int(run.stack[d, run.cursor[d] - 1]) for d in range(depth)])
            if status == EXHAUSTED:
                live.remove(i)
                turn_left = 0
                if run in side:
                    run.release()
                if not any(j < depth_first for j in live):
                    if any(r.counters[C_CUT] for r in runs[:depth_first]):
                        return outcome("unknown", "depth")
                    return outcome("lost")
                continue
            if status == GROW:
                # each growth holds the old arrays and the new ones at once (a copy, a rehash)
                if run in side:   # its own seen set; without room the search goes on without the run
                    if held() + run.grown_nbytes() > limit:
                        live.remove(i)
                        turn_left = 0
                        run.release()
                    else:
                        run.grow()
                    continue
                if int(run.counters[C_DEPTH]) + 1 >= run.rows:   # the run is as deep as its stacks
                    if held() + run.grown_nbytes() > limit:
                        return outcome("unknown", "memory")
                    run.grow()
                    continue
                if sum(int(r.counters[C_DOMINATORS]) for r in runs) >= dominators.shape[0] * MAX_LOAD:
                    if held() + 2 * dominators.nbytes > limit:
                        return outcome("unknown", "memory")
                    dominators = grown_dominators(dominators)
                    continue
                if held() + 2 * (table[0].nbytes + table[1].nbytes) > limit:
                    return outcome("unknown", "memory")
                table = grown(table)
                continue
            turn += 1
            turn_left = 0
            elapsed = time.perf_counter() - start
            if progress is not None:
                progress(sum(int(r.counters[C_NODES]) for r in runs), sum(int(r.counters[C_STORED]) for r in runs),
                         elapsed)
            if time_limit is not None and elapsed > time_limit:
                return outcome("unknown", "time_limit")

    except KeyboardInterrupt:
        if not interruptible:
            raise
        return outcome("unknown", "interrupted")


def _within_time(budget: int, time_limit: float, elapsed: float, nodes: int) -> int:
    """A turn's budget cut to the nodes that, at the rate so far, fit before the time
    limit (at least 1). The clock is read between turns only, and a turn can take 0.3 s
    (Ladder's restart run): without the cut a search could end a turn late. Runs with
    a node limit and no time limit never call this, so they stay the same everywhere."""
    if elapsed < 0.01 or nodes == 0:
        return budget   # no rate to go by yet
    return min(budget, max(1, int((time_limit - elapsed) * nodes / elapsed)))


class _Run:
    """The stacks of one depth-first search (one move order): a row per depth, from
    :data:`INITIAL_ROWS` rows doubled on demand up to ``max_depth + 1`` (:meth:`grow`)."""

    DEPTH_ARRAYS = ("states", "kids", "stack", "child_keys", "counts", "cursor", "keys", "groups")   # a row per depth

    def __init__(self, kernels: Kernels, root: np.ndarray, max_depth: int):
        self.max_rows = max_depth + 1
        rows = min(INITIAL_ROWS, self.max_rows)
        # np.empty, not zeros: each row is written before it is read (a child state is
        # copied from its parent, a move list is generated on entering a depth)
        self.states = np.empty((rows, kernels.state_size), dtype=np.uint8)
        self.states[0] = root
        self.kids = np.empty((rows, KEYS_AHEAD, kernels.state_size), dtype=np.uint8)   # see _run
        self.stack = np.empty((rows, kernels.max_moves), dtype=np.int32)
        self.child_keys = np.empty((rows, KEYS_AHEAD), dtype=np.uint64)   # see _run
        self.counts = np.zeros(rows, dtype=np.int32)
        self.cursor = np.zeros(rows, dtype=np.int32)
        self.counters = np.zeros(COUNTERS, dtype=np.int64)
        self.keys = np.empty(rows, dtype=np.uint64)   # key of the state at each depth
        self.keys[0] = kernels.key(root) or 1   # as stored_key keeps it
        self.groups = np.empty(rows, dtype=np.uint64)  # and its dominance group
        self.groups[0] = kernels.dominance_group(root)
        self.counts[0] = kernels.moves(self.states[0], self.stack[0])

    @staticmethod
    def row_nbytes(kernels: Kernels) -> int:
        """The bytes of one depth in :data:`DEPTH_ARRAYS`."""
        return (1 + KEYS_AHEAD) * kernels.state_size + 4 * kernels.max_moves + 8 * KEYS_AHEAD + 4 + 4 + 8 + 8

    @classmethod
    def nbytes_for(cls, kernels: Kernels, max_depth: int, *args) -> int:
        """The bytes of a new run's arrays (before any is made)."""
        return min(INITIAL_ROWS, max_depth + 1) * cls.row_nbytes(kernels) + COUNTERS * 8

    @property
    def rows(self) -> int:
        return self.states.shape[0]

    @property
    def nbytes(self) -> int:
        return sum(a.nbytes for a in vars(self).values() if isinstance(a, np.ndarray))

    def _grown_rows(self) -> int:
        return min(2 * self.rows, self.max_rows)

    def grown_nbytes(self) -> int:
        """The bytes of the bigger copies :meth:`grow` makes (the old arrays are held meanwhile)."""
        return sum(getattr(self, name)[0].nbytes for name in self.DEPTH_ARRAYS) * self._grown_rows()

    def grow(self):
        """Twice the rows (at most ``max_depth + 1``), the rows in use copied: the compiled
        loop resumes where it stopped."""
        rows = self._grown_rows()
        for name in self.DEPTH_ARRAYS:
            old = getattr(self, name)
            new = np.empty((rows,) + old.shape[1:], dtype=old.dtype)
            new[:old.shape[0]] = old
            setattr(self, name, new)


class _RestartRun(_Run):
    """A restart run: the stacks of a depth-first run, and its private table and random state."""

    DEPTH_ARRAYS = _Run.DEPTH_ARRAYS + ("child_groups", "clean", "private")

    def __init__(self, kernels: Kernels, root: np.ndarray, max_depth: int, number: int, unit: int, seed: int = 0):
        super().__init__(kernels, root, max_depth)
        rows = self.rows
        self.child_groups = np.empty((rows, KEYS_AHEAD), dtype=np.uint64)   # see _run_restarts
        self.clean = np.zeros(rows, dtype=np.uint8)
        self.private = np.zeros(rows, dtype=np.uint64)   # each depth's slot in the private table
        slots = _private_slots(unit)
        self.private_keys = np.zeros(slots, dtype=np.uint64)
        self.stamps = np.zeros(slots, dtype=np.uint32)
        self.look_states = np.empty((2, kernels.state_size), dtype=np.uint8)   # the lookahead's two plies
        self.look_moves = np.empty((1, kernels.max_moves), dtype=np.int32)
        self.counters[C_RESTART] = -1                      # the first turn starts restart 0
        self.counters[C_RNG] = _seed(number, seed)

    @staticmethod
    def row_nbytes(kernels: Kernels) -> int:
        return _Run.row_nbytes(kernels) + 8 * KEYS_AHEAD + 1 + 8

    @classmethod
    def nbytes_for(cls, kernels: Kernels, max_depth: int, unit: int = 1) -> int:
        return (super().nbytes_for(kernels, max_depth) + _private_slots(unit) * (8 + 4)
                + 2 * kernels.state_size + 4 * kernels.max_moves)


def _private_slots(unit: int) -> int:
    """A restart run's private table: under half full in the longest restart."""
    from .restarts import MAX_LUBY

    return 1 << (2 * unit * MAX_LUBY).bit_length()


def _seed(number: int, seed: int = 0) -> np.int64:
    """A non-zero xorshift state for restart run ``number`` under the search's
    ``restart_seed`` (SplitMix64 of both; seed 0 is the default every verdict is made
    with), as the int64 with its bits (the counters array is int64)."""
    x = mix64_int(((number + 1) + (seed << 32)) * 0x9E3779B97F4A7C15)
    return np.array([x or 1], dtype=np.uint64).view(np.int64)[0]
