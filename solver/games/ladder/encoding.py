"""A Ladder deal as a kernel state, once per move order, and the search settings."""

from __future__ import annotations

import numpy as np

from ...deals import Deal
from ...engine.contract import chained, word_bytes
from .reductions import _doomed
from .state import (CHAINS, DOOMED, FOUND, LADDER, LADDER_CAP, LADDER_LEN, LEN, N_ORDERS, N_PILES, ORDER,
                    ORDER_FOUNDATION_FIRST, ORDER_LADDER_FIRST, ORDER_LADDER_HIGH_FIRST, ORDER_LADDER_SCRAMBLED,
                    PASSES, PASSES_USED, PILES, PILE_CAP, REDUCE, REDUCE_ALL, REDUCE_DEADLOCK, RUNS, STATE_SIZE,
                    TALON, TALON_CAP, TALON_CHAIN, TALON_LEN, WASTE_LEN, _built_from, _set_pile_terms, _set_run_cards)

# orders 4, 5, 6: ORDER_LADDER_SCRAMBLED with other pseudo-random card orders (the engine's
# table has flags for seven searches). Search time on hard won deals is heavy-tailed in the
# order, while easy deals are won by the first order in its first turn.
ROOT_ORDERS = (ORDER_LADDER_FIRST, ORDER_FOUNDATION_FIRST, ORDER_LADDER_HIGH_FIRST, ORDER_LADDER_SCRAMBLED, 4, 5, 6)
assert sorted(ROOT_ORDERS) == list(range(N_ORDERS))
# With the orders, one randomised restart run (engine/restarts.py) takes most of the nodes:
# the depth-first orders reach the lines of hard won deals late, and what they prove on
# lost deals the restart run's clean marks mostly prove too; every other restart looks two
# moves ahead for progress. Its settings: a restart after 1,000 nodes times a Luby term,
# the first move taken 75 % of the time. A beam search of 2,000 states (engine/beam.py)
# takes turns beside them: it reaches early the wins that every dive of theirs reaches
# late. (What the settings were chosen from: the Ladder sections of benchmarks/results.md.)
SEARCH_OPTIONS = {"restarts": 1, "restart_turn": 1_120_000, "restart_unit": 1000, "restart_keep": 75,
                  "restart_look": 2, "beam_width": 2000}
# With limited passes the game's first move is a better guide: its move order plays the
# talon cards that bury none before those that do (generate._move_label), and the restarts
# that keep to it, with no lookahead, win more deals in the same nodes. When a choice does
# not take the first move it takes one near it (``restart_near``): a move drawn alike from
# all of them is mostly a talon card that buries many. (What the settings were chosen
# from: the Ladder limited-pass sections of benchmarks/results.md.)
LIMITED_PASSES_SEARCH_OPTIONS = {**SEARCH_OPTIONS, "restart_keep": 75, "restart_near": True, "restart_look": 0}
# With one pass a beam that runs out of states starts again weighed otherwise, three
# times (beam_score's weighings 1, 2 and 3): each wins deals the others leave. A
# best-first search (engine/best_first.py) of 100,000 states takes turns after the beam,
# in four rounds of 2M nodes with depth weights 0 to 3: the beam must fill each level with
# states that drew as many cards as the others, the best-first search goes on from the
# best position at any depth, and wins other deals. With two passes the extra weighings,
# and the best-first search, won no more deals than the restart run's late wins they took
# the time of.
# Last, a staged search (engine/staged.py) with pools of 500 states, one round of at most
# 2M nodes per weighing: it goes through the stock card by card, each stage explored
# through from the best ways into it, and wins deals all the others leave. With two
# passes it wins more deals than the restart run's late wins it takes the time of (the
# extra weighings and the best-first search did not). Not with more passes: that is not
# measured, and it keeps a pool for every stock card of every pass.
# With one and two passes, a level of the beam keeps at most four children of one state
# (``beam_siblings``), so that it holds the lines of many states, not near-copies of a
# few: the beam then wins deals the portfolio left undecided, while the portfolio's turns
# shift and it loses some won near the limit. With unlimited passes it lost a deal the
# beam wins without the limit, so it is not set there. (benchmarks/results.md.)
ONE_PASS_SEARCH_OPTIONS = {**LIMITED_PASSES_SEARCH_OPTIONS, "beam_weighings": 4, "beam_siblings": 4,
                           "best_first_queue": 100_000,
                           "best_first_round": 2_000_000, "best_first_depth_weights": (0, 1, 2, 3),
                           "staged_width": 500, "staged_round": 2_000_000, "staged_weighings": (0, 1, 2)}
