"""Where Ladder's zones are drawn: stock, waste and the eight foundations in a row; under
them the ladder (its top card face up on a short fan of the cards below, which a player
does not see) and the eight piles."""

from __future__ import annotations

from ...pictures.scene import CARD_H, GAP, LABEL, MARGIN, Pile, Scene, column, passes_caption

FOUNDATIONS_FROM = 3        # the column of f1: after the stock and the waste's fan


def scene(deal) -> Scene:
    top = MARGIN + LABEL
    below = top + CARD_H + GAP + LABEL
    piles = [
        Pile("stock", column(0), top, tuple((c, False) for c in reversed(deal.stock)), label="stock", count=True),
        Pile("waste", column(1), top, tuple((c, True) for c in deal.waste), fan="right", spread=3, label="waste",
             count=True),
    ]
    for k, foundation in enumerate(deal.foundations, 1):
        piles.append(Pile(f"f{k}", column(FOUNDATIONS_FROM + k - 1), top, tuple((c, True) for c in foundation),
                          label=f"f{k}", count=True))
    n = len(deal.ladder)
    piles.append(Pile("ladder", column(0), below, tuple((c, k == n - 1) for k, c in enumerate(deal.ladder)),
                      fan="down", spread=4, label="ladder", count=True))
    for i, pile in enumerate(deal.tableau, 1):
        piles.append(Pile(f"t{i}", column(FOUNDATIONS_FROM + i - 1), below, tuple((c, True) for c in pile),
                          fan="down", label=f"t{i}"))
    return Scene(tuple(piles), passes_caption(deal))
