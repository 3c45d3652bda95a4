"""Pyramid's deal: a pyramid of 7 rows (``None`` where a card was removed), a stock, one or
(``piles=3``) three waste piles, and the removed cards as one discard pile (``foundations[0]``)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...deals import Deal, DealError, check_size
from ..layouts import PileLayout

ROWS = 7
STOCK = 24
RANK_NAMES = {1: "Ace", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "10", 11: "Jack",
              12: "Queen"}


@dataclass
class PyramidDeal(Deal):
    """A Pyramid table: ``pyramid`` holds rows 1..7 left to right, ``None`` for a removed card;
    with ``piles=3`` ``waste`` is a list of three piles."""

    pyramid: list = field(default_factory=list)


def three_piles(deal: Deal) -> bool:
    return deal.options.get("piles") == 3


class PyramidLayout(PileLayout):
    deal_type = PyramidDeal
    zones = ("pyramid", "stock", "waste", "foundations")
    card_zones = ("pyramid", "stock", "waste", "foundations")
    move_zones = r"p[1-7]\.[1-7]|waste[123]?|stock"

    def deal(self, deal: PyramidDeal, deck: list[int]) -> None:
        """Rows 1..7 left to right (28 cards); the other 24 are the stock, in order."""
        deal.pyramid, k = [], 0
        for row in range(1, ROWS + 1):
            deal.pyramid.append(deck[k:k + row])
            k += row
        deal.stock = deck[k:]
        deal.waste = [[], [], []] if three_piles(deal) else []
        deal.foundations = [[]]

    def read(self, deal: PyramidDeal, obj: dict) -> None:
        deal.stock = self.cards(obj, "stock")
        deal.pyramid = self.piles_of(obj, "pyramid", ROWS, allow_none=True)
        for r, row in enumerate(deal.pyramid, 1):
            if len(row) != r:
                raise DealError(f"pyramid row {r}: expected {r} cards, got {len(row)}")
        if three_piles(deal):
            deal.waste = self.piles_of(obj, "waste", 3) if "waste" in obj else [[], [], []]
        else:
            deal.waste = self.cards(obj, "waste")
        deal.foundations = self.piles_of(obj, "foundations", 1) if "foundations" in obj else [[]]

    def write(self, deal: PyramidDeal) -> dict:
        out = {"pyramid": [self.names(row) for row in deal.pyramid], "stock": self.names(deal.stock)}
        if three_piles(deal):
            if any(deal.waste):
                out["waste"] = [self.names(p) for p in deal.waste]
        elif deal.waste:
            out["waste"] = self.names(deal.waste)
        if any(deal.foundations):
            out["foundations"] = [self.names(p) for p in deal.foundations]
        return out

    def validate(self, deal: PyramidDeal) -> None:
        waste = sum(deal.waste, []) if three_piles(deal) else deal.waste
        check_size(len(deal.stock) + len(waste), STOCK, "stock and waste")
        for r in range(ROWS - 1):
            for c in range(r + 1):
                if deal.pyramid[r][c] is None and (deal.pyramid[r + 1][c] is not None
                                                   or deal.pyramid[r + 1][c + 1] is not None):
                    raise DealError(f"pyramid row {r + 1} card {c + 1}: removed while still covered")

    def reachable(self, deal: PyramidDeal) -> None:
        # cards leave alone only as Kings, else in pairs adding up to 13: as many of each rank
        # as of its partner rank
        removed = [card % 13 + 1 for pile in deal.foundations for card in pile]
        for value in range(1, 7):
            mine, partners = removed.count(value), removed.count(13 - value)
            if mine != partners:
                lone = RANK_NAMES[value if mine > partners else 13 - value]
                raise DealError(f"foundations pile 1: {abs(mine - partners)} removed {lone} without a partner "
                                f"(cards are removed as Kings or as pairs adding up to 13)")

    def zone_cards(self, deal: PyramidDeal, zone: str) -> list | None:
        m = re.fullmatch(r"p(\d)\.(\d)", zone)
        if m:   # a cell of the pyramid: its card, or nothing once it is removed
            r, c = int(m.group(1)), int(m.group(2))
            if not (1 <= r <= len(deal.pyramid) and 1 <= c <= r):
                return None
            card = deal.pyramid[r - 1][c - 1]
            return [] if card is None else [card]
        if zone.startswith("waste") and three_piles(deal):
            try:
                return deal.waste[int(zone[5:] or 1) - 1]
            except (IndexError, ValueError):
                return None
        return super().zone_cards(deal, zone)

    def zone_words(self, zone: str) -> str:
        if zone.startswith("waste") and zone != "waste":
            return f"waste {zone[5:]}"
        if zone[0] == "p":
            return f"row {zone[1:].split('.')[0]}"
        return zone

    def zone_named(self, deal: PyramidDeal, words: str, card: int) -> str | None:
        m = re.fullmatch(r"row (\d+)", words)
        if m:
            r = int(m.group(1))
            row = deal.pyramid[r - 1] if 1 <= r <= len(deal.pyramid) else []
            return f"p{r}.{row.index(card) + 1}" if card in row else None
        m = re.fullmatch(r"waste (\d)", words)
        return super().zone_named(deal, f"waste{m.group(1)}" if m else words, card)


LAYOUT = PyramidLayout()
