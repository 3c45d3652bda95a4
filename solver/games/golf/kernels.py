"""Golf kernels for the engine, and the conversion of their moves to notation.

State layout (``uint8``, :data:`STATE_SIZE` bytes)::

    LEN[7]      pile heights
    TOP         the foundation's top card
    STOCK_LEN, STOCK_POS   the stock's size at the start, and how many cards have left it
    OPTS        the options: bit 0 queens_on_kings, bit 1 wrap
    REDUCE      bit flags of the reductions in force (tests switch them off)
    LEFT        cards left on the tableau (0: won)
    STOCK[16]   the stock as dealt, next card first; STOCK[STOCK_POS:STOCK_LEN] is left
    PILES[7][5] cards bottom to top

Only the foundation's top matters for what follows (nothing leaves the
foundation), and the stock only ever loses its next card, so a position is the
piles cut to their heights, the top card and ``STOCK_POS``.

**Moves** (``int32``): ``i`` (0..6) the top card of pile ``i`` onto the foundation;
:data:`DRAW_MOVE` the next stock card onto the foundation. At most 8 moves.
Order, best first: the pile moves, those whose uncovered card fits the card
played first (the line can go on from there), then taller piles first (they hold
the cards that are hardest to dig out); the draw last.

**Rules the kernels follow as they are.** The rank rule of
:mod:`solver.games.golf.rules` (on a King only a Queen with queens_on_kings and an
Ace with wrap; Ace and King adjacent only with wrap), from the table
:data:`ALLOWED` of the ranks that may go on each rank; the draw at any time while
the stock has cards; won when the tableau is empty.

**Exactness.** ``won`` lines are replayed by the reference rules (solve.py).
For ``lost``: every move puts one more card on the foundation, so every line is
finite (at most 51 moves) and no state repeats along a line; so it is enough that
every state the search drops (merged with another by the key, or cut off as lost)
is lost whenever the state kept in its place is, which each item below shows.
``tests/test_golf_kernels.py`` checks the verdicts against brute force with the
reference rules, with each reduction switched off (``REDUCE_*`` flags), and that
every state the matching cuts off is lost.

* *Pile order* (always on). No rule tells the piles apart (cards only leave
  them, from the top, onto the one foundation), so positions that differ only
  by the order of the piles are one position: the key adds per-pile hashes.
  Within a search a pile is always the pile as dealt cut to a height, so its
  bottom card and its height name it.
* *Top rank* (``REDUCE_RANK``). The rules read only the *rank* of the foundation's
  top (a tableau card fits by rank, whatever the suits; a draw fits anything; the
  win looks at the tableau), so two positions that differ only by the suit of the
  top card have the same moves, each leading to positions that again differ only
  so: one is won exactly when the other is. The key then hashes the top's rank,
  not the card.
* *A card to go on for every card* (``REDUCE_MATCH``). In a winning line every
  tableau card c is played onto the top of the moment, p(c), which it fits; p(c)
  is the current top, or a card put on the foundation later in the line: a card
  still in the stock, or another tableau card. And p is one-to-one: p(c) is the
  card right under c on the final foundation, and a card lies right under at most
  one card. So a winning position has such a matching of the tableau cards into
  the top, the stock and the tableau. Whether a card fits another depends on
  their ranks only, so the matching exists exactly when a flow by ranks does:
  each rank r needs as many tops as it has tableau cards, each rank t has as many
  as the top, the stock and the tableau hold of it, and rank r may use rank t when
  an r goes on a t. When no such flow exists, :func:`moves` lists no move. The
  graph of "r goes on t" is two paths, or one (:data:`CHAINS`), where a greedy
  sweep decides it: each card rank takes what the top rank before it on the path
  has left (no later card rank can use it), and must take the rest from the top
  rank after it; given any flow, moving its units that way keeps it a flow, so
  the sweep fails only when no flow exists. With both options the graph is a
  cycle: every flow on its King-on-Ace edge is tried, each leaving a path.

Tried and left out (benchmarks/results.md): a check that some card can never be
played, counting the tops each card could still go on less those of its own pile
that leave it after it (exact, but it cost more time than it saved), and a count
of the runs that tableau Kings end (in the plain rules nothing goes on a King, so
each King played ends a run of pile moves; it cut no node the matching leaves).

No move is forced. Every tableau move changes the top, and two tableau moves
never commute (the one played last is the top), so there is no commuting pair to
drop; and neither a tableau move nor the draw is safe in general: a card that
fits now may be the one card that can later carry the line from a rank that
nothing else continues (``tests/test_golf_kernels.py``: positions where playing a
fitting card first, or drawing first, loses a won game).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...deals import Deal
from ...engine.contract import mix64 as _mix
from ...engine.contract import APPLY_SIG, KEY_SIG, MOVES_SIG, WON_SIG, Kernels, kernel
from ...moves import Move

N_PILES = 7
PILE_CAP = 5
STOCK_CAP = 16

LEN = 0              # LEN[7]: pile heights
TOP = 7              # the foundation's top card
STOCK_LEN = 8        # cards the stock held at the start of the search
STOCK_POS = 9        # cards already drawn
OPTS = 10            # bit 0: queens_on_kings, bit 1: wrap
REDUCE = 11          # bit flags of reductions in force
LEFT = 12            # cards left on the tableau
STOCK = 13           # STOCK[16]: the stock, next card first (from STOCK_POS on)
PILES = STOCK + STOCK_CAP   # PILES[7][5]: cards bottom to top
STATE_SIZE = PILES + N_PILES * PILE_CAP   # 64
MAX_MOVES = 8

OPT_QUEENS_ON_KINGS, OPT_WRAP = 1, 2
REDUCE_RANK, REDUCE_MATCH = 1, 2
REDUCE_ALL = REDUCE_RANK | REDUCE_MATCH

DRAW_MOVE = 7


def _allowed_table() -> np.ndarray:
    """ALLOWED[opts, t]: bit r set when a tableau card of rank index r (0 = Ace .. 12 = King)
    may be played on a top of rank index t, under the options ``opts`` (bit flags)."""
    table = np.zeros((4, 13), dtype=np.int64)
    for opts in range(4):
        qok, wrap = bool(opts & OPT_QUEENS_ON_KINGS), bool(opts & OPT_WRAP)
        for t in range(13):
            bits = 0
            if t == 12:
                if qok:
                    bits |= 1 << 11
                if wrap:
                    bits |= 1 << 0
            else:
                if t > 0:
                    bits |= 1 << (t - 1)
                bits |= 1 << (t + 1)    # a King on a Queen too: the block is what goes on a King
                if t == 0 and wrap:
                    bits |= 1 << 12
            table[opts, t] = bits
    return table


ALLOWED = _allowed_table()
# ENABLERS[opts, r]: bit t set when a card of rank index r may go on a top of rank index t
ENABLERS = np.zeros((4, 13), dtype=np.int64)
for _o in range(4):
    for _t in range(13):
        for _r in range(13):
            if ALLOWED[_o, _t] >> _r & 1:
                ENABLERS[_o, _r] |= 1 << _t




def _chains() -> np.ndarray:
    """CHAINS[opts]: the graph "a card of rank r may go on a top of rank t" (card ranks L0..L12,
    top ranks R0..R12; an edge joins ranks one apart, but for the King's exceptions) laid
    out as paths, for REDUCE_MATCH. Codes: r for card rank r, 13 + t for top rank t, -1
    between two paths, -2 at the end. Without options: two paths, A 2 3 .. K alternating
    card and top ranks (the King top, on which nothing goes, is on neither). queens_on_kings
    adds the edge Q-on-K at the end of the second path; wrap joins the two paths by A-on-K and
    K-on-A into one path. With both options the paths close into a cycle: the list is the
    path left when the edge K-on-A is taken out (:func:`_unmatched` tries every flow on it)."""
    first = [0, 14, 2, 16, 4, 18, 6, 20, 8, 22, 10, 24, 12]       # L_A R_2 L_3 ... L_K
    second = [13, 1, 15, 3, 17, 5, 19, 7, 21, 9, 23, 11]          # R_A L_2 R_3 ... L_Q
    chains = np.full((4, 32), -2, dtype=np.int64)
    for opts in range(4):
        qok, wrap = bool(opts & OPT_QUEENS_ON_KINGS), bool(opts & OPT_WRAP)
        tail = second + ([25] if qok else [])                      # ... L_Q R_K
        if wrap and qok:
            order = tail + first                                   # R_A .. L_Q R_K L_A .. L_K
        elif wrap:
            order = [25] + first + second                          # R_K L_A .. L_K R_A .. L_Q
        else:
            order = first + [-1] + tail
        chains[opts, :len(order)] = order
    return chains


CHAINS = _chains()


def _check_chains() -> None:
    """The paths hold exactly the edges of ENABLERS (the King-on-Ace edge of the cycle apart)."""
    for opts in range(4):
        order = [int(x) for x in CHAINS[opts] if x != -2]
        edges = set()
        for a, b in zip(order, order[1:]):
            if -1 not in (a, b):
                card, top = (a, b - 13) if a < 13 else (b, a - 13)
                edges.add((card, top))
        if opts == 3:
            edges.add((12, 0))
        want = {(r, t) for r in range(13) for t in range(13) if ENABLERS[opts, r] >> t & 1}
        assert edges == want, (opts, edges ^ want)


_check_chains()


# ---------------------------------------------------------------------------
# Small helpers (inlined into the kernels)
# ---------------------------------------------------------------------------
@njit(inline="always")
def _top_of(s, i):
    return np.int64(s[PILES + i * PILE_CAP + s[LEN + i] - 1])


@njit(inline="always")
def _fits_mask(s):
    """The ranks (bit r: rank index r) a tableau card may have to go on the top now."""
    return ALLOWED[np.int64(s[OPTS]) & 3, np.int64(s[TOP]) % 13]


@njit(inline="always")
def _nib(x, r):
    """Count ``r`` of counts packed four bits each into an int64 (at most 4 cards a rank)."""
    return (x >> (4 * r)) & 15


@njit(inline="always")
def _path_matches(opts, need, have):
    """Whether along the paths of CHAINS[opts] every card rank's ``need`` is met by the
    ``have`` of the top ranks next to it (counts packed by :func:`_nib`). Greedy, and exact
    on a path: a card rank takes what the top rank before it has left first (no one after
    can use that), the rest it must take from the top rank after it."""
    carry = np.int64(0)     # left at the top rank just passed
    pending = np.int64(0)   # still needed by the card rank just passed, from the next top rank
    for k in range(32):
        code = CHAINS[opts, k]
        if code == -2:
            break
        if code == -1:
            if pending > 0:
                return False
            carry = 0
            continue
        if code < 13:
            nd = _nib(need, code)
            use = min(nd, carry)
            pending = nd - use
            carry = 0
        else:
            avail = _nib(have, code - 13) - pending
            if avail < 0:
                return False
            carry = avail
            pending = 0
    return pending == 0


@njit(inline="always")
def _unmatched(s):
    """The tableau cards cannot each have a card of their own to be played on (REDUCE_MATCH,
    see the module docstring): a matching by ranks along the paths of CHAINS."""
    opts = np.int64(s[OPTS]) & 3
    need = np.int64(0)     # tableau cards of each rank
    have = np.int64(1) << (4 * (np.int64(s[TOP]) % 13))   # cards that can still be a top to go on
    for k in range(np.int64(s[STOCK_POS]), np.int64(s[STOCK_LEN])):
        have += np.int64(1) << (4 * (np.int64(s[STOCK + k]) % 13))
    for i in range(N_PILES):
        for q in range(s[LEN + i]):
            bit = np.int64(1) << (4 * (np.int64(s[PILES + i * PILE_CAP + q]) % 13))
            need += bit
            have += bit
    if opts != 3:
        return not _path_matches(opts, need, have)
    # both options: the cycle; try each number x of Kings matched to Aces (the edge left out)
    for x in range(min(_nib(need, 12), _nib(have, 0)) + 1):
        if _path_matches(opts, need - (x << 48), have - x):
            return False
    return True


# ---------------------------------------------------------------------------
# The kernels
# ---------------------------------------------------------------------------
@kernel(MOVES_SIG)
def moves(s, out):
    if (s[REDUCE] & REDUCE_MATCH) and _unmatched(s):
        return 0
    mask = _fits_mask(s)
    opts = np.int64(s[OPTS]) & 3
    n = 0
    # pile moves: those that uncover a card fitting the card played first, then by height;
    # sorted with the score in the high bits of out (higher first, lower pile first on ties)
    for i in range(N_PILES):
        ln = np.int64(s[LEN + i])
        if ln > 0:
            c = _top_of(s, i)
            if (mask >> (c % 13)) & 1:
                sc = ln
                if ln >= 2:
                    under = np.int64(s[PILES + i * PILE_CAP + ln - 2])
                    if (ALLOWED[opts, c % 13] >> (under % 13)) & 1:
                        sc += 8
                item = np.int32(sc << 8 | i)
                j = n
                while j > 0 and (out[j - 1] >> 8) < sc:
                    out[j] = out[j - 1]
                    j -= 1
                out[j] = item
                n += 1
    for j in range(n):
        out[j] &= 255
    if s[STOCK_POS] < s[STOCK_LEN]:
        out[n] = DRAW_MOVE
        n += 1
    return n


@kernel(APPLY_SIG)
def apply(s, m):
    if m == DRAW_MOVE:
        s[TOP] = s[STOCK + s[STOCK_POS]]
        s[STOCK_POS] += 1
        return
    ln = s[LEN + m] - 1
    s[TOP] = s[PILES + m * PILE_CAP + ln]
    s[LEN + m] = ln
    s[LEFT] -= 1


@kernel(KEY_SIG)
def key(s):
    top = np.uint64(s[TOP])
    if s[REDUCE] & REDUCE_RANK:
        top = np.uint64(s[TOP] % 13) | np.uint64(64)   # (64: never a card's number)
    t = _mix((top << np.uint64(8) | np.uint64(s[STOCK_POS])) + np.uint64(0x632BE59BD9B4E019))
    total = np.uint64(0)
    for i in range(N_PILES):
        ln = s[LEN + i]
        if ln > 0:
            # a pile is the pile as dealt cut to a height: its bottom card and height name it;
            # a sum of per-pile hashes ignores the order of the piles
            h = np.uint64(s[PILES + i * PILE_CAP]) | (np.uint64(ln) << np.uint64(8))
            total += _mix(h + np.uint64(0x9E3779B97F4A7C15))
    return _mix(total ^ t)


@kernel(WON_SIG)
def is_won(s):
    return s[LEFT] == 0


KERNELS = Kernels(moves=moves, apply=apply, key=key, is_won=is_won, state_size=STATE_SIZE,
                  max_moves=MAX_MOVES)


# ---------------------------------------------------------------------------
# Python side: deal -> state, kernel line -> moves in FORMATS.md notation
# ---------------------------------------------------------------------------
def encode(deal: Deal, reduce: int = REDUCE_ALL) -> np.ndarray:
    if len(deal.tableau) != N_PILES or len(deal.foundations) != 1 or not deal.foundations[0]:
        raise ValueError("a Golf deal has 7 piles and one foundation with a card on it")
    if len(deal.stock) > STOCK_CAP:
        raise ValueError(f"the stock holds {len(deal.stock)} cards, more than {STOCK_CAP}")
    s = np.zeros(STATE_SIZE, dtype=np.uint8)
    for i, pile in enumerate(deal.tableau):
        if len(pile) > PILE_CAP:
            raise ValueError(f"pile t{i + 1} holds {len(pile)} cards, more than {PILE_CAP}")
        s[LEN + i] = len(pile)
        s[PILES + i * PILE_CAP:PILES + i * PILE_CAP + len(pile)] = pile
    s[LEFT] = sum(len(p) for p in deal.tableau)
    s[TOP] = deal.foundations[0][-1]
    s[STOCK_LEN] = len(deal.stock)
    s[STOCK:STOCK + len(deal.stock)] = deal.stock
    s[OPTS] = (OPT_QUEENS_ON_KINGS if deal.options.get("queens_on_kings") else 0) | \
        (OPT_WRAP if deal.options.get("wrap") else 0)
    s[REDUCE] = reduce
    return s


def expand(s: np.ndarray, m: int) -> list[Move]:
    """The FORMATS.md moves that kernel move ``m`` stands for in state ``s``."""
    m = int(m)
    if m == DRAW_MOVE:
        return [Move("draw", cards=(int(s[STOCK + int(s[STOCK_POS])]),))]
    c = int(s[PILES + m * PILE_CAP + int(s[LEN + m]) - 1])
    return [Move("move", card=c, from_=f"t{m + 1}", to="f1", count=1)]


def decode_line(deal: Deal, line: list[int], reduce: int = REDUCE_ALL) -> list[Move]:
    s = encode(deal, reduce)
    out: list[Move] = []
    for m in line:
        out.extend(expand(s, m))
        apply(s, np.int32(m))
    return out
