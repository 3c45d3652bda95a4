"""Golf's solver side (:class:`solver.game.Solver`): kernels, encoding, capabilities."""

from __future__ import annotations

import random

from ...game import Solver
from . import kernels as K


def symmetric(deal, rng: random.Random):
    """No rule tells Golf's piles apart: the deal with its piles in another order."""
    other = deal.copy()
    rng.shuffle(other.tableau)
    return other


SOLVER = Solver(
    kernels=K.KERNELS,
    encode=K.encode,
    decode_line=K.decode_line,
    reductions={"rank": K.REDUCE_RANK, "match": K.REDUCE_MATCH},
    symmetric=symmetric,
)
