"""Twenty's solver side (:class:`solver.game.Solver`): kernels, encoding, capabilities."""

from __future__ import annotations

import random

from ...game import Solver
from . import kernels as K


def omitted(pos, move) -> bool:
    """Reference moves the kernels never list: a pile's only card onto an empty pile, and
    any move onto an empty pile but the first (the same table up to pile order: only
    once the stock is out may a card go onto an empty pile, and then piles are alike)."""
    if move.type != "move" or not move.to.startswith("t"):
        return False
    if len(pos.tableau[int(move.from_[1:]) - 1]) == 1:
        return True
    first_empty = next(i for i, p in enumerate(pos.tableau) if not p)
    return int(move.to[1:]) - 1 != first_empty


def symmetric(deal, rng: random.Random):
    """With the stock out the piles are alike: the deal with its piles in another order.
    Before that deals and refills tell them apart, and only the deal itself is alike."""
    other = deal.copy()
    if not deal.stock:
        rng.shuffle(other.tableau)
    return other


# A randomised restart run (engine/restarts.py) takes turns with the depth-first search, as
# many nodes each: it wins some deals the depth-first order reaches late, and its marks of
# finished states serve the proofs of lost deals nearly as well as the search's own (what
# it was chosen from: benchmarks/results.md).
TWENTY_SEARCH = {"restarts": 1, "restart_turn": 20_000, "restart_keep": 50}


SOLVER = Solver(
    kernels=K.KERNELS,
    encode=K.encode,
    decode_line=K.decode_line,
    reductions={"safe": K.REDUCE_SAFE, "use": K.REDUCE_USE, "por": K.REDUCE_POR,
                "deadlock": K.REDUCE_DEADLOCK},
    omitted=omitted,
    symmetric=symmetric,
    search_settings=lambda options: TWENTY_SEARCH,
)
