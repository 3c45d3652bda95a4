"""Klondike kernels for the engine, and the conversion of their moves to notation.

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

**The talon.** Waste (bottom to top) followed by stock (next card first) is
always the original stock order with the played cards taken out: drawing moves
the boundary, a redeal moves it back to 0, and only the card just left of the
boundary (the waste top) can be played. So one sequence plus ``WASTE_LEN``
holds both piles.

**Reductions** (each keeps the verdict exact; ``tests/test_klondike_kernels.py``
checks verdicts agree with each one switched off, via the ``REDUCE`` flags):

* *Stock macro moves* (``REDUCE_MACRO``): instead of single draws, a move plays
  any talon card that draws (and at most one redeal) can bring to the waste
  top. Draws change nothing but the talon boundary, and tableau and foundation
  moves neither depend on nor change it, so any winning line can be reordered
  to draw just before each talon card it plays; a card reachable in the current
  pass is taken without redeal (same talon afterwards, fewer passes used:
  dominates), and a card reachable only after a redeal is reachable after
  exactly one (later passes see the same talon again).
* *Safe foundation moves* (``REDUCE_SAFE``): a tableau top card c of rank r is
  played at once, as the only move, when (a) r <= 2; or (b) cards never leave
  the foundations and both opposite-colour cards of rank r-1 are on them: then
  no card can ever be put on c, so keeping it on the tableau only blocks the
  cards under it, while its foundation only grows; or (c) both opposite-colour
  foundations reach r-2 and the other same-colour foundation reaches r-3 (the
  rule Solvitaire and lonelybot use, with foundation_to_tableau too): a card of
  rank r-1 put on c could only serve to hold a card of rank r-2 of c's colour,
  and such a card can go to its foundation or onto a rank r-1 card that is
  itself free to go up, so c is never needed as a target. The same holds for
  a safe waste top when drawing one card, or when no redeal is left: taking
  the top off the waste leaves every other talon card reachable as before and
  uncovers the one under it (with three cards and a redeal to come it would
  regroup the next pass, so it is not forced there). For the same reason a
  safe card is never put from the talon onto a pile, nor taken down from its
  foundation: a line that does so and later plays it up again is longer than
  the line that leaves it up, so no shortest winning line does it.
* *Safe talon cards, anywhere* (``REDUCE_SAFE_TALON``, after lonelybot; draw
  1, unlimited passes, macro moves). A safe card that fits its foundation is
  played at once from wherever it lies in the talon, as the only move. With
  one card a draw and unlimited passes every other talon card stays within
  reach without it, so taking it out costs nothing there; a safe card never
  goes from the talon onto a pile (above), so in a winning line it stays in
  the talon until it goes up, and that move can be made now: a card on its
  foundation earlier only allows more, as for a safe pile top. Without it the
  search explored each subtree twice, with the card waiting and with it up
  (the lazy rule leaves safe cards free): seed 634 with draw 1 took 26.6M
  nodes to prove lost, 1.1M with it.
* *Layouts of the face-up cards* (``REDUCE_LAYOUT``, after lonelybot): every
  face-up card that is not the lowest of its pile lies on a card one rank up of
  the other colour, one of two twins (same rank and colour: 6♠ and 6♣). The key
  keeps, per pile, the face-down cards and the lowest face-up card, and for
  the rest only the set of face-up cards, not which twin each one lies on.
  That is exact because what can happen next does not depend on it: any
  face-up card can be moved with the cards above it; a pile top of a given
  rank and colour exists exactly when fewer cards lie on that pair of twins
  than there are twins in sight, in every layout with the same set; and the
  only layout question left, whether a card under a run can go up, is answered
  by the *uncover* move: when the next card of a foundation lies under a run
  and its twin is a pile top, the run moves onto the twin and the card goes up
  (``UNCOVER_FLAG``; the line shows both moves). A move of a card that is not
  the lowest face-up card of its pile onto another pile changes nothing the
  key keeps (the card stays face up, and on a card of the same rank and
  colour), so those moves are dropped.
* *Stepping stones* (``REDUCE_STONE``; draw 1, unlimited passes, macro moves).
  A talon card c goes onto a pile only if the next move puts a card onto it
  (the state keeps c in ``STONE`` until then, and the moves are only those).
  Proof: with draw 1 and unlimited passes every talon card can be played at
  any time, so in a winning line move each talon-to-pile move of c to just
  before the first move that puts a card onto c. Until then c is a bare top:
  if it goes up or moves on first, play it from the talon at that point
  instead; if the card under it moves (taking c along), that card moves alone
  and c comes later; nothing can have been put on the card under it. The
  line keeps its length. With REDUCE_LAYOUT, a card put on c's twin instead
  counts (the same position up to layout), and so does a placement while a
  face-up card fitting c already lies on its twin. With three cards a draw,
  taking a card out regroups the talon, so the rule does not hold there.
* *Lazy talon cards* (``REDUCE_LAZY``; draw 1, unlimited passes, macro
  moves). A talon card c that is not safe goes up only if the next move plays
  the card after it (from the talon, which continues the chain, or from a
  pile); the state keeps c in ``LIFT`` until then. Proof: every talon card can
  be played at any time, and a card on its foundation only serves the next
  card of its suit (or comes down again, which is a talon-to-pile move made
  later), so in a winning line move each such move to just before the move of
  the next card up; if none follows, c would never be needed up, and every
  card must go up, so one does. Safe cards are exempt: playing one is never
  worse, whatever the line.
* *Pointless king moves*: a run whose bottom card is already at the bottom of
  its pile never moves to an empty pile (the position would be the same up to
  pile order); of several empty piles only the first is a target.
* *Emptied piles* (``REDUCE_EMPTY``): a move of a whole pile (a run with no
  face-down card under it) onto another pile is followed by a King into the
  emptied pile, and by nothing else (the state keeps ``EMPTIED`` until then).
  Proof: an empty pile only ever takes a King. In a winning line, move each
  such move E (run R from pile A onto card p) to just before the next move
  that puts a King into an empty pile, or drop it if none comes. Until then the
  two lines' positions differ only in R lying alone in A instead of on p, and
  every move stays legal: a move of all of R is E itself, after which the
  positions agree; a move of part of R takes it from A; a run moved from p's
  pile moves without R; nothing goes onto p and p does not go up (R covers it
  in the line); and no move in between uses an empty pile. The line gets no
  longer. Any number of draws and passes: no talon move depends on it.
* *Symmetry*: the canonical key adds per-pile hashes, so piles in any order
  give one key.
* *Deadlocks* (``REDUCE_DEADLOCK``): before searching, a fixed point over
  optimistic facts asks whether every card can ever reach its foundation. A
  pile card may *leave* its place (``free``) if it can go up, or if it is face
  up or may be uncovered and some parent (one rank up, other colour) may be a
  pile top at some time: on a foundation it may come down from, in a pile
  with the card on it free, free itself, or a talon card that may go onto a
  pile (by the same test); a King needs another pile whose bottom card is
  free. A card may be *uncovered* if the
  card lying on it is free, and a foundation may grow while its next card is
  in the talon, free or uncovered. Each fact only relaxes the rules (timing,
  the talon's order and who else uses a parent are ignored), and by induction
  on the first time each card leaves its place in a winning line, every card
  that line moves satisfies them. In the last pass (no redeal left) the waste
  is a pile too: a waste card comes out only once the cards above it have.
  So when some foundation cannot be completed even so, no line wins: the
  position gets no moves, and ``lost`` is still a proof. The root is always
  checked (``DOOMED``): that decides a quarter of the lost deals at once (421
  of 1753 of Solvitaire's draw-3 seeds 1-10000, and 38 of the 124 a 10 s
  search left unknown). Every node is checked in the last pass, where
  draws bury cards in the waste: with one pass, draw 1, that cuts the nodes
  tenfold (seeds 1-300) and the time by 40 %. With unlimited passes every node
  is checked too: there the search wanders long through positions whose
  tableau is already stuck (a card under one that can never move), and the
  check cuts the nodes 7x with draw 3 and 12x with draw 1 (seeds 101-160;
  seed 544 draw 3: 68M nodes to 5.4M). With a limited number of passes and a
  redeal left, a check per node cost twice the time and saved under 2 % of
  nodes, so there only the root is checked. A position is checked only after a
  move that can deadlock it (``RECHECK``): a move onto a pile, or one that
  turns a face-down card. After a foundation move that turns nothing, an
  uncover move or a card taken down from a foundation, random playouts (draw 3)
  found a new deadlock in under 0.5 % of positions; skipping the check there
  saves 12-18 % of the time for 1 % more nodes, and the position's successors
  are still checked.
* *Free redeals*: with unlimited passes, a talon boundary on a multiple of the
  draw count (or at the end) reaches the same cards, each with the same
  number of draws modulo a free redeal, as the boundary at 0; the key maps all
  such boundaries to 0 (lonelybot's "normalized offset"). Only with macro
  moves, which make the reachable cards the whole story: with single draws the
  boundary decides which card is on top now.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...deals import Deal
from ...engine.contract import mix64 as _mix
from ...engine.contract import APPLY_SIG, KEY_SIG, MOVES_SIG, WON_SIG, Kernels
from ...moves import Move
from ..cardbits import ALL_CARDS

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
STATE_SIZE = REDUCE + 8  # 196
NO_STONE = 255
MAX_MOVES = 320
# Move orders per deal (encode_roots). With unlimited passes, six orders instead of two
# found the wins of slow won deals with 41 % fewer nodes (12 of Solvitaire's seeds
# that took 1-8M nodes; 2939: 8.1M -> 60k), for the same nodes on lost deals and the same
# median and p90 over seeds 1-1000; with a limited number of passes they cost 0-7 % more
# nodes (seeds 1-300), so those keep two.
ORDERS_UNLIMITED_PASSES, ORDERS_LIMITED_PASSES = 6, 2

REDUCE_MACRO, REDUCE_SAFE, REDUCE_LAYOUT, REDUCE_DEADLOCK, REDUCE_STONE, REDUCE_LAZY = 1, 2, 4, 8, 16, 32
REDUCE_EMPTY, REDUCE_SAFE_TALON = 64, 128
REDUCE_ALL = (REDUCE_MACRO | REDUCE_SAFE | REDUCE_LAYOUT | REDUCE_DEADLOCK | REDUCE_STONE | REDUCE_LAZY
              | REDUCE_EMPTY | REDUCE_SAFE_TALON)

# move encoding: src | dst << 4 | index << 8 | redeal << 16
SRC_TALON, SRC_FOUND, DST_FOUND = 7, 8, 8
DRAW_MOVE, REDEAL_MOVE = 1 << 20, 2 << 20   # plain stock moves when macros are off
REDEAL_FLAG = 1 << 16
UNCOVER_FLAG = 1 << 17    # pile -> foundation after moving the run above the card onto its twin


# ---------------------------------------------------------------------------
# Small helpers (inlined into the kernels)
# ---------------------------------------------------------------------------
@njit(inline="always")
def _red(c):
    s = c // 13
    return s == 1 or s == 2


@njit(inline="always")
def _fits_pile(s, c, j):
    """Card c may go onto pile j (down one, other colour; empty takes a King)."""
    n = s[LEN + j]
    if n == 0:
        return c % 13 == 12
    top = s[PILES + j * PILE_CAP + n - 1]
    return top % 13 == c % 13 + 1 and _red(top) != _red(c)


@njit(inline="always")
def _fits_found(s, c):
    return s[FOUND + c // 13] == c % 13


@njit(inline="always")
def _safe(s, c):
    """See REDUCE_SAFE in the module docstring (ranks here are 0-based)."""
    r = c % 13  # 0 = Ace
    if r <= 1:
        return True
    if _red(c):
        opp = min(s[FOUND + 0], s[FOUND + 3])
        same = s[FOUND + 2] if c // 13 == 1 else s[FOUND + 1]
    else:
        opp = min(s[FOUND + 1], s[FOUND + 2])
        same = s[FOUND + 3] if c // 13 == 0 else s[FOUND + 0]
    if opp >= r and not s[F2T]:
        return True
    return opp >= r - 1 and same >= r - 2


@njit(inline="always")
def _enc(src, dst, index, redeal):
    return np.int32(src | (dst << 4) | (index << 8) | (redeal << 16))


@njit(inline="always")
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


@njit(inline="always")
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


@njit(inline="always")
def _add_pile_targets(s, out, n, c, src, index, redeal, skip, tops):
    """Append moves of card c (from src) to every fitting pile but ``skip``."""
    if not _may_fit_somewhere(tops, c):
        return n
    empty_done = False
    for j in range(7):
        if j == skip:
            continue
        if s[LEN + j] == 0:
            if empty_done or c % 13 != 12:
                continue
            empty_done = True
        if _fits_pile(s, c, j):
            out[n] = _enc(src, j, index, redeal)
            n += 1
            if s[LEN + j] > 0 and (s[REDUCE] & REDUCE_LAYOUT):
                break  # the other fitting top is this one's twin: the same key (REDUCE_LAYOUT)
    return n


@njit(inline="always")
def _every_talon_card_anytime(s):
    """Draw 1, unlimited passes, macro moves: any talon card can be played at any time."""
    return (s[REDUCE] & REDUCE_MACRO) != 0 and s[DRAW] == 1 and s[PASSES] == 0


@njit(inline="always")
def _lazy(s, c):
    """Talon card c goes up only as part of a chain (REDUCE_LAZY): not a safe card."""
    return ((s[REDUCE] & REDUCE_LAZY) != 0 and _every_talon_card_anytime(s) and c % 13 < 12
            and not ((s[REDUCE] & REDUCE_SAFE) and _safe(s, c)))


@njit(inline="always")
def _may_follow_up(s, c):
    """The card after c in its suit is in the talon or face up in a pile."""
    d = c + 1
    for q in range(s[TALON_LEN]):
        if s[TALON + q] == d:
            return True
    for i in range(7):
        base = PILES + i * PILE_CAP
        for q in range(s[DOWN + i], s[LEN + i]):
            if s[base + q] == d:
                return True
    return False


@njit(inline="always")
def _talon_card_moves(s, out, n, p, redeal, tops):
    c = s[TALON + p]
    if _fits_found(s, c):
        if not _lazy(s, c) or _may_follow_up(s, c):
            out[n] = _enc(SRC_TALON, DST_FOUND, p, redeal)
            n += 1
        if (s[REDUCE] & REDUCE_SAFE) and _safe(s, c):
            return n  # a safe card goes up, not onto a pile (see REDUCE_SAFE)
    return _add_pile_targets(s, out, n, c, SRC_TALON, p, redeal, -1, tops)


@njit(inline="always")
def _reachable_this_pass(p, waste_len, talon_len, draw):
    if p == waste_len - 1:
        return True
    return p >= waste_len and ((p - waste_len + 1) % draw == 0 or p == talon_len - 1)


@njit(inline="always")
def _talon_moves(s, out, n, tops):
    """Macro moves: every talon card that draws (and at most one redeal) can bring up."""
    talon_len, waste_len, draw = s[TALON_LEN], s[WASTE_LEN], s[DRAW]
    if waste_len > 0:
        n = _talon_card_moves(s, out, n, waste_len - 1, 0, tops)
    w = waste_len
    while w < talon_len:
        w = min(w + draw, talon_len)
        n = _talon_card_moves(s, out, n, w - 1, 0, tops)
    if talon_len > 0 and _redeal_allowed(s):
        w = 0
        while w < talon_len:
            w = min(w + draw, talon_len)
            if not _reachable_this_pass(w - 1, waste_len, talon_len, draw):
                n = _talon_card_moves(s, out, n, w - 1, 1, tops)
    return n


@njit(inline="always")
def _twin(c):
    """The card of the same rank and colour in the other suit (C<->S, D<->H)."""
    return (3 - c // 13) * 13 + c % 13


@njit(inline="always")
def _pile_with_top(s, c):
    for j in range(7):
        ln = s[LEN + j]
        if ln > 0 and s[PILES + j * PILE_CAP + ln - 1] == c:
            return j
    return -1


@njit(inline="always")
def _uncover_moves(s, out, n, tops):
    """The next card of a foundation lying face up under a run whose twin is a pile
    top: the run moves onto the twin and the card goes up (see REDUCE_LAYOUT)."""
    for f in range(4):
        h = s[FOUND + f]
        if h == 13:
            continue
        c = f * 13 + h
        if (tops & _bit(_twin(c))) == 0:
            continue   # its twin is no pile top
        for i in range(7):
            ln = s[LEN + i]
            for k in range(s[DOWN + i], ln - 1):
                if s[PILES + i * PILE_CAP + k] == c:
                    out[n] = _enc(i, DST_FOUND, k, 0) | UNCOVER_FLAG
                    n += 1
    return n


@njit(inline="always")
def _bit(c):
    return np.uint64(1) << np.uint64(c)


SUIT_BITS = np.uint64(0x1FFF)
KINGS = np.uint64((1 << 12) | (1 << 25) | (1 << 38) | (1 << 51))


@njit(inline="always")
def _children(cards):
    """The cards that fit onto some card of the set ``cards`` (one rank down, the other
    colour), by shifting whole suits at once: the same as testing ``PARENTS`` card by card."""
    black = (cards | (cards >> np.uint64(39))) & SUIT_BITS
    red = ((cards >> np.uint64(13)) | (cards >> np.uint64(26))) & SUIT_BITS
    under_black = red >> np.uint64(1)
    under_red = black >> np.uint64(1)
    return (under_black | (under_red << np.uint64(13)) | (under_red << np.uint64(26))
            | (under_black << np.uint64(39)))


@njit(inline="always")
def _with_kings(fits, a_pile_may_empty):
    """``fits`` and the four Kings when some pile may become empty (a King's only place)."""
    return fits | KINGS if a_pile_may_empty else fits


@njit(cache=True)
def _doomed(s):
    """True when some card can never reach its foundation, whatever is played
    (see REDUCE_DEADLOCK in the module docstring). A least fixed point over
    optimistic facts, as bit sets of cards: ``free`` (a pile or waste card that
    may leave its place), ``placed`` (a talon card that may go onto a pile),
    ``exposed`` (a pile or waste card that may be on top), and the height each
    foundation may reach."""
    waste_len = 0 if _redeal_allowed(s) else s[WASTE_LEN]
    waste = np.uint64(0)
    for q in range(waste_len):
        waste |= _bit(s[TALON + q])
    stock = np.uint64(0)     # talon cards outside the waste: any may be brought to hand
    for q in range(waste_len, s[TALON_LEN]):
        stock |= _bit(s[TALON + q])
    founds = np.uint64(0)
    for f in range(4):
        founds |= ((np.uint64(1) << np.uint64(s[FOUND + f])) - np.uint64(1)) << np.uint64(13 * f)
    # every card is in a pile, the talon or a foundation
    in_piles = ALL_CARDS & ~(founds | waste | stock)
    heights = np.uint64(0)
    for f in range(4):
        heights |= np.uint64(s[FOUND + f]) << np.uint64(4 * f)
    free = np.uint64(0)
    placed = np.uint64(0)
    exposed = np.uint64(0)
    tops = founds if s[F2T] else np.uint64(0)   # cards that may be pile tops, to go onto
    emptiable = 0            # piles that are or may become empty
    settled = 0   # piles whose cards are all free: nothing left to learn from them
    for i in range(7):
        # every pile top and every empty pile before the first pass: a fact found
        # later in a pass must not be missed by the piles already visited in it
        ln = s[LEN + i]
        if ln == 0:
            emptiable |= 1 << i
        else:
            exposed |= _bit(s[PILES + i * PILE_CAP + ln - 1])
    tops |= exposed
    changed = True
    while changed:
        changed = False
        # a pile card may leave for a pile: a King for another pile that may be
        # empty, any other card for a parent that may be on top (top down, so a
        # card freed uncovers the one below it at once)
        fits = _children(tops)
        for i in range(7):
            ln = s[LEN + i]
            if ln == 0 or (settled & (1 << i)) != 0:
                continue
            base = PILES + i * PILE_CAP
            dn = s[DOWN + i]
            fits_here = _with_kings(fits, (emptiable & ~(1 << i)) != 0)
            all_free = True
            above_free = True     # the top card is reached
            for q in range(ln - 1, -1, -1):
                c = s[base + q]
                b = _bit(c)
                if above_free:
                    if (tops & b) == 0:
                        # a new top (uncovered by a foundation move of the last pass):
                        # a card in a pile visited before this one may go onto it
                        exposed |= b
                        tops |= b
                        fits = _children(tops)
                        fits_here = _with_kings(fits, (emptiable & ~(1 << i)) != 0)
                        changed = True
                elif q < dn:
                    all_free = False
                    break   # face down and covered: nothing below can be reached yet
                if (free & b) != 0:
                    above_free = True
                    continue
                if (fits_here & b) != 0:
                    free |= b
                    changed = True
                    above_free = True
                else:
                    all_free = False
                    above_free = False
            if (free & _bit(s[base])) != 0 and (emptiable & (1 << i)) == 0:
                emptiable |= 1 << i
                changed = True   # a King in a pile visited before this one may now leave
            if all_free:
                settled |= 1 << i
        for q in range(waste_len - 1, -1, -1):
            if q == waste_len - 1 or (free & _bit(s[TALON + q + 1])) != 0:
                exposed |= _bit(s[TALON + q])
        # a talon card may go onto a pile the same way: a stock card at any time (so a
        # chain of them at once), a waste card once on top
        while True:
            fits = _with_kings(_children(tops), emptiable != 0)
            new = fits & ~placed & (stock | (waste & exposed))
            if new == 0:
                break
            placed |= new
            tops |= new
            free |= new & waste
            changed = True
        # a foundation grows while its next card is in the stock or may be on top
        blocked = (in_piles | waste) & ~exposed
        for f in range(4):
            shift = np.uint64(4 * f)
            start = np.int64((heights >> shift) & np.uint64(15))
            h = start
            while h < 13 and (blocked & _bit(f * 13 + h)) == 0:
                free |= _bit(f * 13 + h) & (in_piles | waste)   # gone up: it left its place
                h += 1
            if h != start:
                heights += np.uint64(h - start) << shift
                changed = True
        if heights == np.uint64(0xDDDD):
            return False   # every foundation may be completed
    return True


@njit(inline="always")
def _stones(s):
    """Stepping stones are in force: draw 1, unlimited passes, macro moves."""
    return (s[REDUCE] & REDUCE_STONE) != 0 and _every_talon_card_anytime(s)


@njit(inline="always")
def _covered_alike(s, c):
    """A face-up card that fits on c already lies on c's twin: with REDUCE_LAYOUT,
    c left bare is the same position as c covered by it (see REDUCE_STONE)."""
    if not (s[REDUCE] & REDUCE_LAYOUT):
        return False
    t = _twin(c)
    for i in range(7):
        base = PILES + i * PILE_CAP
        for q in range(s[DOWN + i], s[LEN + i] - 1):
            if s[base + q] == t:
                return True   # a face-up card lies on it, and fits it
    return False


@njit(inline="always")
def _onto_stone(s, m, stone):
    """Move m puts a card onto the stone card or onto its twin (the same, up to
    layout) where that is a pile top."""
    src = m & 15
    dst = (m >> 4) & 15
    if m & UNCOVER_FLAG:
        top = _twin(s[PILES + src * PILE_CAP + ((m >> 8) & 255)])
    elif dst < 7 and s[LEN + dst] > 0:
        top = s[PILES + dst * PILE_CAP + s[LEN + dst] - 1]
    else:
        return False
    return top == stone or ((s[REDUCE] & REDUCE_LAYOUT) != 0 and top == _twin(stone))


@njit(inline="always")
def _byte(packed, q):
    return (packed >> np.uint64(8 * q)) & np.uint64(255)


@njit(inline="always")
def _tableau_moves(s, out, n, tops):
    """Every run move between piles: first those that turn a face-down card or
    empty a pile (deepest pile first), then partial runs (a face-up card under them),
    which REDUCE_LAYOUT leaves out."""
    # piles as (face-down count, pile) sorted by count, deepest first, ties by pile: an
    # insertion sort of one byte per pile in a uint64 (an array here was a heap
    # allocation per expanded state)
    order = np.uint64(0)
    k = 0
    for i in range(7):
        if s[LEN + i] == 0:
            continue
        v = np.uint64(s[DOWN + i] * 8 + (7 - i))
        q = k
        while q > 0 and _byte(order, q - 1) < v:
            q -= 1
        # bytes q.. move up one place, v goes into byte q
        low = order & ((np.uint64(1) << np.uint64(8 * q)) - np.uint64(1))
        order = low | (v << np.uint64(8 * q)) | ((order & ~low) << np.uint64(8))
        k += 1
    for q in range(k):
        i = 7 - np.int64(_byte(order, q) % np.uint64(8))
        down = s[DOWN + i]
        c = s[PILES + i * PILE_CAP + down]
        if down == 0 and c % 13 == 12:
            continue  # a King at the bottom: moving it only permutes piles
        n = _add_pile_targets(s, out, n, c, i, down, 0, i, tops)
    if s[REDUCE] & REDUCE_LAYOUT:
        return n
    for i in range(7):
        ln = s[LEN + i]
        for k in range(s[DOWN + i] + 1, ln):
            c = s[PILES + i * PILE_CAP + k]
            for j in range(7):
                if j != i and s[LEN + j] > 0 and _fits_pile(s, c, j):
                    out[n] = _enc(i, j, k, 0)
                    n += 1
    return n


@njit(inline="always")
def _scramble(out, n, order):
    """Order ``order`` (2, 3, ...): the moves sorted by a pseudo-random 64-bit label of each
    move value, one labelling per order (insertion sort: lists are short). The top 31
    bits of each label wait in ``out[n:2n]``, so a label is hashed once, not once per
    comparison (that cost 200 ns a list); the whole label breaks their rare ties."""
    salt = np.uint64(order) * np.uint64(0x9E3779B97F4A7C15)
    if 2 * n > out.shape[0]:
        for q in range(1, n):   # no room for the labels (never met: lists are short)
            m = out[q]
            lm = _mix(np.uint64(m) ^ salt)
            k = q - 1
            while k >= 0 and _mix(np.uint64(out[k]) ^ salt) > lm:
                out[k + 1] = out[k]
                k -= 1
            out[k + 1] = m
        return
    for q in range(n):
        out[n + q] = np.int32(_mix(np.uint64(out[q]) ^ salt) >> np.uint64(33))
    for q in range(1, n):
        m = out[q]
        lm = out[n + q]
        k = q - 1
        while k >= 0 and (out[n + k] > lm or (out[n + k] == lm and
                                               _mix(np.uint64(out[k]) ^ salt) > _mix(np.uint64(m) ^ salt))):
            out[k + 1] = out[k]
            out[n + k + 1] = out[n + k]
            k -= 1
        out[k + 1] = m
        out[n + k + 1] = lm


@njit(inline="always")
def _redeal_allowed(s):
    return s[PASSES] == 0 or s[PASSES_USED] + 1 < s[PASSES]


# ---------------------------------------------------------------------------
# The kernels
# ---------------------------------------------------------------------------
@njit(MOVES_SIG, cache=True)
def moves(s, out):
    n = 0
    reduce = s[REDUCE]
    if s[DOOMED]:
        return 0
    if (reduce & REDUCE_DEADLOCK) and s[RECHECK] and (s[PASSES] == 0 or not _redeal_allowed(s)) and _doomed(s):
        return 0   # last pass or unlimited passes: worth a test per node (see REDUCE_DEADLOCK)
    stone = s[STONE]
    lift = s[LIFT]
    # 1. a safe foundation move is forced
    emptied = s[EMPTIED]
    if (reduce & REDUCE_SAFE) and stone == NO_STONE and lift == NO_STONE and not emptied:
        for i in range(7):
            ln = s[LEN + i]
            if ln > 0:
                c = s[PILES + i * PILE_CAP + ln - 1]
                if _fits_found(s, c) and _safe(s, c):
                    out[0] = _enc(i, DST_FOUND, ln - 1, 0)
                    return 1
        w = s[WASTE_LEN]
        if (reduce & REDUCE_SAFE_TALON) and _every_talon_card_anytime(s):
            for p in range(s[TALON_LEN]):   # any safe talon card, wherever it lies
                c = s[TALON + p]
                if _fits_found(s, c) and _safe(s, c):
                    out[0] = _enc(SRC_TALON, DST_FOUND, p, 0 if p >= w - 1 else 1)
                    return 1
        elif w > 0 and (s[DRAW] == 1 or not _redeal_allowed(s)):
            c = s[TALON + w - 1]
            if _fits_found(s, c) and _safe(s, c):
                out[0] = _enc(SRC_TALON, DST_FOUND, w - 1, 0)
                return 1
    tops = _tops(s)
    n = _tableau_moves(s, out, n, tops)
    # 2. tableau tops to the foundations
    for i in range(7):
        ln = s[LEN + i]
        if ln > 0:
            c = s[PILES + i * PILE_CAP + ln - 1]
            if _fits_found(s, c):
                out[n] = _enc(i, DST_FOUND, ln - 1, 0)
                n += 1
    if reduce & REDUCE_LAYOUT:
        n = _uncover_moves(s, out, n, tops)
    talon_len = s[TALON_LEN]
    waste_len = s[WASTE_LEN]
    draw = s[DRAW]
    if reduce & REDUCE_MACRO:
        n = _talon_moves(s, out, n, tops)
    else:
        if waste_len > 0:
            c = s[TALON + waste_len - 1]
            if _fits_found(s, c):
                out[n] = _enc(SRC_TALON, DST_FOUND, waste_len - 1, 0)
                n += 1
            n = _add_pile_targets(s, out, n, c, SRC_TALON, waste_len - 1, 0, -1, tops)
    # 6. foundation tops back to the tableau
    if s[F2T]:
        for f in range(4):
            h = s[FOUND + f]
            if h > 0:
                c = f * 13 + h - 1
                if (reduce & REDUCE_SAFE) and _safe(s, c):
                    continue  # a safe card never needs to come down (see REDUCE_SAFE)
                n = _add_pile_targets(s, out, n, c, SRC_FOUND + f, 0, 0, -1, tops)
    if not (reduce & REDUCE_MACRO):
        if waste_len < talon_len:
            out[n] = DRAW_MOVE
            n += 1
        elif waste_len > 0 and _redeal_allowed(s):
            out[n] = REDEAL_MOVE
            n += 1
    if stone != NO_STONE:
        # only a move onto the stone may follow its placement (REDUCE_STONE)
        k = 0
        for q in range(n):
            if _onto_stone(s, out[q], stone):
                out[k] = out[q]
                k += 1
        n = k
    if lift != NO_STONE:
        # only the next card of the suit may follow a lazy talon card up (REDUCE_LAZY)
        k = 0
        for q in range(n):
            m = out[q]
            src = m & 15
            if (m >> 4) & 15 == DST_FOUND and src <= SRC_TALON:
                index = (m >> 8) & 255
                c = s[TALON + index] if src == SRC_TALON else s[PILES + src * PILE_CAP + index]
                if c == lift + 1:
                    out[k] = m
                    k += 1
        n = k
    if emptied:
        # only a King into the emptied pile may follow (REDUCE_EMPTY)
        k = 0
        for q in range(n):
            m = out[q]
            dst = (m >> 4) & 15
            if m < DRAW_MOVE and dst < 7 and s[LEN + dst] == 0:
                out[k] = m
                k += 1
        n = k
    order = s[ORDER]
    if order == 1:
        for q in range(n // 2):
            out[q], out[n - 1 - q] = out[n - 1 - q], out[q]
    elif order > 1:
        _scramble(out, n, order)
    return n


@njit(APPLY_SIG, cache=True)
def apply(s, m):
    s[STONE] = NO_STONE
    s[LIFT] = NO_STONE
    s[EMPTIED] = 0
    s[RECHECK] = 1
    if m == DRAW_MOVE:
        s[WASTE_LEN] = min(s[WASTE_LEN] + s[DRAW], s[TALON_LEN])
        return
    if m == REDEAL_MOVE:
        s[WASTE_LEN] = 0
        if s[PASSES] != 0:
            s[PASSES_USED] += 1
        return
    src = m & 15
    dst = (m >> 4) & 15
    index = (m >> 8) & 255
    if src == SRC_TALON:
        if (m & REDEAL_FLAG) and s[PASSES] != 0:
            s[PASSES_USED] += 1
        c = s[TALON + index]
        ln = s[TALON_LEN]
        for q in range(index, ln - 1):
            s[TALON + q] = s[TALON + q + 1]
        s[TALON_LEN] = ln - 1
        s[WASTE_LEN] = index
        if dst == DST_FOUND:
            if _lazy(s, c):
                s[LIFT] = c
            s[FOUND + c // 13] += 1
            s[RECHECK] = 0
        else:
            t = s[LEN + dst]
            s[PILES + dst * PILE_CAP + t] = c
            s[LEN + dst] = t + 1
            if _stones(s) and not _covered_alike(s, c):
                s[STONE] = c
        return
    if src >= SRC_FOUND:
        f = src - SRC_FOUND
        c = f * 13 + s[FOUND + f] - 1
        s[FOUND + f] -= 1
        t = s[LEN + dst]
        s[PILES + dst * PILE_CAP + t] = c
        s[LEN + dst] = t + 1
        s[RECHECK] = 0
        return
    # from pile src, cards index.. top
    if m & UNCOVER_FLAG:
        s[RECHECK] = 0
        # first the run above the card onto the card's twin, a pile top
        j = _pile_with_top(s, _twin(s[PILES + src * PILE_CAP + index]))
        t = s[LEN + j]
        for q in range(index + 1, s[LEN + src]):
            s[PILES + j * PILE_CAP + t] = s[PILES + src * PILE_CAP + q]
            t += 1
        s[LEN + j] = t
        s[LEN + src] = index + 1
    ln = s[LEN + src]
    if dst == DST_FOUND:
        c = s[PILES + src * PILE_CAP + ln - 1]
        s[FOUND + c // 13] += 1
    else:
        t = s[LEN + dst]
        for q in range(index, ln):
            s[PILES + dst * PILE_CAP + t] = s[PILES + src * PILE_CAP + q]
            t += 1
        s[LEN + dst] = t
    s[LEN + src] = index
    if index > 0 and s[DOWN + src] >= index:
        s[DOWN + src] = index - 1
    elif dst == DST_FOUND:
        s[RECHECK] = 0
    elif index == 0 and (s[REDUCE] & REDUCE_EMPTY):
        s[EMPTIED] = 1


@njit(KEY_SIG, cache=True)
def key(s):
    # piles: a sum of per-pile hashes, so the order of piles does not matter
    total = np.uint64(0)
    layout = s[REDUCE] & REDUCE_LAYOUT
    face_up = np.uint64(0)
    for i in range(7):
        down = s[DOWN + i]
        h = np.uint64(down) + np.uint64(1)
        base = PILES + i * PILE_CAP
        # with REDUCE_LAYOUT a pile is its face-down cards and its lowest face-up
        # card; the rest of the face-up cards go into one set for all piles
        end = min(s[LEN + i], down + 1) if layout else s[LEN + i]
        for q in range(end):
            h = h * np.uint64(0x100000001B3) + np.uint64(s[base + q] + 1)
        total += _mix(h + np.uint64(0x9E3779B97F4A7C15))
        if layout:
            for q in range(down + 1, s[LEN + i]):
                face_up |= np.uint64(1) << np.uint64(s[base + q])
    total += _mix(face_up + np.uint64(0x2545F4914F6CDD1D))
    # talon: its cards in order, the boundary, and the passes used (when limited)
    waste_len = s[WASTE_LEN]
    if s[PASSES] == 0 and (s[REDUCE] & REDUCE_MACRO) and \
            (waste_len % s[DRAW] == 0 or waste_len == s[TALON_LEN]):
        # unlimited redeals: a boundary on a multiple of the draw count, or at the
        # end, reaches exactly the cards a fresh pass reaches, so all such
        # boundaries are one state (with draw 1: every boundary)
        waste_len = 0
    t = np.uint64(waste_len) | (np.uint64(s[PASSES_USED]) << np.uint64(8)) | (np.uint64(s[STONE]) << np.uint64(16)) \
        | (np.uint64(s[LIFT]) << np.uint64(24)) | (np.uint64(s[EMPTIED]) << np.uint64(32))
    for q in range(s[TALON_LEN]):
        t = t * np.uint64(0x100000001B3) + np.uint64(s[TALON + q] + 1)
    return _mix(total ^ _mix(t + np.uint64(0x632BE59BD9B4E019)))


@njit(WON_SIG, cache=True)
def is_won(s):
    return s[FOUND] + s[FOUND + 1] + s[FOUND + 2] + s[FOUND + 3] == 52


KERNELS = Kernels(moves=moves, apply=apply, key=key, is_won=is_won, state_size=STATE_SIZE,
                  max_moves=MAX_MOVES)


# ---------------------------------------------------------------------------
# Python side: deal -> state, kernel line -> moves in FORMATS.md notation
# ---------------------------------------------------------------------------
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
    s[REDUCE] = reduce
    s[STONE] = NO_STONE
    s[LIFT] = NO_STONE
    s[RECHECK] = 1
    if reduce & REDUCE_DEADLOCK:
        s[DOOMED] = _doomed(s)
    return s


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


def relaxed(deal: Deal) -> Deal | None:
    """The same position with every talon card in reach at any time: one card a draw
    and unlimited passes (foundation_to_tableau as it was). Every line that wins
    ``deal`` wins this one too (the tableau and foundation rules are the same, and
    any talon card can be brought to the waste top: draw until it shows, redeal
    when the stock is out), so when this one is lost, ``deal`` is lost. ``solve``
    tries it first: a lost draw-3 deal is often lost with one card a draw too, and
    that search is far smaller (its stepping stones and lazy talon cards hold only
    there). Offered for draw 3 with unlimited passes only: with a limited number
    of passes the twin is mostly won (nothing learnt, time lost), and those
    variants are decided quickly without it."""
    if deal.options["draw"] == 1 or deal.options["passes"] is not None:
        return None
    easier = deal.copy()
    easier.options = {**deal.options, "draw": 1, "passes": None}
    easier.passes_used = 0
    return easier


def expand(s: np.ndarray, m: int) -> list[Move]:
    """The FORMATS.md moves that kernel move ``m`` stands for in state ``s``."""
    m = int(m)
    talon = [int(c) for c in s[TALON:TALON + s[TALON_LEN]]]
    waste_len, draw = int(s[WASTE_LEN]), int(s[DRAW])
    if m == DRAW_MOVE:
        return [Move("draw", cards=tuple(talon[waste_len:waste_len + draw]))]
    if m == REDEAL_MOVE:
        return [Move("redeal")]
    src, dst, index = m & 15, (m >> 4) & 15, (m >> 8) & 255
    to = f"t{dst + 1}" if dst != DST_FOUND else None
    if src == SRC_TALON:
        out = []
        w = waste_len
        if m & REDEAL_FLAG:
            while w < len(talon):
                out.append(Move("draw", cards=tuple(talon[w:w + draw])))
                w = min(w + draw, len(talon))
            out.append(Move("redeal"))
            w = 0
        while w - 1 != index:
            out.append(Move("draw", cards=tuple(talon[w:w + draw])))
            w = min(w + draw, len(talon))
        c = talon[index]
        out.append(Move("move", card=c, from_="waste", to=to or f"f{c // 13 + 1}"))
        return out
    if src >= SRC_FOUND:
        f = src - SRC_FOUND
        return [Move("move", card=f * 13 + int(s[FOUND + f]) - 1, from_=f"f{f + 1}", to=to)]
    ln = int(s[LEN + src])
    c = int(s[PILES + src * PILE_CAP + index])
    if m & UNCOVER_FLAG:
        j = int(_pile_with_top(s, np.uint8(_twin(c))))
        run = Move("move", card=int(s[PILES + src * PILE_CAP + index + 1]), from_=f"t{src + 1}",
                   to=f"t{j + 1}", count=ln - index - 1)
        return [run, Move("move", card=c, from_=f"t{src + 1}", to=f"f{c // 13 + 1}")]
    if dst == DST_FOUND:
        return [Move("move", card=c, from_=f"t{src + 1}", to=f"f{c // 13 + 1}")]
    return [Move("move", card=c, from_=f"t{src + 1}", to=to, count=ln - index)]


def decode_line(deal: Deal, line: list[int], reduce: int = REDUCE_ALL) -> list[Move]:
    s = encode(deal, reduce)
    out: list[Move] = []
    for m in line:
        out.extend(expand(s, m))
        apply(s, np.int32(m))
    return out

