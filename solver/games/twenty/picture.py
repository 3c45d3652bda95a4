"""Where Twenty's zones are drawn: the stock, then the four ascending foundations (Ace up)
and the four descending ones (King down), each labelled with its way; the twenty piles
in two rows of ten under them."""

from __future__ import annotations

from ...pictures.scene import CARD_H, FANS, GAP, LABEL, MARGIN, Pile, Scene, column
from .layout import PILES

SUIT_MARKS = "♣♦♥♠"
ROW = PILES // 2


def scene(deal) -> Scene:
    top = MARGIN + LABEL
    piles = [Pile("stock", column(0), top, tuple((c, False) for c in reversed(deal.stock)), label="stock",
                  count=True)]
    for k, foundation in enumerate(deal.foundations, 1):
        up = k <= 4
        # a gap between the two groups, so that the way of each reads at a glance
        piles.append(Pile(f"f{k}", column(k if up else k + 1), top, tuple((c, True) for c in foundation),
                          label=f"f{k} {SUIT_MARKS[(k - 1) % 4]} {'A↑' if up else 'K↓'}", count=True))
    step = FANS["down"]["up"][1]
    y = top + CARD_H + GAP + LABEL
    for first in range(0, PILES, ROW):
        row = deal.tableau[first:first + ROW]
        for i, pile in enumerate(row):
            piles.append(Pile(f"t{first + i + 1}", column(i), y, tuple((c, True) for c in pile), fan="down",
                              label=f"t{first + i + 1}"))
        # a pile holds at most five cards in play (one dealt, four rows); more only in a hand-made table
        tallest = max([5] + [len(p) for p in row])
        y += CARD_H + (tallest - 1) * step + GAP + LABEL
    return Scene(tuple(piles))
