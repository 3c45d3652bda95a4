"""Twenty kernels for the engine, and the conversion of their moves to notation.

State layout (``uint8``, :data:`STATE_SIZE` bytes)::

    FOUND[8]   cards on each foundation: 0..3 ascending, 4..7 descending (suits C D H S)
    STOCK_LEN, STOCK_POS   the stock's size at the start, and how many cards have left it
    REDUCE     bit flags of the reductions in force (tests switch them off)
    PENDING    1 + the pile whose new top the next move must use (REDUCE_USE; 0: none)
    LEN[20]    pile heights
    STOCK[76]  the stock as dealt, next card first; STOCK[STOCK_POS:STOCK_LEN] is left
    PILES[20][PILE_CAP]   cards bottom to top

A foundation's height says what it needs: ascending ``k`` with ``h`` cards takes
card ``13k + h``, descending ``k`` takes ``13k + 12 - h``. The stock only ever
loses its first card (a refill) or its first 20 (a deal), so a position is the
stock as dealt plus ``STOCK_POS``.

**Sizes.** While the stock has cards no pile is empty (refills), so it holds at
most 96 - 20 = 76 cards. A pile grows only by a deal (one card) or when empty
(one card: a refill or a move onto an empty pile); nothing is ever put on a
non-empty pile after the stock is out. So a pile never holds more than its
height now plus the deals to come (``ceil(stock / 20)``): 1 + 4 = 5 from a fresh
deal. ``PILE_CAP`` = 16 leaves room for hand-made positions; :func:`encode`
refuses any that could outgrow it. At most 16 foundation moves exist at once (8
foundations, each wanting one card, of which two copies) and at most 19 moves
onto an empty pile, so 64 moves are never reached; ``MAX_MOVES`` adds the room the
reductions' checks work in (``SCRATCH`` on: no allocation at a node).

**Moves** (``int32``): ``pile | k << 5`` the top card of ``pile`` onto foundation
``k``; ``src | dst << 5 | PILE_FLAG`` the top card of ``src`` onto the empty pile
``dst``; ``DEAL_MOVE``. Order, best first: foundation moves from piles that keep a
card (no refill), then those that empty a pile, then moves onto an empty pile.

**Rules the kernels follow as they are.** A deal is the only move when no
foundation move exists and the stock has cards (and is never generated
otherwise). A refill is part of the foundation move that empties a pile.

**Exactness.** ``won`` lines are replayed by the reference rules (solve.py).
For ``lost``: every move the kernels generate strictly decreases (stock left,
cards off the foundations, sum of squared pile heights), so every line is finite;
so it is enough that every kept state from which a win exists has a kept child
from which a win exists (for a ``PENDING`` state: a win that starts by using the
pending card). Each reduction below shows that for the states it touches.
``tests/test_twenty_kernels.py`` checks the verdicts against brute force with the
rules and with each reduction switched off (``REDUCE_*`` flags), and keeps
hand-made positions on which a careless version of a reduction loses a won game.

* *Symmetry and pointless moves* (always on). A deal puts a card on each pile
  below the number of stock cards then left, which is never more than now; a
  refill goes to whichever pile was emptied, whatever its number. So the piles
  from the number of stock cards left on (every pile once the stock is out) will
  never be told apart by anything to come, and positions that differ only by
  their order are one position: the key adds their per-pile hashes (order free)
  and hashes the piles below in order. (Two lone cards that fit, on two such
  piles, played in either order, give their piles the two next stock cards one
  way or the other: one position.)
  Moving a pile's only card onto an empty pile gives the same position up to that
  symmetry (never needed), and of several empty piles only the first is a target
  (the others give symmetric positions).
* *Safe foundation moves* (``REDUCE_SAFE``). A card is *single* when its other
  copy is already on a foundation (always so for the Aces and Kings in play): then
  it can only ever go to the one foundation that will take its rank, and nothing
  but this card can ever change that foundation. If it fits now, it is played as
  the only move when (a) its pile keeps a card under it, or (b) at most one card
  is left in the stock. Take a winning line W that plays it (c, onto F) at time t.
  F does not change before t, so c stays playable and no deal can happen before t.
  Play c first and then W without c's moves: (a) no pile empties differently, so
  every refill is the same; the only differences are the uncovered card under c
  (more options; not a new obligation, since no deal happens before t anyway) and,
  if W parks c on an empty pile first, that pile stays empty (more room); at t the
  positions coincide. (b) with no stock, as (a); with one stock card, if c's pile
  is not the first to empty in W, the first pile Q to empty takes the last card in
  W and c's pile does when c goes first; from then on the stock is out, piles are
  interchangeable, and W's position is ours with c back on a pile where ours has
  an empty one: W's moves stay legal for us (after exhaustion every move is
  optional). A *lone* card with 2+ stock cards left is not safe: the refills'
  order decides which stock card lands on which pile before the next deal (trap
  position ``lone_card_with_stock`` in the tests). A card whose other copy is
  still out is not safe either, even if it fits one foundation only: the other
  copy may be the one that should go there (see the parking test: 5C up loses).
* *Use what a move onto an empty pile uncovers* (``REDUCE_USE``, stock out). A
  move of c from pile A onto an empty pile changes nothing but A's top (now y):
  c is as free on its new pile as it was on A. In a winning line that does
  something else before it first *uses* y (y onto a foundation, or y onto an
  empty pile), delay the move to just before that use: the moves in between do
  not touch A (y is A's top), find c on A instead of on its own pile (a move of c
  to a foundation then uncovers y all the same, and the parking move is dropped),
  and see one more empty pile. So the move right after a move onto an empty pile
  must use the uncovered card; ``PENDING`` remembers the pile (and is part of the
  key, so a restricted state never stands for an unrestricted one). Moving a
  card that fits a foundation onto an empty pile stays a move: it can be the
  only way to win (the parking test: keep 5C for the descending foundation).
* *Persistent sets* (``REDUCE_POR``, stock not out). Before a deal every
  foundation move must be played or become impossible, and in which order rarely
  matters: between deals the search would otherwise visit every subset of the
  independent moves. Let v be a card a foundation needs and T the moves of the
  copies of v lying on pile tops. T is played as the only choice when nothing
  else can ever interfere with it: then any winning line W contains a move of T
  (T's moves stay legal until one of them is played, and a won position has no
  legal move), and the moves W plays before the first one commute with it, so it
  can go first. A move u outside T interferes with t = (copy x of v onto F) only
  if u moves x (onto the other foundation F', or onto an empty pile), or puts a
  card on F (only a copy of v fits F, so: another copy coming up), or both t and u
  are refills (their order decides which pile gets which stock card) on piles
  that a deal can tell apart. A deal cannot come between (t stays legal). So T is
  taken only if an over-approximation of everything moves outside T can do from
  here shows: no other copy of v comes uncovered; F', if it does not need v now,
  never comes to need it; the stock cannot run out with a pile emptied after it
  (no move onto an empty pile, hence no parking of x, before T is played; trap
  ``stock_runs_out_in_the_phase`` in the tests), counting T's own refills; and if
  a move of T is a refill (x alone on its pile), that pile and every pile that
  may be emptied lie from the number of stock cards left on. Those piles are the
  interchangeable ones of the symmetry above, and they stay so (the stock only
  shrinks): played first, t gives its pile the stock card W's first refill gave,
  each later refill takes the card the one before it took, and every position of
  W after t is reached again with the same lone stock cards on the same set of
  such piles, one pile to another (traps ``refill_onto_a_pile_a_deal_reaches``
  and ``a_pile_a_deal_reaches_empties_first``: each check alone left out loses a
  won game). The over-approximation grows, until nothing changes: the cards that
  could be uncovered (pile by pile, from the top, while each card could go to a
  foundation whose reachable range holds its rank; copies of v block), each
  foundation's reachable range (extended by every rank of which some copy could have
  gone, whichever foundation's reach took it: growing a reach only by the card just
  taken lost a won game, trap ``COPY_TAKEN_BY_THE_OTHER_REACH`` in the tests), the
  number of piles that could be emptied, and so the stock cards that refills could
  bring out (each a lone card that may empty its pile again). Everything a real
  line of moves outside T does stays inside it, so the checks are sound. The
  smallest such T among the eight foundations' needed cards is taken.
* *Deal-order bound* (``REDUCE_DEADLOCK``). A state from which no pile can ever
  be emptied is lost (a win empties every pile); it gets no moves. Until the
  first time some pile is empty, no refill happens and no card goes onto an
  empty pile: the only moves are foundation moves and deals, and deal k from
  here puts stock card ``STOCK_POS + 20k + i`` on pile i (the last deal only on
  the first piles). So each pile is a fixed column of *slots* (its cards now,
  then the cards the deals will put on it), and after t deals the first t deal
  slots are present. An over-approximation, phase by phase (t = 0, 1, ... all
  deals), of the slots that may have gone to a foundation by then: a slot may go
  when every present slot above it may have gone and its rank lies within a
  foundation's reach; a foundation's reach starts at what it needs now and grows
  by each rank of its suit of which some copy may have gone. It grows until
  nothing changes; a slot that may have gone by phase t may have by every later
  phase. Both foundations may count the same copy, deals may come while a
  foundation move exists: it only grows. If at some phase every present slot of
  a pile may have gone, or a pile is empty now, the bound gives up (after that,
  refills and moves onto empty piles leave the model); if no phase lets any pile
  go empty, no line of play ever empties one, and the state is lost. A version
  that grew a reach only when it marked a slot, not when a copy already marked
  made the next rank count, was unsound; the brute-force test caught it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...deals import Deal
from ...engine.contract import mix64 as _mix
from ...engine.contract import APPLY_SIG, KEY_SIG, MOVES_SIG, WON_SIG, Kernels, kernel
from ...moves import Move

N_PILES = 20
FOUND = 0            # FOUND[8]: cards on each foundation (0..3 ascending, 4..7 descending; C D H S)
STOCK_LEN = 8        # cards the stock held at the start of the search
STOCK_POS = 9        # cards already taken out of it (deals and refills)
REDUCE = 10          # bit flags of reductions in force (tests switch them off)
PENDING = 11         # 1 + pile whose new top the next move must use (0: none)
LEN = 12             # LEN[20]: pile heights
STOCK = 32           # STOCK[STOCK_CAP]: the stock, next card first (from STOCK_POS on)
STOCK_CAP = 76
PILES = STOCK + STOCK_CAP   # PILES[20][PILE_CAP]: cards bottom to top
PILE_CAP = 16
STATE_SIZE = PILES + N_PILES * PILE_CAP   # 428
SCRATCH = 64              # the move list from here on is the checks' working room
MAX_MOVES = SCRATCH + 4 + 16 + N_PILES + STOCK_CAP

REDUCE_SAFE, REDUCE_USE, REDUCE_POR, REDUCE_DEADLOCK = 1, 2, 4, 8
REDUCE_ALL = REDUCE_SAFE | REDUCE_USE | REDUCE_POR | REDUCE_DEADLOCK

# move encoding: foundation move  pile | k << 5;  pile move  src | dst << 5 | PILE_FLAG;  DEAL_MOVE
PILE_FLAG = 1 << 10
DEAL_MOVE = 1 << 11


# ---------------------------------------------------------------------------
# Small helpers (inlined into the kernels)
# ---------------------------------------------------------------------------
@njit(inline="always")
def _fits(s, c, k):
    """Card c goes onto foundation k now."""
    if c // 13 != k % 4:
        return False
    h = np.int64(s[FOUND + k])
    if k < 4:
        return c % 13 == h
    return c % 13 == 12 - h


@njit(inline="always")
def _single(s, c):
    """The other copy of c is already on a foundation: c has one place to go."""
    r = c % 13
    st = c // 13
    return r < np.int64(s[FOUND + st]) or r + np.int64(s[FOUND + 4 + st]) >= 13


@njit(inline="always")
def _top(s, i):
    return np.int64(s[PILES + i * PILE_CAP + s[LEN + i] - 1])


@njit(inline="always")
def _stock_left(s):
    return np.int64(s[STOCK_LEN]) - np.int64(s[STOCK_POS])


@njit(inline="always")
def _foundation_moves_of(s, out, n, i):
    c = _top(s, i)
    st = c // 13
    if _fits(s, c, st):
        out[n] = np.int32(i | (st << 5))
        n += 1
    if _fits(s, c, st + 4):
        out[n] = np.int32(i | ((st + 4) << 5))
        n += 1
    return n


@njit(inline="always")
def _first_empty(s):
    for j in range(N_PILES):
        if s[LEN + j] == 0:
            return j
    return -1


@njit(inline="always")
def _takes(lo, hi, r):
    return lo <= r and r <= hi


@njit(inline="always")
def _grow(lo_a, hi_a, lo_d, hi_d, avail, cs):
    """Suit cs's reaches grown by every rank of which some copy may have gone (``avail``):
    a copy that went by one foundation's reach may as well go to the other, once that
    one's reach comes to its rank (grown only by the card just taken, the test took a set
    that lost a won game: ``COPY_TAKEN_BY_THE_OTHER_REACH`` in the tests)."""
    one = np.uint64(1)
    while hi_a[cs] < 13 and (avail >> np.uint64(13 * cs + hi_a[cs])) & one:
        hi_a[cs] += 1
    while lo_d[cs] >= 0 and (avail >> np.uint64(13 * cs + lo_d[cs])) & one:
        lo_d[cs] -= 1


@njit(inline="always")
def _other_comes_to_need(lo_a, hi_a, lo_d, hi_d, st, vr, asc_needs, desc_needs):
    """A foundation of v's suit that does not need v now could come to (its reach holds v)."""
    return (not asc_needs and _takes(lo_a[st], hi_a[st], vr)) or \
        (not desc_needs and _takes(lo_d[st], hi_d[st], vr))


