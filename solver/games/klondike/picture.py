"""Where Klondike's zones are drawn: stock, waste and the four foundations in a row, the
seven piles fanned down under them (:mod:`solver.pictures`)."""

from __future__ import annotations

from ...pictures.scene import CARD_H, GAP, LABEL, MARGIN, Pile, Scene, column, passes_caption

SUIT_MARKS = "♣♦♥♠"      # foundations f1..f4 take clubs, diamonds, hearts, spades


def scene(deal) -> Scene:
    top = MARGIN + LABEL
    below = top + CARD_H + GAP + LABEL
    piles = [
        # the stock's next card is its top, so it is listed last
        Pile("stock", column(0), top, tuple((c, False) for c in reversed(deal.stock)),
             label="stock", count=True),
        # the last three cards of the waste fanned, as a draw of three shows them
        Pile("waste", column(1), top, tuple((c, True) for c in deal.waste), fan="right", spread=3,
             label="waste", count=True),
    ]
    for s, foundation in enumerate(deal.foundations):
        piles.append(Pile(f"f{s + 1}", column(3 + s), top, tuple((c, True) for c in foundation),
                          label=f"f{s + 1} {SUIT_MARKS[s]}", count=True))
    for i, (pile, down) in enumerate(zip(deal.tableau, deal.face_down)):
        piles.append(Pile(f"t{i + 1}", column(i), below, tuple((c, k >= down) for k, c in enumerate(pile)),
                          fan="down", label=f"t{i + 1}"))
    return Scene(tuple(piles), passes_caption(deal))
