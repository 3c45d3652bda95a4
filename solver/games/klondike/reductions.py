"""Klondike's reductions: the rules the search follows beyond the game's own, each with the
argument that it keeps the verdict exact.

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
  search explores each subtree twice, with the card waiting and with it up
  (the lazy rule leaves safe cards free).
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
  in the talon, free or uncovered. Each fact only relaxes the rules (timing
  and who else uses a parent are ignored, the talon's order but for what
  follows), and by induction
  on the first time each card leaves its place in a winning line, every card
  that line moves satisfies them. In the last pass (no redeal left) the waste
  is a pile too: a waste card comes out only once the cards above it have.
  With three cards a draw, a stock card goes up or onto a pile only once it
  may come to the waste top (``_in_phase``, ``_reachable``): a card comes
  there by draws in their phase (every third card from the waste top now, or,
  with a redeal left, from the start after one), as the last card, or when
  the card after it is played; and while no card before it has left the
  talon its place does not change, so any other way needs a card before it
  played first. Until its reach grows, it holds its foundation back as a
  buried card does. (A♠ first in the talon, behind cards that can never be
  played, stays there for ever.)
  So when some foundation cannot be completed even so, no line wins: the
  position gets no moves, and ``lost`` is still a proof. The root is always
  checked (``DOOMED``): that decides many lost deals at once. Every position
  is checked too, whatever the passes: the search would otherwise wander long
  through positions whose tableau is already stuck (a card under one that can
  never move), and in the last pass draws bury cards in the waste. A position
  is checked only after a move that can deadlock it (``RECHECK``): a move onto
  a pile, one that turns a face-down card, or a talon card played up past cards
  that it leaves buried in the waste with no redeal left; after a foundation move
  that turns nothing, an uncover move or a card taken down from a foundation a
  new deadlock is rare, and the position's successors are still checked.
  (What each of these choices cost and saved: benchmarks/results.md.)
* *Free redeals*: with unlimited passes, a talon boundary on a multiple of the
  draw count (or at the end) reaches the same cards, each with the same
  number of draws modulo a free redeal, as the boundary at 0; the key maps all
  such boundaries to 0 (lonelybot's "normalized offset"). Only with macro
  moves, which make the reachable cards the whole story: with single draws the
  boundary decides which card is on top now.
* *Talon dominance* (``REDUCE_TALON_DOMINANCE``; macro moves; the engine applies
  it, see ``engine/contract.py``). Of two positions that differ only in the passes
  used and, with one card a draw, the boundary, the one with fewer passes used, or
  as many and an earlier boundary, can win wherever the other can; with unlimited
  passes and three cards a draw, so can one whose boundary reaches the other's by
  drawing (the arguments: ``games/talon_dominance.py``). The key keeps the two in its
  low bits, and the search skips a new position when such a better one is
  finished (what it saves: benchmarks/results.md).
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from ...deals import Deal
from ..cardbits import ALL_CARDS
from .state import (DOWN, DRAW, F2T, FOUND, LEN, PILE_CAP, PILES, REDUCE, REDUCE_LAYOUT, REDUCE_LAZY, REDUCE_SAFE,
                    REDUCE_STONE, TALON, TALON_LEN, UNCOVER_FLAG, WASTE_LEN, _bit, _every_talon_card_anytime, _red,
                    _redeal_allowed, _twin)

SUIT_BITS = np.uint64(0x1FFF)
KINGS = np.uint64((1 << 12) | (1 << 25) | (1 << 38) | (1 << 51))


@njit(cache=True)
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


@njit(cache=True)
def _lazy(s, c):
    """Talon card c goes up only as part of a chain (REDUCE_LAZY): not a safe card."""
    return ((s[REDUCE] & REDUCE_LAZY) != 0 and _every_talon_card_anytime(s) and c % 13 < 12
            and not ((s[REDUCE] & REDUCE_SAFE) and _safe(s, c)))


@njit(cache=True)
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


@njit(cache=True)
def _children(cards):
    """The cards that fit onto some card of the set ``cards`` (one rank down, the other
    colour), by shifting whole suits at once: the same as testing ``PARENTS`` card by card."""
    black = (cards | (cards >> np.uint64(39))) & SUIT_BITS
    red = ((cards >> np.uint64(13)) | (cards >> np.uint64(26))) & SUIT_BITS
    under_black = red >> np.uint64(1)
    under_red = black >> np.uint64(1)
    return (under_black | (under_red << np.uint64(13)) | (under_red << np.uint64(26))
            | (under_black << np.uint64(39)))


@njit(cache=True)
def _leave(c, under, in_piles, exposed, tops, nexts, grow, emptiable):
    """Card ``c`` of a pile or the waste may leave its place: the card under it may be on
    top (a top to go onto, if in a pile; its foundation may grow, if it is next there),
    and a pile whose bottom card it is may become empty. (exposed, tops, grow, emptiable)"""
    u = under[c]
    if u >= 0:
        ub = _bit(u)
        exposed |= ub
        if (in_piles & ub) != 0:
            tops |= ub
        if (nexts & ub) != 0:
            grow |= 1 << (u // 13)
    elif u < -1:
        emptiable |= 1 << (-2 - u)
    return exposed, tops, grow, emptiable


@njit(cache=True)
def _doomed(s, under):
    """True when some card can never reach its foundation, whatever is played
    (see REDUCE_DEADLOCK in the module docstring). ``under``: room for 52 integers, which
    this overwrites (the move kernel lends its list of moves before writing any: an array
    made here would be a heap allocation per call). The least fixed point of optimistic
    facts, as bit sets of cards: ``free`` (a pile or waste card that may leave its
    place), ``exposed`` (a pile or waste card that may be on top), ``tops`` (a card
    that may be a pile top, to go onto), ``placed`` (a talon card that may go onto a
    pile), and the height each foundation may reach. Each round takes every card that
    may now leave its place at once, as bit sets, and follows each such card to the one
    it uncovers; the foundations grow as soon as their next card is in reach."""
    waste_len = 0 if _redeal_allowed(s) else s[WASTE_LEN]
    # the card under each pile or waste card; at the bottom, -1 in the waste and -2 - i in pile i
    waste = np.uint64(0)
    exposed = np.uint64(0)
    below = -1
    for q in range(waste_len):
        c = s[TALON + q]
        waste |= _bit(c)
        under[c] = below
        below = c
    if waste_len > 0:
        exposed |= _bit(below)
    founds = np.uint64(0)
    heights = np.uint64(0)
    nexts = np.uint64(0)     # the card each foundation takes next
    for f in range(4):
        founds |= ((np.uint64(1) << np.uint64(s[FOUND + f])) - np.uint64(1)) << np.uint64(13 * f)
        heights |= np.uint64(s[FOUND + f]) << np.uint64(4 * f)
        if s[FOUND + f] < 13:
            nexts |= _bit(13 * f + s[FOUND + f])
    face_up = np.uint64(0)
    face_down = np.uint64(0)
    emptiable = 0            # piles that are or may become empty
    pile_tops = np.uint64(0)
    for i in range(7):
        ln = s[LEN + i]
        if ln == 0:
            emptiable |= 1 << i
            continue
        base = PILES + i * PILE_CAP
        dn = s[DOWN + i]
        below = -2 - i
        for q in range(dn):
            c = s[base + q]
            under[c] = below
            below = c
            face_down |= _bit(c)
        for q in range(dn, ln):
            c = s[base + q]
            under[c] = below
            below = c
            face_up |= _bit(c)
        pile_tops |= _bit(below)
    exposed |= pile_tops
    in_piles = face_down | face_up
    stock = ALL_CARDS & ~(founds | waste | in_piles)   # talon cards outside the waste: brought to hand
    movable = in_piles | waste   # cards with a place to leave (a stock card is brought to hand)
    # with one card a draw any stock card may be brought to hand, with more only some (_reachable)
    talon = stock | waste
    reach = (_in_phase(s, _redeal_allowed(s)) & stock) if s[DRAW] > 1 and stock != 0 else stock
    tops = (founds if s[F2T] else np.uint64(0)) | pile_tops
    free = np.uint64(0)
    placed = np.uint64(0)
    grow = 15                # foundations that may grow
    risen = np.uint64(0)     # the cards they grow by
    kings = np.uint64(0)     # the Kings that may go into an empty pile
    kings_for = -1           # the piles ``kings`` was found for
    while True:
        while grow != 0:
            f = trailing_zeros(np.uint64(grow))
            grow &= ~(1 << f)
            shift = np.uint64(4 * f)
            start = np.int64((heights >> shift) & np.uint64(15))
            # the foundation grows up to its first card in a pile or the waste that may not
            # be on top
            blocked = (((movable & ~exposed) | (stock & ~reach)) >> np.uint64(13 * f + start)) & SUIT_BITS
            h = 13 if blocked == 0 else min(13, start + trailing_zeros(blocked))
            if h == start:
                continue
            heights += np.uint64(h - start) << shift
            if heights == np.uint64(0xDDDD):
                return False   # every foundation may be completed
            nexts &= ~_bit(13 * f + start)
            if h < 13:
                nexts |= _bit(13 * f + h)
            gone = ((np.uint64(1) << np.uint64(h - start)) - np.uint64(1)) << np.uint64(13 * f + start)
            risen |= gone
            gone &= movable & ~free     # gone up: they left their places
            free |= gone
            while gone != 0:
                c = trailing_zeros(gone)
                gone ^= _bit(c)
                exposed, tops, grow, emptiable = _leave(c, under, in_piles, exposed, tops, nexts, grow,
                                                        emptiable)
        if emptiable != kings_for:
            kings_for = emptiable
            kings = _kings_that_fit(s, emptiable)
        # every card that may leave its place now: onto a parent that may be a top, or a
        # King into a pile that may be empty
        fits = _children(tops) | kings
        new = fits & (((face_up | exposed) & in_piles & ~free) | (waste & exposed & ~placed) | (reach & ~placed))
        if new == 0:
            if reach != stock:
                # the talon cards that may have left it by now: placed on a pile or gone up
                more = _reachable(s, placed | (stock & risen) | (waste & free), talon) & stock & ~reach
                if more != 0:
                    reach |= more
                    more &= nexts
                    for f in range(4):
                        if (more >> np.uint64(13 * f)) & SUIT_BITS:
                            grow |= 1 << f
                    continue
            return True
        talon_new = new & ~in_piles   # talon cards that may go onto a pile: tops there
        placed |= talon_new
        tops |= talon_new
        new &= movable & ~free
        free |= new
        while new != 0:
            c = trailing_zeros(new)
            new ^= _bit(c)
            exposed, tops, grow, emptiable = _leave(c, under, in_piles, exposed, tops, nexts, grow, emptiable)


@njit(cache=True)
def _in_phase(s, redeal):
    """The talon cards that draws bring to the waste top as the talon is now: every
    ``DRAW``-th card from the waste top (or from the start, if the waste is empty), every
    ``DRAW``-th from the start after a redeal, if ``redeal``, and the last card (see
    :func:`_reachable`)."""
    d = s[DRAW]
    n = s[TALON_LEN]
    w = s[WASTE_LEN]
    reach = _bit(s[TALON + n - 1])
    for q in range(w - 1 if w > 0 else d - 1, n, d):
        reach |= _bit(s[TALON + q])
    if redeal:
        for q in range(d - 1, n, d):
            reach |= _bit(s[TALON + q])
    return reach


@njit(cache=True)
def _reachable(s, left, talon):
    """The talon cards that may be brought to hand some time, beyond :func:`_in_phase`'s,
    when the talon cards of ``left`` may leave the talon (``talon``: all its cards; see
    REDUCE_DEADLOCK: in the last pass only its stock cards are asked for, the waste being a
    pile). A card comes to the waste top by draws in their phase, as the last card, or when
    the card after it is played; and a card taken out moves the later ones down one place,
    out of phase. So, beyond those in phase: a card whose next one is in ``left``, and
    every card after one in ``left``."""
    if (left & talon) == 0:
        return np.uint64(0)
    n = s[TALON_LEN]
    before = np.uint64(0)   # the cards met so far
    below = np.uint64(0)    # the card met last
    for q in range(n):
        c = _bit(s[TALON + q])
        before |= c
        if (left & c) != 0:
            # the first card of ``left``: the card before it, every card after it, and itself
            # if the next one is in ``left`` too
            if q + 1 < n and (left & _bit(s[TALON + q + 1])) != 0:
                below |= c
            return below | (talon & ~before)
        below = c
    return np.uint64(0)


@njit(cache=True)
def _kings_that_fit(s, emptiable):
    """The Kings that may go into a pile that is or may become empty: a talon King when
    some pile may, a pile's King when another pile may."""
    if emptiable == 0:
        return np.uint64(0)
    if (emptiable & (emptiable - 1)) != 0:
        return KINGS
    kings = KINGS
    i = trailing_zeros(np.uint64(emptiable))   # the one pile: its own Kings cannot go there
    for q in range(s[LEN + i]):
        c = s[PILES + i * PILE_CAP + q]
        if c % 13 == 12:
            kings &= ~_bit(c)
    return kings


