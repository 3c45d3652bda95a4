"""Pyramid kernels for the engine, and the conversion of their moves to notation.

State layout (``uint8``, :data:`STATE_SIZE` bytes)::

    PILES (1 or 3), STOCK_TOP (0/1), REDEALS (redeals left, 255 = unlimited),
    REDUCE (reduction flags), TALON_N (talon slots), BOUND, PYR_LEFT,
    TOPS[3]   piles=3: 1 + slot of each waste pile's top card (0: empty pile)
    LOST      1 when encode proved the position lost (REDUCE_RELAX)
    TCNT[13]  talon cards still there, per rank (kept up to date by apply)
    PYR[28]   the pyramid cells row by row (apex first), 255 where removed
    TAL[24]   the talon cards, one per slot (fixed for the whole search)
    ST[24]    status of each talon slot: 0 = there (piles=1) or still in the
              stock (piles=3), 1..3 = on waste pile 1..3 (piles=3), 4 = gone

Cells are numbered row by row: cell ``r*(r+1)/2 + c`` is card ``(r+1, c+1)``
(``p<r+1>.<c+1>``); the two cells covering it are ``COVER[i]`` and the next.

**The talon, piles=1.** Waste (bottom to top) followed by stock (next card
first) keeps its order for the whole game: a draw moves the boundary between
them, a redeal moves it back to 0 (the waste is turned over unshuffled), and a
removal takes a card out. So the slots hold ``waste + stock`` of the deal once,
``ST`` says which are still there, and ``BOUND`` is the slot where the stock
starts: the waste top is the last present slot before it, the next stock card
the first present slot at or after it.

**The talon, piles=3.** The slots hold ``waste1 + waste2 + waste3 + stock`` of
the deal; ``BOUND`` is the first slot still in the stock (the stock is always a
suffix: its cards leave only from the front). A draw gives the next three slots
the statuses 1, 2, 3. A waste pile is the slots of its status in slot order
(cards are pushed in slot order and only the top is popped), so its top is kept
in ``TOPS`` and found again by a scan down after a removal.

**Redeals.** ``REDEALS`` counts the redeals left (``passes - 1 - passes_used``).
255 means unlimited, and so does any count of 53 or more: no state repeats on a
search path, so two redeals on it always have a removal between them, and there
are at most 52 removals; a line the search finds never uses more than 53.

**Moves** (int32): ``item1 | item2 << 6 | REDEAL_BIT | kind << 13``. An item
is a pyramid cell 0..27, ``32 + slot`` for a talon card (piles=1), or 28..30
for the top of waste pile 1..3 and 31 for the next stock card (piles=3);
``item2`` is 63 for a lone King. ``DRAW_MOVE`` and ``REDEAL_MOVE`` are the plain
stock moves. :func:`expand` turns a move into FORMATS.md moves.

**The key** (:func:`key`) is an exact, injective packing of the state (after
the reductions below have put it in canonical form) into 64 bits, except with
``piles=3`` and ``stock_top``:

* piles=1: pyramid mask (28 bits), talon mask (24), number of waste cards (5),
  redeals left (6; 63 = unlimited). With unlimited redeals and macro moves the
  number of waste cards is left out, and without ``stock_top`` the talon mask
  is replaced by the count of talon cards of each rank (base 5, 31 bits): see
  *the pool* below. Neither when searching for fewest moves (``REDUCE_FEWEST``):
  then a macro move's draws depend on the boundary.
* piles=3: pyramid mask, talon mask, first stock slot (5). Without
  ``stock_top`` a drawn card's pile is fixed by its slot, so that is all. With
  ``stock_top``, taking the next stock card shifts which pile later cards land
  on, so the pile of every drawn card is hashed in: a 64-bit hash as in
  Klondike, where two states collide with probability 2**-64.

Options and ``REDUCE`` are the same for a whole search and are left out. The
key 0, which the table merges with 1, would be a cleared pyramid with an empty
talon: a won state, which the engine never stores.

**Reductions** (each keeps the verdict exact; ``tests/test_pyramid_kernels.py``
checks verdicts agree with each one switched off, via the ``REDUCE`` flags).
Two facts carry most of them:

(A) *More is never worse.* Removing a pyramid card only exposes cards; nothing
in the rules needs a card to be covered. More redeals left only allow more.

(B) *Removing now what only that removal touches.* Let ``C`` be the cards of a
legal removal in state ``s`` (a King, or two cards adding to 13, all exposed),
none of them the next stock card when ``piles=3``, and let ``L`` be a winning
line from ``s`` whose only move touching a card of ``C`` is, if any, the
removal of ``C`` itself (draws passing over them aside). Then removing ``C`` at
once and playing ``L`` without that removal wins too. In the mirrored line the
pyramid holds a subset of ``L``'s cards, so every card ``L`` finds exposed is
exposed. With piles=1 the talon is ``L``'s talon without ``C`` and the boundary
is mapped to "the same non-``C`` cards before it": every waste top and next
stock card of ``L`` outside ``C`` is one here too; a draw of a ``C`` card is
skipped, and a redeal is skipped exactly when no talon card is left (fewer
redeals used: (A)). With piles=3 the stock and every draw are the same and
each waste pile is ``L``'s pile without ``C``, so its top is the same unless
that top is in ``C``. (Taking the next stock card of a piles=3 stock would
shift the pile every later card falls on: excluded.)

* *Exposed Kings go at once* (``REDUCE_KING``): an exposed King (pyramid, waste
  top, or next stock card except with piles=3) is removed as the only move. A
  King pairs with nothing: (B) with ``C`` = {King}.
* *Pairs with no alternative go at once* (``REDUCE_PAIR``). Call the *possible
  partners* of a card ``x`` the cards left of the partner rank, except pyramid
  cards above or below a pyramid ``x`` (a card is exposed only once every card
  of the cone below it is gone, so the two are never exposed together). Two
  exposed cards ``x``, ``y`` adding to 13 are removed as the only move when
  ``x`` is a pyramid card whose only possible partner is ``y`` (the pyramid
  must be cleared, so every winning line removes ``x``, and with ``y``: (B)),
  or when each is the other's only possible partner (any line touches them only
  by removing them together: (B)).
* *Dead positions* (``REDUCE_DEAD``): a position gets no moves when the pyramid
  cards of some rank cannot all get partners. Each needs a partner of its own
  (the pyramid must be cleared), so by Hall's theorem it is lost when some set
  ``X`` of the pyramid cards of a rank has fewer than ``|X|`` possible partners
  in all (the talon cards of the partner rank, and its pyramid cards that are
  neither above nor below some card of ``X``). This covers a card with no
  possible partner, and more cards of a rank than partners can serve.
* *Buried waste cards* (``REDUCE_BURY``), in the last pass (piles=1, no redeal
  left) and with piles=3 (never a redeal). A waste card ``z`` (not a King, rank
  ``r``) leaves only from the top of its pile, with a partner from outside its
  pile: the pyramid, the next stock card (``stock_top``), another pile's top
  (piles=3). Every card above ``z`` must go first, each with a partner of its
  own, so the ``a`` cards of rank ``r`` above ``z`` use up ``a`` partners of
  rank ``13 - r`` from outside the pile. When no more than ``a`` such cards are
  left outside the pile (with piles=1: in the pyramid, and with ``stock_top``
  in the stock), ``z`` never leaves (later draws only add cards above it), and
  the cards under it are never exposed again: apply takes them out of the
  state. No line can tell the difference, and the key is the same for every
  way of reaching the position.
* *Stock macro moves* (``REDUCE_MACRO``, piles=1 only): instead of single draws
  and redeals, a move removes a talon card (alone if a King, with an exposed
  pyramid card, or, with ``stock_top``, with its neighbour in the talon) that
  draws, and at most one redeal, can expose. Draws and redeals change only the
  boundary, and a removal of pyramid cards neither depends on nor changes it,
  so any winning line can be reordered to draw just before each removal that
  uses a talon card, and draws after the last such removal can go. The state
  after such a removal does not depend on how the card was reached (removing
  talon slot ``t`` as waste top or as next stock card leaves the boundary
  between its neighbours either way) except in redeals left, and a card
  reachable in the current pass is taken without a redeal, one that is not
  after exactly one (after one, every boundary is reachable): the fewest
  redeals, which dominates by (A). Without ``REDUCE_MACRO`` the moves are the
  plain FORMATS.md moves, exactly the reference rules' legal moves. With
  piles=3 the flag changes nothing.

  *Unlimited redeals.* With macro moves every talon card is reachable from any
  boundary and every result is the same whatever the boundary, so the key
  leaves the boundary out (the table merges states that differ only in it:
  their moves lead to the same states). Without ``stock_top`` talon cards are
  also never removed together, so the talon acts as a *pool*: only how many
  cards of each rank it holds matters (by induction on the cards left: the
  moves from a state and the pools they leave depend on nothing else; suits
  never matter in Pyramid), the key holds those counts, and of several talon
  cards of one rank only the first is offered.
* *The relaxation* (``REDUCE_RELAX``): :func:`encode` searches the pooled game
  of the position (one waste pile, unlimited redeals, no ``stock_top``, every
  talon card in the talon pool) with :func:`_relaxation_lost`; if even that is
  lost, the position is lost (every line of the real game is a line of the
  pooled one, talon-talon removals and King removals from the talon aside,
  which only take cards out of the pool), and the root gets no moves. The
  pooled game is small (a few thousand states at most), and it decides most
  lost deals with several passes at once. Undecided within ``RELAX_NODES``
  nodes: no verdict, the search runs as usual.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...deals import Deal
from ...engine.contract import mix64 as _mix
from ...engine.contract import APPLY_SIG, COST_SIG, ESTIMATE_SIG, KEY_SIG, MOVES_SIG, WON_SIG, Kernels, kernel
from ...moves import Move, remove
from ...options import resolve

PILES, STOCK_TOP, REDEALS, REDUCE, TALON_N, BOUND, PYR_LEFT = 0, 1, 2, 3, 4, 5, 6
TOPS = 7
LOST = 10
TCNT = 11
PYR = TCNT + 13
TAL = PYR + 28
ST = TAL + 24
STATE_SIZE = ST + 24   # 100

NCELLS = 28
EMPTY = 255            # a removed pyramid cell
GONE = 4               # status of a removed talon card
UNLIMITED = 255
REDEAL_LIMIT = 53      # this many redeals left or more is as good as unlimited
KING = 12              # rank index (card % 13) of a King; partners r and 11 - r

REDUCE_MACRO, REDUCE_KING, REDUCE_PAIR, REDUCE_DEAD, REDUCE_BURY, REDUCE_RELAX = 1, 2, 4, 8, 16, 32
REDUCE_ALL = REDUCE_MACRO | REDUCE_KING | REDUCE_PAIR | REDUCE_DEAD | REDUCE_BURY | REDUCE_RELAX
# Fewest moves (``solver.engine.shortest``, costs from :func:`move_cost`): a
# removal is forced only when it takes a pyramid card, and the talon is never a
# pool. A winning line need not touch the talon (the win is a cleared pyramid), so
# forcing a talon King or a pair of talon cards could add a move; forcing a
# pyramid removal cannot: every winning line makes it, and (B) moves it to the
# front with the line no longer. A macro move draws no more than any line
# reaching its card (drawing on from the boundary passes fewer cards than a
# redeal and drawing from the start), but its cost depends on the boundary, so
# the key keeps the boundary. Pruning dead states and dropping buried cards
# change no line.
REDUCE_FEWEST = 64
FEWEST_MOVES_REDUCE = REDUCE_ALL | REDUCE_FEWEST
RELAX_NODES = 1_000_000   # node budget of the relaxation search in encode

NONE_ITEM = 63
SLOT_ITEM = 32         # piles=1: item 32 + slot is a talon card
WASTE_ITEM = 28        # piles=3: item 28 + k is the top of waste pile k + 1
STOCK_ITEM = 31        # piles=3: the next stock card
REDEAL_BIT = 1 << 12
DRAW_MOVE = 1 << 13
REDEAL_MOVE = 2 << 13

# ``out[SCRATCH:]`` is scratch space for :func:`moves`. No move list gets that
# long: at most 7 exposed pyramid cells (they are pairwise neither above nor
# below each other), 2 or 4 exposed talon cards, 4 cards of a rank.
MAX_MOVES = 160
SCRATCH = 104
S_EXP = SCRATCH        # exposed items (pyramid cells first)
S_EXR = SCRATCH + 12   # their ranks
S_UNQ = SCRATCH + 24   # 1 if the item has exactly one possible partner
S_PM = SCRATCH + 36    # per rank: mask of the pyramid cells holding it
S_NB = SCRATCH + 50    # Hall's check: possible pyramid partners of up to 4 cells


def _cell(r: int, c: int) -> int:
    """Index of pyramid card (r, c), both 0-based."""
    return r * (r + 1) // 2 + c


def _tables():
    cover = np.full(NCELLS, -1, dtype=np.int64)   # first of the two cells covering it
    rows = np.zeros(NCELLS, dtype=np.int64)
    cols = np.zeros(NCELLS, dtype=np.int64)
    for r in range(7):
        for c in range(r + 1):
            i = _cell(r, c)
            rows[i], cols[i] = r, c
            if r < 6:
                cover[i] = _cell(r + 1, c)     # and the next cell, _cell(r + 1, c + 1)
    # comparable[i]: i, the cells in i's cone (below it, covering it), the cells with i in theirs
    comparable = np.zeros(NCELLS, dtype=np.int64)
    for i in range(NCELLS):
        for j in range(NCELLS):
            ri, ci, rj, cj = rows[i], cols[i], rows[j], cols[j]
            below = rj >= ri and ci <= cj <= ci + (rj - ri)
            above = ri >= rj and cj <= ci <= cj + (ri - rj)
            if below or above:
                comparable[i] |= 1 << j
    return cover, comparable


COVER, COMPARABLE = _tables()
POW5 = np.array([5 ** r for r in range(13)], dtype=np.int64)
# index of a 32-bit power of two x: DEBRUIJN_INDEX[(x * 0x077CB531 mod 2**32) >> 27]
DEBRUIJN_INDEX = np.zeros(32, dtype=np.int64)
for _i in range(32):
    DEBRUIJN_INDEX[(((1 << _i) * 0x077CB531) & 0xFFFFFFFF) >> 27] = _i


# ---------------------------------------------------------------------------
# Small helpers (inlined into the kernels)
# ---------------------------------------------------------------------------
@njit(inline="always")
def _popcount(x):
    x = x - ((x >> 1) & 0x55555555)
    x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F
    return ((x * 0x01010101) & 0xFFFFFFFF) >> 24


@njit(inline="always")
def _waste_top(s):
    """piles=1: slot of the waste top, -1 if the waste is empty."""
    for t in range(np.int64(s[BOUND]) - 1, -1, -1):
        if s[ST + t] != GONE:
            return t
    return -1


@njit(inline="always")
def _stock_top(s):
    """piles=1: slot of the next stock card, -1 if the stock is empty."""
    for t in range(np.int64(s[BOUND]), np.int64(s[TALON_N])):
        if s[ST + t] != GONE:
            return t
    return -1


@njit(inline="always")
def _card(s, item):
    if item < NCELLS:
        return s[PYR + item]
    if item >= SLOT_ITEM:
        return s[TAL + item - SLOT_ITEM]
    if item == STOCK_ITEM:
        return s[TAL + s[BOUND]]
    return s[TAL + s[TOPS + item - WASTE_ITEM] - 1]


@njit(inline="always")
def _enc(a, b, flags):
    return np.int32(a | (b << 6) | flags)


@njit(inline="always")
def _redeal_allowed(s):
    return s[REDEALS] == UNLIMITED or s[REDEALS] > 0


@njit(inline="always")
def _pooled(s):
    """piles=1, unlimited redeals, no stock_top, macro moves: the talon is a pool."""
    return s[PILES] == 1 and s[REDEALS] == UNLIMITED and s[STOCK_TOP] == 0 and \
        (s[REDUCE] & (REDUCE_MACRO | REDUCE_FEWEST)) == REDUCE_MACRO


@njit(inline="always")
def _forcible(s, item):
    """Fact (B) may take this exposed item (anything but the piles=3 next stock card)."""
    return not (s[PILES] == 3 and item == STOCK_ITEM)


@njit(inline="always")
def _dead(s, out):
    """True when the pyramid cards of some rank cannot all get partners (REDUCE_DEAD)."""
    for r in range(12):
        m = np.int64(out[S_PM + r])
        if m == 0:
            continue
        d = np.int64(s[TCNT + 11 - r])
        if d >= 4:
            continue
        pc = _popcount(m)
        if pc <= d:
            continue
        pq = out[S_PM + 11 - r]
        j = 0
        while m:
            low = m & -m
            out[S_NB + j] = pq & ~COMPARABLE[DEBRUIJN_INDEX[((low * 0x077CB531) & 0xFFFFFFFF) >> 27]]
            m ^= low
            j += 1
        for x in range(1, 1 << pc):
            u = 0
            size = 0
            for j in range(pc):
                if (x >> j) & 1:
                    u |= out[S_NB + j]
                    size += 1
            if _popcount(u) + d < size:
                return True
    return False


@njit(inline="always")
def _add_talon(s, out, ne, item):
    out[S_EXP + ne] = item
    out[S_EXR + ne] = _card(s, item) % 13
    return ne + 1


# ---------------------------------------------------------------------------
# The kernels
# ---------------------------------------------------------------------------
@njit(inline="always")
def _pyramid_removals(out, cells, n):
    """Append every removal among the ``cells`` exposed pyramid cards (a King
    alone, or two cards adding to 13) listed in ``out``'s scratch rows."""
    for e in range(cells):
        r = out[S_EXR + e]
        if r == KING:
            out[n] = _enc(out[S_EXP + e], NONE_ITEM, 0)
            n += 1
            continue
        for f in range(e + 1, cells):
            if out[S_EXR + f] + r == 11:
                out[n] = _enc(out[S_EXP + e], out[S_EXP + f], 0)
                n += 1
    return n


