"""Ladder's engine kernels (:mod:`solver.engine.contract`): ``moves`` (:mod:`.generate`),
and ``apply``, the canonical ``key``, ``is_won`` and the optional dominance, progress,
transient, beam-score and stage kernels (:mod:`.position_kernels`).

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
from .state import BOUNDARY_BITS, MAX_MOVES, PASSES, REDUCE, STATE_SIZE

compiled_aside(*GAME.compiled_aside)   # position_kernels
from .position_kernels import (TALON_FIELD_FLAGS, apply, beam_score, dominance_group,  # noqa: E402 (after the wait)
                               dominance_vector, is_won, key, progress, stage, transient)

__all__ = ["KERNELS", "apply", "beam_score", "dominance_group", "dominance_vector", "is_won", "key", "key_dominance",
           "moves", "progress", "stage", "transient"]


def key_dominance(root) -> int:
    """The bits of ``key``'s dominance field for a search from ``root`` (REDUCE_TALON_DOMINANCE:
    the passes used, then the boundary; games/talon_dominance.py)."""
    if (root[REDUCE] & TALON_FIELD_FLAGS) != TALON_FIELD_FLAGS:
        return 0
    return field_bits(int(root[PASSES]), True, BOUNDARY_BITS)


KERNELS = Kernels(moves=moves, apply=apply, key=key, is_won=is_won, state_size=STATE_SIZE,
                  max_moves=MAX_MOVES, dominance_group=dominance_group, dominance_vector=dominance_vector,
                  progress=progress, transient=transient, beam_score=beam_score, key_dominance=key_dominance,
                  stage=stage)

