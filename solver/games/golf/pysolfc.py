"""PySolFC's Golf game numbers (the ``pysol`` seed type; the shuffle:
:mod:`solver.games.pysol`).

PySolFC's ``Golf.startGame`` (``pysollib/games/golf.py``) deals five rows face up, left to
right over the seven piles, so pile p gets the cards p, p+7, ..., p+28 of the dealing
order, bottom to top; then it turns card 35 onto its waste, which is Golf's foundation;
the other 16 are the stock, in the order they come out.
"""

from __future__ import annotations

from ...deals import Deal, validate
from ...options import resolve
from ..pysol import dealing_order


def deal_from_seed(number: int, options: dict | None = None) -> Deal:
    deck = dealing_order(number)
    deal = Deal(game="golf", options=resolve("golf", options), tableau=[deck[p:35:7] for p in range(7)],
                foundations=[[deck[35]]], stock=deck[36:])
    validate(deal)
    return deal
