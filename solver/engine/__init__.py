"""The search engine: knows no game, only the kernel contract (:mod:`.contract`)."""

from .cache import keep_fresh

keep_fresh(__file__)
