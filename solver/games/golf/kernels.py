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
Order, best first: the pile moves, the pile whose card uncovered next fits the
card played first (the line goes on from there), then taller piles first (they
hold the cards that are hardest to dig out); the draw last.

**Rules the kernels follow as they are.** The rank rule of
:mod:`solver.games.golf.rules` (on a King only a Queen with queens_on_kings and an
Ace with wrap; Ace and King adjacent only with wrap), in :func:`_fits` from a
table of allowed ranks; the draw at any time while the stock has cards; won when
the tableau is empty.

**Exactness.** ``won`` lines are replayed by the reference rules (solve.py).
For ``lost``: every move puts one more card on the foundation, so every line is
finite (at most 51 moves) and no state repeats along a line; so it is enough that
every state the search drops (a state merged with another by the key, or cut off
as a dead end) is lost whenever the state kept in its place is, which each item
below shows. ``tests/test_golf_kernels.py`` checks the verdicts against brute force
with the reference rules, with each reduction switched off (``REDUCE_*`` flags).

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
* *Dead cards* (``REDUCE_DEAD``). A tableau card c can be played only onto a top
  it fits. That top is the current top (if c is played before anything else, so
  only for a pile's top card), or a card that reaches the foundation later: a stock card still in the stock, or a
  tableau card still on the tableau, though not one lying under c in c's own pile
  (it leaves its pile after c). If no card of these fits c's rank rule, c never
  leaves the tableau and the position is lost: :func:`moves` then lists no move.
  (A rank-count check: for each rank the cards of that rank that can still come
  to the top, less those under c in its pile.)

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
from ...engine.contract import APPLY_SIG, KEY_SIG, MOVES_SIG, WON_SIG, Kernels
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
REDUCE_RANK, REDUCE_DEAD, REDUCE_KINGS = 1, 2, 4
REDUCE_ALL = REDUCE_RANK | REDUCE_DEAD | REDUCE_KINGS

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
def _dead(s):
    """Some tableau card can never be played (REDUCE_DEAD, see the module docstring)."""
    count = np.zeros(13, np.int64)      # cards of each rank that can still come to the top
    for k in range(np.int64(s[STOCK_POS]), np.int64(s[STOCK_LEN])):
        count[np.int64(s[STOCK + k]) % 13] += 1
    for i in range(N_PILES):
        for q in range(s[LEN + i]):
            count[np.int64(s[PILES + i * PILE_CAP + q]) % 13] += 1
    opts = np.int64(s[OPTS]) & 3
    now = ALLOWED[opts, np.int64(s[TOP]) % 13]
    below = np.zeros(13, np.int64)
    for i in range(N_PILES):
        below[:] = 0
        ln = np.int64(s[LEN + i])
        for q in range(ln):
            r = np.int64(s[PILES + i * PILE_CAP + q]) % 13
            if q == ln - 1 and (now >> r) & 1:
                continue   # a pile's top that fits the top now
            enablers = ENABLERS[opts, r]
            ok = False
            for t in range(13):
                if (enablers >> t) & 1 and count[t] - below[t] > 0:
                    ok = True
                    break
            if not ok:
                return True
            below[r] += 1
    return False


@njit(inline="always")
def _too_many_kings(s):
    """More Kings on the tableau than runs of pile moves left to end (REDUCE_KINGS, see the
    module docstring; only without options)."""
    kings = 0
    for i in range(N_PILES):
        for q in range(s[LEN + i]):
            if s[PILES + i * PILE_CAP + q] % 13 == 12:
                kings += 1
    runs = 0 if s[TOP] % 13 == 12 else 1
    for k in range(np.int64(s[STOCK_POS]), np.int64(s[STOCK_LEN])):
        if s[STOCK + k] % 13 != 12:
            runs += 1
    return kings > runs


# ---------------------------------------------------------------------------
# The kernels
# ---------------------------------------------------------------------------
@njit(MOVES_SIG, cache=True)
def moves(s, out):
    if (s[REDUCE] & REDUCE_DEAD) and _dead(s):
        return 0
    if (s[REDUCE] & REDUCE_KINGS) and s[OPTS] == 0 and _too_many_kings(s):
        return 0
    mask = _fits_mask(s)
    opts = np.int64(s[OPTS]) & 3
    n = 0
    # pile moves: those that uncover a card fitting the card played first, then by height
    score = np.empty(N_PILES, np.int64)
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
                # insertion by score, higher first (stable: lower pile first on ties)
                j = n
                while j > 0 and score[j - 1] < sc:
                    out[j] = out[j - 1]
                    score[j] = score[j - 1]
                    j -= 1
                out[j] = np.int32(i)
                score[j] = sc
                n += 1
    if s[STOCK_POS] < s[STOCK_LEN]:
        out[n] = DRAW_MOVE
        n += 1
    return n


@njit(APPLY_SIG, cache=True)
def apply(s, m):
    if m == DRAW_MOVE:
        s[TOP] = s[STOCK + s[STOCK_POS]]
        s[STOCK_POS] += 1
        return
    ln = s[LEN + m] - 1
    s[TOP] = s[PILES + m * PILE_CAP + ln]
    s[LEN + m] = ln
    s[LEFT] -= 1


@njit(KEY_SIG, cache=True)
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


@njit(WON_SIG, cache=True)
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
