"""The search engine: knows no game, only the kernel contract (:mod:`.contract`)."""