@njit(inline="always")
def _macro_moves(s, out, cells):
    """piles=1 with REDUCE_MACRO: pyramid removals, then talon removals by reach."""
    exr = 0   # ranks of the exposed pyramid cells
    for e in range(cells):
        exr |= 1 << out[S_EXR + e]
    n = _pyramid_removals(out, cells, 0)
    w0 = _waste_top(s)
    talon_n = np.int64(s[TALON_N])
    pool = _pooled(s)
    stock_top = s[STOCK_TOP] != 0
    seen = 0   # pool: ranks already offered
    for need_redeal in range(2):
        if need_redeal == 1 and not _redeal_allowed(s):
            break
        flag = REDEAL_BIT if need_redeal == 1 else 0
        prev = -1
        for t in range(talon_n):
            if s[ST + t] == GONE:
                continue
            # slots from the waste top on are reachable by drawing; the rest after a redeal
            here = 1 if t >= w0 else 0
            r = s[TAL + t] % 13
            if pool:
                if r == KING or here == need_redeal or (seen >> r) & 1:
                    continue
                seen |= 1 << r
            if here != need_redeal:
                if r == KING:
                    out[n] = _enc(SLOT_ITEM + t, NONE_ITEM, flag)
                    n += 1
                elif (exr >> (11 - r)) & 1:
                    for e in range(cells):
                        if out[S_EXR + e] + r == 11:
                            out[n] = _enc(out[S_EXP + e], SLOT_ITEM + t, flag)
                            n += 1
            # with stock_top, neighbours pair: prev as waste top, t as next stock card
            if stock_top and prev >= 0 and (1 if prev >= w0 else 0) != need_redeal \
                    and s[TAL + prev] % 13 + r == 11:
                out[n] = _enc(SLOT_ITEM + prev, SLOT_ITEM + t, flag)
                n += 1
            prev = t
    return n