@njit
def _persistent_for(s, v, out, work):
    """Write the moves of the copies of card v on pile tops into out; return their number
    if they form a persistent set (REDUCE_POR, see the module docstring), else 0.

    An over-approximation of everything that moves other than these can ever do before
    one of them is played: which cards can come uncovered, how far each foundation can
    get, how many stock cards can come out. The set is refused as soon as in that
    picture another copy of v comes uncovered, the other foundation of v's suit comes to
    need v, or a pile can be emptied after the stock has run out; and, if a move of the
    set is a refill, if it or a pile that can be emptied is one a deal can tell apart.
    """
    st = v // 13
    vr = v % 13
    left = _stock_left(s)
    n = 0
    nref = 0
    for q in range(N_PILES):
        ln = s[LEN + q]
        if ln > 0 and _top(s, q) == v:
            if ln < 2:
                if q < left:
                    return 0  # a refill move onto a pile a deal tells apart
                nref += 1
            if _fits(s, v, st):
                out[n] = np.int32(q | (st << 5))
                n += 1
            if _fits(s, v, st + 4):
                out[n] = np.int32(q | ((st + 4) << 5))
                n += 1
    if n == 0 or nref > left:
        return 0  # (more refills than stock cards: see the count of emptied piles below)
    # potential reach: ascending k takes rank indexes lo_a[k]..hi_a[k]; descending lo_d..hi_d
    lo_a = work[0:4]
    hi_a = work[4:8]
    lo_d = work[8:12]
    hi_d = work[12:16]
    rem = work[16:16 + N_PILES]
    removed = work[16 + N_PILES:16 + N_PILES + STOCK_CAP]
    for k in range(4):
        lo_a[k] = s[FOUND + k]
        hi_a[k] = s[FOUND + k]
        hi_d[k] = 12 - np.int64(s[FOUND + 4 + k])
        lo_d[k] = hi_d[k]
    asc_needs = np.int64(s[FOUND + st]) == vr
    desc_needs = 12 - np.int64(s[FOUND + 4 + st]) == vr
    for q in range(N_PILES):
        rem[q] = s[LEN + q]
    pos = np.int64(s[STOCK_POS])
    emptied = 0
    out_n = 0
    avail = np.uint64(0)   # bit c: some copy of card c may have gone
    changed = True
    while changed:
        changed = False
        for q in range(N_PILES):
            while rem[q] > 0:
                c = np.int64(s[PILES + q * PILE_CAP + rem[q] - 1])
                if c == v:
                    if rem[q] == s[LEN + q]:
                        break  # one of the set's own moves
                    return 0  # another copy of v could come uncovered
                cs = c // 13
                cr = c % 13
                a_ok = _takes(lo_a[cs], hi_a[cs], cr)
                d_ok = _takes(lo_d[cs], hi_d[cs], cr)
                if not (a_ok or d_ok):
                    break
                avail |= np.uint64(1) << np.uint64(c)
                _grow(lo_a, hi_a, lo_d, hi_d, avail, cs)
                if cs == st and _other_comes_to_need(lo_a, hi_a, lo_d, hi_d, st, vr, asc_needs, desc_needs):
                    return 0
                rem[q] -= 1
                changed = True
                if rem[q] == 0:
                    emptied += 1
                    if emptied + nref > left:
                        return 0  # the stock could run out and leave an empty pile
                    if nref > 0 and q < left:
                        return 0  # its refill would shift the stock cards the set's refills get
        # stock cards that refills can bring out, each onto an emptied pile
        while out_n < left and out_n < emptied:
            c = np.int64(s[STOCK + pos + out_n])
            if c == v:
                return 0
            removed[out_n] = 0
            out_n += 1
            changed = True
        for i in range(out_n):
            if removed[i] == 0:
                c = np.int64(s[STOCK + pos + i])
                cs = c // 13
                cr = c % 13
                a_ok = _takes(lo_a[cs], hi_a[cs], cr)
                d_ok = _takes(lo_d[cs], hi_d[cs], cr)
                if a_ok or d_ok:
                    avail |= np.uint64(1) << np.uint64(c)
                    _grow(lo_a, hi_a, lo_d, hi_d, avail, cs)
                    if cs == st and _other_comes_to_need(lo_a, hi_a, lo_d, hi_d, st, vr, asc_needs, desc_needs):
                        return 0
                    removed[i] = 1
                    emptied += 1
                    if emptied + nref > left:
                        return 0
                    changed = True
    return n


