"""Ladder's move generation: the ``moves`` kernel and the generators it is made of, one per
kind of move, and the orders it lists them in."""

from __future__ import annotations

import numpy as np
from numba import njit

from ...engine.contract import MOVES_SIG, kernel, mix64_int
from ..cardbits import ALL_CARDS, CHILDREN, PARENTS
from .reductions import _chain_ends, _lazy, _safe_ups, _stone
from .state import (DOOMED, DRAW_MOVE, DST_FOUND, FINISH_MOVE, FOLLOW_ALL, FORCED_FLAG, K_NONE, LADDER, LADDER_LEN,
                    LEN, N_ORDERS, N_PILES, ORDER, ORDER_FOUNDATION_FIRST, ORDER_LADDER_HIGH_FIRST,
                    ORDER_LADDER_SCRAMBLED, PASSES, PEND_KIND, PEND_Y, PILES, PILE_CAP, RANKS, REDEAL_MOVE, REDUCE,
                    REDUCE_ARRANGE, REDUCE_MACRO, REDUCE_SAFE, RUNS, SRC_LADDER, SRC_TALON, TALON, TALON_LEN,
                    WASTE_LEN, _builds, _empty_target, _enc, _exposed_like, _fits_found, _label, _ok, _redeal_allowed,
                    _run_cards, _talon_mask, _talon_pos, _top, _twin, _twin_set)


@njit(inline="always")
def _gen_pile_found(s, out, n, kind, py, ups, tops):
    if (ups & tops) == 0:
        return n   # no pile top may go up
    for i in range(N_PILES):
        ln = s[LEN + i]
        if ln > 0:
            c = s[PILES + i * PILE_CAP + ln - 1]
            if (ups & (np.uint64(1) << np.uint64(c))) != 0 and _ok(kind, py, DST_FOUND):
                out[n] = _enc(i, DST_FOUND, ln - 1, 0)
                n += 1
    return n


@njit(inline="always")
def _gen_ladder(s, out, n, kind, py, et, to_found, to_piles, ups, first, tops):
    ladder_len = s[LADDER_LEN]
    if ladder_len == 0:
        return n
    c = s[LADDER + ladder_len - 1]
    if to_found and (ups & (np.uint64(1) << np.uint64(c))) != 0 and _ok(kind, py, DST_FOUND):
        out[n] = _enc(SRC_LADDER, DST_FOUND, 0, 0)
        n += 1
    if to_piles:
        if (PARENTS[c] & tops) != 0:   # some pile top takes it
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
               followable, targets, safe_ups, ladder_top, ups):
    """Talon cards (macro moves) or the waste top (plain) to the foundations / piles.
    ``holds`` >= 0: only cards that card ``holds`` builds on (-2: only those that it does not;
    -3 -- only with ``first`` and unlimited passes, macro moves -- all of them in one pass
    over the talon, those that ``ladder_top`` builds on listed first: the moves and the
    order of two calls, holds = ladder_top and holds = -2).
    ``followable`` (stepping stones; else FOLLOW_ALL): the ranks and colours of the cards
    that may go onto a pile next; a stone nothing of it builds on is left out (see
    _followable). ``targets``: the cards some pile top allowed as a target takes. ``ups``: the
    cards that may go up now (_chain_ends; without lazy talon, those that fit a foundation):
    a pass to the foundations alone looks only for them."""
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
    elif to_found and not to_piles and not to_empty:
        cand = ups   # only to the foundations: the cards that fit one
        if cand == 0:
            return n
    elif to_empty and not to_found and not to_piles and not (et >= 0 and _ok(kind, py, et)):
        return n   # only into the empty pile, and there is none allowed
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


@njit(cache=True)
def _red_ranks(cards):
    """The ranks (bit r) of the red cards in a card bit set."""
    return ((cards >> np.uint64(13)) | (cards >> np.uint64(26))) & RANKS


@njit(cache=True)
def _black_ranks(cards):
    """The ranks (bit r) of the black cards in a card bit set."""
    return (cards | (cards >> np.uint64(39))) & RANKS


@njit(cache=True)
def _followed(followable):
    """The card values that some card of ``followable`` (see _followable) builds on: the
    black cards one rank above a red rank in it, the red ones one rank above a black."""
    black = (followable << np.uint64(1)) & RANKS
    red = ((followable >> np.uint64(16)) << np.uint64(1)) & RANKS
    return black | (black << np.uint64(39)) | (red << np.uint64(13)) | (red << np.uint64(26))


