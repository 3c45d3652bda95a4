"""Solitaire solver: decide deals with perfect information, study win rates, give hints.

The API is in the modules (``import solver`` loads nothing else, and no Numba)::

    from solver.deals import deal_from_seed
    from solver.solve import solve
    result = solve(deal_from_seed("klondike", 2))

``solver.registry.games()`` lists the games; docs/architecture.md draws the packages.
"""