@kernel(MOVES_SIG)
def moves(s, out):
    if s[PYR_LEFT] == 0 or s[LOST]:
        return 0
    reduce = s[REDUCE]
    # the pyramid: cells per rank, then the exposed cells
    for r in range(13):
        out[S_PM + r] = 0
    pmask = 0
    ne = 0
    for i in range(NCELLS - 1, -1, -1):   # bottom row first: the covers of a cell come before it
        c = s[PYR + i]
        if c != EMPTY:
            pmask |= 1 << i
            r = c % 13
            out[S_PM + r] |= 1 << i
            if COVER[i] < 0 or (pmask >> COVER[i]) & 3 == 0:
                out[S_EXP + ne] = i
                out[S_EXR + ne] = r
                ne += 1
    if (reduce & REDUCE_DEAD) and _dead(s, out):
        return 0
    cells = ne
    # the exposed talon cards
    if s[PILES] == 1:
        w = _waste_top(s)
        if w >= 0:
            ne = _add_talon(s, out, ne, SLOT_ITEM + w)
        if s[STOCK_TOP]:
            t = _stock_top(s)
            if t >= 0:
                ne = _add_talon(s, out, ne, SLOT_ITEM + t)
    else:
        for k in range(3):
            if s[TOPS + k] > 0:
                ne = _add_talon(s, out, ne, WASTE_ITEM + k)
        if s[STOCK_TOP] and s[BOUND] < s[TALON_N]:
            ne = _add_talon(s, out, ne, STOCK_ITEM)
    if reduce & REDUCE_KING:
        for e in range(ne):
            it = out[S_EXP + e]
            if out[S_EXR + e] == KING and _forcible(s, it) and (it < NCELLS or not reduce & REDUCE_FEWEST):
                out[0] = _enc(it, NONE_ITEM, 0)
                return 1
    if reduce & REDUCE_PAIR:
        for e in range(ne):
            it = out[S_EXP + e]
            r = out[S_EXR + e]
            out[S_UNQ + e] = 0
            if r == KING or not _forcible(s, it):
                continue
            q = 11 - r
            pq = out[S_PM + q]
            partners = np.int64(s[TCNT + q]) + _popcount(pq & ~COMPARABLE[it] if it < NCELLS else pq)
            out[S_UNQ + e] = 1 if partners == 1 else 0
        for e in range(ne):
            ue = out[S_UNQ + e]
            r = out[S_EXR + e]
            for f in range(e + 1, ne):
                if out[S_EXR + f] + r != 11:
                    continue
                uf = out[S_UNQ + f]
                if ((ue and (e < cells or uf)) or (uf and f < cells)) and (e < cells or not reduce & REDUCE_FEWEST):
                    out[0] = _enc(out[S_EXP + e], out[S_EXP + f], 0)
                    return 1
    if s[PILES] == 1 and (reduce & REDUCE_MACRO):
        return _macro_moves(s, out, cells)
    # plain moves: every removal, then draw, then redeal (the reference order)
    n = _pyramid_removals(out, ne, 0)
    if s[PILES] == 1:
        if _stock_top(s) >= 0:
            out[n] = DRAW_MOVE
            n += 1
        elif _waste_top(s) >= 0 and _redeal_allowed(s):
            out[n] = REDEAL_MOVE
            n += 1
    elif s[BOUND] < s[TALON_N]:
        out[n] = DRAW_MOVE
        n += 1
    return n