@njit(inline="always")
def _followable(s, runs, talon, arrange, ups, safe_ups, under):
    """The cards that may be put onto a stepping stone by the move after it: the ladder
    top, a talon card, or a card of a pile's top run (a tail's lowest card, also one a
    swap moves; with REDUCE_ARRANGE only the run's lowest card and a card on one that
    may go up). A stone none of them builds on leaves a position with no moves (the
    next move must put a card onto it; the forced moves before the others are a safe
    foundation move, which only the stone itself can newly offer -- _gen_talon keeps
    such a stone -- or a consolidation, whose pile bottom is in a top run), so the
    stone is not offered: the same verdicts, a dead end fewer (on hard deals most
    states entered are stone positions, with few moves). With talon cards counted only
    as live stones, chains of dead stones go too.
    What may go onto a card depends only on its rank and colour, so the result is two
    rank sets: bit r for the red cards of rank r, bit 16 + r for the black ones.
    ``under``: the run cards with a card on them, of every pile (RUN_CARDS)."""
    cards = np.uint64(0)   # the ladder top and each run's lowest card
    if s[LADDER_LEN] > 0:
        cards |= np.uint64(1) << np.uint64(s[LADDER + s[LADDER_LEN] - 1])
    for i in range(N_PILES):
        if s[LEN + i] > 0:
            cards |= np.uint64(1) << np.uint64(s[PILES + i * PILE_CAP + _run_start(runs, i)])
    if arrange:
        under &= ups   # the run cards with a card on them that count: those that may go up
    # a talon card counts only as a stone that something could follow in turn (a least
    # fixed point up the ranks; computed here, before the stone goes down, it can only
    # count more than the position after it would: the talon then holds one card fewer)
    # a card on a run card is one rank lower and of the other colour
    red = _red_ranks(cards) | (_black_ranks(under) >> np.uint64(1))
    black = _black_ranks(cards) | (_red_ranks(under) >> np.uint64(1))
    talon_red = _red_ranks(talon)
    talon_black = _black_ranks(talon)
    live_red = _red_ranks(talon & safe_ups)       # a stone that may go up itself is live
    live_black = _black_ranks(talon & safe_ups)
    # what builds on a card is one rank lower: each round carries the live ranks one rank up,
    # all ranks at once, until nothing changes (as many rounds as the longest chain, plus one)
    one = np.uint64(1)
    while True:
        grown_red = live_red | (talon_red & ((black | live_black) << one))
        grown_black = live_black | (talon_black & ((red | live_red) << one))
        if grown_red == live_red and grown_black == live_black:
            break
        live_red, live_black = grown_red, grown_black
    return (red | live_red) | ((black | live_black) << np.uint64(16))


@njit(inline="always")
def _gen_swaps(s, out, n, kind, py, ups, runs, et, tops, under):
    """REDUCE_ARRANGE: a card X under a tail that builds on it goes up after that tail
    moves onto an uncovered card of X's rank and colour (the one lateral move kept).
    ``tops``: the pile tops, to skip the search for a top like X when none is; ``under``:
    the run cards with a card on them, of every pile (RUN_CARDS)."""
    if (under & ups) == 0:
        return n   # no card under a tail's top may go up
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
        if (_run_cards(s, i) & ups) == 0:
            continue   # no card under the tail's top may go up
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


@njit(cache=True)
def _run_starts(s):
    """:func:`_built_from` of every pile, one byte each (moves() asks up to four times),
    as the state keeps them (RUNS)."""
    runs = np.uint64(0)
    for i in range(N_PILES):
        runs |= np.uint64(s[RUNS + i]) << np.uint64(8 * i)
    return runs


@njit(cache=True)
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
        # split 0: the tail from the run's start only; 1: those above it; 2: all
        for idx in range(k + 1 if split == 1 else k, k + 1 if split == 0 else ln):
            c = s[base + idx]
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


BURYING_LABEL = 1024   # above every other label of every order


@njit(cache=True)
def _talon_draws(p, talon_len, waste_len):
    """The draws that bring talon index ``p`` to the waste top (0: it is the waste top);
    past the end of the stock, a redeal and the draws from the start."""
    if p >= waste_len - 1:
        return p - (waste_len - 1)
    return talon_len - waste_len + 1 + p


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
    if src == SRC_TALON and s[PASSES] != 0:
        # limited passes: a talon card that buries others (draws them onto the waste, whence
        # they come back only in reverse order, if at all) comes after every other move, the
        # fewer it buries the sooner; the waste top and the next stock card bury none
        buried = _talon_draws(index, np.int64(s[TALON_LEN]), np.int64(s[WASTE_LEN])) - 1
        if buried > 0:
            return BURYING_LABEL + buried * 64 + (0 if dst == DST_FOUND else 16) + c % 13
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
    table = np.zeros((N_ORDERS, 52), dtype=np.uint8)
    for order in range(N_ORDERS):
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
    if 2 * n > out.shape[0]:   # no room for the labels (never met: see MAX_MOVES): each worked out again
        for q in range(1, n):
            m = out[q]
            lab = _move_label(s, m)
            r = q - 1
            while r >= 0 and _move_label(s, out[r]) > lab:
                out[r + 1] = out[r]
                r -= 1
            out[r + 1] = m
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


