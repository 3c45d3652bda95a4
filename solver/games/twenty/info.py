"""What a Twenty player who does not peek sees (docs/rules.md, "Playing without peeking").

The foundations and every tableau card are face up (a card covered by a deal was seen
while it was a pile's top). Hidden:

* ``tableau``: nothing: the game is one of perfect information;
* ``all``: the stock; a card is seen when a deal or a refill puts it on a pile.
"""

from __future__ import annotations

from ...game import Information
from .rules import Position


def seen(deal, level: str, slot: tuple) -> bool:
    return slot[0] != "stock" or level == "tableau"


def table(deal) -> Position:
    """The position, without the checks of ``rules.initial`` (unknown cards are negative)."""
    return Position(tuple(tuple(f) for f in deal.foundations), tuple(tuple(p) for p in deal.tableau),
                    tuple(deal.stock), deal.seed)


INFORMATION = Information(seen=seen, table=table)