@njit(inline="always")
def _take(s, t):
    """Talon slot t leaves the game."""
    s[ST + t] = GONE
    s[TCNT + s[TAL + t] % 13] -= 1


@njit(inline="always")
def _remove_item(s, item):
    if item < NCELLS:
        s[PYR + item] = EMPTY
        s[PYR_LEFT] -= 1
    elif item >= SLOT_ITEM:
        t = item - SLOT_ITEM
        _take(s, t)
        s[BOUND] = t     # waste: present slots before t; stock: present slots after it
    elif item == STOCK_ITEM:
        _take(s, s[BOUND])
        s[BOUND] += 1
    else:
        k = item - WASTE_ITEM
        t = s[TOPS + k] - 1
        _take(s, t)
        top = 0
        for u in range(t - 1, -1, -1):
            if s[ST + u] == k + 1:
                top = u + 1
                break
        s[TOPS + k] = top


@njit(inline="always")
def _bury(s):
    """Take out the waste cards under a card that can never be removed (REDUCE_BURY).

    Counts per rank are packed 4 bits a rank into one integer."""
    n = np.int64(s[TALON_N])
    supply = 0
    for i in range(NCELLS):
        c = s[PYR + i]
        if c != EMPTY:
            supply += 1 << (4 * (c % 13))
    if s[PILES] == 1:
        if s[REDEALS] != 0:
            return
        if s[STOCK_TOP]:
            for t in range(np.int64(s[BOUND]), n):
                if s[ST + t] != GONE:
                    supply += 1 << (4 * (s[TAL + t] % 13))
        above = 0
        for t in range(np.int64(s[BOUND]) - 1, -1, -1):
            if s[ST + t] == GONE:
                continue
            r = s[TAL + t] % 13
            if r == KING:
                continue
            if (supply >> (4 * (11 - r))) & 15 <= (above >> (4 * r)) & 15:
                for u in range(t):
                    if s[ST + u] != GONE:
                        _take(s, u)
                return
            above += 1 << (4 * r)
        return
    # piles=3: a card's partners come from anywhere but its own pile
    for t in range(n):
        if s[ST + t] != GONE:
            supply += 1 << (4 * (s[TAL + t] % 13))
    for k in range(3):
        own = 0
        for t in range(np.int64(s[TOPS + k])):
            if s[ST + t] == k + 1:
                own += 1 << (4 * (s[TAL + t] % 13))
        outside = supply - own
        above = 0
        for t in range(np.int64(s[TOPS + k]) - 1, -1, -1):
            if s[ST + t] != k + 1:
                continue
            r = s[TAL + t] % 13
            if r == KING:
                continue
            if (outside >> (4 * (11 - r))) & 15 <= (above >> (4 * r)) & 15:
                for u in range(t):
                    if s[ST + u] == k + 1:
                        _take(s, u)
                break
            above += 1 << (4 * r)


