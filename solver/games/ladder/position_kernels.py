"""Ladder's kernels that read and change a position, apart from move generation: ``apply``,
the canonical ``key``, ``is_won``, and the optional dominance, progress, transient,
beam-score and stage kernels.

Nothing here imports :mod:`.generate` (``moves``): on a first run the engine's child
process compiles this module (the game's ``compiled_aside``, engine/warm.py) while the
caller compiles ``moves``."""

from __future__ import annotations

import numpy as np
from numba import njit

from ...engine.contract import (APPLY_SIG, BEAM_SCORE_SIG, CHAIN, DOMINANCE_SIG, KEY_SIG, PROGRESS_SIG, STAGE_SIG,
                                TRANSIENT_SIG, WON_SIG, chain_on, kernel, load64, store64)
from ...engine.contract import mix64 as _mix
from ..talon_dominance import PASSES_BITS, talon_field, with_field
from .reductions import _chain_base, _stone, _up
from .state import (BOUNDARY_BITS, CHAINS, DOOMED, DRAW_MOVE, DST_FOUND, FINISH_MOVE, FORCED_FLAG, FOUND, K_NONE,
                    K_STONE, LADDER, LADDER_CAP, LADDER_LEN, LEN, MARKED_START, N_PILES, PASSES, PASSES_USED,
                    PEND_KIND, PEND_Y, PILE_CAP, PILE_TERMS, PILES, REDEAL_FLAG, REDEAL_MOVE, REDUCE, REDUCE_DOMINANCE,
                    REDUCE_MACRO, REDUCE_TALON_DOMINANCE, RUN_CARDS, RUNS, SRC_LADDER, SRC_TALON, TALON, TALON_CAP,
                    TALON_CHAIN, TALON_LEN, WASTE_LEN, _built_from, _chain_pile, _empty_target, _talon_take,
                    _exposed_like, _pile_chain, _pile_term, _redeal_allowed, _renew_pile_term, _run_cards,
                    _set_run_cards, _to_found, _top)


@njit(inline="always")
def _place(s, c, dst):
    if dst == DST_FOUND:
        _to_found(s, c)
    else:
        t = s[LEN + dst]
        if t > 0:   # c builds on the top, which joins the run cards under the new top
            store64(s, RUN_CARDS + 8 * dst, _run_cards(s, dst) | (np.uint64(1) << np.uint64(_top(s, dst))))
        old = _pile_term(s, dst, np.uint64(1))
        s[PILES + dst * PILE_CAP + t] = c
        s[LEN + dst] = t + 1
        store64(s, CHAINS + 8 * dst, _pile_chain(s, dst) * CHAIN + np.uint64(c + 1))
        _renew_pile_term(s, dst, old)


@njit(inline="always")
def _put_tail(s, base, index, ln, j):
    """Cards ``index`` to ``ln`` of the pile at ``base`` onto pile j (its chain, run cards
    and term renewed)."""
    t = s[LEN + j]
    h = _pile_chain(s, j)
    old = _pile_term(s, j, np.uint64(1))
    # the tail builds on pile j's top (or lies alone in it): every card but the new top
    # is under a card of the run
    run = _run_cards(s, j) | (np.uint64(1) << np.uint64(_top(s, j))) if t > 0 else np.uint64(0)
    for q in range(index, ln):
        c = s[base + q]
        s[PILES + j * PILE_CAP + t] = c
        h = h * CHAIN + np.uint64(c + 1)
        if q < ln - 1:
            run |= np.uint64(1) << np.uint64(c)
        t += 1
    s[LEN + j] = t
    store64(s, CHAINS + 8 * j, h)
    store64(s, RUN_CARDS + 8 * j, run)
    _renew_pile_term(s, j, old)


@njit(inline="always")
def _cut(s, i, index):
    """Pile i keeps its cards below ``index``, which is at or above its top run's start
    (only run cards move): the run still starts there unless the cut reached it. An
    emptied pile gets 0, so a pile that is empty has 0; and a card or tail put on a pile
    builds on its top (or lies alone in an empty pile), so the start of the run it joins
    never changes: apply sets RUNS here only. The pile's chain and run cards are made
    again from the cards it keeps (one put on a pile extends them instead), and the kept
    sum of the piles' terms takes its new term."""
    old = _pile_term(s, i, np.uint64(1))
    s[LEN + i] = index
    if index <= s[RUNS + i]:
        s[RUNS + i] = _built_from(s, PILES + i * PILE_CAP, index) if index > 0 else 0
    _chain_pile(s, i)
    _set_run_cards(s, i)
    _renew_pile_term(s, i, old)


