"""Ladder's deal: eight piles of face-up cards, the ladder (only its top card may be played),
eight foundations (any numbering, two per suit), a waste and a stock."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...deals import Deal, check_foundation, check_size
from ..layouts import PileLayout

PILES = 8
LADDER = 29
STOCK = 43


@dataclass
class LadderDeal(Deal):
    """A Ladder table: ``ladder`` lists the ladder's cards bottom to top."""

    ladder: list = field(default_factory=list)


class LadderLayout(PileLayout):
    deal_type = LadderDeal
    zones = ("tableau", "ladder", "stock", "waste", "foundations")
    card_zones = ("tableau", "ladder", "stock", "waste", "foundations")
    move_zones = r"t[1-8]|f[1-8]|ladder|waste|stock"
    decks = 2

    def deal(self, deal: LadderDeal, deck: list[int]) -> None:
        """Four rows of one card on each of the 8 piles (row by row); then 29 cards form the
        ladder (the first dealt at its bottom); the other 43 are the stock, in order."""
        deal.tableau = [[] for _ in range(PILES)]
        k = 0
        for _row in range(4):
            for pile in range(PILES):
                deal.tableau[pile].append(deck[k])
                k += 1
        deal.ladder = deck[k:k + LADDER]
        deal.stock = deck[k + LADDER:]
        deal.foundations = [[] for _ in range(8)]

    def read(self, deal: LadderDeal, obj: dict) -> None:
        deal.stock = self.cards(obj, "stock")
        deal.tableau = self.piles_of(obj, "tableau", PILES)
        deal.ladder = self.cards(obj, "ladder")
        deal.waste = self.cards(obj, "waste")
        deal.foundations = self.piles_of(obj, "foundations", 8) if "foundations" in obj else [[] for _ in range(8)]

    def write(self, deal: LadderDeal) -> dict:
        out = {"tableau": [self.names(p) for p in deal.tableau], "ladder": self.names(deal.ladder),
               "stock": self.names(deal.stock)}
        if deal.waste:
            out["waste"] = self.names(deal.waste)
        if any(deal.foundations):
            out["foundations"] = [self.names(p) for p in deal.foundations]
        return out

    def validate(self, deal: LadderDeal) -> None:
        check_size(len(deal.ladder), LADDER, "ladder")
        check_size(len(deal.stock) + len(deal.waste), STOCK, "stock and waste")
        for f, pile in enumerate(deal.foundations):
            check_foundation(pile, f"foundations pile {f + 1}", suit_=None, start=1, step=1)

    def zone_cards(self, deal: LadderDeal, zone: str) -> list | None:
        if zone == "ladder":
            return deal.ladder
        return super().zone_cards(deal, zone)


LAYOUT = LadderLayout()