@kernel(APPLY_SIG)
def apply(s, m):
    if m == DRAW_MOVE:
        if s[PILES] == 1:
            s[BOUND] = _stock_top(s) + 1
        else:
            p = s[BOUND]
            for k in range(3):
                if p < s[TALON_N]:
                    s[ST + p] = k + 1
                    s[TOPS + k] = p + 1
                    p += 1
            s[BOUND] = p
    elif m == REDEAL_MOVE:
        s[BOUND] = 0
        if s[REDEALS] != UNLIMITED:
            s[REDEALS] -= 1
    else:
        if (m & REDEAL_BIT) and s[REDEALS] != UNLIMITED:
            s[REDEALS] -= 1
        _remove_item(s, m & 63)
        b = (m >> 6) & 63
        if b != NONE_ITEM:
            _remove_item(s, b)
    if s[REDUCE] & REDUCE_BURY:
        _bury(s)


@kernel(KEY_SIG)
def key(s):
    k = np.uint64(0)
    for i in range(NCELLS):
        if s[PYR + i] != EMPTY:
            k |= np.uint64(1) << np.uint64(i)
    if _pooled(s):
        counts = np.uint64(0)   # talon cards per rank, base 5 (< 5**13 < 2**31)
        for r in range(13):
            counts += np.uint64(s[TCNT + r]) * np.uint64(POW5[r])
        return k | (counts << np.uint64(28))
    bound = np.int64(s[BOUND])
    waste = 0
    for t in range(np.int64(s[TALON_N])):
        if s[ST + t] != GONE:
            k |= np.uint64(1) << np.uint64(28 + t)
            if t < bound:
                waste += 1
    if s[PILES] == 1:
        left = 63
        if s[REDEALS] == UNLIMITED:
            if (s[REDUCE] & (REDUCE_MACRO | REDUCE_FEWEST)) == REDUCE_MACRO:
                waste = 0
        else:
            left = np.int64(s[REDEALS])
        return k | (np.uint64(waste) << np.uint64(52)) | (np.uint64(left) << np.uint64(57))
    k |= np.uint64(bound) << np.uint64(52)
    if not s[STOCK_TOP]:
        return k
    sig = np.uint64(0)
    for t in range(bound):
        sig = (sig << np.uint64(2)) | np.uint64(s[ST + t] & 3)   # pile 1..3, 0 = gone
    return _mix(k ^ _mix(sig + np.uint64(0x9E3779B97F4A7C15)))


