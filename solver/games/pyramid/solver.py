"""Pyramid's solver side (:class:`solver.game.Solver`): kernels, encoding, capabilities."""

from __future__ import annotations

from ...game import FewestMoves, Solver
from . import kernels as K

SOLVER = Solver(
    kernels=K.KERNELS,
    encode=K.encode,
    decode_line=K.decode_line,
    reductions={"macro": K.REDUCE_MACRO, "king": K.REDUCE_KING, "pair": K.REDUCE_PAIR, "dead": K.REDUCE_DEAD,
                "bury": K.REDUCE_BURY, "relax": K.REDUCE_RELAX},
    fewest_moves=FewestMoves(reduce=K.FEWEST_MOVES_REDUCE, move_cost=K.move_cost, moves_left=K.moves_left),
)