@kernel(MOVES_SIG)
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
        elif macro and not unlimited:
            # limited passes: the waste top and the next stock card only (REDUCE_SAFE)
            for p in (waste_len - 1, waste_len):
                if 0 <= p < talon_len and (safe_ups >> np.uint64(s[TALON + p])) & one:
                    out[0] = _enc(SRC_TALON, DST_FOUND, p, 0) | FORCED_FLAG
                    return 1
    runs = _run_starts(s)
    tops = np.uint64(0)      # the pile tops
    targets = np.uint64(0)   # the card values some pile top takes
    under = np.uint64(0)     # the run cards with a card on them
    for j in range(N_PILES):
        if s[LEN + j] > 0:
            tops |= one << np.uint64(_top(s, j))
            targets |= CHILDREN[_top(s, j)]
            under |= _run_cards(s, j)
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
        n = _gen_ladder(s, out, n, kind, py, et, to_found=True, to_piles=False, ups=ups, first=arrange, tops=tops)
        n = _gen_pile_found(s, out, n, kind, py, ups, tops)
    if arrange:
        n = _gen_swaps(s, out, n, kind, py, ups, runs, et, tops, under)
    if not lazy and kind == K_NONE:
        n = _gen_talon(s, out, n, kind, py, et, macro, unlimited, to_found=True, to_piles=False, to_empty=False,
                       holds=-1, first=arrange, talon=talon, followable=FOLLOW_ALL, targets=targets,
                       safe_ups=safe_ups, ladder_top=-1, ups=ups)
    n = _gen_ladder(s, out, n, kind, py, et, to_found=False, to_piles=True, ups=ups, first=arrange, tops=tops)
    top = np.int64(s[LADDER + ladder_len - 1]) if ladder_len > 0 else -1
    followable = FOLLOW_ALL
    if _stone(s) and (targets & talon) != 0:   # only asked when a talon card may go onto a pile
        followable = _followable(s, runs, talon, arrange, ups, safe_ups, under)
    # talon cards onto piles: those the ladder top builds on, then the others. In one pass
    # when it may (the kernel's moves are sorted by label below, and those of talon cards
    # onto piles come after all others in every order, so where they are made matters not)
    one_pass = arrange and macro and unlimited and talon != 0
    if top >= 0 and not one_pass:
        n = _gen_talon(s, out, n, kind, py, et, macro, unlimited, to_found=False, to_piles=True, to_empty=False,
                       holds=top, first=arrange, talon=talon, followable=followable, targets=targets,
                       safe_ups=safe_ups, ladder_top=-1, ups=ups)
    n = _gen_tails(s, out, n, kind, py, et, to_piles=True, to_empty=False, split=0, first=arrange, runs=runs,
                   targets=targets)
    n = _gen_tails(s, out, n, kind, py, et, to_piles=False, to_empty=True, split=0, first=arrange, runs=runs,
                   targets=targets)
    if not arrange:
        n = _gen_tails(s, out, n, kind, py, et, to_piles=True, to_empty=False, split=1, first=False, runs=runs,
                       targets=targets)
    n = _gen_talon(s, out, n, kind, py, et, macro, unlimited, to_found=False, to_piles=True, to_empty=False,
                   holds=-3 if one_pass else -2, first=arrange, talon=talon, followable=followable, targets=targets,
                   safe_ups=safe_ups, ladder_top=top, ups=ups)
    if not arrange:
        n = _gen_tails(s, out, n, kind, py, et, to_piles=False, to_empty=True, split=1, first=arrange, runs=runs,
                       targets=targets)
    if not _stone(s):
        n = _gen_talon(s, out, n, kind, py, et, macro, unlimited, to_found=False, to_piles=False, to_empty=True,
                       holds=-1, first=arrange, talon=talon, followable=FOLLOW_ALL, targets=targets,
                       safe_ups=safe_ups, ladder_top=-1, ups=ups)
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
