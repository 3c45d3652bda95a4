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
    """The deal with the piles no deal can reach in another order: a deal reaches only the
    piles below the number of stock cards left, and a refill whichever pile was emptied,
    so the piles from there on are alike (all of them once the stock is out)."""
    other = deal.copy()
    reached = min(len(deal.stock), len(deal.tableau))
    tail = other.tableau[reached:]
    rng.shuffle(tail)
    other.tableau[reached:] = tail
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
