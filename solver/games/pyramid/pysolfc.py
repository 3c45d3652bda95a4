"""PySolFC's Pyramid game numbers (the ``pysol`` seed type; the shuffle:
:mod:`solver.games.pysol`).

PySolFC's ``Pyramid.startGame`` (``pysollib/games/pyramid.py``) deals one card to each of
the 28 pyramid places, top row first and left to right, all face up, then turns the next
card onto the waste: that card and the 23 after it are our stock, in the order they come
out. PySolFC's Pyramid allows three passes; the rules are ours, as the options say.
"""

from __future__ import annotations

from ...deals import validate
from ...options import resolve
from ..pysol import dealing_order
from .layout import PyramidDeal


def deal_from_seed(number: int, options: dict | None = None) -> PyramidDeal:
    deck = dealing_order(number)
    rows = [deck[r * (r + 1) // 2:(r + 1) * (r + 2) // 2] for r in range(7)]
    options = resolve("pyramid", options)
    deal = PyramidDeal(game="pyramid", options=options, pyramid=rows, stock=deck[28:],
                       waste=[[], [], []] if options["piles"] == 3 else [], foundations=[[]])
    validate(deal)
    return deal
