"""The explicit list of games.

Each entry is a game package whose ``GAME`` is its :class:`solver.game.Game`. A
package is imported on first use, and importing one loads no Numba (its solver
is imported on first use of ``GAME.solver``), so dealing a card stays cheap.
Adding a game is a package and one line here.
"""

from __future__ import annotations

import importlib
from functools import cache

from .game import Game
from .options import OptionError

GAME_PACKAGES = (
    "solver.games.klondike",
    "solver.games.pyramid",
    "solver.games.twenty",
    "solver.games.ladder",
    "solver.games.golf",
)


@cache
def games() -> dict[str, Game]:
    """Every registered game by name, in registry order."""
    out = {}
    for package in GAME_PACKAGES:
        g = importlib.import_module(package).GAME
        out[g.name] = g
    return out


def names() -> list[str]:
    return list(games())


def game(name) -> Game:
    """The game called ``name``; an :class:`OptionError` names the known ones otherwise."""
    known = games()
    if not isinstance(name, str) or name not in known:
        raise OptionError(f"unknown game {name!r} (known: {', '.join(known)})")
    return known[name]
