"""PySolFC's Klondike game numbers (the ``pysol`` seed type; the shuffle:
:mod:`solver.games.pysol`).

PySolFC's ``Klondike.startGame`` (``pysollib/games/klondike.py``, ``reverse=1``) deals,
for i = 1..6, one face-down card to each of piles i+1..7, right to left (pile 7 first);
then one face-up card to each of piles 7..1, right to left; then it turns the next card
onto the waste, which with the other 23 is our stock, in the order it comes out. The
same numbers deal PySolFC's Klondike variants (Vegas Klondike, Klondike draw 3); the
rules are ours, as the options say.
"""

from __future__ import annotations

from ....deals import validate
from ....options import resolve
from ...pysol import dealing_order
from ..layout import KlondikeDeal


def deal_from_seed(number: int, options: dict | None = None) -> KlondikeDeal:
    deck = iter(dealing_order(number))
    piles = [[] for _ in range(7)]
    for row in range(1, 7):
        for pile in reversed(range(row, 7)):
            piles[pile].append(next(deck))
    for pile in reversed(range(7)):
        piles[pile].append(next(deck))
    deal = KlondikeDeal(game="klondike", options=resolve("klondike", options), tableau=piles,
                        face_down=list(range(7)), stock=list(deck), foundations=[[] for _ in range(4)])
    validate(deal)
    return deal
