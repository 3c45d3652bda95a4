"""Klondike's kernels that take one position (:mod:`solver.engine.contract`): ``apply``, the
canonical ``key``, ``is_won`` and the beam search's ``beam_score`` (``moves`` is in
:mod:`.generate`). A module of their own, which imports nothing of ``moves``: on a first run
the engine's child compiles it while this process compiles ``moves`` (:mod:`.kernels`)."""

from __future__ import annotations

import numpy as np
from numba import njit

from ...engine.contract import (APPLY_SIG, BEAM_SCORE_SIG, CHAIN, KEY_SIG, WON_SIG, chain_bytes, chain_on, kernel,
                                load64, store64)
from ...engine.contract import mix64 as _mix
from ..talon_dominance import CHAIN_BITS, chain_field, talon_field, with_field
from .reductions import _covered_alike, _lazy, _stones
from .state import (DOWN, DRAW, DRAW_MOVE, DST_FOUND, EMPTIED, FOUND, LEN, LIFT, NO_STONE,
                    PASSES, PASSES_USED, PILE_CAP, PILE_TERMS, PILES, RECHECK, REDEAL_FLAG, REDEAL_MOVE,
                    REDUCE, REDUCE_EMPTY, REDUCE_LAYOUT, REDUCE_MACRO, SRC_FOUND, SRC_TALON,
                    STONE, TALON, TALON_CHAIN, TALON_LEN, UNCOVER_FLAG, WASTE_LEN, _pile_with_top,
                    _boundary_chains, _redeal_allowed, _talon_field_bits, _twin)


@njit(cache=True)
def _pile_term(s, i):
    """Pile i's part of the key with REDUCE_LAYOUT when no pile has more than six
    face-down cards (every deal of seven piles): its face-down cards and its lowest
    face-up card, at most seven, packed exactly into one word with their count and the
    face-down count, and mixed (0 for a pile with more face-down cards). Eight bytes are
    read whatever the count (a pile has room for 20) and the ones above it masked off:
    no loop whose length the processor must guess. :func:`encoding.pile_term` is the
    same in Python."""
    down = s[DOWN + i]
    if down > 6:
        return np.uint64(0)
    base = PILES + i * PILE_CAP
    end = min(s[LEN + i], down + 1)
    w = load64(s, base)
    w &= (np.uint64(1) << np.uint64(8 * end)) - np.uint64(1)
    return _mix((w | (np.uint64(end + 8 * down) << np.uint64(56))) + np.uint64(0x9E3779B97F4A7C15))


@njit(cache=True)
def _keep_pile_term(s, i):
    """Pile i's part of the key worked out again into PILE_TERMS, after a move that
    changed its face-down cards or its lowest face-up card (no other move changes it)."""
    store64(s, PILE_TERMS + 8 * i, _pile_term(s, i))


@njit(cache=True)
def _keep_talon_chain(s):
    """The talon's cards chained from 0 worked out again into TALON_CHAIN, after a talon
    card is played (draws and redeals move only the boundary, which the chain leaves out)."""
    store64(s, TALON_CHAIN, chain_bytes(np.uint64(0), s, TALON, np.int64(s[TALON_LEN])))