@njit(inline="always")
def _may_go(c, lo_a, hi_a, lo_d, hi_d):
    """Card c fits within some foundation's reach (REDUCE_DEADLOCK)."""
    cs = c // 13
    cr = c % 13
    return _takes(lo_a[cs], hi_a[cs], cr) or _takes(lo_d[cs], hi_d[cs], cr)


@njit(cache=True)
def _doomed(s, w):
    """No line of play can ever empty a pile (REDUCE_DEADLOCK, see the module docstring).

    ``w`` is scratch room (the move list, not yet written): w[i] the pile's slots that may
    have gone (bit j: slot j; above bit 16, the suit + 1 of the card it is stuck on),
    w[20 + i] its slots present, w[40:56] the reaches."""
    for i in range(N_PILES):
        ln = s[LEN + i]
        if ln == 0:
            return False
        if ln == 1:
            c = _top(s, i)
            if _fits(s, c, c // 13) or _fits(s, c, c // 13 + 4):
                return False  # this pile can be emptied now (most states: no fixed point needed)
    pos = np.int64(s[STOCK_POS])
    left = _stock_left(s)
    deals = (left + N_PILES - 1) // N_PILES
    # reach: ascending k takes ranks w[40+k]..w[44+k], descending w[48+k]..w[52+k]
    lo_a = w[40:44]
    hi_a = w[44:48]
    lo_d = w[48:52]
    hi_d = w[52:56]
    for k in range(4):
        lo_a[k] = s[FOUND + k]
        hi_a[k] = s[FOUND + k]
        hi_d[k] = 12 - np.int64(s[FOUND + 4 + k])
        lo_d[k] = hi_d[k]
    for i in range(N_PILES):
        w[i] = 0
        w[N_PILES + i] = s[LEN + i]
    avail = np.uint64(0)                   # bit c: some copy of card c may have gone
    for t in range(deals + 1):
        if t > 0:
            for i in range(min(N_PILES, left - (t - 1) * N_PILES)):
                w[N_PILES + i] += 1
                w[i] &= 0xFFFF   # a new top: walk this pile again
        # a pile stuck on a card (its suit + 1 kept in w[i] >> 16) is walked again only when
        # that suit's reach grew: otherwise the walk would stop at the same card
        grown = 0
        while True:
            before = avail
            for i in range(N_PILES):
                stuck = np.int64(w[i]) >> 16
                if stuck != 0 and ((grown >> (stuck - 1)) & 1) == 0:
                    continue
                ln = np.int64(s[LEN + i])
                gone = np.int64(w[i]) & 0xFFFF
                j = np.int64(w[N_PILES + i]) - 1
                while j >= 0:
                    if (gone >> j) & 1:
                        j -= 1
                        continue
                    if j < ln:
                        c = np.int64(s[PILES + i * PILE_CAP + j])
                    else:
                        c = np.int64(s[STOCK + pos + (j - ln) * N_PILES + i])
                    if not _may_go(c, lo_a, hi_a, lo_d, hi_d):
                        gone |= (c // 13 + 1) << 16
                        break
                    gone |= np.int64(1) << j
                    avail |= np.uint64(1) << np.uint64(c)
                    j -= 1
                if j < 0:
                    return False  # this pile may be emptied
                w[i] = gone
            if avail == before:
                break
            grown = 0
            for k in range(4):
                h = hi_a[k]
                lo = lo_d[k]
                _grow(lo_a, hi_a, lo_d, hi_d, avail, k)
                if hi_a[k] != h or lo_d[k] != lo:
                    grown |= 1 << k
            if grown == 0:
                break
    return True


@njit(inline="always")
def _persistent(s, out, tmp, work):
    """The smallest persistent set found among the cards the foundations need (0: none)."""
    best = 0
    tops = np.uint64(0)   # the card values on pile tops: a needed card on none has no set
    for q in range(N_PILES):
        if s[LEN + q] > 0:
            tops |= np.uint64(1) << np.uint64(_top(s, q))
    for k in range(8):
        h = np.int64(s[FOUND + k])
        if h >= 13:
            continue
        v = (k % 4) * 13 + (h if k < 4 else 12 - h)
        if k >= 4 and np.int64(s[FOUND + k - 4]) == v % 13:
            continue  # both foundations need v: already tried
        if (tops & (np.uint64(1) << np.uint64(v))) == 0:
            continue
        m = _persistent_for(s, v, tmp, work)
        if m > 0 and (best == 0 or m < best):
            best = m
            for i in range(m):
                out[i] = tmp[i]
            if best == 1:
                break
    return best


# ---------------------------------------------------------------------------
# The kernels
# ---------------------------------------------------------------------------
@kernel(MOVES_SIG)
def moves(s, out):
    n = 0
    reduce = s[REDUCE]
    left = _stock_left(s)
    if s[PENDING]:
        # REDUCE_USE: the move must use the top of pile a (uncovered by a move to an empty pile)
        a = np.int64(s[PENDING]) - 1
        n = _foundation_moves_of(s, out, n, a)
        if s[LEN + a] >= 2:
            j = _first_empty(s)
            if j >= 0:
                out[n] = np.int32(a | (j << 5) | PILE_FLAG)
                n += 1
        return n
    if (reduce & REDUCE_DEADLOCK) and _doomed(s, out):
        return 0
    # 1. a safe foundation move is forced
    if reduce & REDUCE_SAFE:
        for i in range(N_PILES):
            ln = s[LEN + i]
            if ln > 0 and (ln >= 2 or left <= 1):
                c = _top(s, i)
                if _single(s, c):
                    m = _foundation_moves_of(s, out, 0, i)
                    if m:
                        return 1
    # 2. foundation moves: piles that keep a card first (no refill), then the rest
    for i in range(N_PILES):
        if s[LEN + i] >= 2:
            n = _foundation_moves_of(s, out, n, i)
    for i in range(N_PILES):
        if s[LEN + i] == 1:
            n = _foundation_moves_of(s, out, n, i)
    if left > 0:
        if n == 0:
            out[0] = DEAL_MOVE
            n = 1
        elif n >= 2 and (reduce & REDUCE_POR):
            tmp = out[SCRATCH:SCRATCH + 4]
            work = out[SCRATCH + 4:MAX_MOVES]
            m = _persistent(s, out, tmp, work)
            if m > 0:
                return m
        return n
    # 3. the stock is exhausted: a top card onto the first empty pile, from piles of >= 2 cards
    j = _first_empty(s)
    if j >= 0:
        for i in range(N_PILES):
            if s[LEN + i] >= 2:
                out[n] = np.int32(i | (j << 5) | PILE_FLAG)
                n += 1
    return n


@kernel(APPLY_SIG)
def apply(s, m):
    s[PENDING] = 0
    if m == DEAL_MOVE:
        pos = np.int64(s[STOCK_POS])
        k = min(N_PILES, np.int64(s[STOCK_LEN]) - pos)
        for i in range(k):
            ln = s[LEN + i]
            s[PILES + i * PILE_CAP + ln] = s[STOCK + pos + i]
            s[LEN + i] = ln + 1
        s[STOCK_POS] = pos + k
        return
    src = m & 31
    dst = (m >> 5) & 31
    ln = s[LEN + src] - 1
    c = s[PILES + src * PILE_CAP + ln]
    s[LEN + src] = ln
    if m & PILE_FLAG:
        s[PILES + dst * PILE_CAP] = c
        s[LEN + dst] = 1
        if s[REDUCE] & REDUCE_USE:
            s[PENDING] = src + 1
        return
    s[FOUND + dst] += 1
    if ln == 0 and s[STOCK_POS] < s[STOCK_LEN]:
        # the refill: the next stock card onto the emptied pile, at once
        s[PILES + src * PILE_CAP] = s[STOCK + s[STOCK_POS]]
        s[STOCK_POS] += 1
        s[LEN + src] = 1


@njit(inline="always")
def _pile_words(s, base, n):
    """A pile's cards (``n`` of them from ``base``), one byte each, in two words: the
    whole room is read and the bytes above the top masked off (no loop whose length the
    processor must guess; cards removed leave their bytes behind)."""
    lo = np.uint64(0)
    hi = np.uint64(0)
    for q in range(8):
        lo |= np.uint64(s[base + q]) << np.uint64(8 * q)
        hi |= np.uint64(s[base + 8 + q]) << np.uint64(8 * q)
    if n < 8:
        lo &= (np.uint64(1) << np.uint64(8 * n)) - np.uint64(1)
        hi = np.uint64(0)
    elif n < 16:
        hi &= (np.uint64(1) << np.uint64(8 * (n - 8))) - np.uint64(1)
    return lo, hi


@kernel(KEY_SIG)
def key(s):
    # foundation heights and the stock position (the stock itself is fixed for a search)
    t = np.uint64(s[STOCK_POS])
    for k in range(8):
        t = (t << np.uint64(4)) | np.uint64(s[FOUND + k])
    t = _mix(t + np.uint64(0x632BE59BD9B4E019))
    # a deal reaches only piles below the number of stock cards left, so the piles from
    # there on are interchangeable (all of them once the stock is out): each pile's hash
    # is mixed with its number if a deal may reach it, with nothing otherwise, and the
    # terms summed (no chain from pile to pile: the piles' hashes overlap in the processor)
    dealt = min(N_PILES, _stock_left(s))
    total = np.uint64(0)
    for i in range(N_PILES):
        n = np.int64(s[LEN + i])
        lo, hi = _pile_words(s, PILES + i * PILE_CAP, n)
        h = lo + hi * np.uint64(0x100000001B3) + np.uint64(n) * np.uint64(0xC2B2AE3D27D4EB4F)
        if s[PENDING] == i + 1:
            h += np.uint64(0x5555)
        place = np.uint64(i + 2) if i < dealt else np.uint64(1)
        total += _mix(h + np.uint64(0x9E3779B97F4A7C15) * place)
    return _mix(total ^ t)


@kernel(WON_SIG)
def is_won(s):
    total = 0
    for k in range(8):
        total += s[FOUND + k]
    return total == 104


KERNELS = Kernels(moves=moves, apply=apply, key=key, is_won=is_won, state_size=STATE_SIZE,
                  max_moves=MAX_MOVES)


# ---------------------------------------------------------------------------
# Python side: deal -> state, kernel line -> moves in FORMATS.md notation
# ---------------------------------------------------------------------------
def encode(deal: Deal, reduce: int = REDUCE_ALL) -> np.ndarray:
    if len(deal.tableau) != N_PILES or len(deal.foundations) != 8:
        raise ValueError("a Twenty deal has 20 piles and 8 foundations")
    if len(deal.stock) > STOCK_CAP:
        raise ValueError(f"the stock holds {len(deal.stock)} cards, more than {STOCK_CAP}")
    if deal.stock and not all(deal.tableau):
        raise ValueError("an empty pile while the stock has cards (it would have been refilled)")
    deals_left = -(-len(deal.stock) // N_PILES)
    s = np.zeros(STATE_SIZE, dtype=np.uint8)
    for k, pile in enumerate(deal.foundations):
        s[FOUND + k] = len(pile)
    s[STOCK_LEN] = len(deal.stock)
    s[STOCK:STOCK + len(deal.stock)] = deal.stock
    for i, pile in enumerate(deal.tableau):
        if len(pile) + deals_left > PILE_CAP:
            raise ValueError(f"pile t{i + 1} could grow taller than the kernels' {PILE_CAP} cards")
        s[LEN + i] = len(pile)
        s[PILES + i * PILE_CAP:PILES + i * PILE_CAP + len(pile)] = pile
    s[REDUCE] = reduce
    return s


def expand(s: np.ndarray, m: int) -> list[Move]:
    """The FORMATS.md moves that kernel move ``m`` stands for in state ``s``."""
    m = int(m)
    if m == DEAL_MOVE:
        return [Move("deal")]
    src, dst = m & 31, (m >> 5) & 31
    c = int(s[PILES + src * PILE_CAP + int(s[LEN + src]) - 1])
    to = f"t{dst + 1}" if m & PILE_FLAG else f"f{dst + 1}"
    return [Move("move", card=c, from_=f"t{src + 1}", to=to, count=1)]


def decode_line(deal: Deal, line: list[int], reduce: int = REDUCE_ALL) -> list[Move]:
    s = encode(deal, reduce)
    out: list[Move] = []
    for m in line:
        out.extend(expand(s, m))
        apply(s, np.int32(m))
    return out
