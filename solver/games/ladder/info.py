"""What a Ladder player who does not peek sees (docs/rules.md, "Playing without peeking").

The eight piles, the foundations, the ladder's top card and the waste's top card are
face up. Hidden:

* ``tableau``: nothing (Ladder has no face-down tableau card; the ladder and the stock
  are known in this setting): the game is one of perfect information;
* ``all``: the stock, and the ladder's cards under its top. A stock card is seen when
  a draw turns it onto the waste, a ladder card when the card above it is played; a
  card seen once stays known (the waste turned over keeps its order).

Pure Python: :func:`table` is the rules' own position (their ``initial`` checks no card).
"""

from __future__ import annotations

from ...game import Information
from . import rules


def seen(deal, level: str, slot: tuple) -> bool:
    zone = slot[0]
    if zone in ("tableau", "foundations") or level == "tableau":
        return True
    if zone == "ladder":
        return slot[1] == len(deal.ladder) - 1
    if zone == "waste":
        return slot[1] == len(deal.waste) - 1
    return False   # the stock


def table(deal):
    return rules.initial(deal)


INFORMATION = Information(seen=seen, table=table)
