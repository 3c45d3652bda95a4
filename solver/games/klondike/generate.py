"""Klondike's move generation: the ``moves`` kernel and the generators it is made of.

Moves come in a fixed order, best first: a forced safe foundation move alone (see
:mod:`.reductions`), else tableau runs (those that turn a card or empty a pile,
deepest pile first), tableau tops to the foundations, uncover moves, talon cards
(macro moves over the stock), foundation cards back down; then the constraints a
stepping stone, a lazy talon card or an emptied pile leave on the next move, and
the move order of the root (as generated, reversed, or scrambled).
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from ...engine.contract import MOVES_SIG, kernel
from ...engine.contract import mix64 as _mix
from .reductions import _doomed, _lazy, _may_follow_up, _onto_stone, _safe
from .state import (DOOMED, DOWN, DRAW, DRAW_MOVE, DST_FOUND, EMPTIED, F2T, FOUND, LEN, LIFT, NO_STONE, ORDER,
                    PILE_CAP, PILES, RECHECK, REDEAL_MOVE, REDUCE, REDUCE_DEADLOCK, REDUCE_LAYOUT, REDUCE_MACRO,
                    REDUCE_SAFE, REDUCE_SAFE_TALON, SRC_FOUND, SRC_TALON, STONE, TALON, TALON_LEN, UNCOVER_FLAG,
                    WASTE_LEN, _bit, _byte, _red, _enc, _every_talon_card_anytime, _fits_found, _fits_pile,
                    _may_fit_somewhere, _redeal_allowed, _tops, _twin)


ONES = np.uint64(0x0101010101010101)
LOW7 = np.uint64(0x7F7F7F7F7F7F7F7F)
PILE_BYTES = np.uint64(0x00FFFFFFFFFFFFFF)   # bytes 0-6: the seven piles


@njit(cache=True)
def _top_bytes(s):
    """Byte j: pile j's top card, or 255 when the pile is empty (the piles a card fits are
    then found among all seven tops at once, by _bytes_equal, instead of pile by pile)."""
    t = np.uint64(0xFFFFFFFFFFFFFFFF)
    for j in range(7):
        ln = s[LEN + j]
        if ln > 0:
            t ^= (np.uint64(255) ^ np.uint64(s[PILES + j * PILE_CAP + ln - 1])) << np.uint64(8 * j)
    return t


@njit(cache=True)
def _bytes_equal(packed, v):
    """High bit of each byte of ``packed`` equal to v (exact: no carry between bytes)."""
    x = packed ^ (np.uint64(v) * ONES)
    return ~(((x & LOW7) + LOW7) | x | LOW7)


@njit(cache=True)
def _add_pile_targets(s, out, n, c, src, index, redeal, skip, tops, top_bytes):
    """Append moves of card c (from src) to every fitting pile but ``skip``: a King to the
    first empty pile, another card onto each pile whose top is one rank up, of the other colour."""
    if not _may_fit_somewhere(tops, c):
        return n
    r = c % 13
    if r == 12:
        at = _bytes_equal(top_bytes, 255)
    elif _red(c):
        at = _bytes_equal(top_bytes, r + 1) | _bytes_equal(top_bytes, 39 + r + 1)   # clubs, spades
    else:
        at = _bytes_equal(top_bytes, 13 + r + 1) | _bytes_equal(top_bytes, 26 + r + 1)   # diamonds, hearts
    at &= PILE_BYTES
    if skip >= 0:
        at &= ~(np.uint64(0x80) << np.uint64(8 * skip))
    while at != 0:
        j = trailing_zeros(at) >> 3
        at &= at - np.uint64(1)
        out[n] = _enc(src, j, index, redeal)
        n += 1
        if r == 12 or (s[REDUCE] & REDUCE_LAYOUT):
            break  # one empty pile is enough; with REDUCE_LAYOUT the other fitting top is this one's twin
    return n


@njit(cache=True)
def _talon_card_moves(s, out, n, p, redeal, tops, top_bytes):
    c = s[TALON + p]
    if _fits_found(s, c):
        if not _lazy(s, c) or _may_follow_up(s, c):
            out[n] = _enc(SRC_TALON, DST_FOUND, p, redeal)
            n += 1
        if (s[REDUCE] & REDUCE_SAFE) and _safe(s, c):
            return n  # a safe card goes up, not onto a pile (see REDUCE_SAFE)
    return _add_pile_targets(s, out, n, c, SRC_TALON, p, redeal, -1, tops, top_bytes)


@njit(cache=True)
def _reachable_this_pass(p, waste_len, talon_len, draw):
    if p == waste_len - 1:
        return True
    return p >= waste_len and ((p - waste_len + 1) % draw == 0 or p == talon_len - 1)


@njit(cache=True)
def _may_move(s, c, tops):
    """Card c may go up or onto a pile top: else _talon_card_moves adds nothing for it
    (most talon cards: their indices stay out of _talon_moves' bit sets)."""
    return _fits_found(s, c) or _may_fit_somewhere(tops, c)


@njit(cache=True)
def _talon_moves(s, out, n, tops, top_bytes):
    """Macro moves: every talon card that draws (and at most one redeal) can bring up. The
    talon indices as two bit sets, this pass's (the waste top first: it is the lowest)
    and those after a redeal, so that one call site takes every card."""
    talon_len, waste_len, draw = s[TALON_LEN], s[WASTE_LEN], s[DRAW]
    this_pass = np.uint64(0)
    if waste_len > 0 and _may_move(s, s[TALON + waste_len - 1], tops):
        this_pass |= _bit(waste_len - 1)
    w = waste_len
    while w < talon_len:
        w = min(w + draw, talon_len)
        if _may_move(s, s[TALON + w - 1], tops):
            this_pass |= _bit(w - 1)
    after_redeal = np.uint64(0)
    if talon_len > 0 and _redeal_allowed(s):
        w = 0
        while w < talon_len:
            w = min(w + draw, talon_len)
            if not _reachable_this_pass(w - 1, waste_len, talon_len, draw) and _may_move(s, s[TALON + w - 1], tops):
                after_redeal |= _bit(w - 1)
    for redeal in range(2):
        at = this_pass if redeal == 0 else after_redeal
        while at != 0:
            p = trailing_zeros(at)
            at ^= _bit(p)
            n = _talon_card_moves(s, out, n, p, redeal, tops, top_bytes)
    return n


@njit(cache=True)
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


@njit(cache=True)
def _tableau_moves(s, out, n, tops, top_bytes):
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
        if _may_fit_somewhere(tops, c):   # (tested here too: measured faster than the test inside alone)
            n = _add_pile_targets(s, out, n, c, i, down, 0, i, tops, top_bytes)
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


@njit
def _scramble(out, n, order):
    """Order ``order`` (2, 3, ...): the moves sorted by a pseudo-random 64-bit label of each
    move value, one labelling per order (insertion sort: lists are short). The top 31
    bits of each label wait in ``out[n:2n]``, so a label is hashed once, not once per
    comparison; the whole label breaks their rare ties."""
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


@kernel(MOVES_SIG)
def moves(s, out):
    n = 0
    reduce = s[REDUCE]
    if s[DOOMED]:
        return 0
    if (reduce & REDUCE_DEADLOCK) and s[RECHECK] and _doomed(s, out):
        return 0   # see REDUCE_DEADLOCK
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
    top_bytes = _top_bytes(s)
    n = _tableau_moves(s, out, n, tops, top_bytes)
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
    if reduce & REDUCE_MACRO:
        n = _talon_moves(s, out, n, tops, top_bytes)
    else:
        if waste_len > 0:
            c = s[TALON + waste_len - 1]
            if _fits_found(s, c):
                out[n] = _enc(SRC_TALON, DST_FOUND, waste_len - 1, 0)
                n += 1
            n = _add_pile_targets(s, out, n, c, SRC_TALON, waste_len - 1, 0, -1, tops, top_bytes)
    # 6. foundation tops back to the tableau
    if s[F2T]:
        for f in range(4):
            h = s[FOUND + f]
            if h > 0:
                c = f * 13 + h - 1
                if (reduce & REDUCE_SAFE) and _safe(s, c):
                    continue  # a safe card never needs to come down (see REDUCE_SAFE)
                if _may_fit_somewhere(tops, c):
                    n = _add_pile_targets(s, out, n, c, SRC_FOUND + f, 0, 0, -1, tops, top_bytes)
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