@kernel(APPLY_SIG)
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
        # cards drawn past to reach c, buried in the waste for good when no redeal is left
        buried = index > (0 if m & REDEAL_FLAG else s[WASTE_LEN]) and not _redeal_allowed(s)
        for q in range(index, ln - 1):
            s[TALON + q] = s[TALON + q + 1]
        s[TALON_LEN] = ln - 1
        s[WASTE_LEN] = index
        _keep_talon_chain(s)
        if dst == DST_FOUND:
            if _lazy(s, c):
                s[LIFT] = c
            s[FOUND + c // 13] += 1
            s[RECHECK] = 1 if buried else 0
        else:
            t = s[LEN + dst]
            s[PILES + dst * PILE_CAP + t] = c
            s[LEN + dst] = t + 1
            if t == 0:
                _keep_pile_term(s, dst)
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
        if t == 0:
            _keep_pile_term(s, dst)
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
        onto_empty = t == 0
        for q in range(index, ln):
            s[PILES + dst * PILE_CAP + t] = s[PILES + src * PILE_CAP + q]
            t += 1
        s[LEN + dst] = t
        if onto_empty:
            _keep_pile_term(s, dst)
    lowest = index == s[DOWN + src]   # the pile's lowest face-up card left: a card turns, or it empties
    s[LEN + src] = index
    if index > 0 and s[DOWN + src] >= index:
        s[DOWN + src] = index - 1
    elif dst == DST_FOUND:
        s[RECHECK] = 0
    elif index == 0 and (s[REDUCE] & REDUCE_EMPTY):
        s[EMPTIED] = 1
    if lowest:
        _keep_pile_term(s, src)


# waste lengths that are a multiple of the draw count (a division per key cost more than a lookup)
_MULTIPLE = np.array([[d > 0 and w % d == 0 for w in range(64)] for d in range(8)], dtype=np.uint8)


@njit(cache=True)
def _packed_piles(s):
    """The piles' part of the key with REDUCE_LAYOUT when no pile has more than six
    face-down cards: the sum of the terms the state keeps (:func:`_pile_term`)."""
    total = np.uint64(0)
    for i in range(7):
        total += load64(s, PILE_TERMS + 8 * i)
    return total


@njit(cache=True)
def _hashed_piles(s, layout):
    """The piles' part of the key otherwise: each pile's cards (with REDUCE_LAYOUT its
    face-down cards and lowest face-up card) hashed one by one."""
    total = np.uint64(0)
    for i in range(7):
        down = s[DOWN + i]
        h = np.uint64(down) + np.uint64(1)
        base = PILES + i * PILE_CAP
        end = min(s[LEN + i], down + 1) if layout else s[LEN + i]
        for q in range(end):
            h = h * CHAIN + np.uint64(s[base + q] + 1)
        total += _mix(h + np.uint64(0x9E3779B97F4A7C15))
    return total


@kernel(KEY_SIG)
def key(s):
    # piles: a sum of per-pile hashes, so the order of piles does not matter. With
    # REDUCE_LAYOUT the face-up cards above each pile's lowest one count only as a set,
    # and that set is every card not in the piles' hashed parts, the talon or the
    # foundations: the foundation heights stand for it (four bytes, not a loop)
    layout = s[REDUCE] & REDUCE_LAYOUT
    deep = False
    for i in range(7):
        deep |= s[DOWN + i] > 6
    total = _packed_piles(s) if layout and not deep else _hashed_piles(s, layout)
    heights = np.uint64(s[FOUND]) | (np.uint64(s[FOUND + 1]) << np.uint64(8)) \
        | (np.uint64(s[FOUND + 2]) << np.uint64(16)) | (np.uint64(s[FOUND + 3]) << np.uint64(24))
    total += _mix(heights + np.uint64(0x2545F4914F6CDD1D))
    # talon: its cards in order, the boundary, and the passes used (when limited)
    waste_len = s[WASTE_LEN]
    if s[PASSES] == 0 and (s[REDUCE] & REDUCE_MACRO) and \
            (_MULTIPLE[s[DRAW] & 7, waste_len & 63] or waste_len == s[TALON_LEN]):
        # unlimited redeals: a boundary on a multiple of the draw count, or at the
        # end, reaches exactly the cards a fresh pass reaches, so all such
        # boundaries are one state (with draw 1: every boundary)
        waste_len = 0
    # REDUCE_TALON_DOMINANCE: the passes used, and with one card a draw the boundary, go
    # to the key's low bits; with unlimited passes and three cards a draw, the boundary's
    # place in its chain (games/talon_dominance.py)
    if _boundary_chains(s):   # unlimited passes (none used), three cards a draw: the boundary's chain
        used = 0
        waste_len, field = chain_field(waste_len, s[TALON_LEN], s[DRAW])
        bits = CHAIN_BITS
    else:
        passes_bits, boundary_bits = _talon_field_bits(s)
        used, waste_len, field = talon_field(s[PASSES], s[PASSES_USED], waste_len, passes_bits, boundary_bits)
        bits = passes_bits + boundary_bits
    t = np.uint64(waste_len) | (np.uint64(used) << np.uint64(8)) | (np.uint64(s[STONE]) << np.uint64(16)) \
        | (np.uint64(s[LIFT]) << np.uint64(24)) | (np.uint64(s[EMPTIED]) << np.uint64(32))
    t = chain_on(t, s[TALON_LEN], load64(s, TALON_CHAIN))   # the talon's cards chained on from t
    return with_field(_mix(total ^ _mix(t + np.uint64(0x632BE59BD9B4E019))), field, bits)


@kernel(WON_SIG)
def is_won(s):
    return s[FOUND] + s[FOUND + 1] + s[FOUND + 2] + s[FOUND + 3] == 52


@kernel(BEAM_SCORE_SIG)
def beam_score(s, weighing):
    """How promising a position looks, for the beam search (engine/beam.py): cards up and
    face-down cards turned, less, with limited passes, the passes used (the one resource a
    greedy line spends without a card to show for it) and the cards buried in the waste
    (each comes back only after the ones drawn after it, or with a redeal). Empty piles
    earn nothing of their own: a beam that prized them won fewer deals. The weights were
    chosen on the draw-1 five-pass deals of seeds 1-10000 that the search without a beam
    left unknown at 10 s (benchmarks/results.md). One weighing only."""
    up = s[FOUND] + s[FOUND + 1] + s[FOUND + 2] + s[FOUND + 3]
    down = 0
    for i in range(7):
        down += s[DOWN + i]
    score = 10 * up - 2 * down
    if s[PASSES] != 0:
        score -= 20 * s[PASSES_USED] + (3 if _redeal_allowed(s) else 8) * s[WASTE_LEN]
    return np.int64(score)


@njit(cache=True)
def settle(states):
    """What each state (a row) keeps worked out from its cards, worked out again in place:
    the piles' terms and the talon's chain, for states whose card bytes were written
    directly (:attr:`solver.game.Solver.settle`)."""
    for r in range(states.shape[0]):
        s = states[r]
        for i in range(7):
            _keep_pile_term(s, i)
        _keep_talon_chain(s)
