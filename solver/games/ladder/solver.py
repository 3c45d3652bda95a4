"""Ladder's solver side (:class:`solver.game.Solver`): kernels, encoding, capabilities."""

from __future__ import annotations

import random

from ...game import Solver
from . import kernels as K


def omitted(pos, move) -> bool:
    """Reference moves the kernels never list: a move into an empty pile other than the
    first (the same table up to pile order)."""
    if move.type != "move" or not move.to.startswith("t") or pos.tableau[int(move.to[1:]) - 1]:
        return False
    first_empty = next(i for i, p in enumerate(pos.tableau) if not p)
    return int(move.to[1:]) - 1 != first_empty


def symmetric(deal, rng: random.Random):
    """The deal with its piles in another order."""
    other = deal.copy()
    rng.shuffle(other.tableau)
    return other


SOLVER = Solver(
    kernels=K.KERNELS,
    encode=K.encode,
    decode_line=K.decode_line,
    reductions={"macro": K.REDUCE_MACRO, "safe": K.REDUCE_SAFE, "lazy": K.REDUCE_LAZY, "stone": K.REDUCE_STONE,
                "arrange": K.REDUCE_ARRANGE, "deadlock": K.REDUCE_DEADLOCK, "dominance": K.REDUCE_DOMINANCE},
    move_orders=K.encode_roots,
    search_settings=K.SEARCH_OPTIONS,
    omitted=omitted,
    symmetric=symmetric,
)