@kernel(WON_SIG)
def is_won(s):
    return s[PYR_LEFT] == 0


@njit(inline="always")
def _present(s, lo, hi):
    """Talon cards still there in slots ``lo .. hi - 1``."""
    count = 0
    for t in range(lo, hi):
        if s[ST + t] != GONE:
            count += 1
    return count


@kernel(COST_SIG)
def move_cost(s, m):
    """The player moves kernel move ``m`` stands for in ``s``: what :func:`expand` writes."""
    if s[PILES] == 3 or m == DRAW_MOVE or m == REDEAL_MOVE:
        return 1
    n = np.int64(s[TALON_N])
    bound = np.int64(s[BOUND])
    total = 1                                   # the removal
    if m & REDEAL_BIT:
        total += _present(s, bound, n) + 1      # draw the rest of the stock, redeal
        bound = 0
    a, b = m & 63, (m >> 6) & 63
    a_talon = a >= SLOT_ITEM                     # a is never NONE_ITEM
    b_talon = SLOT_ITEM <= b < NONE_ITEM
    if not a_talon and not b_talon:
        return total                            # pyramid cards only
    waste_top = -1 if m & REDEAL_BIT else _waste_top(s)   # after a redeal the waste is empty
    if a_talon and b_talon:                     # neighbours: waste top and next stock card
        u = min(a, b) - SLOT_ITEM
        if u != waste_top:
            total += _present(s, bound, u + 1)
        return total
    t = (a if a_talon else b) - SLOT_ITEM
    if t != waste_top:                          # drawn: onto the waste, or up to it with stock_top
        total += _present(s, bound, t if s[STOCK_TOP] else t + 1)
    return total


