"""A Ladder kernel line as FORMATS.md moves: one per card moved or draw made."""

from __future__ import annotations

import numpy as np

from ...deals import Deal
from ...moves import Move
from .encoding import encode
from .kernels import apply
from .reductions import _chain_base
from .state import (DRAW_MOVE, DST_FOUND, FINISH_MOVE, LADDER, LADDER_LEN, LEN, PILE_CAP, PILES, REDEAL_FLAG,
                    REDEAL_MOVE, REDUCE_ALL, SRC_LADDER, SRC_TALON, TALON, TALON_LEN, WASTE_LEN, _empty_target,
                    _exposed_like)


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
