"""Other tools' Klondike deals: their seed-to-deal mappings and their deal file formats.

Each tool has its own module (its generator, and its format where it has one);
the Klondike game (:mod:`solver.games.klondike`) offers the generators as seed
types and :mod:`.formats` reads and writes the files. Everything here is written from the
tools' public sources (named in each module); nothing is copied from them.
"""
