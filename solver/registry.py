"""The explicit list of games: name -> reference rules and (where built) engine kernels.

Adding a game: a rules module, a games module, and one line in :data:`GAME_MODULES`.
Modules are imported on first use, so that dealing a card never pays for Numba.
"""

from __future__ import annotations

import importlib

from .options import GAMES as OPTION_SPECS
from .options import OptionError

# game -> module under solver.games holding its kernels (None: reference rules only, no solver yet)
GAME_MODULES: dict[str, str | None] = {
    "klondike": "solver.games.klondike",
    "pyramid": "solver.games.pyramid",
    "twenty": "solver.games.twenty",
    "ladder": "solver.games.ladder",
}


def game_names() -> list[str]:
    return list(GAME_MODULES)


def rules(game: str):
    _check(game)
    return importlib.import_module(f"solver.rules.{game}")


def kernels_module(game: str):
    """The games module (kernels, encode, decode_line) of ``game``."""
    _check(game)
    name = GAME_MODULES[game]
    if name is None:
        raise OptionError(f"{game}: no solver for this game yet (dealing and checking work)")
    return importlib.import_module(name)


def _check(game: str) -> None:
    if game not in GAME_MODULES or game not in OPTION_SPECS:
        raise OptionError(f"unknown game {game!r} (known: {', '.join(GAME_MODULES)})")
