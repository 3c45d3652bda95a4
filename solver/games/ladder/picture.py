"""Where Ladder's zones are drawn: the stock and the eight foundations in a row; under them,
on the left, the waste (its last cards fanned down) over the ladder (its top card face up
on a short fan of the cards below, which a player does not see), and the eight piles.
Nine columns, so that the table stays readable scaled to a phone's width."""

from __future__ import annotations

from ...pictures.scene import CARD_H, FANS, GAP, LABEL, MARGIN, Pile, Scene, column, passes_caption

WASTE_SHOWN = 3


def scene(deal) -> Scene:
    top = MARGIN + LABEL
    below = top + CARD_H + GAP + LABEL
    piles = [Pile("stock", column(0), top, tuple((c, False) for c in reversed(deal.stock)), label="stock",
                  count=True)]
    for k, foundation in enumerate(deal.foundations, 1):
        piles.append(Pile(f"f{k}", column(k), top, tuple((c, True) for c in foundation), label=f"f{k}", count=True))
    piles.append(Pile("waste", column(0), below, tuple((c, True) for c in deal.waste), fan="down",
                      spread=WASTE_SHOWN, label="waste", count=True))
    ladder_y = below + CARD_H + (WASTE_SHOWN - 1) * FANS["down"]["up"][1] + GAP + LABEL
    n = len(deal.ladder)
    piles.append(Pile("ladder", column(0), ladder_y, tuple((c, k == n - 1) for k, c in enumerate(deal.ladder)),
                      fan="down", spread=4, label="ladder", count=True))
    for i, pile in enumerate(deal.tableau, 1):
        piles.append(Pile(f"t{i}", column(i), below, tuple((c, True) for c in pile), fan="down", label=f"t{i}"))
    return Scene(tuple(piles), passes_caption(deal))