@njit(cache=True)
def _stones(s):
    """Stepping stones are in force: draw 1, unlimited passes, macro moves."""
    return (s[REDUCE] & REDUCE_STONE) != 0 and _every_talon_card_anytime(s)


@njit(cache=True)
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


@njit(cache=True)
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


# From this many passes on, a limited number of passes is tried as unlimited first (below):
# by the number of cards a draw. With one pass the deal's own search is small; with three
# cards a draw and fewer passes, one card a draw is the twin.
MANY_PASSES = {1: 2, 3: 4}


def relaxed(deal: Deal) -> Deal | None:
    """An easier deal that every winning line of ``deal`` also wins (``solve`` tries it
    first: lost there is lost here, and a line of it that ``deal``'s rules accept wins).

    * Draw 3, unlimited passes: the same position with one card a draw (foundation_to_tableau
      as it was). Any talon card can be brought to the waste top either way (draw until it
      shows, redeal when the stock is out) and the tableau and foundation rules are the
      same, so every table a line of ``deal`` reaches, this one reaches too. A lost draw-3
      deal is often lost with one card a draw too, in a far smaller search (its stepping
      stones and lazy talon cards hold only there).
    * :data:`MANY_PASSES` passes or more (two with one card a draw, four with three): the
      same deal with unlimited passes. Every line of
      ``deal`` is a line of it, and a line of it that redeals no more often than ``deal``
      allows is a line of ``deal``; its search is far smaller (the passes used leave the key).
      ``solve`` decides that twin as it decides any deal, so with three cards a draw the
      twin's own twin (one card a draw, below) comes first: it proves most of the lost deals.
    * Draw 3 with fewer passes: the same position with one card a draw and unlimited
      passes (both arguments above in turn). Its line is never the deal's, so it only
      proves deals lost: most of the hard lost deals at once, in a far smaller search
      than the deal's own, and the searches take fewer nodes in all (benchmarks/results.md).
    * Draw 1, one pass: none. Its lost deals are decided quickly without it. (With two and
      three passes they were not, and the unlimited twin proves most of the hard ones
      lost, benchmarks/results.md.)
    """
    passes = deal.options["passes"]
    easier = deal.copy()
    easier.passes_used = 0
    if passes is not None and passes >= MANY_PASSES[deal.options["draw"]]:
        easier.options = {**deal.options, "passes": None}
        return easier
    if deal.options["draw"] == 3:
        easier.options = {**deal.options, "draw": 1, "passes": None}
        return easier
    return None

