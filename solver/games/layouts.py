"""What the games' layouts share (:class:`solver.game.Layout`): piles named ``t1``..,
foundations ``f1``.., a ``waste`` and a ``stock``, and the readable names of those zones."""

from __future__ import annotations

import re

from ..deals import Deal, card_names, read_cards, read_piles


class PileLayout:
    """A layout of tableau piles, foundations, a waste and a stock. A game sets the
    class attributes and writes ``deal``, ``read_zones``, ``write_zones`` and ``validate``."""

    deal_type: type = Deal
    zones: tuple[str, ...] = ()
    card_zones: tuple[str, ...] = ("tableau", "stock", "waste", "foundations")
    move_zones: str = ""
    decks: int = 1
    piles: int = 0          # tableau piles
    foundations: int = 0

    def starting_deck(self) -> list[int]:
        return list(range(52)) * self.decks

    # -- deal files ------------------------------------------------------
    def read(self, deal: Deal, obj: dict) -> None:
        raise NotImplementedError

    def write(self, deal: Deal) -> dict:
        raise NotImplementedError

    @staticmethod
    def cards(obj: dict, name: str, default=()) -> list:
        return read_cards(obj.get(name, list(default)), name)

    @staticmethod
    def piles_of(obj: dict, name: str, count: int, allow_none: bool = False) -> list:
        return read_piles(obj, name, count, allow_none)

    @staticmethod
    def names(cards) -> list:
        return card_names(cards)

    def reachable(self, deal: Deal) -> None:
        """No more than :meth:`validate` asks (a game whose tables need more says so)."""

    # -- zones of moves ----------------------------------------------------
    def zone_cards(self, deal: Deal, zone: str) -> list | None:
        try:
            if zone[0] == "t":
                return deal.tableau[int(zone[1:]) - 1]
            if zone[0] == "f":
                return deal.foundations[int(zone[1:]) - 1]
            if zone == "stock":
                return list(reversed(deal.stock))   # its top is the next card out
            if zone == "waste":
                return deal.waste
        except (IndexError, ValueError):
            return None
        return None

    def zone_words(self, zone: str) -> str:
        if zone[0] == "t":
            return f"pile {zone[1:]}"
        if zone[0] == "f":
            return f"foundation {zone[1:]}"
        return zone

    def zone_named(self, deal: Deal, words: str, card: int) -> str | None:
        m = re.fullmatch(r"(pile|foundation) (\d+)", words)
        zone = ("t" if m.group(1) == "pile" else "f") + m.group(2) if m else words
        return zone if re.fullmatch(self.move_zones, zone) else None
