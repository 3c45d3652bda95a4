"""What a Pyramid player who does not peek sees (docs/rules.md, "Playing without peeking").

The pyramid is face up, covered cards included, and so are the removed cards and each
waste pile's top card; with ``stock_top`` the next stock card too. Hidden:

* ``tableau``: nothing: the game is one of perfect information;
* ``all``: the stock's order, but for its next card with ``stock_top``. Every drawn
  card lands on a waste pile's top, so the waste is known; a card seen once stays
  known, into the stock again after a redeal included.
"""

from __future__ import annotations

from ...game import Information
from .rules import Position


def seen(deal, level: str, slot: tuple) -> bool:
    zone = slot[0]
    if zone in ("pyramid", "foundations") or level == "tableau":
        return True
    if zone == "waste":
        if deal.options["piles"] == 3:
            return slot[2] == len(deal.waste[slot[1]]) - 1
        return slot[1] == len(deal.waste) - 1
    return deal.options["stock_top"] and slot[1] == 0   # the stock


def table(deal) -> Position:
    """The position, without the checks of ``rules.initial`` (unknown cards are negative)."""
    options = deal.options
    if options["piles"] == 3:
        waste = tuple(tuple(p) for p in deal.waste) if deal.waste else ((), (), ())
    else:
        waste = (tuple(deal.waste),)
    foundations = deal.foundations or [[]]
    return Position(tuple(tuple(row) for row in deal.pyramid), tuple(deal.stock), waste, tuple(foundations[0]),
                    deal.passes_used, options["piles"], options["passes"], options["stock_top"], deal.seed)


INFORMATION = Information(seen=seen, table=table)
