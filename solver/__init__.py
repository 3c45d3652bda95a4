"""Solitaire solver: decide deals with perfect information, study win rates, give hints.

The public API, imported on first use so that ``import solver`` loads no Numba::

    from solver import deal_from_seed, solve
    result = solve(deal_from_seed("klondike", 2))

``games()`` lists the registered games (:class:`solver.game.Game`).
"""

from importlib import import_module

_API = {
    "deal_from_seed": "solver.deals", "deal_from_json": "solver.deals", "load_deal": "solver.deals",
    "Deal": "solver.deals", "Move": "solver.moves", "games": "solver.registry", "game": "solver.registry",
    "solve": "solver.solve", "Result": "solver.solve", "replay": "solver.replay", "certify": "solver.replay",
    "hint": "solver.hints", "review": "solver.hints", "run_batch": "solver.studies", "load_study": "solver.studies",
    "summarize": "solver.report",
}

__all__ = sorted(_API)


def __getattr__(name):
    if name in _API:
        return getattr(import_module(_API[name]), name)
    raise AttributeError(f"module 'solver' has no attribute {name!r}")
