"""Ladder's solver side (:class:`solver.game.Solver`): kernels, encoding, capabilities."""

from __future__ import annotations

import random

from ...game import Solver
from . import state as S
from .encoding import encode, encode_roots, search_settings
from .kernels import KERNELS
from .lines import decode_line
from ..twins import by_passes, relaxed_share
from .reductions import relaxed


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
    kernels=KERNELS,
    encode=encode,
    decode_line=decode_line,
    reductions={"macro": S.REDUCE_MACRO, "safe": S.REDUCE_SAFE, "lazy": S.REDUCE_LAZY, "stone": S.REDUCE_STONE,
                "arrange": S.REDUCE_ARRANGE, "deadlock": S.REDUCE_DEADLOCK, "dominance": S.REDUCE_DOMINANCE,
                "talon_dominance": S.REDUCE_TALON_DOMINANCE},
    move_orders=encode_roots,
    relaxed=relaxed,
    relaxed_lines=by_passes,
    relaxed_share=relaxed_share,
    search_settings=search_settings,
    omitted=omitted,
    symmetric=symmetric,
)
