"""A toy game for the engine's tests: walk a directed graph to its last node.

The graph lives in the state, so one compiled set of kernels serves any graph:
``state[0]`` is the node the walk stands on, ``state[1 + N * a + b]`` is 1 when
the graph has an edge a -> b (``N`` nodes at most). Node ``N - 1`` is the goal.
Then a byte for the move order (0: lowest node first, 1: highest), left out of the
key, as a game's several move orders are, and one byte per node: 1 marks it
*transient* (the engine does not store it; :data:`KERNELS_TRANSIENT` reads the mark).
Winnable means the goal is reachable, which a plain breadth-first walk decides:
the engine's verdicts are checked against that on random graphs full of cycles.
"""

from __future__ import annotations

from collections import deque

import numpy as np
from numba import njit

from solver.engine.contract import APPLY_SIG, BEAM_SCORE_SIG, KEY_SIG, MOVES_SIG, PROGRESS_SIG, TRANSIENT_SIG, WON_SIG, Kernels

N = 24
ORDER = 1 + N * N
TRANSIENT = ORDER + 1
STATE_SIZE = TRANSIENT + N


@njit(MOVES_SIG, cache=True)
def moves(s, out):
    n = 0
    base = 1 + N * np.int64(s[0])
    for q in range(N):
        b = N - 1 - q if s[ORDER] else q
        if s[base + b]:
            out[n] = b
            n += 1
    return n


@njit(APPLY_SIG, cache=True)
def apply(s, m):
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


@njit(TRANSIENT_SIG, cache=True)
def transient(s):
    return s[TRANSIENT + s[0]] != 0


KERNELS = Kernels(moves=moves, apply=apply, key=key, is_won=is_won, state_size=STATE_SIZE, max_moves=N,
                  progress=progress, beam_score=beam_score)
KERNELS_TRANSIENT = Kernels(moves=moves, apply=apply, key=key, is_won=is_won, state_size=STATE_SIZE, max_moves=N,
                            progress=progress, transient=transient)


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
