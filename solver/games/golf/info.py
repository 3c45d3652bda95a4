"""What a Golf player who does not peek sees (docs/rules.md, "Playing without peeking").

The seven piles and the foundation are face up. Hidden:

* ``tableau``: nothing (Golf has no face-down tableau card): the game is one of
  perfect information;
* ``all``: the stock's order; a card is seen when a draw turns it onto the foundation.
"""

from __future__ import annotations

from ...game import Information
from .rules import Position


def seen(deal, level: str, slot: tuple) -> bool:
    return slot[0] != "stock" or level == "tableau"


def table(deal) -> Position:
    """The position, without the checks of ``rules.initial`` (unknown cards are negative)."""
    options = deal.options
    return Position(tuple(tuple(p) for p in deal.tableau), tuple(deal.foundations[0]), tuple(deal.stock),
                    options["queens_on_kings"], options["wrap"], deal.seed)


INFORMATION = Information(seen=seen, table=table)