@kernel(APPLY_SIG)
def apply(s, m):
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
        store64(s, TALON_CHAIN, np.uint64(0))
        return
    src = m & 15
    dst = (m >> 4) & 15
    index = (m >> 8) & 255
    free = (m & FORCED_FLAG) == 0   # a forced move leaves no constraint
    if src == SRC_TALON:
        if (m & REDEAL_FLAG) and s[PASSES] != 0:
            s[PASSES_USED] += 1
        c = s[TALON + index]
        _talon_take(s, index)
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
            j = _empty_target(s)  # the empty pile moves() offered
        _put_tail(s, base, index + 1, ln, j)
    if dst == DST_FOUND:
        _up(s, c)
    else:
        _put_tail(s, base, index, ln, dst)
    _cut(s, src, index)


@njit(inline="always")
def _piles_hash(s):
    """A sum of per-pile terms (_pile_term), so the order of piles does not matter: the
    sum apply keeps, with the term of the pile a stepping stone lies on (marked: the mark
    travels with it) in place of its plain one."""
    total = load64(s, PILE_TERMS)
    if s[PEND_Y] != 0:
        i = np.int64(s[PEND_Y]) - 1
        total += _pile_term(s, i, MARKED_START) - _pile_term(s, i, np.uint64(1))
    return total


@njit(inline="always")
def _foundation_fields(s):
    """The eight foundation heights, 4 bits each (in the key, and the dominance vector)."""
    v = np.uint64(0)
    for f in range(8):
        v |= np.uint64(s[FOUND + f]) << np.uint64(4 * f)
    return v


TALON_FIELD_FLAGS = REDUCE_MACRO | REDUCE_TALON_DOMINANCE


@njit(inline="always")
def _talon_field_bits(s):
    """(bits of the passes used, bits of the boundary) in the key's dominance field
    (REDUCE_TALON_DOMINANCE: limited passes and macro moves only), each 0 when absent."""
    if s[PASSES] == 0 or (s[REDUCE] & TALON_FIELD_FLAGS) != TALON_FIELD_FLAGS:
        return 0, 0
    return PASSES_BITS[s[PASSES]], BOUNDARY_BITS


@kernel(KEY_SIG)
def key(s):
    total = _piles_hash(s)
    # foundations (4 bits a height), ladder length (its cards are fixed), constraint
    g = _foundation_fields(s)
    g |= np.uint64(s[LADDER_LEN]) << np.uint64(32)
    g |= np.uint64(s[PEND_KIND]) << np.uint64(40)
    # talon: with unlimited passes and macro moves it is the rest of the decks (a
    # multiset, all of it available): nothing to add; otherwise order, boundary, passes
    # (with REDUCE_TALON_DOMINANCE the passes used and the boundary go to the key's low
    # bits: games/talon_dominance.py)
    if s[PASSES] == 0 and (s[REDUCE] & REDUCE_MACRO):
        return _mix(total ^ _mix(g + np.uint64(0x2545F4914F6CDD1D)))
    passes_bits, boundary_bits = _talon_field_bits(s)
    used, boundary, field = talon_field(s[PASSES], s[PASSES_USED], s[WASTE_LEN], passes_bits, boundary_bits)
    t = np.uint64(boundary) | (np.uint64(used) << np.uint64(8))
    t = chain_on(t, s[TALON_LEN], load64(s, TALON_CHAIN))
    g ^= _mix(t + np.uint64(0x632BE59BD9B4E019))
    return with_field(_mix(total ^ _mix(g + np.uint64(0x2545F4914F6CDD1D))), field, passes_bits + boundary_bits)


@kernel(WON_SIG)
def is_won(s):
    total = 0
    for f in range(8):
        total += s[FOUND + f]
    return total == 104


@kernel(DOMINANCE_SIG)
def dominance_group(s):
    """States with the same piles and ladder, and no stepping-stone constraint, with
    unlimited passes and macro moves (*Dominance* in reductions.py); 0 for
    the others."""
    if s[PASSES] != 0 or (s[REDUCE] & (REDUCE_MACRO | REDUCE_DOMINANCE)) != (REDUCE_MACRO | REDUCE_DOMINANCE):
        return np.uint64(0)
    if s[PEND_KIND] != K_NONE or s[DOOMED]:
        return np.uint64(0)
    return _mix(_piles_hash(s) + np.uint64(s[LADDER_LEN]) * np.uint64(0x9E3779B97F4A7C15)) | np.uint64(1)


