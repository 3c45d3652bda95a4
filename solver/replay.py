"""A line replayed with a game's reference rules: the check every solver line passes.

The reference rules (each game's ``rules`` module, :class:`solver.game.Rules`) are
plain Python written for clarity and share no code with the kernels, so a line
the kernels found and these rules replay to a win is certified by an
independent implementation of the rules.
"""

from __future__ import annotations


class IllegalMove(ValueError):
    """A move the rules do not allow here; ``str()`` is the reason."""


class SolverBug(RuntimeError):
    """The search claimed a win that the reference rules do not confirm."""


def replay(deal, moves):
    """Replay ``moves`` from ``deal``.

    Returns ``(position, None)`` when every move is legal, or
    ``(position_before_the_bad_move, (index, move, reason))`` with a 1-based index.
    """
    from .registry import game

    rules = game(deal.game).rules
    pos = rules.initial(deal)
    for i, move in enumerate(moves, 1):
        try:
            pos = rules.play(pos, move)
        except IllegalMove as err:
            return pos, (i, move, str(err))
    return pos, None


def certify(deal, moves) -> None:
    """Replay ``moves`` with the reference rules; raise :class:`SolverBug` unless they win."""
    from .registry import game

    pos, bad = replay(deal, moves)
    if bad is not None:
        index, move, reason = bad
        raise SolverBug(f"solver line: move {index} ({move}) is illegal: {reason}")
    if not game(deal.game).rules.is_won(pos):
        raise SolverBug("solver line does not win")
