"""A Ladder deal as a kernel state, once per move order, and the search settings."""

from __future__ import annotations

import numpy as np

from ...deals import Deal
from .reductions import _doomed
from .state import (DOOMED, FOUND, LADDER, LADDER_CAP, LADDER_LEN, LEN, N_ORDERS, N_PILES, ORDER,
                    ORDER_FOUNDATION_FIRST, ORDER_LADDER_FIRST, ORDER_LADDER_HIGH_FIRST, ORDER_LADDER_SCRAMBLED, PASSES,
                    PASSES_USED, PILE_CAP, PILES, REDUCE, REDUCE_ALL, REDUCE_DEADLOCK, STATE_SIZE, TALON, TALON_CAP,
                    TALON_LEN, WASTE_LEN)

# orders 4, 5, 6: ORDER_LADDER_SCRAMBLED with other pseudo-random card orders (the engine's
# table has flags for seven searches). Search time on hard won deals is heavy-tailed in the
# order: alone, order 6 wins seed 580 in 29,000 nodes and 579 in 119,000, where the first
# four took 18M and 12M nodes in turns; easy deals are won by the first order in its
# first turn, and deals the 2nd-4th orders win cost up to 7/4 as many nodes as before
# (seeds 1-200: 1.3M nodes in all to 2.1M)
ROOT_ORDERS = (ORDER_LADDER_FIRST, ORDER_FOUNDATION_FIRST, ORDER_LADDER_HIGH_FIRST, ORDER_LADDER_SCRAMBLED, 4, 5, 6)
assert sorted(ROOT_ORDERS) == list(range(N_ORDERS))
# With the orders, one randomised restart run (engine/restarts.py) takes most of the nodes
# (turns: see SEARCH_OPTIONS); every other restart looks two moves ahead for progress
# (below). Stop 16, with turns of 280,000 nodes (two thirds), on the 39 hardest deals of
# seeds 1-10000 (6M nodes each): 23 unknown, 165M nodes in all, against 27 and 189M with
# turns of 140,000 and no lookahead; the lost deals 581, 8455 and 5286 took 9 % more nodes
# (13.4M -> 14.6M) -- the restart run's clean marks carry much of their proof. Alone,
# restarts that all look ahead won 469 in 1.4M-3.6M nodes (three random seeds; never in 8M
# without) but 868 in one seed of three.
# Stop 15's measurements, turns of 140,000 nodes, half of all nodes: 8 of the 10 deals of
# seeds 1-1000 the orders left unknown at 10 s (9M-13M nodes) are won in 20,000-2.8M nodes
# in all (868: 2.8M; 469: 19M), and of the 28 deals that took over 100,000 nodes at stop
# 14 most are won in the restart run's first turn (about 20,000 nodes). A lost deal costs
# no more: what the restart run proves dead the orders skip (581: 10,929,027 nodes to
# 11,003,051). Its settings: a restart after 1,000 nodes times a Luby term, the first move
# taken 75 % of the time. On those eight deals alone, 65-90 % and units of 1,000-3,000 did
# about as well (the means are heavy-tailed: one deal makes most of each), 50 % and fixed
# restarts of 30,000-100,000 nodes did worse. (Measured before REDUCE_DOMINANCE; with it
# the 28 deals take 11.7M nodes in all, 581 5.4M, but 868 moved: 6.2M-12M+ in four
# settings.)
# Stop 17: turns of 1,120,000 nodes, 89 % of all nodes. The depth-first orders win none of
# the hard won deals; what they prove, the restart run's clean marks mostly prove too: the
# lost deals 581 and 8455 took 4.84M and 4.65M nodes with turns of 280,000, 5.41M and
# 5.19M with these (5.59M and 5.38M with turns of 2.24M). Eight random seeds each, 16M
# nodes: 469 won in 6 either way, 868 in 6, not 4 (both in 4 seeds, not 3).
SEARCH_OPTIONS = {"restarts": 1, "restart_turn": 1_120_000, "restart_unit": 1000, "restart_keep": 75,
                  "restart_look": 2}


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
