"""Golf's deal: seven face-up piles of five cards, one foundation, and a 16-card stock."""

from __future__ import annotations

from ...cards import card_name
from ...deals import Deal, DealError, check_size
from ..layouts import PileLayout
from .rules import fits

PILES = 7
PILE_HEIGHT = 5
TABLEAU = PILES * PILE_HEIGHT   # 35
STOCK = 16


class GolfLayout(PileLayout):
    deal_type = Deal
    zones = ("tableau", "foundations", "stock")
    card_zones = ("tableau", "foundations", "stock")
    move_zones = r"t[1-7]|f1|stock"
    decks = 1

    def deal(self, deal: Deal, deck: list[int]) -> None:
        """Row by row, five rows of one card on each of piles 1..7: ``deck[0..6]`` are the
        bottom cards of piles 1..7, ``deck[7..13]`` the cards on them, ..., ``deck[28..34]``
        the tops. Then ``deck[35]`` starts the foundation and ``deck[36..51]`` are the stock
        in order (``deck[36]`` comes out first)."""
        deal.tableau = [[deck[row * PILES + pile] for row in range(PILE_HEIGHT)] for pile in range(PILES)]
        deal.foundations = [[deck[TABLEAU]]]
        deal.stock = deck[TABLEAU + 1:]

    def read(self, deal: Deal, obj: dict) -> None:
        deal.tableau = self.piles_of(obj, "tableau", PILES)
        deal.foundations = self.piles_of(obj, "foundations", 1)
        deal.stock = self.cards(obj, "stock")

    def write(self, deal: Deal) -> dict:
        return {"tableau": [self.names(p) for p in deal.tableau],
                "foundations": [self.names(p) for p in deal.foundations], "stock": self.names(deal.stock)}

    def validate(self, deal: Deal) -> None:
        """Refuse (the whole deck having been checked): a pile of more than 5 cards; a stock
        of more than 16; an empty foundation (it starts with a card); and a foundation that
        no play could have built: each of its cards after the first came either from the
        stock (any card) or from the tableau (a card that fits the one under it, under the
        deal's options), and only ``16 - len(stock)`` cards have left the stock, so more
        cards that do not fit the one under them than that is refused. Not checked (it
        cannot be told from the table): that the drawn cards left the stock in an order
        that allows the rest."""
        for i, pile in enumerate(deal.tableau, 1):
            check_size(len(pile), PILE_HEIGHT, f"tableau pile {i}")
        check_size(len(deal.stock), STOCK, "stock")
        (foundation,) = deal.foundations
        if not foundation:
            raise DealError("foundations pile 1: the Golf foundation is never empty (a card starts it)")
        drawn = STOCK - len(deal.stock)
        qok, wrap = deal.options["queens_on_kings"], deal.options["wrap"]
        misfits = [i for i in range(1, len(foundation)) if not fits(foundation[i], foundation[i - 1], qok, wrap)]
        if len(misfits) > drawn:
            i = misfits[drawn]
            raise DealError(f"foundations pile 1 card {i + 1}: {card_name(foundation[i])} does not fit on "
                            f"{card_name(foundation[i - 1])}: {len(misfits)} foundation cards do not fit the card "
                            f"under them, but only {drawn} can have come from the stock")


LAYOUT = GolfLayout()
