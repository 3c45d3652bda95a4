"""A Klondike kernel line as FORMATS.md moves: one per card moved or draw made."""

from __future__ import annotations

import numpy as np

from ...deals import Deal
from ...moves import Move
from .encoding import encode
from .kernels import apply
from .state import (DRAW, DRAW_MOVE, DST_FOUND, FOUND, LEN, PILE_CAP, PILES, REDEAL_FLAG, REDEAL_MOVE, REDUCE_ALL,
                    SRC_FOUND, SRC_TALON, TALON, TALON_LEN, UNCOVER_FLAG, WASTE_LEN, _pile_with_top, _twin)


def expand(s: np.ndarray, m: int) -> list[Move]:
    """The FORMATS.md moves that kernel move ``m`` stands for in state ``s``."""
    m = int(m)
    talon = s[TALON:TALON + int(s[TALON_LEN])].tolist()
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
