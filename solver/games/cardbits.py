"""Bit sets of cards (bit ``c`` for card value ``c``) that the kernels of games
building down in alternating colours share: Klondike and Ladder.

``PARENTS[c]``: the cards ``c`` may be put onto (one rank up, the other colour; none
for a King). ``CHILDREN[c]``: the cards that may be put onto ``c``.
"""

import numpy as np

ALL_CARDS = np.uint64((1 << 52) - 1)


def _red(c: int) -> bool:
    return c // 13 in (1, 2)


PARENTS = np.array([sum(1 << (f * 13 + c % 13 + 1) for f in range(4) if (f in (1, 2)) != _red(c))
                    if c % 13 < 12 else 0 for c in range(52)], dtype=np.uint64)
CHILDREN = np.array([sum(1 << d for d in range(52) if (int(PARENTS[d]) >> c) & 1) for c in range(52)],
                    dtype=np.uint64)
