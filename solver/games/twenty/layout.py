"""Twenty's deal: eight foundations that start with an Ace (1-4, ascending) or a King (5-8,
descending) of each suit, 20 piles of one card, and the stock."""

from __future__ import annotations

from ...cards import rank
from ...deals import Deal, DealError, check_foundation, check_size
from ..layouts import PileLayout

PILES = 20
STOCK = 76


class TwentyLayout(PileLayout):
    deal_type = Deal
    zones = ("foundations", "tableau", "stock")
    card_zones = ("foundations", "tableau", "stock")
    move_zones = r"t([1-9]|1\d|20)|f[1-8]"
    decks = 2

    def starting_deck(self) -> list[int]:
        """The two decks without one Ace and one King of each suit (they start on the
        foundations): the first copy's other cards, then the whole second copy, 96 cards."""
        first_copy = [c for c in range(52) if rank(c) not in (1, 13)]
        return first_copy + list(range(52))

    def deal(self, deal: Deal, deck: list[int]) -> None:
        """One card onto each of piles 1..20; the other 76 are the stock, in order."""
        deal.tableau = [[c] for c in deck[:PILES]]
        deal.stock = deck[PILES:]
        deal.foundations = [[s * 13] for s in range(4)] + [[s * 13 + 12] for s in range(4)]

    def read(self, deal: Deal, obj: dict) -> None:
        deal.stock = self.cards(obj, "stock")
        deal.foundations = self.piles_of(obj, "foundations", 8)
        deal.tableau = self.piles_of(obj, "tableau", PILES)

    def write(self, deal: Deal) -> dict:
        return {"foundations": [self.names(p) for p in deal.foundations],
                "tableau": [self.names(p) for p in deal.tableau], "stock": self.names(deal.stock)}

    def validate(self, deal: Deal) -> None:
        check_size(len(deal.stock), STOCK, "stock")
        for f, pile in enumerate(deal.foundations):
            up = f < 4
            if not pile:
                raise DealError(f"foundations pile {f + 1}: a Twenty foundation is never empty")
            check_foundation(pile, f"foundations pile {f + 1}", suit_=f % 4, start=1 if up else 13,
                             step=1 if up else -1)
        if deal.stock:
            for i, pile in enumerate(deal.tableau, 1):
                if not pile:
                    raise DealError(f"tableau pile {i}: empty while the stock has cards (it is refilled at once)")


LAYOUT = TwentyLayout()