@njit(ESTIMATE_SIG, cache=True)   # not @kernel: it allocates its counts (only the fewest-moves search calls it)
def moves_left(s):
    """A lower bound on the player moves that clear the pyramid from ``s``.

    A removal takes a King alone, or cards of two ranks adding to 13, at most one
    of each from the pyramid. So with ``a`` and ``b`` pyramid cards of two such
    ranks, at least ``max(a, b)`` removals are still needed for them, and one per
    pyramid King. When ``a > b``, a card of the first rank goes with a talon card
    of the second: without ``stock_top`` that card must be drawn first, which
    takes at least the draws from the stock's front to the nearest one (0 when
    one is in the waste; with ``stock_top`` removals uncover stock cards too, so
    nothing is counted). Draws are other moves than removals, and one draw can
    serve several ranks: the largest of these counts is added.
    """
    count = np.zeros(13, dtype=np.int64)
    for i in range(NCELLS):
        c = s[PYR + i]
        if c != EMPTY:
            count[c % 13] += 1
    total = count[KING]
    for r in range(6):
        total += max(count[r], count[11 - r])
    if s[STOCK_TOP]:
        return total
    # draws to the nearest talon card of each rank: 0 in the waste, then by stock position
    near = np.full(13, 99, dtype=np.int64)
    bound = np.int64(s[BOUND])
    drawn = 0              # present stock cards before this slot
    for t in range(np.int64(s[TALON_N])):
        if s[ST + t] == GONE:
            continue
        r = s[TAL + t] % 13
        if s[PILES] == 1:
            if t < bound:
                d = 0
            else:
                drawn += 1
                d = drawn
        elif s[ST + t] != 0:
            d = 0                                   # on a waste pile
        else:
            d = (t - bound) // 3 + 1                # piles=3: the stock is every slot from bound on
        if d < near[r]:
            near[r] = d
    draws = 0
    for r in range(12):
        q = 11 - r
        if count[r] > count[q] and near[q] > draws:
            draws = near[q]
    if draws == 99:
        draws = 0                                   # no partner left at all: the dead-state test's job
    return total + draws


KERNELS = Kernels(moves=moves, apply=apply, key=key, is_won=is_won, state_size=STATE_SIZE,
                  max_moves=MAX_MOVES)


# ---------------------------------------------------------------------------
# The pooled relaxation (REDUCE_RELAX), searched once by encode
# ---------------------------------------------------------------------------
def _pooled_relaxation(root: np.ndarray) -> np.ndarray:
    """The pooled relaxation of ``root``: one waste pile, unlimited redeals, no stock_top,
    every talon card of ``root`` that is still there in its talon, and every reduction
    but this one."""
    s = np.zeros(STATE_SIZE, dtype=np.uint8)
    s[PYR:PYR + NCELLS] = root[PYR:PYR + NCELLS]
    s[PYR_LEFT] = root[PYR_LEFT]
    s[TCNT:TCNT + 13] = root[TCNT:TCNT + 13]
    talon = [root[TAL + t] for t in range(int(root[TALON_N])) if root[ST + t] != GONE]
    s[TALON_N] = len(talon)
    s[TAL:TAL + len(talon)] = talon
    s[PILES] = 1
    s[REDEALS] = UNLIMITED
    s[REDUCE] = REDUCE_ALL & ~REDUCE_RELAX
    return s


def _relaxation_lost(root: np.ndarray, max_nodes: int) -> bool:
    """The pooled relaxation of ``root`` is lost (the engine's search proves it within
    ``max_nodes``). Every move removes a card, so no line is longer than 52 moves."""
    from ...engine.search import search

    out = search(KERNELS, _pooled_relaxation(root), max_nodes=max_nodes, max_depth=60, initial_slots=1 << 12)
    return out.verdict == "lost"


