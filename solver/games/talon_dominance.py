"""The talon's dominance field in the key, for the games whose talon is one sequence
with a boundary and a count of passes used (Klondike and Ladder with limited passes,
Klondike with unlimited passes and three cards a draw; macro moves): the engine's
``key_dominance`` (:mod:`solver.engine.contract`).

Two positions with the same cards everywhere, the same constraints, and the talon in
the same order, differ only in the passes used and the boundary:

* one with fewer passes used can make every move the other can (its redeals are
  allowed as well), and the moves lead to positions that differ in the same way;
* with one card a draw and the same passes used, one whose boundary is earlier reaches
  the other by drawing; with macro moves (a move plays any talon card that draws can
  bring to the waste top) it has every move the other has: a talon card the other
  plays from this pass is in this pass for it too, with the same position after it,
  and any other move leaves the boundaries as they were. With fewer passes used, it
  reaches a fresh pass of the other's count by drawing to the end and redealing, and
  then its boundary.

So the first can win wherever the second can: the key puts the passes used, and with
one card a draw the boundary after them, in its low bits (the *field*: lower is
better), and leaves them out of the hash above. With three cards a draw and limited
passes the boundary stays in the hash: drawing does not reach every later boundary.
Without macro moves a draw leads from one position to the other, and a search that
skips the second for the first may have reached the first only through that draw, so
there is no field.
"Every move" above is of the macro moves before the reductions that force a single
move (a safe card up), which may force other moves in the two positions: each such
reduction keeps the verdict on its own, and the tests check the two together (every
reduction switched off in turn, brute force on small positions).

With unlimited passes and three cards a draw (:func:`chain_field`) there are no passes
to count, but drawing orders the boundaries. The boundaries on the *cycle* (a multiple
of the draw count, or the end of the talon) are one state already: each reaches the
others by drawing and redealing. A boundary off the cycle reaches, by drawing, the
boundaries one, two, ... draws on from it, and then the cycle. With macro moves it has
every move of each of them (the talon cards they reach are among its own), as above.
So the boundaries with one remainder by the draw count form a chain: the key hashes the
remainder and puts the number of draws from the chain's start in the field. The cycle,
below every chain, is hashed with one of them and given the field's top value.

The field takes as few bits as the deal's passes need: every bit taken is one the
hash no longer has to tell positions apart.
"""

from __future__ import annotations

import numpy as np
from numba import njit

MAX_PASSES_BITS = 4
# bits of the passes used by the number of passes: none with one pass (nothing is ever
# redealt), and at most MAX_PASSES_BITS, past which the passes used fold (talon_field)
PASSES_BITS = np.array([0, 0] + [min(MAX_PASSES_BITS, (n - 1).bit_length()) for n in range(2, 256)],
                       dtype=np.int64)


CHAIN_BITS = 4     # unlimited passes, three cards a draw: the draws from a chain's start (a 24-card talon: 7)
CYCLE_FIELD = 15   # the field of the cycle's boundaries, below every chain


def field_bits(passes: int, one_card_a_draw: bool, boundary_bits: int) -> int:
    """The bits of the field with ``passes`` (0: unlimited, a field only with more than one
    card a draw, :func:`chain_field`) and a boundary of at most ``boundary_bits`` bits, the
    same as :func:`talon_field` takes."""
    if passes == 0:
        return 0 if one_card_a_draw else CHAIN_BITS
    return int(PASSES_BITS[passes]) + (boundary_bits if one_card_a_draw else 0)


@njit(inline="always")
def talon_field(passes, used, boundary, passes_bits, boundary_bits):
    """``(used_in_hash, boundary_in_hash, field)``: what of the passes used and the boundary
    the hash still takes, and the field (``passes_bits`` + ``boundary_bits`` bits; both 0:
    no field, everything in the hash). Passes used from the field's top value up, when
    the deal has more passes than the field holds, stay in the hash as well: then each
    such count is a position of its own, never taken for a smaller one."""
    top = (1 << passes_bits) - 1
    if passes_bits + boundary_bits == 0:
        return used, boundary, np.uint64(0)
    folded = used >= top and passes - 1 > top
    field = (np.uint64(min(used, top)) << np.uint64(boundary_bits)) | np.uint64(boundary if boundary_bits else 0)
    return (used if folded else 0), (0 if boundary_bits else boundary), field


@njit(inline="always")
def with_field(h, field, bits):
    """The hash ``h`` with its low ``bits`` bits replaced by ``field``."""
    if bits == 0:
        return h
    return ((h >> np.uint64(bits)) << np.uint64(bits)) | field


@njit(inline="always")
def chain_field(boundary, talon_len, draw):
    """``(boundary_in_hash, field)`` with unlimited passes and ``draw`` cards a draw, for a
    ``boundary`` already 0 wherever it is on the cycle (module docstring): an off-cycle
    boundary is hashed by its remainder and its field is the draws from its chain's
    start; the cycle is hashed with the chain of the talon's remainder (any chain would
    do: the cycle is below all of them) and its field is :data:`CYCLE_FIELD`. A talon of
    at most 24 cards keeps the draws within 7, below the cycle's field."""
    if boundary == 0:
        rest = talon_len % draw
        return (rest if rest != 0 else 1), np.uint64(CYCLE_FIELD)
    return boundary % draw, np.uint64(boundary // draw)
