"""Ladder kernels for the engine, and the conversion of their moves to notation.

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
  pile or may go onto a pile. Proof: every fact only relaxes the rules (timing
  is ignored, a parent or an empty pile may serve any number of cards, and a
  card that left its place may go up from wherever it went); by induction on
  the time each card first leaves its place, or goes up, in a winning line,
  every fact that line uses holds at the fixed point (the original cards of a
  pile that are still in it are always a bottom part of it, since a card
  leaves only from the top, alone or in a proper run). A winning line puts
  both copies of every card up, so if the fixed point misses one, no line
  wins. Only the root is tested: it decides 6 of seeds 1-10000 (288 and 784
  among them, which a search took 7M-11M nodes to prove lost, or did not
  finish); per node it cost 5 us (three times a node) and cut under 10 % of
  nodes on the hard deals, whose tableau is stuck in ways it cannot see.

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
  gives a smaller counterexample. In 581 (lost), 85 % of the 7.3M stored states
  were dominated by another; a search skipping them took 5.8M nodes, not 10.9M.

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

from ...deals import Deal
from ...engine.contract import (APPLY_SIG, DOMINANCE_SIG, KEY_SIG, MOVES_SIG, PROGRESS_SIG, TRANSIENT_SIG, WON_SIG,
                               Kernels)
from ...engine.contract import mix64 as _mix
from ...engine.contract import mix64_int
from ...moves import Move
from ..cardbits import ALL_CARDS, CHILDREN, PARENTS

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
STATE_SIZE = PILES + N_PILES * PILE_CAP  # 292
MAX_MOVES = 768      # bound: 52 + 96 + 9 + 56 + 96 + 344 + 43 + 2 (see moves)

REDUCE_MACRO, REDUCE_SAFE, REDUCE_LAZY, REDUCE_STONE, REDUCE_ARRANGE, REDUCE_DEADLOCK = 1, 2, 4, 8, 16, 32
REDUCE_DOMINANCE = 64
REDUCE_ALL = (REDUCE_MACRO | REDUCE_SAFE | REDUCE_LAZY | REDUCE_STONE | REDUCE_ARRANGE | REDUCE_DEADLOCK
              | REDUCE_DOMINANCE)

# move orders (ORDER): the search runs the deal under each in turn over one table (engine/search.py)
ORDER_FOUNDATION_FIRST, ORDER_LADDER_FIRST, ORDER_LADDER_HIGH_FIRST, ORDER_LADDER_SCRAMBLED = 0, 1, 2, 3
# orders 4, 5, 6: ORDER_LADDER_SCRAMBLED with other pseudo-random card orders (the engine's
# table has flags for seven searches). Search time on hard won deals is heavy-tailed in the
# order: alone, order 6 wins seed 580 in 29,000 nodes and 579 in 119,000, where the first
# four took 18M and 12M nodes in turns; easy deals are won by the first order in its
# first turn, and deals the 2nd-4th orders win cost up to 7/4 as many nodes as before
# (seeds 1-200: 1.3M nodes in all to 2.1M)
ROOT_ORDERS = (ORDER_LADDER_FIRST, ORDER_FOUNDATION_FIRST, ORDER_LADDER_HIGH_FIRST, ORDER_LADDER_SCRAMBLED, 4, 5, 6)
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

# move encoding: src | dst << 4 | index << 8 | redeal << 16 | forced << 17
SRC_LADDER, SRC_TALON, DST_FOUND = 8, 9, 8
DRAW_MOVE, REDEAL_MOVE = 1 << 20, 2 << 20   # plain stock moves when macros are off
FINISH_MOVE = 3 << 20                        # lazy talon: play the whole talon up
REDEAL_FLAG, FORCED_FLAG = 1 << 16, 1 << 17

RANKS = np.uint64((1 << 13) - 1)       # a rank set: bit r for rank r (0 = Ace)
FOLLOW_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)   # no stepping-stone filter (see _followable)

# kinds of constraint a move leaves on the next one (PEND_KIND)
K_NONE, K_STONE = 0, 1


# ---------------------------------------------------------------------------
# Small helpers (inlined into the kernels)
# ---------------------------------------------------------------------------
@njit(inline="always")
def _red(c):
    s = c // 13
    return s == 1 or s == 2


@njit(inline="always")
def _builds(c, below):
    """Card c may lie on card ``below``: one rank lower, other colour (a table lookup:
    cheaper than the two divisions by 13 and the colour tests)."""
    return (PARENTS[c] >> np.uint64(below)) & np.uint64(1) != 0


@njit(inline="always")
def _twin(c):
    """The card of c's rank and colour in the other suit (clubs-spades, diamonds-hearts)."""
    return (3 - c // 13) * 13 + c % 13


@njit(inline="always")
def _twin_set(cards):
    """:func:`_twin` of every card in a bit set (suits 0-3 hold bits 0-12, 13-25, 26-38, 39-51)."""
    suit = np.uint64((1 << 13) - 1)
    red = suit << np.uint64(13)   # diamonds, as a bit set; hearts are 13 bits higher
    return (((cards & suit) << np.uint64(39)) | ((cards >> np.uint64(39)) & suit)
            | ((cards & red) << np.uint64(13)) | ((cards >> np.uint64(13)) & red))


@njit(inline="always")
def _top(s, j):
    return s[PILES + j * PILE_CAP + s[LEN + j] - 1]


@njit(inline="always")
def _fits_found(s, c):
    f = FOUND + 2 * (c // 13)
    r = c % 13
    return s[f] == r or s[f + 1] == r


@njit(inline="always")
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


@njit(inline="always")
def _lazy(s):
    """Talon cards go up only in chains (REDUCE_LAZY; unlimited passes, macro moves)."""
    return s[PASSES] == 0 and (s[REDUCE] & (REDUCE_MACRO | REDUCE_LAZY)) == (REDUCE_MACRO | REDUCE_LAZY)


@njit(inline="always")
def _stone(s):
    """Talon cards go on piles only as stepping stones (REDUCE_STONE; unlimited, macro)."""
    return s[PASSES] == 0 and (s[REDUCE] & (REDUCE_MACRO | REDUCE_STONE)) == (REDUCE_MACRO | REDUCE_STONE)


@njit(inline="always")
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
def _talon_mask(s):
    mask = np.uint64(0)
    for q in range(s[TALON_LEN]):
        mask |= np.uint64(1) << np.uint64(s[TALON + q])
    return mask


@njit(inline="always")
def _chain_ends(s, lazy, talon):
    """The cards that can go up now, as a bit set (the move generators test one bit): a
    card fits a foundation, or (lazy talon) the talon holds the cards from the highest
    foundation of its suit not above it up to it. Per suit, that is the ranks from each
    foundation's height up to the first rank missing from the talon (only the heights
    themselves without lazy talon); the lower foundation serves the ranks below the higher."""
    ups = np.uint64(0)
    for su in range(4):
        f = FOUND + 2 * su
        high = np.int64(s[f])
        low = np.int64(s[f + 1])
        for h, stop in ((high, 13), (low, high)):   # a chain from low serves ranks below high
            r = h
            while r < stop:
                ups |= np.uint64(1) << np.uint64(su * 13 + r)
                if not lazy or not (talon & (np.uint64(1) << np.uint64(su * 13 + r))):
                    break
                r += 1
    return ups


@njit(inline="always")
def _talon_remove(s, card):
    """Play one copy of ``card`` out of the talon (the copy fewest draws away)."""
    talon_len = np.int64(s[TALON_LEN])
    waste_len = np.int64(s[WASTE_LEN])
    for q in range(talon_len):
        p = _talon_pos(q, talon_len, waste_len)
        if s[TALON + p] == card:
            for k in range(p, talon_len - 1):
                s[TALON + k] = s[TALON + k + 1]
            s[TALON_LEN] = talon_len - 1
            s[WASTE_LEN] = p
            return


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


@njit(inline="always")
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


@njit(inline="always")
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


@njit(inline="always")
def _may_go_up(c, up1):
    """A copy of card value c may go up once one of the rank below may (_doomed)."""
    return c % 13 == 0 or (up1 & (np.uint64(1) << np.uint64(c - 1))) != 0


@njit(inline="always")
def _one_more_up(b, up1, up2):
    """(up1, up2) once another copy of the cards in b may go up (_doomed)."""
    return up1 | b, up2 | (up1 & b)


@njit(inline="always")
def _has_a_place(c, tops, empties):
    """Card value c may go onto a pile: a parent may be a top, or a pile in ``empties``
    may become empty (_doomed)."""
    return (PARENTS[c] & tops) != 0 or empties != 0


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
    tal1 = np.uint64(0)   # values with a copy in the talon
    tal2 = np.uint64(0)   # values with both copies in the talon
    for q in range(s[TALON_LEN]):
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
    lmoved = np.uint32(0)
    lup = np.uint32(0)
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
        # the ladder: a card leaves only after every card above it
        for q in range(ll - 1, -1, -1):
            bq = u1 << np.uint32(q)
            if q < ll - 1 and ((lmoved | lup) & (bq << u1)) == 0:
                break
            c = np.int64(s[LADDER + q])
            b = one << np.uint64(c)
            if (lup & bq) == 0 and _may_go_up(c, up1):
                lup |= bq
                up1, up2 = _one_more_up(b, up1, up2)
                changed = True
            if (lmoved & bq) == 0 and _has_a_place(c, tops, emptiable):
                lmoved |= bq
                tops |= b
                changed = True
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


@njit(inline="always")
def _enc(src, dst, index, redeal):
    return np.int32(src | (dst << 4) | (index << 8) | (redeal << 16))


@njit(inline="always")
def _redeal_allowed(s):
    return s[PASSES] == 0 or s[PASSES_USED] + 1 < s[PASSES]


@njit(inline="always")
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


@njit(inline="always")
def _ok(kind, py, dst):
    """May a move to ``dst`` follow the last move? After a stepping stone onto pile py
    (REDUCE_STONE) only a move that puts a card onto it may."""
    return kind == K_NONE or dst == py


@njit(inline="always")
def _empty_target(s):
    """The one empty pile offered as a target (piles are interchangeable): the first."""
    for j in range(N_PILES):
        if s[LEN + j] == 0:
            return j
    return -1


@njit(inline="always")
def _talon_pos(q, talon_len, waste_len):
    """The q-th talon index in order of draws needed: waste top, stock, then after a redeal."""
    if waste_len == 0:
        return q
    p = waste_len - 1 + q   # below 2 * talon_len: a subtraction, not a division per card
    return p - talon_len if p >= talon_len else p


# ---------------------------------------------------------------------------
# Move generators, one per kind of move (inlined into ``moves``)
# ---------------------------------------------------------------------------
@njit(inline="always")
def _gen_pile_found(s, out, n, kind, py, ups):
    for i in range(N_PILES):
        ln = s[LEN + i]
        if ln > 0:
            c = s[PILES + i * PILE_CAP + ln - 1]
            if (ups & (np.uint64(1) << np.uint64(c))) != 0 and _ok(kind, py, DST_FOUND):
                out[n] = _enc(i, DST_FOUND, ln - 1, 0)
                n += 1
    return n


@njit(inline="always")
def _gen_ladder(s, out, n, kind, py, et, to_found, to_piles, ups, first):
    ladder_len = s[LADDER_LEN]
    if ladder_len == 0:
        return n
    c = s[LADDER + ladder_len - 1]
    if to_found and (ups & (np.uint64(1) << np.uint64(c))) != 0 and _ok(kind, py, DST_FOUND):
        out[n] = _enc(SRC_LADDER, DST_FOUND, 0, 0)
        n += 1
    if to_piles:
        for j in range(N_PILES):
            if s[LEN + j] > 0 and _builds(c, _top(s, j)) and _ok(kind, py, j):
                out[n] = _enc(SRC_LADDER, j, 0, 0)
                n += 1
                if first:
                    break
        if et >= 0 and _ok(kind, py, et):
            out[n] = _enc(SRC_LADDER, et, 0, 0)
            n += 1
    return n


@njit(inline="always")
def _gen_talon(s, out, n, kind, py, et, macro, unlimited, to_found, to_piles, to_empty, holds, first, talon,
               followable, targets, safe_ups, ladder_top):
    """Talon cards (macro moves) or the waste top (plain) to the foundations / piles.
    ``holds`` >= 0: only cards that card ``holds`` builds on (-2: only those that it does not;
    -3 -- only with ``first`` and unlimited passes, macro moves -- all of them in one pass
    over the talon, those that ``ladder_top`` builds on listed first: the moves and the
    order of two calls, holds = ladder_top and holds = -2).
    ``followable`` (stepping stones; else FOLLOW_ALL): the ranks and colours of the cards
    that may go onto a pile next; a stone nothing of it builds on is left out (see
    _followable). ``targets``: the cards some pile top allowed as a target takes."""
    talon_len = np.int64(s[TALON_LEN])
    waste_len = np.int64(s[WASTE_LEN])
    # only to piles: the card values that may go somewhere (a filter by value, so the
    # moves and their order are those of the plain loop; it only skips work)
    cand = ALL_CARDS
    if to_piles and not to_found and not to_empty:
        cand = targets
        if holds >= 0:
            cand &= PARENTS[holds]
        elif holds == -2 and s[LADDER_LEN] > 0:
            cand &= ~PARENTS[s[LADDER + s[LADDER_LEN] - 1]]
        if followable != FOLLOW_ALL:
            cand &= _followed(followable) | safe_ups   # a dead stone: no move could follow it
        if cand == 0:
            return n
    seen = np.uint64(0)   # unlimited passes: one move per card value
    every = macro and unlimited and talon != 0
    if every:
        # every talon value comes up in the loop: it may stop once all of cand has
        cand &= talon
        if cand == 0:
            return n
    start = n
    held = 0        # holds == -3: the moves of cards the ladder top builds on (at most two
    held0 = 0       # card values, one move each), put before the others at the end
    held1 = 0
    count = talon_len if macro else (1 if waste_len > 0 else 0)
    if macro and not _redeal_allowed(s):
        # no redeal left: only the waste top and the stock (the cards under the waste
        # top come back one by one as the cards above them are played)
        count = talon_len - max(waste_len - 1, 0) if waste_len > 0 else talon_len
    for q in range(count):
        if every and seen == cand:
            break
        if macro:
            # the q-th talon index in order of draws needed; with unlimited passes a
            # copy of a card value already offered is skipped
            p = _talon_pos(q, talon_len, waste_len)
            bit = np.uint64(1) << np.uint64(s[TALON + p])
            if (cand & bit) == 0:
                continue
            if unlimited:
                if seen & bit:
                    continue
                seen |= bit
        else:
            p = waste_len - 1
        c = s[TALON + p]
        if holds >= 0 and not _builds(holds, c):
            continue
        if holds == -2 and s[LADDER_LEN] > 0 and _builds(s[LADDER + s[LADDER_LEN] - 1], c):
            continue
        redeal = 1 if p < waste_len - 1 else 0
        if to_found and _fits_found(s, c) and _ok(kind, py, DST_FOUND):
            out[n] = _enc(SRC_TALON, DST_FOUND, p, redeal)
            n += 1
        if to_piles:
            for j in range(N_PILES):
                if s[LEN + j] > 0 and _builds(c, _top(s, j)) and _ok(kind, py, j):
                    if holds == -3 and ladder_top >= 0 and _builds(ladder_top, c):
                        if held == 0:
                            held0 = _enc(SRC_TALON, j, p, redeal)
                        else:
                            held1 = _enc(SRC_TALON, j, p, redeal)
                        held += 1
                    else:
                        out[n] = _enc(SRC_TALON, j, p, redeal)
                        n += 1
                    if first:
                        break
        if to_empty and et >= 0 and _ok(kind, py, et):
            out[n] = _enc(SRC_TALON, et, p, redeal)
            n += 1
    if held > 0:
        for q in range(n - 1, start - 1, -1):
            out[q + held] = out[q]
        out[start] = held0
        if held > 1:
            out[start + 1] = held1
        n += held
    return n


@njit(inline="always")
def _red_ranks(cards):
    """The ranks (bit r) of the red cards in a card bit set."""
    return ((cards >> np.uint64(13)) | (cards >> np.uint64(26))) & RANKS


@njit(inline="always")
def _black_ranks(cards):
    """The ranks (bit r) of the black cards in a card bit set."""
    return (cards | (cards >> np.uint64(39))) & RANKS


@njit(inline="always")
def _followed(followable):
    """The card values that some card of ``followable`` (see _followable) builds on: the
    black cards one rank above a red rank in it, the red ones one rank above a black."""
    black = (followable << np.uint64(1)) & RANKS
    red = ((followable >> np.uint64(16)) << np.uint64(1)) & RANKS
    return black | (black << np.uint64(39)) | (red << np.uint64(13)) | (red << np.uint64(26))


@njit(inline="always")
def _followable(s, runs, talon, arrange, ups, safe_ups):
    """The cards that may be put onto a stepping stone by the move after it: the ladder
    top, a talon card, or a card of a pile's top run (a tail's lowest card, also one a
    swap moves; with REDUCE_ARRANGE only the run's lowest card and a card on one that
    may go up). A stone none of them builds on leaves a position with no moves (the
    next move must put a card onto it; the forced moves before the others are a safe
    foundation move, which only the stone itself can newly offer -- _gen_talon keeps
    such a stone -- or a consolidation, whose pile bottom is in a top run), so the
    stone is not offered: the same verdicts, a dead end fewer. In dives on hard deals
    79 % of the states entered were stone positions, with 0.54 moves on average; with
    talon cards counted only as live stones, chains of dead stones go too.
    What may go onto a card depends only on its rank and colour, so the result is two
    rank sets: bit r for the red cards of rank r, bit 16 + r for the black ones."""
    cards = np.uint64(0)
    if s[LADDER_LEN] > 0:
        cards |= np.uint64(1) << np.uint64(s[LADDER + s[LADDER_LEN] - 1])
    for i in range(N_PILES):
        base = PILES + i * PILE_CAP
        k = _run_start(runs, i)
        for q in range(k, s[LEN + i]):
            if not arrange or q == k or (ups & (np.uint64(1) << np.uint64(s[base + q - 1]))) != 0:
                cards |= np.uint64(1) << np.uint64(s[base + q])
    # a talon card counts only as a stone that something could follow in turn (a least
    # fixed point up the ranks; computed here, before the stone goes down, it can only
    # count more than the position after it would: the talon then holds one card fewer)
    red = _red_ranks(cards)
    black = _black_ranks(cards)
    talon_red = _red_ranks(talon)
    talon_black = _black_ranks(talon)
    live_red = _red_ranks(talon & safe_ups)       # a stone that may go up itself is live
    live_black = _black_ranks(talon & safe_ups)
    one = np.uint64(1)
    for r in range(1, 13):   # what builds on a card is one rank lower: rank by rank, one pass
        below = one << np.uint64(r - 1)
        if (talon_red >> np.uint64(r)) & one and ((black | live_black) & below) != 0:
            live_red |= one << np.uint64(r)
        if (talon_black >> np.uint64(r)) & one and ((red | live_red) & below) != 0:
            live_black |= one << np.uint64(r)
    return (red | live_red) | ((black | live_black) << np.uint64(16))


@njit(inline="always")
def _exposed_like(s, c, skip):
    """The first pile (not ``skip``) whose top card has c's rank and colour, or -1."""
    for j in range(N_PILES):
        if j != skip and s[LEN + j] > 0:
            t = _top(s, j)
            if t % 13 == c % 13 and _red(t) == _red(c):
                return j
    return -1


@njit(inline="always")
def _gen_swaps(s, out, n, kind, py, ups, runs, et, tops):
    """REDUCE_ARRANGE: a card X under a tail that builds on it goes up after that tail
    moves onto an uncovered card of X's rank and colour (the one lateral move kept).
    ``tops``: the pile tops, to skip the search for a top like X when none is."""
    if kind != K_NONE:   # after a stepping stone the tail must go onto it
        stone = _top(s, py)
        if (ups & ((np.uint64(1) << np.uint64(stone)) | (np.uint64(1) << np.uint64(_twin(stone))))) == 0:
            return n
    elif et < 0 and (ups & (tops | _twin_set(tops))) == 0:
        return n   # no card that may go up has a place for the tail on it
    for i in range(N_PILES):
        ln = s[LEN + i]
        if ln == 0:
            continue
        base = PILES + i * PILE_CAP
        for idx in range(ln - 2, _run_start(runs, i) - 1, -1):   # the cards under the tail's top
            x = s[base + idx]
            if (ups & (np.uint64(1) << np.uint64(x))) == 0:
                continue
            like = (np.uint64(1) << np.uint64(x)) | (np.uint64(1) << np.uint64(_twin(x)))
            j = _exposed_like(s, x, i) if (tops & like) != 0 else -1
            if j < 0:
                j = et
            # the tail moving onto pile j is part of the move: a use of j counts
            if j >= 0 and (_ok(kind, py, DST_FOUND) or _ok(kind, py, j)):
                out[n] = _enc(i, DST_FOUND, idx, 0)
                n += 1
    return n


@njit(inline="always")
def _built_from(s, base, ln):
    """Index of the lowest card of the pile's top run (each card above builds on the one under)."""
    k = ln - 1
    while k > 0 and _builds(s[base + k], s[base + k - 1]):
        k -= 1
    return k


@njit(inline="always")
def _run_starts(s):
    """:func:`_built_from` of every pile, one byte each (moves() asks up to four times)."""
    runs = np.uint64(0)
    for i in range(N_PILES):
        ln = s[LEN + i]
        if ln > 0:
            runs |= np.uint64(_built_from(s, PILES + i * PILE_CAP, ln)) << np.uint64(8 * i)
    return runs


@njit(inline="always")
def _run_start(runs, i):
    return np.int64((runs >> np.uint64(8 * i)) & np.uint64(255))


@njit(inline="always")
def _gen_tails(s, out, n, kind, py, et, to_piles, to_empty, split, first, runs, targets):
    """Proper tails onto other piles (longest first) / into the empty pile (never a whole
    pile). ``split``: 0 only tails that do not lie on a card they build on, 1 only those
    that do (splitting a longer proper tail), 2 both. ``targets``: the card values some
    top card allowed as a target takes (only skips work)."""
    fits = targets if to_piles else np.uint64(0)
    if fits == 0 and not (to_empty and et >= 0 and _ok(kind, py, et)):
        return n   # no target: nothing to look for
    for i in range(N_PILES):
        ln = s[LEN + i]
        if ln == 0:
            continue
        base = PILES + i * PILE_CAP
        k = _run_start(runs, i)
        for idx in range(k, ln):
            c = s[base + idx]
            if split != 2 and (idx > k) != (split == 1):
                continue
            if to_piles and (fits & (np.uint64(1) << np.uint64(c))) != 0:
                for j in range(N_PILES):
                    if j != i and s[LEN + j] > 0 and _builds(c, _top(s, j)) and \
                            _ok(kind, py, j):
                        out[n] = _enc(i, j, idx, 0)
                        n += 1
                        if first:
                            break
            if to_empty and et >= 0 and idx > 0 and _ok(kind, py, et):
                out[n] = _enc(i, et, idx, 0)
                n += 1
    return n


# ---------------------------------------------------------------------------
# The kernels
# ---------------------------------------------------------------------------
@njit(inline="always")
def _move_label(s, m):
    src = m & 15
    dst = (m >> 4) & 15
    index = (m >> 8) & 255
    if src == SRC_TALON:
        c = s[TALON + index]
    elif src == SRC_LADDER:
        c = s[LADDER + s[LADDER_LEN] - 1]
    else:
        c = s[PILES + src * PILE_CAP + index]
    c = np.int64(c)
    order = s[ORDER]
    if order == ORDER_FOUNDATION_FIRST:
        return _label(src, dst, c)
    # ladder moves first (it is the pile nothing can be rearranged in), then the
    # other foundation moves by rank, then tails and talon cards to piles by rank,
    # low ranks first or high ranks first
    r = c % 13
    if src == SRC_LADDER:
        return r if dst == DST_FOUND else 16 + r
    if dst == DST_FOUND:
        return 32 + r
    return (192 if src == SRC_TALON else 128) + np.int64(PILE_MOVE_RANK[order, c])


def _pile_move_ranks() -> np.ndarray:
    """PILE_MOVE_RANK[order, c]: where a tail or talon card c onto a pile sorts within its
    kind under each move order but ORDER_FOUNDATION_FIRST (a table: the scrambled
    orders' hash was most of the cost of sorting a move list)."""
    table = np.zeros((len(ROOT_ORDERS), 52), dtype=np.uint8)
    for order in range(len(ROOT_ORDERS)):
        for c in range(52):
            if order == ORDER_LADDER_HIGH_FIRST:
                r = 12 - c % 13
            elif order == ORDER_LADDER_SCRAMBLED:
                # within a kind, cards in a fixed pseudo-random order (other deals fall to it)
                r = mix64_int(c * 8 + order) % 13
            elif order > ORDER_LADDER_SCRAMBLED:
                # the same with another pseudo-random order per move order
                r = mix64_int(c * 8 + 3 + order * 1000) % 13
            else:
                r = c % 13   # ORDER_LADDER_FIRST: low ranks first
            table[order, c] = r
    return table


PILE_MOVE_RANK = _pile_move_ranks()


@njit(inline="always")
def _sort_by_label(s, out, n):
    """Order the moves by label (see _label): moves to the foundations first. The labels
    wait in ``out[n:2n]`` (a heap array here cost an allocation per expanded state)."""
    if n < 2:
        return
    if 2 * n > out.shape[0]:   # no room for the labels (never met: see MAX_MOVES)
        labels = np.empty(n, dtype=np.int64)
        for q in range(n):
            labels[q] = _move_label(s, out[q])
        for q in range(1, n):
            m = out[q]
            lab = labels[q]
            r = q - 1
            while r >= 0 and labels[r] > lab:
                out[r + 1] = out[r]
                labels[r + 1] = labels[r]
                r -= 1
            out[r + 1] = m
            labels[r + 1] = lab
        return
    for q in range(n):
        out[n + q] = np.int32(_move_label(s, out[q]))
    for q in range(1, n):
        m = out[q]
        lab = out[n + q]
        r = q - 1
        while r >= 0 and out[n + r] > lab:
            out[r + 1] = out[r]
            out[n + r + 1] = out[n + r]
            r -= 1
        out[r + 1] = m
        out[n + r + 1] = lab


@njit(MOVES_SIG, cache=True)
def moves(s, out):
    reduce = s[REDUCE]
    macro = (reduce & REDUCE_MACRO) != 0
    unlimited = s[PASSES] == 0
    talon_len = np.int64(s[TALON_LEN])
    waste_len = np.int64(s[WASTE_LEN])
    ladder_len = np.int64(s[LADDER_LEN])
    if s[DOOMED]:
        return 0   # the deal is lost: some card can never go up (see REDUCE_DEADLOCK)
    if _lazy(s) and ladder_len == 0 and talon_len > 0:
        empty = True
        for i in range(N_PILES):
            if s[LEN + i] > 0:
                empty = False
        if empty:
            out[0] = FINISH_MOVE  # only talon cards are left: they all go up
            return 1
    # 1. a safe foundation move is forced
    safe_ups = _safe_ups(s)
    one = np.uint64(1)
    if reduce & REDUCE_SAFE:
        for i in range(N_PILES):
            ln = s[LEN + i]
            if ln > 0:
                c = s[PILES + i * PILE_CAP + ln - 1]
                if (safe_ups >> np.uint64(c)) & one:
                    out[0] = _enc(i, DST_FOUND, ln - 1, 0) | FORCED_FLAG
                    return 1
        if ladder_len > 0:
            c = s[LADDER + ladder_len - 1]
            if (safe_ups >> np.uint64(c)) & one:
                out[0] = _enc(SRC_LADDER, DST_FOUND, 0, 0) | FORCED_FLAG
                return 1
        if macro and unlimited and not _lazy(s):
            for q in range(talon_len):
                p = _talon_pos(q, talon_len, waste_len)
                c = s[TALON + p]
                if (safe_ups >> np.uint64(c)) & one:
                    out[0] = _enc(SRC_TALON, DST_FOUND, p, 1 if p < waste_len - 1 else 0) | FORCED_FLAG
                    return 1
    runs = _run_starts(s)
    tops = np.uint64(0)      # the pile tops
    targets = np.uint64(0)   # the card values some pile top takes
    for j in range(N_PILES):
        if s[LEN + j] > 0:
            tops |= one << np.uint64(_top(s, j))
            targets |= CHILDREN[_top(s, j)]
    if reduce & REDUCE_ARRANGE:
        for i in range(N_PILES):
            ln = s[LEN + i]
            if ln == 0:
                continue
            base = PILES + i * PILE_CAP
            k = _run_start(runs, i)
            if k == 0 and (PARENTS[s[base]] & tops) != 0:   # (a pile's own top is no parent of its bottom)
                b = s[base]
                for j in range(N_PILES):
                    if j != i and s[LEN + j] > 0 and _builds(b, _top(s, j)):
                        out[0] = _enc(i, j, 0, 0) | FORCED_FLAG
                        return 1
    kind = np.int64(s[PEND_KIND])
    py = np.int64(s[PEND_Y]) - 1
    et = _empty_target(s)
    n = 0
    lazy = _lazy(s)
    # the card values in the talon (unlimited passes, macro moves: all of them in reach)
    talon = _talon_mask(s) if macro and unlimited else np.uint64(0)
    ups = _chain_ends(s, lazy, talon)   # the cards that may go up now
    arrange = (reduce & REDUCE_ARRANGE) != 0
    if kind != K_NONE:
        targets = CHILDREN[_top(s, py)]   # after a stepping stone, only it is a target
    if kind == K_NONE:   # after a stepping stone, only moves onto it
        n = _gen_ladder(s, out, n, kind, py, et, True, False, ups, arrange)
        n = _gen_pile_found(s, out, n, kind, py, ups)
    if arrange:
        n = _gen_swaps(s, out, n, kind, py, ups, runs, et, tops)
    if not lazy and kind == K_NONE:
        n = _gen_talon(s, out, n, kind, py, et, macro, unlimited, True, False, False, -1, arrange, talon, FOLLOW_ALL,
                       targets, safe_ups, -1)
    n = _gen_ladder(s, out, n, kind, py, et, False, True, ups, arrange)
    top = np.int64(s[LADDER + ladder_len - 1]) if ladder_len > 0 else -1
    followable = FOLLOW_ALL
    if _stone(s) and (targets & talon) != 0:   # only asked when a talon card may go onto a pile
        followable = _followable(s, runs, talon, arrange, ups, safe_ups)
    # talon cards onto piles: those the ladder top builds on, then the others. In one pass
    # when it may (the kernel's moves are sorted by label below, and those of talon cards
    # onto piles come after all others in every order, so where they are made matters not)
    one_pass = arrange and macro and unlimited and talon != 0
    if top >= 0 and not one_pass:
        n = _gen_talon(s, out, n, kind, py, et, macro, unlimited, False, True, False, top, arrange, talon,
                       followable, targets, safe_ups, -1)
    n = _gen_tails(s, out, n, kind, py, et, True, False, 0, arrange, runs, targets)
    n = _gen_tails(s, out, n, kind, py, et, False, True, 0, arrange, runs, targets)
    if not arrange:
        n = _gen_tails(s, out, n, kind, py, et, True, False, 1, False, runs, targets)
    n = _gen_talon(s, out, n, kind, py, et, macro, unlimited, False, True, False, -3 if one_pass else -2, arrange,
                   talon, followable, targets, safe_ups, top)
    if not arrange:
        n = _gen_tails(s, out, n, kind, py, et, False, True, 1, arrange, runs, targets)
    if not _stone(s):
        n = _gen_talon(s, out, n, kind, py, et, macro, unlimited, False, False, True, -1, arrange, talon, FOLLOW_ALL,
                       targets, safe_ups, -1)
    _sort_by_label(s, out, n)
    # plain stock moves (macro moves off); they count as lower than any card
    if not macro and kind == K_NONE:
        if waste_len < talon_len:
            out[n] = DRAW_MOVE
            n += 1
        elif waste_len > 0 and _redeal_allowed(s):
            out[n] = REDEAL_MOVE
            n += 1
    return n


@njit(inline="always")
def _place(s, c, dst):
    if dst == DST_FOUND:
        _to_found(s, c)
    else:
        t = s[LEN + dst]
        s[PILES + dst * PILE_CAP + t] = c
        s[LEN + dst] = t + 1


@njit(APPLY_SIG, cache=True)
def apply(s, m):
    et = _empty_target(s)  # the empty pile moves() offered
    s[PEND_KIND] = K_NONE
    s[PEND_Y] = 0
    if m == DRAW_MOVE:
        s[WASTE_LEN] += 1
        return
    if m == REDEAL_MOVE:
        s[WASTE_LEN] = 0
        if s[PASSES] != 0:
            s[PASSES_USED] += 1
        return
    if m == FINISH_MOVE:
        for f in range(8):
            s[FOUND + f] = 13
        s[TALON_LEN] = 0
        s[WASTE_LEN] = 0
        return
    src = m & 15
    dst = (m >> 4) & 15
    index = (m >> 8) & 255
    free = (m & FORCED_FLAG) == 0   # a forced move leaves no constraint
    if src == SRC_TALON:
        if (m & REDEAL_FLAG) and s[PASSES] != 0:
            s[PASSES_USED] += 1
        c = s[TALON + index]
        ln = s[TALON_LEN]
        for q in range(index, ln - 1):
            s[TALON + q] = s[TALON + q + 1]
        s[TALON_LEN] = ln - 1
        s[WASTE_LEN] = index
        _place(s, c, dst)
        if free and dst != DST_FOUND and _stone(s):
            s[PEND_KIND] = K_STONE   # the next move must put a card onto it
            s[PEND_Y] = dst + 1
        return
    if src == SRC_LADDER:
        ll = s[LADDER_LEN] - 1
        s[LADDER_LEN] = ll
        c = s[LADDER + ll]
        if dst == DST_FOUND:
            _up(s, c)
        else:
            _place(s, c, dst)
        return
    # from pile src, cards index..top
    ln = s[LEN + src]
    base = PILES + src * PILE_CAP
    c = s[base + index]
    if dst == DST_FOUND and index < ln - 1:
        # REDUCE_ARRANGE: the tail on c first moves onto an uncovered card like c
        j = _exposed_like(s, c, src)
        if j < 0:
            j = et
        t = s[LEN + j]
        for q in range(index + 1, ln):
            s[PILES + j * PILE_CAP + t] = s[base + q]
            t += 1
        s[LEN + j] = t
    if dst == DST_FOUND:
        _up(s, c)
    else:
        t = s[LEN + dst]
        for q in range(index, ln):
            s[PILES + dst * PILE_CAP + t] = s[base + q]
            t += 1
        s[LEN + dst] = t
    s[LEN + src] = index


@njit(inline="always")
def _piles_hash(s):
    """A sum of per-pile hashes, so the order of piles does not matter; the pile a
    stepping stone lies on starts differently (the mark travels with it)."""
    total = np.uint64(0)
    for i in range(N_PILES):
        h = np.uint64(1)
        if s[PEND_Y] == i + 1:
            h += np.uint64(0x3C6EF372)
        base = PILES + i * PILE_CAP
        for q in range(s[LEN + i]):
            h = h * np.uint64(0x100000001B3) + np.uint64(s[base + q] + 1)
        total += _mix(h + np.uint64(0x9E3779B97F4A7C15))
    return total


@njit(inline="always")
def _foundation_fields(s):
    """The eight foundation heights, 4 bits each (in the key, and the dominance vector)."""
    v = np.uint64(0)
    for f in range(8):
        v |= np.uint64(s[FOUND + f]) << np.uint64(4 * f)
    return v


@njit(KEY_SIG, cache=True)
def key(s):
    total = _piles_hash(s)
    # foundations (4 bits a height), ladder length (its cards are fixed), constraint
    g = _foundation_fields(s)
    g |= np.uint64(s[LADDER_LEN]) << np.uint64(32)
    g |= np.uint64(s[PEND_KIND]) << np.uint64(40)
    # talon: with unlimited passes and macro moves it is the rest of the decks (a
    # multiset, all of it available): nothing to add; otherwise order, boundary, passes
    if s[PASSES] != 0 or not (s[REDUCE] & REDUCE_MACRO):
        t = np.uint64(s[WASTE_LEN]) | (np.uint64(s[PASSES_USED]) << np.uint64(8))
        for q in range(s[TALON_LEN]):
            t = t * np.uint64(0x100000001B3) + np.uint64(s[TALON + q] + 1)
        g ^= _mix(t + np.uint64(0x632BE59BD9B4E019))
    return _mix(total ^ _mix(g + np.uint64(0x2545F4914F6CDD1D)))


@njit(WON_SIG, cache=True)
def is_won(s):
    total = 0
    for f in range(8):
        total += s[FOUND + f]
    return total == 104


@njit(DOMINANCE_SIG, cache=True)
def dominance_group(s):
    """States with the same piles and ladder, and no stepping-stone constraint, with
    unlimited passes and macro moves (see *Dominance* in the module docstring); 0 for
    the others."""
    if s[PASSES] != 0 or (s[REDUCE] & (REDUCE_MACRO | REDUCE_DOMINANCE)) != (REDUCE_MACRO | REDUCE_DOMINANCE):
        return np.uint64(0)
    if s[PEND_KIND] != K_NONE or s[DOOMED]:
        return np.uint64(0)
    return _mix(_piles_hash(s) + np.uint64(s[LADDER_LEN]) * np.uint64(0x9E3779B97F4A7C15)) | np.uint64(1)


@njit(DOMINANCE_SIG, cache=True)
def dominance_vector(s):
    """The eight foundation heights, one 4-bit field each (fewer cards up dominates)."""
    return _foundation_fields(s)


@njit(PROGRESS_SIG, cache=True)
def progress(s):
    """Cards dug out of the ladder, then empty piles (the restart runs' lookahead): a
    ladder card that needs a place takes an empty pile or a card built for it."""
    empty = 0
    for i in range(N_PILES):
        if s[LEN + i] == 0:
            empty += 1
    return np.int64(LADDER_CAP - s[LADDER_LEN]) * 16 + empty


@njit(TRANSIENT_SIG, cache=True)
def transient(s):
    """The position right after a stepping stone: the search does not store it. Its
    moves all put a card onto the stone, and one that puts another talon card there
    leaves a transient position with one talon card fewer, so no path of them is
    infinite. They are most of the states a search enters (60 % on hard deals) and
    are seldom reached twice; unstored, they cost no table probe and no memory.
    Stop 17, seeds 581 and 8455 (lost): 3 % more nodes, 17 % less time."""
    return s[PEND_KIND] != K_NONE


KERNELS = Kernels(moves=moves, apply=apply, key=key, is_won=is_won, state_size=STATE_SIZE,
                  max_moves=MAX_MOVES, dominance_group=dominance_group, dominance_vector=dominance_vector,
                  progress=progress, transient=transient)


# ---------------------------------------------------------------------------
# Python side: deal -> state, kernel line -> moves in FORMATS.md notation
# ---------------------------------------------------------------------------
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


def _fits(pile: list[int], c: int) -> bool:
    if not pile:
        return c % 13 == 0
    return pile[-1] // 13 == c // 13 and pile[-1] % 13 + 1 == c % 13


def _foundation_for(found: list[list[int]], c: int) -> int:
    """The first numbered foundation card ``c`` fits (the reference rules list that one)."""
    for f, pile in enumerate(found):
        if _fits(pile, c):
            return f
    raise ValueError(f"card {c} fits no foundation")


class _Talon:
    """The talon as the notation sees it: the sequence, the boundary, and the moves made."""

    def __init__(self, s: np.ndarray):
        self.cards = [int(c) for c in s[TALON:TALON + s[TALON_LEN]]]
        self.w = int(s[WASTE_LEN])

    def order(self):
        n, w = len(self.cards), self.w
        return list(range(n)) if w == 0 else [(w - 1 + q) % n for q in range(n)]

    def take(self, p: int, redeal: bool) -> list[Move]:
        """Draws (and a redeal) that bring index p to the waste top; p is then played."""
        out = []
        if redeal:
            while self.w < len(self.cards):
                out.append(Move("draw", cards=(self.cards[self.w],)))
                self.w += 1
            out.append(Move("redeal"))
            self.w = 0
        while self.w - 1 != p:
            out.append(Move("draw", cards=(self.cards[self.w],)))
            self.w += 1
        del self.cards[p]
        self.w = p
        return out

    def up(self, card: int, found: list[list[int]]) -> list[Move]:
        """Play a copy of ``card`` (the one fewest draws away) to the first foundation it fits."""
        p = next(p for p in self.order() if self.cards[p] == card)
        out = self.take(p, p < self.w - 1)
        return out + [_to_foundation(card, "waste", found)]


def _to_foundation(c: int, zone: str, found: list[list[int]]) -> Move:
    f = _foundation_for(found, c)
    found[f].append(c)
    return Move("move", card=c, from_=zone, to=f"f{f + 1}")


def expand(s: np.ndarray, m: int, found: list[list[int]]) -> list[Move]:
    """The FORMATS.md moves that kernel move ``m`` stands for in state ``s``.

    ``found`` lists the numbered foundations' cards (the state keeps only their
    heights per suit) and is updated: a card goes to the first one it fits.
    """
    m = int(m)
    talon = _Talon(s)
    if m == DRAW_MOVE:
        return [Move("draw", cards=(talon.cards[talon.w],))]
    if m == REDEAL_MOVE:
        return [Move("redeal")]
    if m == FINISH_MOVE:
        out = []
        while talon.cards:
            card = next(talon.cards[p] for p in talon.order()
                        if any(_fits(pile, talon.cards[p]) for pile in found))
            out += talon.up(card, found)
        return out
    src, dst, index = m & 15, (m >> 4) & 15, (m >> 8) & 255
    if src == SRC_TALON:
        c = talon.cards[index]
        out = talon.take(index, bool(m & REDEAL_FLAG))
        if dst == DST_FOUND:
            return out + [_to_foundation(c, "waste", found)]
        return out + [Move("move", card=c, from_="waste", to=f"t{dst + 1}")]
    if src == SRC_LADDER:
        c, zone, count = int(s[LADDER + s[LADDER_LEN] - 1]), "ladder", 1
    else:
        c, zone = int(s[PILES + src * PILE_CAP + index]), f"t{src + 1}"
        count = int(s[LEN + src]) - index
    if dst != DST_FOUND:
        return [Move("move", card=c, from_=zone, to=f"t{dst + 1}", count=count)]
    out = []
    if count > 1:
        # REDUCE_ARRANGE: the tail on c moves aside onto an uncovered card like c first
        j = int(_exposed_like(s, c, src))
        if j < 0:
            j = int(_empty_target(s))
        above = int(s[PILES + src * PILE_CAP + index + 1])
        out.append(Move("move", card=above, from_=zone, to=f"t{j + 1}", count=count - 1))
    if not any(_fits(pile, c) for pile in found):
        # a lazy chain: the talon cards from the foundation it builds on up to c
        h = int(_chain_base(s, c))
        for k in range(h, c % 13):
            out += talon.up((c // 13) * 13 + k, found)
    return out + [_to_foundation(c, zone, found)]


def decode_line(deal: Deal, line: list[int], reduce: int = REDUCE_ALL) -> list[Move]:
    s = encode(deal, reduce)
    found = [list(f) for f in deal.foundations] or [[] for _ in range(8)]
    out: list[Move] = []
    for m in line:
        out += expand(s, m, found)
        apply(s, np.int32(m))
    return out