# ---------------------------------------------------------------------------
# Python side: deal -> state, kernel line -> moves in FORMATS.md notation
# ---------------------------------------------------------------------------
def encode(deal: Deal, reduce: int = REDUCE_ALL) -> np.ndarray:
    """The state of ``deal`` (fresh or mid-game) with the reductions ``reduce`` in force."""
    opts = resolve("pyramid", deal.options)
    s = np.zeros(STATE_SIZE, dtype=np.uint8)
    piles = opts["piles"]
    s[PILES] = piles
    s[STOCK_TOP] = 1 if opts["stock_top"] else 0
    s[REDUCE] = reduce
    left = 0
    if piles == 1:
        left = UNLIMITED if opts["passes"] is None else opts["passes"] - 1 - deal.passes_used
        if left < 0:
            raise ValueError(f"passes_used={deal.passes_used} exceeds passes={opts['passes']}")
        if left >= REDEAL_LIMIT:
            left = UNLIMITED
    s[REDEALS] = left
    cells = [c for row in deal.pyramid for c in row]
    if len(cells) != NCELLS:
        raise ValueError("pyramid: expected 7 rows of 1..7 cards")
    for i, c in enumerate(cells):
        s[PYR + i] = EMPTY if c is None else c
    s[PYR_LEFT] = sum(c is not None for c in cells)
    if piles == 1:
        talon = list(deal.waste) + list(deal.stock)
        status = [0] * len(talon)
        bound = len(deal.waste)
    else:
        waste = [list(p) for p in deal.waste] if deal.waste else [[], [], []]
        talon, status = [], []
        for k, pile in enumerate(waste):
            talon += pile
            status += [k + 1] * len(pile)
            if pile:
                s[TOPS + k] = len(talon)
        bound = len(talon)
        talon += list(deal.stock)
        status += [0] * len(deal.stock)
    if len(talon) > 24:
        raise ValueError("more than 24 cards in stock and waste")
    s[TALON_N] = len(talon)
    s[TAL:TAL + len(talon)] = talon
    s[ST:ST + len(talon)] = status
    s[BOUND] = bound
    for c in talon:
        s[TCNT + c % 13] += 1
    if reduce & REDUCE_RELAX and _relaxation_lost(s, RELAX_NODES):
        s[LOST] = 1
    return s


def _zone(item: int) -> str:
    """Zone of a pyramid cell or a piles=3 talon item."""
    if item < NCELLS:
        r = next(r for r in range(7) if _cell(r, 0) <= item < _cell(r + 1, 0))
        return f"p{r + 1}.{item - _cell(r, 0) + 1}"
    if item == STOCK_ITEM:
        return "stock"
    return f"waste{item - WASTE_ITEM + 1}"


def expand(s: np.ndarray, m: int) -> list[Move]:
    """The FORMATS.md moves that kernel move ``m`` stands for in state ``s``."""
    return _expand(s.tolist(), int(m))


def _expand(s: list, m: int) -> list[Move]:
    n = s[TALON_N]
    tal = s[TAL:TAL + n]
    bound = s[BOUND]
    items = [m & 63] + ([(m >> 6) & 63] if (m >> 6) & 63 != NONE_ITEM else [])
    if s[PILES] == 3:
        if m == DRAW_MOVE:
            return [Move("draw", cards=tuple(tal[bound:bound + 3]))]
        pairs = []
        for it in items:
            if it < NCELLS:
                card = s[PYR + it]
            elif it == STOCK_ITEM:
                card = tal[bound]
            else:
                card = tal[s[TOPS + it - WASTE_ITEM] - 1]
            pairs.append((card, _zone(it)))
        return [remove(*pairs)]
    # piles=1: a talon card may need draws (and one redeal) first
    present = [x != GONE for x in s[ST:ST + n]]
    out: list[Move] = []

    def draw_through(last):
        """Draw every present slot from the boundary to ``last`` (included)."""
        nonlocal bound
        for t in range(bound, last + 1):
            if present[t]:
                out.append(Move("draw", cards=(tal[t],)))
        bound = max(bound, last + 1)

    if m == DRAW_MOVE:
        t = next(t for t in range(bound, n) if present[t])
        return [Move("draw", cards=(tal[t],))]
    if m == REDEAL_MOVE:
        return [Move("redeal")]
    if m & REDEAL_BIT:
        draw_through(n - 1)
        out.append(Move("redeal"))
        bound = 0
    slots = sorted(it - SLOT_ITEM for it in items if it >= SLOT_ITEM)
    pairs = [(s[PYR + it], _zone(it)) for it in items if it < NCELLS]
    waste_top = max((t for t in range(bound) if present[t]), default=-1)
    if len(slots) == 2:                       # neighbours: waste top and next stock card
        u, v = slots
        if u != waste_top:
            draw_through(u)
        pairs += [(tal[u], "waste"), (tal[v], "stock")]
    elif len(slots) == 1:
        t = slots[0]
        if t == waste_top:
            pairs.append((tal[t], "waste"))
        elif s[STOCK_TOP]:
            draw_through(t - 1)
            pairs.append((tal[t], "stock"))
        else:
            draw_through(t)
            pairs.append((tal[t], "waste"))
    out.append(remove(*pairs))
    return out


def decode_line(deal: Deal, line: list[int], reduce: int = REDUCE_ALL) -> list[Move]:
    """The FORMATS.md moves of a kernel line found from ``encode(deal, reduce)``."""
    s = encode(deal, reduce & ~REDUCE_RELAX)   # the relaxation changes no move
    out: list[Move] = []
    for m in line:
        out.extend(_expand(s.tolist(), int(m)))
        apply(s, np.int32(m))
    return out
