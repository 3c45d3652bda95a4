"""Seed numbers of other tools: ``deal_from_tool_seed(game, seed, seed_type, options)``.

Seed types (Klondike only, apart from ``ours``):

* ``ours``: this project's shuffle (:func:`solver.deals.deal_from_seed`), any game;
* ``solvitaire``: Solvitaire's ``--random N`` (:mod:`solver.foreign.solvitaire`);
* ``klondike-solver``: ShootMe's Klondike-Solver ``/G N`` (:mod:`solver.foreign.shootme`);
* ``greenfelt``: greenfelt.net game numbers, as ShootMe reproduced them (:mod:`solver.foreign.greenfelt`);
* ``microsoft``: the deal numbers Microsoft Solitaire Collection writes to its log,
  as lonelybot decodes them (:mod:`solver.foreign.microsoft`).

A deal from another tool's seed has ``seed=None``: ``Deal.seed`` always means a
seed of our own shuffle, so a result written from it never names the wrong deal.

>>> d = deal_from_tool_seed("klondike", 1, "solvitaire", {"draw": 3})
>>> d.seed is None, d.options["draw"], [len(p) for p in d.tableau]
(True, 3, [1, 2, 3, 4, 5, 6, 7])
"""

from __future__ import annotations

from .deals import Deal, deal_from_seed
from .foreign import greenfelt, microsoft, shootme, solvitaire
from .options import OptionError, check_game

FOREIGN = {
    "solvitaire": solvitaire.deal_from_seed,
    "klondike-solver": shootme.deal_from_seed,
    "greenfelt": greenfelt.deal_from_seed,
    "microsoft": microsoft.deal_from_seed,
}
SEED_TYPES = ("ours",) + tuple(FOREIGN)


def deal_from_tool_seed(game: str, seed: int, seed_type: str = "ours", options: dict | None = None) -> Deal:
    """Deal ``game`` from ``seed`` as the tool named by ``seed_type`` would."""
    game = check_game(game)
    if seed_type == "ours":
        return deal_from_seed(game, seed, options)
    if seed_type not in FOREIGN:
        raise OptionError(f"unknown seed type {seed_type!r} (known: {', '.join(SEED_TYPES)})")
    if game != "klondike":
        raise OptionError(f"seed type {seed_type!r} is for klondike only; {game} takes seed type 'ours'")
    return FOREIGN[seed_type](seed, options)
