"""Ladder's kernel state: its layout, the reductions' flags, the move encoding, and the small
helpers every kernel module reads the state with.

Two decks: both copies of a card share one value 0..51 and are interchangeable.

State layout (``uint8``, :data:`STATE_SIZE` bytes)::

    PASSES (0 = unlimited), PASSES_USED, TALON_LEN, WASTE_LEN, LADDER_LEN, REDUCE,
    PEND_KIND, PEND_Y   the constraint a stepping stone leaves
    ORDER               the order moves() lists moves in
    DOOMED              1: lost by the deadlock test at the root (bytes 10-11 unused)
    FOUND[8]    per suit s (C D H S): FOUND[2s] >= FOUND[2s+1], the heights of
                the suit's two foundations (0 = not started)
    LEN[8]      pile lengths
    TALON[43]   the stock and waste as one sequence
    LADDER[29]  bottom to top (only LADDER[LADDER_LEN - 1] is available)
    PILES[8][PILE_CAP]  cards bottom to top
    RUNS[8]     per pile, the index of the lowest card of its top run (each card
                above builds on the one under; 0 for an empty pile): a function of
                the pile, kept up to date by apply so that moves() need not walk
                every pile to find it; not part of the key
    CHAINS[8][8]  per pile, its cards chained from 0 (``chain_bytes``; 8 bytes, low
                byte first), and TALON_CHAIN[8], the talon's: functions of the pile
                and the talon, kept by apply so that the key need not walk them (the
                talon's only where the key reads it: see _talon_take)
    RUN_CARDS[8][8]  per pile, the cards of its top run but its top card, as a card
                bit set (``load64``; a run holds a card value once): a function of
                the pile, kept by apply so that moves() need not walk the runs
    PILE_TERMS[8]  the sum of every pile's term of the key (:func:`_pile_term`, no
                pile marked): a function of the piles, kept by apply so that the key
                and the dominance group need not hash every pile

**Foundations.** An empty foundation takes any Ace and a foundation builds up
by suit, so each suit ends with two foundations of its own. Which physical
foundation holds which cards does not matter (the rules allow any numbering),
so the state keeps, per suit, the two heights sorted: a canonical multiset. A
card of rank r (0 = Ace) fits when one of its suit's heights is r. The heights
say how many copies of each card are up: ranks below the lower height twice,
ranks between the two heights once. :func:`decode_line` maps the multiset back
to numbered foundations ``f1``..``f8`` (first one that fits, as the rules list).

**The talon.** Waste (bottom to top) followed by stock (next card first) is
always the original stock order with the played cards taken out: drawing moves
the boundary ``WASTE_LEN``, a redeal moves it back to 0, and only the card just
left of the boundary (the waste top) can be played.

Words used below. A pile's *tail* is its longest proper tail (the cards above
it, if any, are its *junk*); a card *builds on* the card below it when it is
one rank lower and of the other colour. A *stack* is a card with everything
above it. A line's *labels*: each move is labelled (kind, card) -- kinds
ordered foundation moves < ladder card to a pile < tails < talon card to a pile
-- with the card moved (a tail's lowest card); draws are labelled lowest.
"Winning line" means a line of single moves of the reference rules.

The reductions in force are bit flags in ``REDUCE`` (:mod:`.reductions` says what each
does and why it keeps the verdict exact); ``ORDER`` picks a move order (:mod:`.encoding`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...engine.contract import CHAIN_INVERSE, CHAIN_POWERS, chain_bytes, chain_on, load64, mix64, store64
from ..cardbits import PARENTS

PASSES, PASSES_USED, TALON_LEN, WASTE_LEN, LADDER_LEN, REDUCE = range(6)
PEND_KIND, PEND_Y = 6, 7   # the constraint a stepping stone leaves on the next move (REDUCE_STONE)
ORDER = 8            # which move order moves() lists in (only an order; see ROOT_ORDERS)
DOOMED = 9           # 1: the root position is lost by REDUCE_DEADLOCK's argument
FOUND = 12           # 8 bytes: FOUND[2s] >= FOUND[2s + 1], suit s's foundation heights
LEN = 20             # 8 pile lengths
TALON, TALON_CAP = 28, 43
LADDER, LADDER_CAP = 71, 29
PILES, PILE_CAP = 100, 24
N_PILES = 8
RUNS = PILES + N_PILES * PILE_CAP   # 8 bytes: where each pile's top run starts (kept by apply)
CHAINS = RUNS + N_PILES    # 8 x 8 bytes: each pile's cards chained (kept by apply)
TALON_CHAIN = CHAINS + 8 * N_PILES   # 8 bytes: the talon's cards chained (kept by apply)
RUN_CARDS = TALON_CHAIN + 8   # 8 x 8 bytes: each pile's run cards under its top (kept by apply)
PILE_TERMS = RUN_CARDS + 8 * N_PILES   # 8 bytes: the sum of the piles' key terms (kept by apply)
STATE_SIZE = PILE_TERMS + 8  # 444
MAX_MOVES = 768      # bound: 52 + 96 + 9 + 56 + 96 + 344 + 43 + 2 (see moves)

REDUCE_MACRO, REDUCE_SAFE, REDUCE_LAZY, REDUCE_STONE, REDUCE_ARRANGE, REDUCE_DEADLOCK = 1, 2, 4, 8, 16, 32
REDUCE_DOMINANCE, REDUCE_TALON_DOMINANCE = 64, 128
REDUCE_ALL = (REDUCE_MACRO | REDUCE_SAFE | REDUCE_LAZY | REDUCE_STONE | REDUCE_ARRANGE | REDUCE_DEADLOCK
              | REDUCE_DOMINANCE | REDUCE_TALON_DOMINANCE)
BOUNDARY_BITS = 6   # the talon's boundary in the key's field (games/talon_dominance.py): at most 43

# move orders (ORDER): the search runs the deal under each in turn over one table (engine/search.py)
ORDER_FOUNDATION_FIRST, ORDER_LADDER_FIRST, ORDER_LADDER_HIGH_FIRST, ORDER_LADDER_SCRAMBLED = 0, 1, 2, 3
N_ORDERS = 7   # the engine's table has flags for seven searches

# move encoding: src | dst << 4 | index << 8 | redeal << 16 | forced << 17
SRC_LADDER, SRC_TALON, DST_FOUND = 8, 9, 8
DRAW_MOVE, REDEAL_MOVE = 1 << 20, 2 << 20   # plain stock moves when macros are off
FINISH_MOVE = 3 << 20                        # lazy talon: play the whole talon up
REDEAL_FLAG, FORCED_FLAG = 1 << 16, 1 << 17

RANKS = np.uint64((1 << 13) - 1)       # a rank set: bit r for rank r (0 = Ace)
FOLLOW_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)   # no stepping-stone filter (see _followable)

# kinds of constraint a move leaves on the next one (PEND_KIND)
K_NONE, K_STONE = 0, 1


@njit(cache=True)
def _red(c):
    s = c // 13
    return s == 1 or s == 2


@njit(cache=True)
def _builds(c, below):
    """Card c may lie on card ``below``: one rank lower, other colour (a table lookup:
    cheaper than the two divisions by 13 and the colour tests)."""
    return (PARENTS[c] >> np.uint64(below)) & np.uint64(1) != 0


@njit(cache=True)
def _twin(c):
    """The card of c's rank and colour in the other suit (clubs-spades, diamonds-hearts)."""
    return (3 - c // 13) * 13 + c % 13


@njit(cache=True)
def _twin_set(cards):
    """:func:`_twin` of every card in a bit set (suits 0-3 hold bits 0-12, 13-25, 26-38, 39-51)."""
    suit = np.uint64((1 << 13) - 1)
    red = suit << np.uint64(13)   # diamonds, as a bit set; hearts are 13 bits higher
    return (((cards & suit) << np.uint64(39)) | ((cards >> np.uint64(39)) & suit)
            | ((cards & red) << np.uint64(13)) | ((cards >> np.uint64(13)) & red))


@njit(cache=True)
def _top(s, j):
    return s[PILES + j * PILE_CAP + s[LEN + j] - 1]


@njit(cache=True)
def _fits_found(s, c):
    f = FOUND + 2 * (c // 13)
    r = c % 13
    return s[f] == r or s[f + 1] == r


@njit(cache=True)
def _to_found(s, c):
    f = FOUND + 2 * (c // 13)
    r = c % 13
    if s[f + 1] == r:
        s[f + 1] = r + 1
        if s[f + 1] > s[f]:
            s[f + 1] = s[f]
            s[f] = r + 1
    else:
        s[f] = r + 1


@njit(cache=True)
def _talon_mask(s):
    mask = np.uint64(0)
    for q in range(s[TALON_LEN]):
        mask |= np.uint64(1) << np.uint64(s[TALON + q])
    return mask


@njit(inline="always")
def _talon_remove(s, card):
    """Play one copy of ``card`` out of the talon (the copy fewest draws away)."""
    talon_len = np.int64(s[TALON_LEN])
    waste_len = np.int64(s[WASTE_LEN])
    for q in range(talon_len):
        p = _talon_pos(q, talon_len, waste_len)
        if s[TALON + p] == card:
            _talon_take(s, p)
            return


@njit(cache=True)
def _enc(src, dst, index, redeal):
    return np.int32(src | (dst << 4) | (index << 8) | (redeal << 16))


@njit(cache=True)
def _redeal_allowed(s):
    return s[PASSES] == 0 or s[PASSES_USED] + 1 < s[PASSES]


@njit(cache=True)
def _label(src, dst, c):
    """The order the search tries moves in: by kind (moves to the foundations, ladder
    cards to piles, tails, talon cards to piles), then by card. Only an order."""
    if dst == DST_FOUND:
        return c
    if src == SRC_LADDER:
        return c + 64
    if src == SRC_TALON:
        return c + 192
    return c + 128


@njit(cache=True)
def _ok(kind, py, dst):
    """May a move to ``dst`` follow the last move? After a stepping stone onto pile py
    (REDUCE_STONE) only a move that puts a card onto it may."""
    return kind == K_NONE or dst == py


@njit(cache=True)
def _empty_target(s):
    """The one empty pile offered as a target (piles are interchangeable): the first."""
    for j in range(N_PILES):
        if s[LEN + j] == 0:
            return j
    return -1


@njit(cache=True)
def _talon_pos(q, talon_len, waste_len):
    """The q-th talon index in order of draws needed: waste top, stock, then after a redeal."""
    if waste_len == 0:
        return q
    p = waste_len - 1 + q   # below 2 * talon_len: a subtraction, not a division per card
    return p - talon_len if p >= talon_len else p


@njit(cache=True)
def _pile_chain(s, i):
    """Pile i's cards chained from 0, as the state keeps them (CHAINS)."""
    return load64(s, CHAINS + 8 * i)


MARKED_START = np.uint64(1 + 0x3C6EF372)   # the chain's start of the pile a stepping stone lies on


@njit(inline="always")
def _pile_term(s, i, start):
    """Pile i's term of the key: its cards chained from ``start`` (1; MARKED_START for the
    pile a stepping stone lies on: the mark travels with it), spread."""
    return mix64(chain_on(start, s[LEN + i], _pile_chain(s, i)) + np.uint64(0x9E3779B97F4A7C15))


@njit(inline="always")
def _set_pile_terms(s):
    """Set the kept sum of the piles' terms from their chains (when a state is made)."""
    total = np.uint64(0)
    for i in range(N_PILES):
        total += _pile_term(s, i, np.uint64(1))
    store64(s, PILE_TERMS, total)


@njit(inline="always")
def _renew_pile_term(s, i, old):
    """Pile i changed, its term was ``old``: the kept sum takes its new term instead."""
    store64(s, PILE_TERMS, load64(s, PILE_TERMS) - old + _pile_term(s, i, np.uint64(1)))


@njit(cache=True)
def _chain_pile(s, i):
    """Set pile i's kept chain from its cards (after a cut, or when a state is made)."""
    store64(s, CHAINS + 8 * i, chain_bytes(np.uint64(0), s, PILES + i * PILE_CAP, np.int64(s[LEN + i])))


@njit(inline="always")
def _talon_take(s, p):
    """Take the card at talon index ``p`` out of the talon (the boundary then stands where
    it was: the waste is the cards before it). The talon's kept chain is renewed where the
    key reads it: not with unlimited passes and macro moves, whose key holds no talon (there
    the word keeps the deal's talon, unread). It is renewed from the shorter side of ``p``:
    with P the chain of the cards before p and S of those after it (L cards), the chain
    was P * C**(L+1) + (card+1) * C**L + S and becomes P * C**L + S; C is odd, so it has an
    inverse modulo 2**64 and P * C**L can come from S too."""
    ln = np.int64(s[TALON_LEN])
    c = np.uint64(s[TALON + p] + 1)
    for k in range(p, ln - 1):
        s[TALON + k] = s[TALON + k + 1]
    s[TALON_LEN] = ln - 1
    s[WASTE_LEN] = p
    if s[PASSES] == 0 and (s[REDUCE] & REDUCE_MACRO):
        return
    old = load64(s, TALON_CHAIN)
    after = ln - 1 - p
    if p <= after:
        before = chain_bytes(np.uint64(0), s, TALON, p)
        new = old - c * CHAIN_POWERS[after] - before * (CHAIN_POWERS[after + 1] - CHAIN_POWERS[after])
    else:
        rest = chain_bytes(np.uint64(0), s, TALON + p, after)
        new = (old - rest - c * CHAIN_POWERS[after]) * CHAIN_INVERSE + rest
    store64(s, TALON_CHAIN, new)


@njit(cache=True)
def _run_cards(s, i):
    """Pile i's top run but its top card, as a card bit set, as the state keeps it (RUN_CARDS).
    (An unsigned index: with no wrap of a negative one to test, the eight loads merge into one.)"""
    at = np.uint64(RUN_CARDS + 8 * i)
    v = np.uint64(0)
    for q in range(8):
        v |= np.uint64(s[at + np.uint64(q)]) << np.uint64(8 * q)
    return v


@njit(inline="always")
def _set_run_cards(s, i):
    """Set pile i's kept run cards from its cards and its run start (RUNS)."""
    base = PILES + i * PILE_CAP
    cards = np.uint64(0)
    for q in range(np.int64(s[RUNS + i]), np.int64(s[LEN + i]) - 1):
        cards |= np.uint64(1) << np.uint64(s[base + q])
    store64(s, RUN_CARDS + 8 * i, cards)


@njit(cache=True)
def _built_from(s, base, ln):
    """Index of the lowest card of the pile's top run (each card above builds on the one under)."""
    k = ln - 1
    while k > 0 and _builds(s[base + k], s[base + k - 1]):
        k -= 1
    return k


@njit(cache=True)
def _exposed_like(s, c, skip):
    """The first pile (not ``skip``) whose top card has c's rank and colour, or -1."""
    for j in range(N_PILES):
        if j != skip and s[LEN + j] > 0:
            t = _top(s, j)
            if t % 13 == c % 13 and _red(t) == _red(c):
                return j
    return -1
