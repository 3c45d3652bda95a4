"""Klondike's solver side (:class:`solver.game.Solver`): kernels, encoding, capabilities."""

from __future__ import annotations

import random

from ...game import Solver
from . import state as S
from .encoding import encode, encode_roots, open_state
from .kernels import KERNELS, settle
from .lines import decode_line
from ..twins import by_passes, relaxed_share
from .reductions import relaxed


def omitted(pos, move) -> bool:
    """Reference moves the kernels never list: a King into an empty pile other than the
    first (the same table up to pile order), and a King already at the bottom of its pile
    (or the waste's) moving into an empty pile only to rename the pile."""
    if move.type != "move" or not move.to.startswith("t") or pos.tableau[int(move.to[1:]) - 1]:
        return False
    first_empty = next(i for i, p in enumerate(pos.tableau) if not p)
    if int(move.to[1:]) - 1 != first_empty:
        return True
    if move.from_.startswith("t"):
        return pos.tableau[int(move.from_[1:]) - 1].index(move.card) == 0
    return False


def symmetric(deal, rng: random.Random):
    """The deal with its piles in another order (each with its face-down count)."""
    order = list(range(len(deal.tableau)))
    rng.shuffle(order)
    other = deal.copy()
    other.tableau = [list(deal.tableau[i]) for i in order]
    other.face_down = [deal.face_down[i] for i in order]
    return other


# A deal with limited passes whose twin with unlimited passes is won only by lines that redeal
# more often than the deal allows: it is searched for another line by a randomised restart run,
# a beam search and a best-first search (engine/restarts.py, engine/beam.py,
# engine/best_first.py) beside the two depth-first orders; each finds wins a depth-first
# search reaches late. The best-first search has one round of 1M nodes: its wins come early,
# and every node it takes is one less for the restart run's and the beam's late wins. The
# restart run leaves after 4M nodes: it takes most of the nodes while it runs, and the
# deals still undecided by then are mostly lost, which only the depth-first orders prove
# (its finished states stay finished and serve them).
# (What the settings were chosen from: benchmarks/results.md.)
LIKELY_WON_SEARCH = {"restarts": 1, "restart_turn": 200_000, "restart_unit": 1000, "restart_keep": 50,
                     "restart_nodes": 4_000_000, "beam_width": 16_000, "best_first_queue": 100_000,
                     "best_first_round": 1_000_000, "best_first_depth_weights": (0,)}
# With fewer passes (draw 1, two or three) the twin's lines redeal too often whether the deal
# is won or lost, so such a twin is no sign of a won deal, and the side runs would only take
# time from the proof of a lost one: the deal's own search stays as it is (benchmarks/results.md).
LIKELY_WON_PASSES = 4


def likely_won_settings(options: dict) -> dict:
    """The settings added to the own search of a deal whose twin was won by a line it does not allow."""
    passes = options.get("passes")
    return LIKELY_WON_SEARCH if passes is None or passes >= LIKELY_WON_PASSES else {}


SOLVER = Solver(
    kernels=KERNELS,
    encode=encode,
    decode_line=decode_line,
    reductions={"macro": S.REDUCE_MACRO, "safe": S.REDUCE_SAFE, "layout": S.REDUCE_LAYOUT,
                "deadlock": S.REDUCE_DEADLOCK, "stone": S.REDUCE_STONE, "lazy": S.REDUCE_LAZY,
                "empty": S.REDUCE_EMPTY, "safe_talon": S.REDUCE_SAFE_TALON,
                "talon_dominance": S.REDUCE_TALON_DOMINANCE},
    move_orders=encode_roots,
    relaxed=relaxed,
    relaxed_lines=by_passes,
    relaxed_share=relaxed_share,
    likely_won_settings=likely_won_settings,
    omitted=omitted,
    symmetric=symmetric,
    open_state=open_state,
    settle=settle,
)
