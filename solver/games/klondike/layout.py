"""Klondike's deal: seven piles with face-down cards under a face-up run, four foundations
(suit order C D H S), a waste and a stock."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...cards import card_name, is_red, rank
from ...deals import Deal, DealError, check_foundation, check_size
from ..layouts import PileLayout

PILES = 7
STOCK = 24


@dataclass
class KlondikeDeal(Deal):
    """A Klondike table: ``face_down[i]`` is how many cards at the bottom of pile i are face down."""

    face_down: list = field(default_factory=list)


class KlondikeLayout(PileLayout):
    deal_type = KlondikeDeal
    zones = ("tableau", "face_down", "stock", "waste", "foundations")
    move_zones = r"t[1-7]|f[1-4]|waste|stock"

    def deal(self, deal: KlondikeDeal, deck: list[int]) -> None:
        """Row by row: row r (0..6) puts one card on each pile r..7, so the last card dealt
        to each pile is its face-up top; the other 24 cards are the stock, ``deck[28]`` first."""
        deal.tableau = [[] for _ in range(PILES)]
        k = 0
        for row in range(PILES):
            for pile in range(row, PILES):
                deal.tableau[pile].append(deck[k])
                k += 1
        deal.face_down = list(range(PILES))
        deal.stock = deck[k:]
        deal.foundations = [[] for _ in range(4)]

    def read(self, deal: KlondikeDeal, obj: dict) -> None:
        deal.stock = self.cards(obj, "stock")
        deal.tableau = self.piles_of(obj, "tableau", PILES)
        fd = obj.get("face_down", [0] * PILES)
        if not isinstance(fd, list) or len(fd) != PILES or \
                not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in fd):
            raise DealError("face_down: expected 7 non-negative counts")
        deal.face_down = list(fd)
        deal.waste = self.cards(obj, "waste")
        deal.foundations = self.piles_of(obj, "foundations", 4) if "foundations" in obj else [[] for _ in range(4)]

    def write(self, deal: KlondikeDeal) -> dict:
        out = {"tableau": [self.names(p) for p in deal.tableau], "face_down": list(deal.face_down),
               "stock": self.names(deal.stock)}
        if deal.waste:
            out["waste"] = self.names(deal.waste)
        if any(deal.foundations):
            out["foundations"] = [self.names(p) for p in deal.foundations]
        return out

    def validate(self, deal: KlondikeDeal) -> None:
        for i, (pile, fd) in enumerate(zip(deal.tableau, deal.face_down), 1):
            if pile and fd >= len(pile) or not pile and fd:
                raise DealError(f"face_down pile {i}: {fd} face-down cards but pile has {len(pile)}")
            for k in range(fd + 1, len(pile)):
                below, above = pile[k - 1], pile[k]
                if rank(below) != rank(above) + 1 or is_red(below) == is_red(above):
                    raise DealError(f"tableau pile {i} card {k + 1}: {card_name(above)} cannot lie face-up "
                                    f"on {card_name(below)}")
        check_size(len(deal.stock) + len(deal.waste), STOCK, "stock and waste")
        for s, pile in enumerate(deal.foundations):
            check_foundation(pile, f"foundations pile {s + 1}", suit_=s, start=1, step=1)

    def reachable(self, deal: KlondikeDeal) -> None:
        for i, fd in enumerate(deal.face_down, 1):
            if fd > i - 1:
                raise DealError(f"face_down pile {i}: {fd} face-down cards, but pile {i} is dealt {i - 1} "
                                f"face down and never gets more")


LAYOUT = KlondikeLayout()
