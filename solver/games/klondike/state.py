"""Klondike's kernel state: its layout, the reductions' flags, the move encoding, and the
small helpers every kernel module reads the state with.

State layout (``uint8``, :data:`STATE_SIZE` bytes)::

    DRAW, PASSES (0 = unlimited), F2T, PASSES_USED, TALON_LEN, WASTE_LEN,
    FOUND[4]  cards on each foundation (suit order C D H S),
    LEN[7]    pile lengths,  DOWN[7]  face-down counts,
    TALON[24] the stock and waste as one sequence,
    PILES[7][PILE_CAP]  cards bottom to top,
    REDUCE, ORDER, DOOMED, STONE, LIFT, EMPTIED  reductions in force, move
                order, root verdict, the talon card the next move must cover,
                the one whose successor must go up next, and whether a King
                must go into an emptied pile next
    RECHECK, REDUCE_MORE  whether the last move may have deadlocked the position,
                and the reduction flags above the first eight
    PILE_TERMS[7][8]  each pile's term of the key with REDUCE_LAYOUT (8 bytes, low
                byte first; 0 for a pile with more than six face-down cards), and
    TALON_CHAIN[8]  the talon's cards chained from 0 (``chain_bytes``): functions
                of the cards, kept by apply so that the key reads them instead of
                the cards (the encoding computes them, and ``settle`` again for
                states whose card bytes were written directly)

**The talon.** Waste (bottom to top) followed by stock (next card first) is
always the original stock order with the played cards taken out: drawing moves
the boundary, a redeal moves it back to 0, and only the card just left of the
boundary (the waste top) can be played. So one sequence plus ``WASTE_LEN``
holds both piles.

The reductions in force are bit flags in ``REDUCE`` (:mod:`.reductions` says what each
does and why it keeps the verdict exact); ``ORDER`` picks a move order
(:mod:`.encoding`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..talon_dominance import PASSES_BITS

DRAW, PASSES, F2T, PASSES_USED, TALON_LEN, WASTE_LEN = 0, 1, 2, 3, 4, 5
FOUND, LEN, DOWN, TALON = 6, 10, 17, 24
PILES, PILE_CAP = 48, 20
REDUCE = PILES + 7 * PILE_CAP   # bit flags of reductions in force (tests switch them off)
ORDER = REDUCE + 1   # 0: moves as generated, 1: reversed, 2+: scrambled (see encode_roots)
DOOMED = REDUCE + 2  # 1: the deal is lost by REDUCE_DEADLOCK's argument
STONE = REDUCE + 3   # a talon card the next move must cover (REDUCE_STONE), NO_STONE if none
LIFT = REDUCE + 4    # a talon card gone up whose successor must follow (REDUCE_LAZY), or NO_STONE
EMPTIED = REDUCE + 5  # 1: the last move emptied a pile, a King must go into it next (REDUCE_EMPTY)
RECHECK = REDUCE + 6  # 1: the last move may have deadlocked the position (see REDUCE_DEADLOCK)
REDUCE_MORE = REDUCE + 7  # the reduction flags from 256 up, shifted down by eight bits
PILE_TERMS = REDUCE + 8  # 7 x 8 bytes
TALON_CHAIN = PILE_TERMS + 56   # 8 bytes
STATE_SIZE = TALON_CHAIN + 8  # 260
NO_STONE = 255
MAX_MOVES = 320

REDUCE_MACRO, REDUCE_SAFE, REDUCE_LAYOUT, REDUCE_DEADLOCK, REDUCE_STONE, REDUCE_LAZY = 1, 2, 4, 8, 16, 32
REDUCE_EMPTY, REDUCE_SAFE_TALON = 64, 128
REDUCE_TALON_DOMINANCE = 256   # in REDUCE_MORE, as 1
REDUCE_ALL = (REDUCE_MACRO | REDUCE_SAFE | REDUCE_LAYOUT | REDUCE_DEADLOCK | REDUCE_STONE | REDUCE_LAZY
              | REDUCE_EMPTY | REDUCE_SAFE_TALON | REDUCE_TALON_DOMINANCE)

# move encoding: src | dst << 4 | index << 8 | redeal << 16
SRC_TALON, SRC_FOUND, DST_FOUND = 7, 8, 8
DRAW_MOVE, REDEAL_MOVE = 1 << 20, 2 << 20   # plain stock moves when macros are off
REDEAL_FLAG = 1 << 16
UNCOVER_FLAG = 1 << 17    # pile -> foundation after moving the run above the card onto its twin


@njit(cache=True)
def _red(c):
    s = c // 13
    return s == 1 or s == 2


@njit(cache=True)
def _fits_pile(s, c, j):
    """Card c may go onto pile j (down one, other colour; empty takes a King)."""
    n = s[LEN + j]
    if n == 0:
        return c % 13 == 12
    top = s[PILES + j * PILE_CAP + n - 1]
    return top % 13 == c % 13 + 1 and _red(top) != _red(c)


@njit(cache=True)
def _fits_found(s, c):
    return s[FOUND + c // 13] == c % 13


@njit(cache=True)
def _enc(src, dst, index, redeal):
    return np.int32(src | (dst << 4) | (index << 8) | (redeal << 16))


@njit(cache=True)
def _tops(s):
    """Bit c set when card c is a pile top; bit 52 when a pile is empty."""
    t = np.uint64(0)
    for j in range(7):
        ln = s[LEN + j]
        if ln == 0:
            t |= np.uint64(1) << np.uint64(52)
        else:
            t |= np.uint64(1) << np.uint64(s[PILES + j * PILE_CAP + ln - 1])
    return t


@njit(cache=True)
def _may_fit_somewhere(tops, c):
    """A quick test before the pile scan: is either card c fits onto a pile top?"""
    r = c % 13
    if r == 12:
        return (tops >> np.uint64(52)) & np.uint64(1) != 0
    if _red(c):
        a, b = r + 1, 39 + r + 1          # clubs, spades
    else:
        a, b = 13 + r + 1, 26 + r + 1     # diamonds, hearts
    return ((tops >> np.uint64(a)) | (tops >> np.uint64(b))) & np.uint64(1) != 0


@njit(cache=True)
def _every_talon_card_anytime(s):
    """Draw 1, unlimited passes, macro moves: any talon card can be played at any time."""
    return (s[REDUCE] & REDUCE_MACRO) != 0 and s[DRAW] == 1 and s[PASSES] == 0


@njit(cache=True)
def _twin(c):
    """The card of the same rank and colour in the other suit (C<->S, D<->H)."""
    return (3 - c // 13) * 13 + c % 13


@njit(cache=True)
def _pile_with_top(s, c):
    for j in range(7):
        ln = s[LEN + j]
        if ln > 0 and s[PILES + j * PILE_CAP + ln - 1] == c:
            return j
    return -1


@njit(cache=True)
def _bit(c):
    return np.uint64(1) << np.uint64(c)


@njit(cache=True)
def _byte(packed, q):
    return (packed >> np.uint64(8 * q)) & np.uint64(255)


BOUNDARY_BITS = 5   # the talon's boundary in the key's field (games/talon_dominance.py): at most 24


@njit(cache=True)
def _talon_field_bits(s):
    """(bits of the passes used, bits of the boundary) in the key's dominance field
    (REDUCE_TALON_DOMINANCE: limited passes and macro moves only), each 0 when absent."""
    if s[PASSES] == 0 or (s[REDUCE_MORE] & 1) == 0 or (s[REDUCE] & REDUCE_MACRO) == 0:
        return 0, 0
    return PASSES_BITS[s[PASSES]], BOUNDARY_BITS if s[DRAW] == 1 else 0


@njit(cache=True)
def _boundary_chains(s):
    """The key's field holds the boundary's place in its chain (REDUCE_TALON_DOMINANCE with
    unlimited passes, three cards a draw and macro moves; games/talon_dominance.py)."""
    return s[PASSES] == 0 and s[DRAW] != 1 and (s[REDUCE_MORE] & 1) != 0 and (s[REDUCE] & REDUCE_MACRO) != 0


@njit(cache=True)
def _redeal_allowed(s):
    return s[PASSES] == 0 or s[PASSES_USED] + 1 < s[PASSES]
