"""Where Pyramid's zones are drawn: the seven rows, each card half over the two it covers;
under them the stock, the waste (one pile, or three side by side) and the removed cards."""

from __future__ import annotations

from ...pictures.scene import CARD_H, CARD_W, GAP, LABEL, MARGIN, Pile, Scene, column, passes_caption
from .layout import ROWS, three_piles

# cards of a row nearly touch: through a wider gap the middle of the card they cover shows
CELL = CARD_W + 2


def scene(deal) -> Scene:
    top = MARGIN + LABEL
    piles = []
    for r, row in enumerate(deal.pyramid, 1):
        for c, card in enumerate(row, 1):
            # centred rows: row r starts half a column further in than row r + 1
            x = column(0) + (ROWS - r) * CELL / 2 + (c - 1) * CELL
            y = top + (r - 1) * CARD_H / 2
            cards = () if card is None else ((card, True),)
            piles.append(Pile(f"p{r}.{c}", x, y, cards, outline=False))
    below = top + (ROWS - 1) * CARD_H / 2 + CARD_H + GAP + LABEL
    # with stock_top the next stock card is exposed, so it is drawn face up
    stock = tuple((c, deal.options.get("stock_top", False) and k == 0) for k, c in enumerate(deal.stock))
    piles.append(Pile("stock", column(0), below, stock[::-1], label="stock", count=True))
    if three_piles(deal):
        for k, waste in enumerate(deal.waste or [[], [], []], 1):
            piles.append(Pile(f"waste{k}", column(k), below, tuple((c, True) for c in waste),
                              label=f"waste {k}", count=True))
    else:
        piles.append(Pile("waste", column(1), below, tuple((c, True) for c in deal.waste), fan="right",
                          spread=3, label="waste", count=True))
    removed = deal.foundations[0] if deal.foundations else []
    piles.append(Pile("f1", column(ROWS - 1), below, tuple((c, True) for c in removed), label="removed",
                      count=True))
    return Scene(tuple(piles), passes_caption(deal))
