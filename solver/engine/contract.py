"""The only interface between a game and the engine.

A game's state is a flat ``uint8`` array of a fixed size (the game chooses the
layout, options included, so kernels need no other input). A move is an
``int32`` whose meaning only the game knows. A game provides four kernels,
compiled with exactly these signatures so that the engine can take them as
first-class function values (see docs/architecture.md: one compiled, cached engine
serves every game):

``moves(state, out) -> n``
    Write the moves worth trying into ``out[:n]``, best first. A game may
    return a single move when a provably safe move exists (a forced move):
    the engine then does not branch there. Must not exceed ``max_moves``.
``apply(state, move)``
    Play ``move`` on ``state`` in place.
``key(state) -> uint64``
    A 64-bit hash of the *canonical* form of the state (symmetric states,
    e.g. permuted interchangeable piles, must give the same key); never 0 is
    not required, the table remaps 0.
``is_won(state) -> bool``

A game may also provide a *dominance* pair, ``dominance_group(state) -> uint64`` and
``dominance_vector(state) -> uint64``: when two states have the same non-zero group
and every 4-bit field of one's vector is at most the other's, the first reaches
the second (so if the second can be won, so can the first). The engine then skips
a new state whose group holds a finished state with a vector at most its own.
Group 0 means "no dominance for this state" (the default kernels return 0).

A game may instead (or also) keep a dominance field in its key: ``key_dominance(root)``,
a plain Python function called once per search, gives the number of low bits of
``key`` (at most ``table.MAX_DOMINANCE_BITS``; 0, the default, for none) that hold it
for the states searched from ``root``. When two keys are equal above those bits and the
first's field is at most the second's, the first state can win wherever the second can.
The engine then skips a new state when such a first state is finished, as it does with
the dominance pair. It costs no probe of its own: the keys of one position share a
home in the table, so the probe for the new state passes them. The price is in the
hash: a key keeps 64 minus that many bits to tell positions apart.

A game may also provide ``progress(state) -> int64``, a score of how far a state has
come (Ladder: cards dug out of the ladder, then empty piles). Restart runs with a
lookahead (``restart_look``, :mod:`solver.engine.restarts`) then prefer a first move
from which the score rises within that many moves. It only orders moves.

A game may also provide ``beam_score(state, weighing) -> int64``, how promising a state
looks (higher is better), for the beam search (:mod:`solver.engine.beam`), which a game's
search settings turn on with ``beam_width``. ``weighing`` (0, 1, ...) picks one of the
game's ways of weighing a state: a beam that runs out of states starts again from the
root with the next, up to the search's ``beam_weighings`` (a game with one ignores it).
The best-first search (:mod:`solver.engine.best_first`, ``best_first_queue``) orders
its queue by weighing 0. It only chooses which states these searches keep: the verdicts
do not depend on it.

A game may also provide ``stage(state) -> int64``, a count (0 or more) that no move
raises (Ladder with limited passes: the passes left, then the stock cards left), for the
staged search (:mod:`solver.engine.staged`, ``staged_width``): it searches stage by
stage, each from the best states that entered it by ``beam_score``. The default puts
every state in stage 0.

A game may also provide ``transient(state) -> bool``: true for a state the search
passes through without storing it. Every path of transient states must be finite (no
cycle of them): the search expands such a state each time it reaches it, with no
table probe to stop it. Worth it for states that are many and seldom reached twice
(Ladder: the position right after a stepping stone, whose next move must put a card
onto the stone). The default says never.

A game that offers lines with the fewest moves (:mod:`solver.engine.shortest`)
also provides ``move_cost(state, move) -> int64``, the player moves a kernel
move stands for in ``state``, and ``moves_left(state) -> int64``, a lower bound
on the player moves a winning line from ``state`` still needs.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property
from typing import Callable

import numpy as np
from numba import njit, types
from numba.core.types.function_type import CompileResultWAP

STATE = types.uint8[::1]
MOVES = types.int32[::1]
MOVE_LISTS = types.int32[:, ::1]        # a move list per depth of a run
CHILD_STATES = types.uint8[:, :, ::1]   # a state's children per depth of a run

MOVES_SIG = types.int64(STATE, MOVES)
APPLY_SIG = types.void(STATE, types.int32)
KEY_SIG = types.uint64(STATE)
WON_SIG = types.boolean(STATE)
COST_SIG = types.int64(STATE, types.int32)   # optional: player moves a kernel move stands for
ESTIMATE_SIG = types.int64(STATE)             # optional: a lower bound on the moves still needed
DOMINANCE_SIG = types.uint64(STATE)           # optional: dominance_group and dominance_vector
PROGRESS_SIG = types.int64(STATE)             # optional: progress, for the restart runs' lookahead
BEAM_SCORE_SIG = types.int64(STATE, types.int64)   # optional: beam_score(state, weighing), for the beam search
TRANSIENT_SIG = types.boolean(STATE)          # optional: a state the search does not store
STAGE_SIG = types.int64(STATE)                # optional: stage, a count no move raises (the staged search)

MovesFn = types.FunctionType(MOVES_SIG)
ApplyFn = types.FunctionType(APPLY_SIG)
KeyFn = types.FunctionType(KEY_SIG)
WonFn = types.FunctionType(WON_SIG)
CostFn = types.FunctionType(COST_SIG)
EstimateFn = types.FunctionType(ESTIMATE_SIG)
DominanceFn = types.FunctionType(DOMINANCE_SIG)
ProgressFn = types.FunctionType(PROGRESS_SIG)
BeamScoreFn = types.FunctionType(BEAM_SCORE_SIG)
TransientFn = types.FunctionType(TRANSIENT_SIG)
StageFn = types.FunctionType(STAGE_SIG)


def kernel(signature):
    """The decorator of a kernel (a function of :class:`Kernels`): compiled for the contract's
    ``signature``, cached, and without Numba's reference counting (NRT). The engine calls
    kernels once or more per node and owns every array it passes them, so a kernel needs
    no count of its own; with one, each call counted its array arguments up on entry and
    down on every return (an atomic add each), a large share of a node's time
    (benchmarks/results.md). A kernel therefore allocates no array: Numba refuses to
    compile one that does."""
    return njit(signature, cache=True, _nrt=False)


@kernel(DOMINANCE_SIG)
def no_dominance(s):
    """The default dominance kernels: no state dominates another."""
    return np.uint64(0)


def no_key_dominance(root) -> int:
    """The default ``key_dominance``: no bits of the key hold a dominance field."""
    return 0


@kernel(PROGRESS_SIG)
def no_progress(s):
    """The default progress kernel: every state scores the same (a lookahead finds nothing)."""
    return np.int64(0)


@kernel(BEAM_SCORE_SIG)
def unscored(s, weighing):
    """The default beam score: none (a game without one cannot run the beam search)."""
    return np.int64(0)


@kernel(STAGE_SIG)
def unstaged(s):
    """The default stage kernel: one stage for every state (a game without one cannot run the
    staged search)."""
    return np.int64(0)


@kernel(TRANSIENT_SIG)
def never_transient(s):
    """The default transient kernel: the search stores every state."""
    return False


@dataclass(frozen=True)
class Kernels:
    """A game's compiled kernels and the sizes the engine allocates for."""

    moves: Callable
    apply: Callable
    key: Callable
    is_won: Callable
    state_size: int
    max_moves: int
    dominance_group: Callable = no_dominance
    dominance_vector: Callable = no_dominance
    progress: Callable = no_progress
    transient: Callable = never_transient
    beam_score: Callable = unscored
    key_dominance: Callable = no_key_dominance
    stage: Callable = unstaged

    @property
    def has_dominance(self) -> bool:
        return self.dominance_group is not no_dominance

    @property
    def has_beam_score(self) -> bool:
        return self.beam_score is not unscored

    @property
    def has_stage(self) -> bool:
        return self.stage is not unstaged

    @cached_property
    def dominance(self) -> tuple:
        """``(dominance_group, dominance_vector)`` as the engine's compiled loops take them."""
        return (compiled(self.dominance_group, DOMINANCE_SIG), compiled(self.dominance_vector, DOMINANCE_SIG))

    @cached_property
    def compiled_progress(self):
        return compiled(self.progress, PROGRESS_SIG)

    @cached_property
    def compiled_beam_score(self):
        return compiled(self.beam_score, BEAM_SCORE_SIG)

    @cached_property
    def compiled_stage(self):
        return compiled(self.stage, STAGE_SIG)

    @cached_property
    def compiled_transient(self):
        return compiled(self.transient, TRANSIENT_SIG)

    @cached_property
    def compiled(self) -> tuple:
        """``(moves, apply, key, is_won)`` as the engine's compiled loops take them."""
        return (compiled(self.moves, MOVES_SIG), compiled(self.apply, APPLY_SIG), compiled(self.key, KEY_SIG),
                compiled(self.is_won, WON_SIG))


