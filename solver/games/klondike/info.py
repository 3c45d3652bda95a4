"""What a Klondike player who does not peek sees (docs/rules.md, "Playing without peeking").

Face up at every level: the tableau cards above each pile's face-down ones, and the
foundations. Hidden:

* ``tableau``: the face-down tableau cards only; the stock's order and the waste are
  known (the setting of the published studies);
* ``all``: also the stock, and the waste's cards under its top card. A card drawn is
  seen when it lands on the waste's top (with ``draw=3``, the top card of the three);
  a card under it is seen when the cards above it have been played. A card seen once
  stays known wherever it goes, into the stock again after a redeal included.

Pure Python: :func:`table` is the rules' own position (their ``initial`` checks nothing).
"""

from __future__ import annotations

from ...game import Information
from . import rules


def seen(deal, level: str, slot: tuple) -> bool:
    zone = slot[0]
    if zone == "tableau":
        return slot[2] >= deal.face_down[slot[1]]
    if zone == "foundations" or level == "tableau":
        return True
    if zone == "waste":
        return slot[1] == len(deal.waste) - 1
    return False   # the stock


def table(deal):
    return rules.initial(deal)


INFORMATION = Information(seen=seen, table=table)
