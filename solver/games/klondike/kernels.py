"""Klondike's engine kernels (:mod:`solver.engine.contract`): ``moves`` (:mod:`.generate`),
and ``apply``, the canonical ``key``, ``is_won`` and the beam search's ``beam_score``
(:mod:`.position_kernels`).

``moves`` is imported (compiled, on a first run) first. On a first run the engine's child
process compiles :mod:`.position_kernels` meanwhile (the game's ``compiled_aside``,
engine/warm.py), and this module waits for it before loading them from the cache.
"""

from __future__ import annotations

from ...engine.contract import Kernels
from ...engine.warm import compiled_aside
from ..talon_dominance import field_bits
from . import GAME
from .generate import moves
from .state import BOUNDARY_BITS, DRAW, MAX_MOVES, PASSES, REDUCE, REDUCE_MACRO, REDUCE_MORE, STATE_SIZE

compiled_aside(*GAME.compiled_aside)   # position_kernels
from .position_kernels import apply, beam_score, is_won, key, settle  # noqa: E402 (after the wait above)

__all__ = ["KERNELS", "apply", "beam_score", "is_won", "key", "key_dominance", "moves", "settle"]


def key_dominance(root) -> int:
    """The bits of ``key``'s dominance field for a search from ``root`` (REDUCE_TALON_DOMINANCE:
    the passes used, then with one card a draw the boundary; with unlimited passes and
    three cards a draw the boundary's place in its chain; games/talon_dominance.py)."""
    if not root[REDUCE_MORE] & 1 or not root[REDUCE] & REDUCE_MACRO:
        return 0
    return field_bits(int(root[PASSES]), root[DRAW] == 1, BOUNDARY_BITS)


KERNELS = Kernels(moves=moves, apply=apply, key=key, is_won=is_won, state_size=STATE_SIZE,
                  max_moves=MAX_MOVES, beam_score=beam_score, key_dominance=key_dominance)