@cache
def compiled(kernel, signature):
    """``kernel`` (a dispatcher compiled for ``signature``) as a first-class function value
    whose machine-code address is looked up once.

    Given a dispatcher, Numba looks its address up again on every call into the
    engine, a large share of a short solve (benchmarks/results.md). The value calls
    the same compiled code (through
    its C wrapper; nodes per second are unchanged), and the engine's compiled loop
    sees the same function type, so its cache is the same.
    """
    return CompileResultWAP(kernel.get_compile_result(signature))


@njit(inline="always")
def mix64(x):
    """SplitMix64's finaliser: spreads a uint64 so that sums and table slots of
    hashed game parts stay well distributed (shared by the games' key kernels)."""
    x ^= x >> np.uint64(30)
    x *= np.uint64(0xBF58476D1CE4E5B9)
    x ^= x >> np.uint64(27)
    x *= np.uint64(0x94D049BB133111EB)
    x ^= x >> np.uint64(31)
    return x


CHAIN = np.uint64(0x100000001B3)          # the byte chain's multiplier (FNV-1a's prime)
CHAIN_POWERS = np.array([pow(int(CHAIN), k, 1 << 64) for k in range(64)], dtype=np.uint64)   # modulo 2**64
CHAIN2, CHAIN3, CHAIN4 = CHAIN_POWERS[2], CHAIN_POWERS[3], CHAIN_POWERS[4]
CHAIN_INVERSE = np.uint64(pow(int(CHAIN), -1, 1 << 64))   # CHAIN * CHAIN_INVERSE = 1 modulo 2**64


