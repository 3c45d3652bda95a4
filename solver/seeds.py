"""Seed numbers of other programs: ``deal_from_tool_seed(game, seed, seed_type, options)``.

``ours`` is this project's shuffle (:func:`solver.deals.deal_from_seed`), for every
game; a game may offer other programs' numbering as further seed types
(``Game.seed_types``: Klondike has Solvitaire's, Klondike-Solver's, GreenFelt's and
Microsoft's).

A deal from another program's seed has ``seed=None``: ``Deal.seed`` always means a
seed of our own shuffle, so a result written from it never names the wrong deal.

>>> d = deal_from_tool_seed("klondike", 1, "solvitaire", {"draw": 3})
>>> d.seed is None, d.options["draw"], [len(p) for p in d.tableau]
(True, 3, [1, 2, 3, 4, 5, 6, 7])
"""

from __future__ import annotations

from .deals import Deal, deal_from_seed
from .options import OptionError
from .registry import game, games

OURS = "ours"


def seed_types() -> tuple[str, ...]:
    """Every seed type some game takes, ``ours`` first."""
    out = [OURS]
    for g in games().values():
        out += [t for t in g.seed_types if t not in out]
    return tuple(out)


def check_seed_type(name: str, seed_type: str) -> None:
    """Refuse a seed type that the game ``name`` does not take."""
    g = game(name)
    if seed_type == OURS or seed_type in g.seed_types:
        return
    if seed_type not in seed_types():
        raise OptionError(f"unknown seed type {seed_type!r} (known: {', '.join(seed_types())})")
    takes = ", ".join([OURS, *g.seed_types])
    raise OptionError(f"seed type {seed_type!r} does not number {name} deals ({name} takes: {takes})")


def deal_from_tool_seed(name: str, seed: int, seed_type: str = OURS, options: dict | None = None) -> Deal:
    """Deal the game ``name`` from ``seed`` as the program named by ``seed_type`` would."""
    check_seed_type(name, seed_type)
    if seed_type == OURS:
        return deal_from_seed(name, seed, options)
    return game(name).seed_types[seed_type](seed, options)
