"""A Klondike deal as a kernel state, once per move order."""

from __future__ import annotations

import numpy as np

from ...deals import Deal
from ...engine.contract import chained, mix64_int, word_bytes
from .reductions import _doomed
from .state import (DOOMED, DOWN, DRAW, F2T, FOUND, LEN, LIFT, NO_STONE, ORDER, PASSES, PASSES_USED, PILE_CAP,
                    PILE_TERMS, PILES, RECHECK, REDUCE, REDUCE_ALL, REDUCE_DEADLOCK, REDUCE_MORE, STATE_SIZE, STONE,
                    TALON, TALON_CHAIN, TALON_LEN, WASTE_LEN)

# Move orders per deal (encode_roots). With unlimited passes, six orders instead of two
# find the wins of slow won deals with far fewer nodes, for the same nodes on lost deals;
# with a limited number of passes more orders cost nodes, so those keep two
# (benchmarks/results.md).
ORDERS_UNLIMITED_PASSES, ORDERS_LIMITED_PASSES = 6, 2


def encode(deal: Deal, reduce: int = REDUCE_ALL) -> np.ndarray:
    s = np.zeros(STATE_SIZE, dtype=np.uint8)
    opts = deal.options
    s[DRAW] = opts["draw"]
    s[PASSES] = 0 if opts["passes"] is None else min(opts["passes"], 255)
    s[F2T] = 1 if opts["foundation_to_tableau"] else 0
    s[PASSES_USED] = deal.passes_used if opts["passes"] is not None else 0
    talon = list(deal.waste) + list(deal.stock)
    if len(talon) > PILES - TALON:
        raise ValueError(f"{len(talon)} cards in the stock and waste: a Klondike talon holds at most 24")
    s[TALON_LEN] = len(talon)
    s[WASTE_LEN] = len(deal.waste)
    s[TALON:TALON + len(talon)] = talon
    for f, pile in enumerate(deal.foundations):
        s[FOUND + f] = len(pile)
    for i, pile in enumerate(deal.tableau):
        if len(pile) > PILE_CAP:
            raise ValueError(f"pile t{i + 1} is too tall for the kernels")
        s[LEN + i] = len(pile)
        s[DOWN + i] = deal.face_down[i]
        s[PILES + i * PILE_CAP:PILES + i * PILE_CAP + len(pile)] = pile
        s[PILE_TERMS + 8 * i:PILE_TERMS + 8 * i + 8] = word_bytes(pile_term(pile, deal.face_down[i]))
    s[TALON_CHAIN:TALON_CHAIN + 8] = word_bytes(chained(talon))
    s[REDUCE] = reduce & 255
    s[REDUCE_MORE] = reduce >> 8
    s[STONE] = NO_STONE
    s[LIFT] = NO_STONE
    s[RECHECK] = 1
    if reduce & REDUCE_DEADLOCK:
        s[DOOMED] = _doomed(s, np.empty(52, np.int32))
    return s


def pile_term(pile, down: int) -> int:
    """A pile's term of the key (kernels._pile_term, state.PILE_TERMS), in Python: a state
    made here compiles nothing."""
    down = int(down)
    if down > 6:
        return 0
    end = min(len(pile), down + 1)
    w = sum(int(c) << (8 * q) for q, c in enumerate(pile[:end]))
    return mix64_int((w | ((end + 8 * down) << 56)) + 0x9E3779B97F4A7C15)


def open_state(deal: Deal, slots: list[tuple]) -> tuple[np.ndarray, list[int]]:
    """The state of ``deal`` with every reduction in force and no root verdict
    (``DOOMED``, the one byte worked out from the cards that ``settle`` does not work out
    again: with unlimited passes or none left the search tests the root again, else it
    only loses a shortcut), and the byte of each slot's card
    (:attr:`solver.game.Solver.open_state`): a tableau card's in its pile, a stock or
    waste card's in the talon, waste first. A foundation card has none (foundations are
    always face up)."""
    s = encode(deal, REDUCE_ALL)
    s[DOOMED] = 0
    out = []
    for slot in slots:
        zone = slot[0]
        if zone == "tableau":
            out.append(PILES + slot[1] * PILE_CAP + slot[2])
        elif zone == "waste":
            out.append(TALON + slot[1])
        elif zone == "stock":
            out.append(TALON + len(deal.waste) + slot[1])
        else:
            raise ValueError(f"no byte of the state holds the card of slot {slot}")
    return s, out


def encode_roots(deal: Deal) -> list[np.ndarray]:
    """The deal once per move order: moves listed as generated, reversed, and (with
    unlimited passes) in four scrambled orders. ``solve`` searches them in turns over
    one table (see ``engine.search``): the time to find a win is heavy-tailed, and
    the orders are slow on different deals, while a lost deal costs about one
    search whatever the number of orders."""
    count = ORDERS_UNLIMITED_PASSES if deal.options["passes"] is None else ORDERS_LIMITED_PASSES
    roots = [encode(deal) for _ in range(count)]
    for order, root in enumerate(roots):
        root[ORDER] = order
    return roots
