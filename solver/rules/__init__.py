"""Plain-Python reference rules: the oracle every solver line is replayed against.

One module per game, written for clarity, not speed, sharing no code with the
Numba kernels in :mod:`solver.games`. Every module provides the same functions:

``initial(deal) -> Position``
    The position a :class:`solver.deals.Deal` describes (fresh or mid-game).
``legal_moves(pos) -> list[Move]``
    Every legal move, as :class:`solver.moves.Move` values, in a fixed order.
``play(pos, move) -> Position``
    A new position after ``move``; ``pos`` is left unchanged. Raises
    :class:`IllegalMove` with the reason when the move is not legal. Automatic
    events (Klondike's turning of a face-down card, Twenty's refills) happen
    inside. A ``draw`` move's optional ``cards`` must match the cards drawn.
``is_won(pos) -> bool``
``to_deal(pos) -> Deal``
    The position written as a (mid-game) deal, so that ``initial(to_deal(p))``
    is the same position.
``render(pos) -> str``
    A text picture of the table for people.
"""

from __future__ import annotations

import importlib


class IllegalMove(ValueError):
    """A move the rules do not allow here; ``str()`` is the reason."""


RULE_MODULES = ("klondike", "pyramid", "twenty", "ladder")


def rules_for(game: str):
    """The reference rules module of ``game``."""
    if game not in RULE_MODULES:
        raise KeyError(game)
    return importlib.import_module(f"solver.rules.{game}")


def replay(deal, moves):
    """Replay ``moves`` from ``deal``.

    Returns ``(position, None)`` when every move is legal, or
    ``(position_before_the_bad_move, (index, move, reason))`` with a 1-based index.
    """
    rules = rules_for(deal.game)
    pos = rules.initial(deal)
    for i, move in enumerate(moves, 1):
        try:
            pos = rules.play(pos, move)
        except IllegalMove as err:
            return pos, (i, move, str(err))
    return pos, None
