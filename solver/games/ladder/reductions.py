"""Ladder's reductions: the rules the search follows beyond the game's own, each with the
argument that it keeps the verdict exact.

**Reductions** (each flag can be switched off; ``tests/test_ladder_kernels.py``
checks the verdicts agree with brute force on small positions and with each
reduction switched off):

* *Stock macro moves* (``REDUCE_MACRO``). Draws and redeals change nothing but
  the talon boundary (and the passes used), and no other move depends on the
  boundary except the play of the waste top, so a winning line can be
  reordered to draw just before each talon card it plays. A kernel move
  therefore plays any talon card that draws (and a redeal) bring to the waste
  top: with draw 1 every card of the current pass (index >= ``WASTE_LEN - 1``)
  and, when a redeal is left, every card before it (a card of the current pass
  never needs the redeal: same talon afterwards, fewer passes used).

  - With *unlimited* passes every talon card is available at any time (draw
    until it shows; if the stock is empty, redeal: the waste is not), so the
    talon is a multiset of available cards: where the boundary stands does not
    matter, nor which copy of a card is played. One move per card value (the
    copy fewest draws away); the key leaves the talon out (the tableau,
    foundations and ladder length determine it: it is the rest of the decks).
  - With *limited* passes and no redeal left, only the waste top and the stock
    cards are offered (the card under the waste top comes back when the top is
    played: the boundary then stands below it). A card before the waste top is
    offered only while a redeal is left, and costs one.

* *Lazy talon* (``REDUCE_LAZY``; unlimited passes, macro moves). A talon card
  goes to a foundation only in a *chain*: the talon cards from the highest
  foundation of a suit that is not above a tableau top or ladder top card d of
  that suit, up to d, then d; and all at once when only talon cards are left
  (``FINISH_MOVE``). Proof: in a winning line, move each talon-to-foundation
  move of a card c to just before the next foundation move of c's suit and
  next rank (while c waits in the talon nothing else changes: the talon only
  offers more, and a foundation one card lower never blocks the other copy of
  c); talon cards whose next rank never follows go to the end. The line keeps
  its length and the same other moves. Starting the chain on the other, lower
  foundation is never needed (play d on the higher one and keep the extra
  talon cards for the foundation's next card: a line no longer, with a smaller
  label at that point).

* *Stepping stones* (``REDUCE_STONE``; unlimited passes, macro moves). A talon
  card goes onto a pile (never into an empty one) only if the next move puts a
  card onto it. Proof: move each talon-to-pile move to just before the first
  move that puts a card onto that card; if none comes, leave the card in the
  talon altogether (its later moves -- on its own, or to a foundation -- fall
  away or join a lazy chain: a shorter line). A chain of talon cards into an
  empty pile with a card d on top is never needed: d alone into the empty pile
  does the same, the chain cards staying in the talon until something needs
  them (then they go on as stepping stones there). A stone that no card could be
  put onto next (:func:`_followable`; a talon card counts only if it could be
  followed in turn) is not offered at all: it would leave a position with no moves.

* *Safe foundation moves* (``REDUCE_SAFE``). A card c of rank r (0 = Ace) on a
  tableau top or the ladder top (or in the talon, with unlimited passes, macro
  moves and no lazy talon) that fits a foundation is played at once as the
  only move when both copies of rank r-1 of c's own suit and of both suits of
  the other colour are already up (always for an Ace). Proof: take a winning
  line L. Nothing can ever be put on c (the cards that fit on it are up for
  good), so c stays a top card until L moves it; play c up first and then L
  without c's own moves (a tail whose top card is c moves without it). Every
  move of L stays legal: other tops are the same, a pile holding only c in L is
  empty instead, and foundation moves only grow easier -- c up never blocks the
  other copy c' (both copies of rank r-1 being up, a foundation at r-1 stays
  free for c'), and it only helps rank r+1. The line is no longer. The
  same-suit condition matters in two decks: with the second copy of rank r-1
  still buried (say under c' on the ladder), c up could block c' for ever.
  With limited passes (macro moves) the waste top and the next stock card are such
  cards too. The talon without c is L's talon without c, and stays so: L's stock
  and waste, c taken out, are ours. A draw of c in L is skipped, any other draw is
  the same card, a waste top L plays is ours too (c lies under it or is gone), L's
  play of c is skipped, and a redeal turns the same cards over when L's stock is
  empty (then ours is). A safe card deeper in the stock is not played at once: the
  draws to it would bury the cards before it.

* *Arrangement* (``REDUCE_ARRANGE``). Call a position's *skeleton* its ladder,
  talon, foundations, every pile's junk and the card its tail rests on the
  junk with, and the set of the other tail cards: the skeleton leaves out only
  which card lies on which (each lies on a card it builds on, or on the floor
  of a pile without junk). The kernel (1) never moves a stack from a card it
  builds on onto another card or into an empty pile, except to uncover that
  card for a foundation move (one macro move: the stack onto the first top card
  like the one uncovered, else into the empty pile, then the card up); (2) puts
  every card or stack onto the first top card it fits; (3) moves a pile without
  junk onto a top card its bottom card builds on, as a forced move
  (*consolidation*). Proof: in a consolidated position every class (rank and
  colour) has as many of its cards covered by cards that build on them as the
  skeleton allows, so for every class K the number of free places for a card
  that builds on K -- uncovered K cards plus empty piles -- is at least that of
  any position with the same skeleton. So a winning line L can be followed
  from any consolidated position with the same skeleton: moves that only
  rearrange (stacks moved from a card they build on, piles without junk moved
  onto a card) are skipped; a card L puts somewhere goes onto the first free
  place of its class; a card L moves to a foundation is uncovered by moving
  its stack to another free place of its class (one exists: L has one, namely
  the card itself) -- and after each move the skeletons agree again. The other
  moves, the cards moved and their labels are those of L.

* *Deadlocks* (``REDUCE_DEADLOCK``). Before the search, a least fixed point
  over optimistic facts asks whether every card can ever reach a foundation
  (:func:`_doomed`); when one cannot, the root gets no moves and the deal is
  lost at once. The facts, per copy of a card in a pile or on the ladder:
  it may *go up* if it may be uncovered (for a pile card: the original card on
  it may leave; for a ladder card: every card above it may) or has left its
  place, and a copy of the rank below of its suit may go up (or is up); it
  may *leave for a pile* if it may be uncovered -- a pile card also when the
  original cards still on it form a proper run from it, which moves along --
  and some parent (rank one higher, other colour) may be a pile top, or some
  pile (another one, for a pile card) may become empty, i.e. its bottom card
  may leave. Talon cards count as always within reach (true with unlimited
  passes, optimistic with a limit): they may go up as above and may go onto a
  pile on the same terms. A card may be a pile top if it is uncovered in its
  pile or may go onto a pile. In the last pass (no redeal left) the waste is a
  pile like the ladder: a waste card comes out only after every card above it
  (nothing but drawn cards is ever put on it), while the stock cards still
  count as within reach. Proof: every fact only relaxes the rules (timing
  is ignored, a parent or an empty pile may serve any number of cards, and a
  card that left its place may go up from wherever it went); by induction on
  the time each card first leaves its place, or goes up, in a winning line,
  every fact that line uses holds at the fixed point (the original cards of a
  pile that are still in it are always a bottom part of it, since a card
  leaves only from the top, alone or in a proper run). A winning line puts
  both copies of every card up, so if the fixed point misses one, no line
  wins. Only the root is tested: it decides a few deals that a search takes
  millions of nodes to prove lost (and a position in the middle of a game, a
  deal file or a sampled table, with cards buried in its waste), while per node
  it costs more than a node and cuts few nodes on the hard deals, whose tableau
  is stuck in ways it cannot see; with one pass, tested after every move that
  buries talon cards in the waste, it cut the nodes of lost deals many times
  over but made the nodes of won deals dearer, and decided fewer deals in the
  same time (benchmarks/results.md).

* *Dominance* (``REDUCE_DOMINANCE``; unlimited passes, macro moves; the engine
  applies it, see ``engine/contract.py``). Two states with the same piles and
  ladder and no stepping-stone constraint differ only in which cards are up: the
  cards up in one (A) and not in the other (B) are in B's talon, all of them in
  reach, so B plays them up and is A -- B wins whenever A does. So a new state is
  skipped when a finished state of its group has every foundation at most as high.
  Why no win is lost: suppose some finished state can be won; take one with the
  least (cards up + real moves of its shortest winning kernel line), and among those
  the first finished. Its child on that line was finished before it (searched
  below it, or found finished), or was skipped for a finished state B that it
  dominates -- B has no more of either sum (its line: the missing talon cards up,
  then the child's) and was finished before -- or was an ancestor on the path, which
  cannot be when the child has as small a sum: the move then only put cards up, and
  cards up never come down, so the child has more up than any ancestor. Each case
  gives a smaller counterexample. On hard lost deals most stored states are
  dominated by another (benchmarks/results.md).

* *Talon dominance* (``REDUCE_TALON_DOMINANCE``; limited passes, macro moves; the
  engine applies it). Of two positions that differ only in the passes used and the
  boundary, the one with fewer passes used, or as many and an earlier boundary, can
  win wherever the other can (the argument: ``games/talon_dominance.py``). The key
  keeps the two in its low bits, and the search skips a new position when such a
  better one is finished (benchmarks/results.md).

* *Dropped: "use what a move exposes".* An earlier version also required the
  move after a tableau, ladder or talon move to use what it exposed or placed,
  or to have a label not lower (argued from the lexicographically least
  shortest winning line). Such next-move rules compose badly with each other
  and with forced moves (two moves each waiting for the other); the argument
  was not checked to the end, so the rule is gone. Only the stepping-stone
  constraint remains: after a talon card onto pile Y the next move puts a card
  onto Y (``PEND_*``, in the key); a forced move clears it, which only allows
  more.

* *Empty piles and symmetry.* Piles are interchangeable: the key adds
  per-pile hashes (the pile a stepping-stone constraint names is marked, so
  the mark travels with the pile), and of several empty piles only one is a
  target (the first). A tail that is
  a whole pile never moves to an empty pile (it only renames piles).
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from ..cardbits import ALL_CARDS, PARENTS
from .state import (FOUND, LADDER, LADDER_LEN, LEN, N_PILES, PASSES, PILE_CAP, PILES, RANKS, REDUCE, REDUCE_LAZY,
                    REDUCE_MACRO, REDUCE_STONE, TALON, TALON_LEN, WASTE_LEN, _builds, _fits_found, _red,
                    _redeal_allowed, _talon_remove, _to_found)


@njit(cache=True)
def _lazy(s):
    """Talon cards go up only in chains (REDUCE_LAZY; unlimited passes, macro moves)."""
    return s[PASSES] == 0 and (s[REDUCE] & (REDUCE_MACRO | REDUCE_LAZY)) == (REDUCE_MACRO | REDUCE_LAZY)


@njit(cache=True)
def _stone(s):
    """Talon cards go on piles only as stepping stones (REDUCE_STONE; unlimited, macro)."""
    return s[PASSES] == 0 and (s[REDUCE] & (REDUCE_MACRO | REDUCE_STONE)) == (REDUCE_MACRO | REDUCE_STONE)


@njit(cache=True)
def _chain_base(s, c):
    """Height of the foundation a lazy chain for card c builds on (-1: none)."""
    f = FOUND + 2 * (c // 13)
    r = c % 13
    if s[f] <= r:
        return np.int64(s[f])
    if s[f + 1] <= r:
        return np.int64(s[f + 1])
    return -1


@njit(inline="always")
def _chain_ends(s, lazy, talon):
    """The cards that can go up now, as a bit set (the move generators test one bit): a
    card fits a foundation, or (lazy talon) the talon holds the cards from the highest
    foundation of its suit not above it up to it. Per suit, that is the ranks from each
    foundation's height up to the first rank missing from the talon (only the heights
    themselves without lazy talon); the lower foundation serves the ranks below the higher."""
    ups = np.uint64(0)
    one = np.uint64(1)
    for su in range(4):
        f = FOUND + 2 * su
        high = np.int64(s[f])
        low = np.int64(s[f + 1])
        # the suit's ranks in the talon; a chain from h ends at the first rank at or above
        # h missing from it (a card that fits is a chain of one)
        gaps = ALL_CARDS
        if lazy:
            gaps = ~((np.uint64(talon) >> np.uint64(su * 13)) & RANKS)
        for h, stop in ((high, 13), (low, high)):   # a chain from low serves ranks below high
            if h < stop:
                end = min(h + np.int64(trailing_zeros(gaps >> np.uint64(h))), stop - 1)
                ups |= ((one << np.uint64(end + 1)) - (one << np.uint64(h))) << np.uint64(su * 13)
    return ups


@njit(inline="always")
def _up(s, c):
    """Card c to a foundation; a lazy chain first plays the talon cards it needs."""
    if not _fits_found(s, c):
        h = _chain_base(s, c)
        for k in range(h, c % 13):
            t = (c // 13) * 13 + k
            _talon_remove(s, t)
            _to_found(s, t)
    _to_found(s, c)


@njit(cache=True)
def _safe(s, c):
    """Both copies of rank r-1 of c's suit and of the other colour's suits are up."""
    r = c % 13
    if r == 0:
        return True
    if s[FOUND + 2 * (c // 13) + 1] < r:
        return False
    if _red(c):
        return s[FOUND + 1] >= r and s[FOUND + 7] >= r
    return s[FOUND + 3] >= r and s[FOUND + 5] >= r


@njit(cache=True)
def _safe_ups(s):
    """The card values that fit a foundation and are safe (:func:`_fits_found` and
    :func:`_safe`), as a bit set: per suit the two heights, kept when at most the least
    of the suit's lower height and the other colour's lower heights (or an Ace)."""
    out = np.uint64(0)
    for su in range(4):
        low = np.int64(s[FOUND + 2 * su + 1])
        if su == 1 or su == 2:
            m = min(low, np.int64(s[FOUND + 1]), np.int64(s[FOUND + 7]))
        else:
            m = min(low, np.int64(s[FOUND + 3]), np.int64(s[FOUND + 5]))
        m = max(m, np.int64(0))
        for h in (np.int64(s[FOUND + 2 * su]), low):
            if h < 13 and h <= m:
                out |= np.uint64(1) << np.uint64(su * 13 + h)
    return out


@njit(cache=True)
def _may_go_up(c, up1):
    """A copy of card value c may go up once one of the rank below may (_doomed)."""
    return c % 13 == 0 or (up1 & (np.uint64(1) << np.uint64(c - 1))) != 0


@njit(cache=True)
def _one_more_up(b, up1, up2):
    """(up1, up2) once another copy of the cards in b may go up (_doomed)."""
    return up1 | b, up2 | (up1 & b)


@njit(cache=True)
def _has_a_place(c, tops, empties):
    """Card value c may go onto a pile: a parent may be a top, or a pile in ``empties``
    may become empty (_doomed)."""
    return (PARENTS[c] & tops) != 0 or empties != 0


@njit(cache=True)
def _top_first(s, base, n, left, up, tops, up1, up2, emptiable):
    """The facts of the ``n`` cards at ``s[base:]`` (bottom to top) that leave one by one,
    from the top only (the ladder, and the waste in the last pass): a card may go up or
    onto a pile once every card above it may have left (_doomed). ``left`` and ``up`` are
    bit q for the card at q. (left, up, tops, up1, up2, changed)"""
    one = np.uint64(1)
    changed = False
    for q in range(n - 1, -1, -1):
        bq = one << np.uint64(q)
        if q < n - 1 and ((left | up) & (bq << one)) == 0:
            break
        c = np.int64(s[base + q])
        b = one << np.uint64(c)
        if (up & bq) == 0 and _may_go_up(c, up1):
            up |= bq
            up1, up2 = _one_more_up(b, up1, up2)
            changed = True
        if (left & bq) == 0 and _has_a_place(c, tops, emptiable):
            left |= bq
            tops |= b
            changed = True
    return left, up, tops, up1, up2, changed


@njit(cache=True)
def _doomed(s):
    """True when some card can never reach a foundation, whatever is played (see
    REDUCE_DEADLOCK in the module docstring). A least fixed point over optimistic
    facts about the cards of the position (per copy: its place in a pile or on the
    ladder; talon cards per value):

    * ``moved`` / ``lmoved``: a pile / ladder card may leave its place for a pile;
      ``upd`` / ``lup``: it may go up; ``gone``: either (bit q of a pile's mask);
    * ``tops``: card values that may be a pile top at some time (to go onto);
    * ``up1`` / ``up2``: values of which at least one copy / both copies may go up
      (foundation cards included).
    """
    one = np.uint64(1)
    up1 = np.uint64(0)
    up2 = np.uint64(0)
    for su in range(4):
        for r in range(s[FOUND + 2 * su]):
            up1 |= one << np.uint64(su * 13 + r)
        for r in range(s[FOUND + 2 * su + 1]):
            up2 |= one << np.uint64(su * 13 + r)
    # in the last pass the waste is a pile like the ladder (its top only, then the card
    # under it); the stock cards, and every talon card while a redeal is left, count as
    # always within reach
    wl = np.int64(s[WASTE_LEN]) if s[PASSES] != 0 and not _redeal_allowed(s) else np.int64(0)
    wmoved = np.uint64(0)
    wup = np.uint64(0)
    tal1 = np.uint64(0)   # values with a copy in the talon (in reach)
    tal2 = np.uint64(0)   # values with both copies in the talon (in reach)
    for q in range(wl, s[TALON_LEN]):
        b = one << np.uint64(s[TALON + q])
        if tal1 & b:
            tal2 |= b
        tal1 |= b
    talup = np.uint64(0)
    placed = np.uint64(0)
    tops = np.uint64(0)
    moved = np.zeros(N_PILES, dtype=np.uint32)
    upd = np.zeros(N_PILES, dtype=np.uint32)
    ll = np.int64(s[LADDER_LEN])
    lmoved = np.uint64(0)
    lup = np.uint64(0)
    u1 = np.uint32(1)
    changed = True
    while changed:
        changed = False
        # piles that are or may become empty (their bottom card may leave)
        emptiable = 0
        for i in range(N_PILES):
            if s[LEN + i] == 0 or ((moved[i] | upd[i]) & u1) != 0:
                emptiable |= 1 << i
        for i in range(N_PILES):
            ln = np.int64(s[LEN + i])
            base = PILES + i * PILE_CAP
            for q in range(ln - 1, -1, -1):
                c = np.int64(s[base + q])
                b = one << np.uint64(c)
                bq = u1 << np.uint32(q)
                gone = moved[i] | upd[i]
                exposed = q == ln - 1 or (gone & (bq << u1)) != 0
                if exposed and (tops & b) == 0:
                    # a new top is a new fact: another sweep may use it (piles scanned
                    # earlier in this sweep did not see it; without this a won position
                    # could be called doomed, see test_a_top_seen_late_is_used)
                    tops |= b
                    changed = True
                # up: once uncovered, or from wherever it went
                if (exposed or (gone & bq) != 0) and (upd[i] & bq) == 0 and _may_go_up(c, up1):
                    upd[i] |= bq
                    up1, up2 = _one_more_up(b, up1, up2)
                    changed = True
                if moved[i] & bq:
                    continue
                # to a pile, with the original cards still above it (a proper run)
                k = q
                free = exposed
                while not free and k + 1 < ln and _builds(s[base + k + 1], s[base + k]):
                    k += 1
                    free = k == ln - 1 or ((moved[i] | upd[i]) & (u1 << np.uint32(k + 1))) != 0
                if not free:
                    continue
                if _has_a_place(c, tops, emptiable & ~(1 << i)):
                    for t in range(q, k + 1):
                        moved[i] |= u1 << np.uint32(t)
                        tops |= one << np.uint64(s[base + t])
                    changed = True
        # the ladder, and the waste in the last pass
        lmoved, lup, tops, up1, up2, grew = _top_first(s, LADDER, ll, lmoved, lup, tops, up1, up2, emptiable)
        changed = changed or grew
        wmoved, wup, tops, up1, up2, grew = _top_first(s, TALON, wl, wmoved, wup, tops, up1, up2, emptiable)
        changed = changed or grew
        # talon cards: always within reach (more than the rules give with limited passes)
        for c in range(52):
            b = one << np.uint64(c)
            if (tal1 & b) == 0:
                continue
            if (talup & b) == 0 and _may_go_up(c, up1):
                talup |= b
                up1, up2 = _one_more_up(b, up1, up2)
                up2 |= b & tal2   # both copies in the talon: both may go up
                changed = True
            if (placed & b) == 0 and _has_a_place(c, tops, emptiable):
                placed |= b
                tops |= b
                changed = True
        if up2 == ALL_CARDS:
            return False
    return True


# From this many passes on, a limited number of passes is tried as unlimited first (below).
# Not with one pass: its lost deals are almost never lost with unlimited passes, and a
# twin that takes seconds to win (by a line that redeals) takes them from the deal's own
# search. With two passes the hard deals are the unlimited deal's hard ones, and its twin
# proves lost in a second or two deals that the own search leaves unknown at 10 s
# (benchmarks/results.md).
MANY_PASSES = 2


def relaxed(deal):
    """With :data:`MANY_PASSES` passes or more, the same deal with unlimited passes: every
    line of ``deal`` is a line of it, and a line of it that redeals no more often than
    ``deal`` allows is a line of ``deal`` (``solve`` tries it first: lost there is lost
    here, and such a line wins here). Its search is far smaller: with unlimited passes
    the talon leaves the key, and the macro moves, stepping stones and dominance hold.
    With few passes its lines mostly redeal more often than allowed: then it only proves
    deals lost."""
    passes = deal.options["passes"]
    if passes is None or passes < MANY_PASSES:
        return None
    easier = deal.copy()
    easier.passes_used = 0
    easier.options = {**deal.options, "passes": None}
    return easier