@kernel(DOMINANCE_SIG)
def dominance_vector(s):
    """The eight foundation heights, one 4-bit field each (fewer cards up dominates)."""
    return _foundation_fields(s)


@kernel(PROGRESS_SIG)
def progress(s):
    """Cards dug out of the ladder, then empty piles (the restart runs' lookahead): a
    ladder card that needs a place takes an empty pile or a card built for it."""
    empty = 0
    for i in range(N_PILES):
        if s[LEN + i] == 0:
            empty += 1
    return np.int64(LADDER_CAP - s[LADDER_LEN]) * 16 + empty


@njit(inline="always")
def _wanted_soon(s, c):
    """3, 2 or 1 when a foundation takes card c after 0, 1 or 2 more cards of its suit
    (:func:`_chain_base`), else 0."""
    return max(0, 3 - (c % 13 - _chain_base(s, c)))


@njit(inline="always")
def _buried_urgency(s):
    """A card buried in the waste (under its top) or in the ladder (under its top) that a
    foundation wants within two cards holds the game back: it comes out only after every
    card above it. Each costs :func:`_wanted_soon` times 4 in the waste and times 2 in the
    ladder (its cards are dug anyway; the waste's were buried by choice). A beam weighed so
    wins one-pass deals the others leave (benchmarks/results.md)."""
    cost = 0
    for q in range(s[WASTE_LEN] - 1):
        cost += 4 * _wanted_soon(s, s[TALON + q])
    for q in range(s[LADDER_LEN] - 1):
        cost += 2 * _wanted_soon(s, s[LADDER + q])
    return cost


@kernel(BEAM_SCORE_SIG)
def beam_score(s, weighing):
    """How promising a position looks, for the beam search (engine/beam.py): cards up,
    ladder cards dug out, empty piles, less the cards the piles hold below their proper
    tails (junk a card must be moved off to reach) and, with limited passes, the cards
    buried in the waste (each comes back only after the ones drawn after it, or with a
    redeal). Weighing 1 also prizes the cards in the proper tails (places built for
    the cards to come), weighing 2 empty piles twice as much, weighing 3 empty piles twice
    and ladder cards dug out three times as much. The weights were chosen on one-pass deals
    the search left unknown at 10 s (benchmarks/results.md). In the last pass every
    weighing also counts how soon the foundations want the cards buried there
    (:func:`_buried_urgency`)."""
    up = 0
    for f in range(8):
        up += s[FOUND + f]
    empty = 0
    junk = 0
    tails = 0
    for i in range(N_PILES):
        ln = s[LEN + i]
        if ln == 0:
            empty += 1
            continue
        below = _built_from(s, PILES + i * PILE_CAP, ln)   # the cards under the top run
        junk += below
        tails += ln - below
    dug = LADDER_CAP - s[LADDER_LEN]
    score = 10 * up + (12 if weighing == 3 else 4) * dug + (20 if weighing >= 2 else 10) * empty - 2 * junk
    if weighing == 1:
        score += 2 * tails
    if s[PASSES] != 0:
        if _redeal_allowed(s):
            score -= 3 * s[WASTE_LEN]
        else:
            score -= 8 * s[WASTE_LEN] + _buried_urgency(s)
    return np.int64(score)


@kernel(STAGE_SIG)
def stage(s):
    """With limited passes, the passes left after this one, then the stock cards left: a
    draw lowers the second, a redeal the first by one while the second may rise to at
    most TALON_CAP, and nothing else changes either (the staged search, engine/staged.py).
    With unlimited passes a redeal gives back every card: one stage."""
    if s[PASSES] == 0:
        return np.int64(0)
    later = np.int64(s[PASSES]) - np.int64(s[PASSES_USED]) - 1
    return later * (TALON_CAP + 1) + np.int64(s[TALON_LEN]) - np.int64(s[WASTE_LEN])


@kernel(TRANSIENT_SIG)
def transient(s):
    """The position right after a stepping stone: the search does not store it. Its
    moves all put a card onto the stone, and one that puts another talon card there
    leaves a transient position with one talon card fewer, so no path of them is
    infinite. They are most of the states a search enters and are seldom reached
    twice; unstored, they cost no table probe and no memory (benchmarks/results.md)."""
    return s[PEND_KIND] != K_NONE
