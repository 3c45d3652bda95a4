"""A toy game for the engine's tests: walk a directed graph to its last node.

The graph lives in the state, so one compiled set of kernels serves any graph:
``state[0]`` is the node the walk stands on, ``state[1 + N * a + b]`` is 1 when
the graph has an edge a -> b (``N`` nodes at most). Node ``N - 1`` is the goal.
Then a byte for the move order (0: lowest node first, 1: highest), left out of the
key, as a game's several move orders are, and one byte per node: 1 marks it
*transient* (the engine does not store it; :data:`KERNELS_TRANSIENT` reads the mark).
Winnable means the goal is reachable, which a plain breadth-first walk decides:
the engine's verdicts are checked against that on random graphs full of cycles.

With fuel (:data:`KERNELS_FUEL`), an edge of value 2 costs a unit of fuel, and a walk
may spend at most ``state[FUEL_MAX]`` (``state[FUEL_USED]`` so far). The key keeps the
fuel used in its low bits as a dominance field (``key_dominance``): a walk that has
spent less can go wherever one that has spent more can.
"""

from __future__ import annotations

from collections import deque

import numpy as np
from numba import njit

from solver.engine.contract import (APPLY_SIG, BEAM_SCORE_SIG, KEY_SIG, MOVES_SIG, PROGRESS_SIG, STAGE_SIG,
                                    TRANSIENT_SIG, WON_SIG, Kernels)

N = 24
ORDER = 1 + N * N
TRANSIENT = ORDER + 1
FUEL_USED = TRANSIENT + N
FUEL_MAX = FUEL_USED + 1
STATE_SIZE = FUEL_MAX + 1
FUEL_BITS = 3


@njit(MOVES_SIG, cache=True)
def moves(s, out):
    """The edges from the node, an edge that costs fuel only while some is left."""
    n = 0
    base = 1 + N * np.int64(s[0])
    for q in range(N):
        b = N - 1 - q if s[ORDER] else q
        if s[base + b] == 1 or (s[base + b] == 2 and s[FUEL_USED] < s[FUEL_MAX]):
            out[n] = b
            n += 1
    return n


@njit(APPLY_SIG, cache=True)
def apply(s, m):
    if s[1 + N * np.int64(s[0]) + m] == 2:
        s[FUEL_USED] += 1
    s[0] = m


@njit(KEY_SIG, cache=True)
def key(s):
    return np.uint64(s[0]) + np.uint64(1)


@njit(WON_SIG, cache=True)
def is_won(s):
    return s[0] == N - 1


@njit(PROGRESS_SIG, cache=True)
def progress(s):
    """1 at the goal, else 0 (for the restart runs' lookahead)."""
    return np.int64(s[0] == N - 1)


@njit(BEAM_SCORE_SIG, cache=True)
def beam_score(s, weighing):
    """The node's number (for the beam search: higher numbers are nearer the goal); its
    second weighing, the other way round."""
    return np.int64(s[0]) if weighing == 0 else -np.int64(s[0])


@njit(STAGE_SIG, cache=True)
def stage(s):
    """Nodes in groups of eight, the highest group stage 0 (for the staged search: a move to
    a lower group raises the stage, which such a search never follows)."""
    return np.int64((N - 1 - s[0]) // 8)


@njit(TRANSIENT_SIG, cache=True)
def transient(s):
    return s[TRANSIENT + s[0]] != 0


@njit(KEY_SIG, cache=True)
def key_fuel(s):
    """The node above the fuel used (the dominance field)."""
    return ((np.uint64(s[0]) + np.uint64(1)) << np.uint64(FUEL_BITS)) | np.uint64(s[FUEL_USED])


KERNELS = Kernels(moves=moves, apply=apply, key=key, is_won=is_won, state_size=STATE_SIZE, max_moves=N,
                  progress=progress, beam_score=beam_score)
KERNELS_STAGED = Kernels(moves=moves, apply=apply, key=key, is_won=is_won, state_size=STATE_SIZE, max_moves=N,
                         beam_score=beam_score, stage=stage)
KERNELS_TRANSIENT = Kernels(moves=moves, apply=apply, key=key, is_won=is_won, state_size=STATE_SIZE, max_moves=N,
                            progress=progress, transient=transient)
KERNELS_FUEL = Kernels(moves=moves, apply=apply, key=key_fuel, is_won=is_won, state_size=STATE_SIZE,
                       max_moves=N, progress=progress, key_dominance=lambda root: FUEL_BITS)
KERNELS_FUEL_EXACT = Kernels(moves=moves, apply=apply, key=key_fuel, is_won=is_won, state_size=STATE_SIZE,
                             max_moves=N, progress=progress)


def random_fuel_graph(rng, edges: int) -> np.ndarray:
    """A start state on a random graph whose edges cost fuel with odds one in three, and
    0 to 3 units of fuel to spend."""
    s = random_graph(rng, edges)
    for i in range(1, 1 + N * N):
        if s[i] and rng.random() < 1 / 3:
            s[i] = 2
    s[FUEL_MAX] = rng.randint(0, 3)
    return s


def goal_reachable_with_fuel(s: np.ndarray) -> bool:
    """Whether a walk from the start reaches the goal spending at most the fuel it has:
    a breadth-first walk over (node, fuel used)."""
    start = (int(s[0]), int(s[FUEL_USED]))
    seen, todo = {start}, deque([start])
    while todo:
        a, used = todo.popleft()
        if a == N - 1:
            return True
        for b in range(N):
            edge = s[1 + N * a + b]
            nxt = (b, used + 1) if edge == 2 else (b, used)
            if edge and nxt[1] <= s[FUEL_MAX] and nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return False


def random_graph(rng, edges: int) -> np.ndarray:
    """A start state on a random graph with ``edges`` edges (self-loops left out)."""
    s = np.zeros(STATE_SIZE, dtype=np.uint8)
    for _ in range(edges):
        a, b = rng.randrange(N - 1), rng.randrange(N)
        if a != b:
            s[1 + N * a + b] = 1
    return s


def mark_transient(rng, s: np.ndarray, share: float) -> None:
    """Mark about ``share`` of the nodes transient and drop the edges between two marked
    nodes, so that no path of transient states is infinite (the contract's condition)."""
    marked = [a for a in range(N) if rng.random() < share]
    for a in marked:
        s[TRANSIENT + a] = 1
        for b in marked:
            s[1 + N * a + b] = 0


def reachable(s: np.ndarray) -> set:
    """The nodes a walk from the start can reach."""
    seen, todo = {int(s[0])}, deque([int(s[0])])
    while todo:
        a = todo.popleft()
        for b in range(N):
            if s[1 + N * a + b] and b not in seen:
                seen.add(b)
                todo.append(b)
    return seen


def goal_reachable(s: np.ndarray) -> bool:
    return N - 1 in reachable(s)