TWO_PASSES_SEARCH_OPTIONS = {**LIMITED_PASSES_SEARCH_OPTIONS, "beam_siblings": 4,
                             "staged_width": 500, "staged_round": 2_000_000, "staged_weighings": (0, 1, 2)}


def search_settings(options: dict) -> dict:
    """The search settings for a deal with these options (:attr:`solver.game.Solver.search_settings`)."""
    passes = options.get("passes")
    if passes is None:
        return SEARCH_OPTIONS
    if passes == 1:
        return ONE_PASS_SEARCH_OPTIONS
    return TWO_PASSES_SEARCH_OPTIONS if passes == 2 else LIMITED_PASSES_SEARCH_OPTIONS


def encode(deal: Deal, reduce: int = REDUCE_ALL) -> np.ndarray:
    s = np.zeros(STATE_SIZE, dtype=np.uint8)
    passes = deal.options.get("passes")
    s[PASSES] = 0 if passes is None else min(passes, 255)
    s[PASSES_USED] = deal.passes_used if passes is not None else 0
    talon = list(deal.waste) + list(deal.stock)
    if len(talon) > TALON_CAP or len(deal.ladder) > LADDER_CAP:
        raise ValueError("stock, waste or ladder too large for the kernels")
    s[TALON_LEN] = len(talon)
    s[WASTE_LEN] = len(deal.waste)
    s[TALON:TALON + len(talon)] = talon
    s[LADDER_LEN] = len(deal.ladder)
    s[LADDER:LADDER + len(deal.ladder)] = deal.ladder
    heights: list[list[int]] = [[] for _ in range(4)]
    for pile in deal.foundations:
        if pile:
            heights[pile[0] // 13].append(len(pile))
    for suit, hs in enumerate(heights):
        hs = sorted(hs, reverse=True) + [0, 0]
        if len(hs) > 4:
            raise ValueError("more than two foundations of one suit")
        s[FOUND + 2 * suit], s[FOUND + 2 * suit + 1] = hs[0], hs[1]
    if len(deal.tableau) != N_PILES:
        raise ValueError(f"Ladder has {N_PILES} piles")
    for i, pile in enumerate(deal.tableau):
        # a pile cut down to k cards can grow by rank(top) - 1 cards; an emptied one to 13
        tallest = max([len(pile)] + [k + pile[k - 1] % 13 for k in range(1, len(pile) + 1)])
        if tallest > PILE_CAP:
            raise ValueError(f"pile t{i + 1} could grow too tall for the kernels")
        s[LEN + i] = len(pile)
        s[PILES + i * PILE_CAP:PILES + i * PILE_CAP + len(pile)] = pile
        s[RUNS + i] = _built_from(s, PILES + i * PILE_CAP, len(pile)) if pile else 0
        s[CHAINS + 8 * i:CHAINS + 8 * i + 8] = word_bytes(chained(pile))
        _set_run_cards(s, i)
    s[TALON_CHAIN:TALON_CHAIN + 8] = word_bytes(chained(talon))
    _set_pile_terms(s)
    s[REDUCE] = reduce
    if reduce & REDUCE_DEADLOCK:
        s[DOOMED] = _doomed(s)
    return s


def encode_roots(deal: Deal) -> list[np.ndarray]:
    """The deal's state under each of :data:`ROOT_ORDERS` (searched in turns by engine/search.py)."""
    roots = []
    for order in ROOT_ORDERS:
        s = encode(deal)
        s[ORDER] = order
        roots.append(s)
    return roots
