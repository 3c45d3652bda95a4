"""Other tools' Klondike deals: their seed-to-deal mappings and their deal file formats.

Each tool has its own module (its generator, and its format where it has one);
the Klondike game (:mod:`solver.games.klondike`) offers the generators as seed types and :mod:`solver.games.klondike.foreign.formats`
picks a reader or writer by format name. Everything here is written from the
tools' public sources (named in each module); nothing is copied from them.
"""
