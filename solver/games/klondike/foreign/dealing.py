"""The usual Klondike dealing order, shared by several tools' deck orders.

ShootMe's Klondike-Solver (``Solitaire::ResetGame``), its deck strings, and the
deck orders lonelybot derives for GreenFelt and Microsoft all deal a 52-card
sequence the same way (it is also the way :func:`solver.deals.deal_from_seed`
deals): row by row, row r puts its first card face-up on pile r and one
face-down card on each pile r+1..7; cards 28..51 are the stock, card 28 drawn
first.
"""

from __future__ import annotations

from ....deals import Deal, DealError, validate
from ....options import resolve
from ..layout import KlondikeDeal

TABLEAU_CARDS = 28


def klondike_from_dealing_order(cards: list[int], options: dict | None = None) -> Deal:
    """A fresh Klondike deal from 52 card numbers in dealing order."""
    if len(cards) != 52:
        raise DealError(f"a Klondike deck has 52 cards, got {len(cards)}")
    deal = KlondikeDeal(game="klondike", options=resolve("klondike", options))
    deal.tableau = [[] for _ in range(7)]
    k = 0
    for row in range(7):
        for pile in range(row, 7):
            deal.tableau[pile].append(cards[k])
            k += 1
    deal.face_down = list(range(7))
    deal.stock = list(cards[TABLEAU_CARDS:])
    deal.foundations = [[] for _ in range(4)]
    validate(deal)
    return deal


def dealing_order_of(deal: Deal, fmt: str) -> list[int]:
    """The 52 cards of a fresh Klondike deal in dealing order (inverse of the above).

    ``fmt`` names the target format in the error raised for anything else.
    """
    if deal.game != "klondike":
        raise DealError(f"{fmt} holds Klondike deals only, not {deal.game}")
    fresh = (deal.face_down == list(range(7)) and [len(p) for p in deal.tableau] == list(range(1, 8))
             and len(deal.stock) == 24 and not deal.waste and not any(deal.foundations)
             and not deal.passes_used)
    if not fresh:
        raise DealError(f"{fmt} holds only a fresh deal (pile p with p-1 face-down cards under one "
                        f"face-up card, 24 cards in the stock), not a position in the middle of a game")
    cards = []
    for row in range(7):
        for pile in range(row, 7):
            cards.append(deal.tableau[pile][row])
    return cards + list(deal.stock)
