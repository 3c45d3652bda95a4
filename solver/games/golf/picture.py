"""Where Golf's zones are drawn: the stock and the foundation in a row, the seven piles
fanned down under them (:mod:`solver.pictures`)."""

from __future__ import annotations

from ...pictures.scene import CARD_H, GAP, LABEL, MARGIN, Pile, Scene, column


def scene(deal) -> Scene:
    top = MARGIN + LABEL
    below = top + CARD_H + GAP + LABEL
    piles = [
        # the stock's next card is its top, so it is listed last
        Pile("stock", column(0), top, tuple((c, False) for c in reversed(deal.stock)), label="stock", count=True),
        # the foundation's top is the card the next one is played on: fanned, to show the last few
        Pile("f1", column(2), top, tuple((c, True) for c in deal.foundations[0]), fan="right", spread=3,
             label="foundation", count=True),
    ]
    for i, pile in enumerate(deal.tableau):
        piles.append(Pile(f"t{i + 1}", column(i), below, tuple((c, True) for c in pile), fan="down",
                          label=f"t{i + 1}"))
    return Scene(tuple(piles))