@njit(inline="always")
def chain_bytes(h, s, start, n):
    """``h`` extended by ``n`` bytes of ``s`` from ``start`` as ``h = h * CHAIN + byte + 1``
    one byte after another (shared by the games' key kernels), computed four bytes a
    step as ``h * CHAIN**4 + ...``: the same value modulo 2**64, with one multiply on the
    chain of dependent ones per four bytes instead of one per byte."""
    q = start
    end = start + n
    while q + 4 <= end:
        h = (h * CHAIN4 + np.uint64(s[q] + 1) * CHAIN3 + np.uint64(s[q + 1] + 1) * CHAIN2
             + np.uint64(s[q + 2] + 1) * CHAIN + np.uint64(s[q + 3] + 1))
        q += 4
    while q < end:
        h = h * CHAIN + np.uint64(s[q] + 1)
        q += 1
    return h


@njit(inline="always")
def chain_on(h, n, kept):
    """:func:`chain_bytes` of ``h`` and ``n`` bytes whose chain from 0 is ``kept``: the
    chain is linear in its start, ``h * CHAIN**n`` plus the bytes' chain from 0, so a
    state may keep the chain of a part from 0 and serve any start (``n`` below 64)."""
    return h * CHAIN_POWERS[n] + kept


def chained(cards) -> int:
    """:func:`chain_bytes` of ``cards`` from 0, in Python (a state a game encodes in Python
    keeps a part's chain without compiling anything)."""
    h = 0
    for c in cards:
        h = (h * int(CHAIN) + int(c) + 1) % (1 << 64)
    return h


def word_bytes(v: int) -> np.ndarray:
    """``v`` as the 8 bytes :func:`load64` reads back, low byte first (in Python)."""
    return np.frombuffer(v.to_bytes(8, "little"), dtype=np.uint8)


@njit(inline="always")
def load64(s, at):
    """The 8 bytes of state ``s`` from ``at``, low byte first (a word a game keeps in its state)."""
    v = np.uint64(0)
    for q in range(8):
        v |= np.uint64(s[at + q]) << np.uint64(8 * q)
    return v


@njit(inline="always")
def store64(s, at, v):
    """:func:`load64`'s inverse: ``v`` into the 8 bytes of ``s`` from ``at``."""
    for q in range(8):
        s[at + q] = np.uint8((v >> np.uint64(8 * q)) & np.uint64(255))


@njit(inline="always")
def copy_state(dst, src):
    """``dst[:] = src`` for two states of one size, as a plain loop: Numba's slice
    assignment checks shapes and broadcasting on every call, which costs more than the
    copy itself, once per node."""
    for q in range(src.shape[0]):
        dst[q] = src[q]


@njit(inline="always")
def swap_states(a, b):
    """Exchange two states of one size, byte by byte (no third row needed)."""
    for q in range(a.shape[0]):
        t = a[q]
        a[q] = b[q]
        b[q] = t


def mix64_int(x: int) -> int:
    """:func:`mix64` on a Python int (for tables and seeds made outside compiled code)."""
    x %= 2 ** 64
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9 % 2 ** 64
    x = (x ^ (x >> 27)) * 0x94D049BB133111EB % 2 ** 64
    return x ^ (x >> 31)
