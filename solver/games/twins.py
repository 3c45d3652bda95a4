"""What the games whose relaxed twin is the same deal with unlimited passes share
(:attr:`solver.game.Solver.relaxed_share`, :attr:`solver.game.Solver.narrower`)."""

from __future__ import annotations

# A twin by passes takes nearly all of the limits: its line mostly redeals no more often
# than the deal allows, and the deal's own search is the larger one (the passes used are
# in its key), so it seldom decides what the twin leaves undecided; it gets what a twin
# won with too many redeals leaves. (With half the limits, a lost deal of many passes
# whose twin needed more than half stayed unknown: benchmarks/results.md.)
PASSES_TWIN_SHARE = 0.9


def relaxed_share(deal) -> float | None:
    """The share of the limits a deal's relaxed twin may take: :data:`PASSES_TWIN_SHARE`
    for a twin by passes (a deal of limited passes), else None (the engine's default)."""
    return PASSES_TWIN_SHARE if deal.options["passes"] is not None else None


def fewer_passes(deal) -> list:
    """The deal with each smaller number of passes that still allows the redeals it has
    used, fewest first (:attr:`solver.game.Solver.narrower`): a line of one redeals less
    often, so it is a line of the deal; and its search is far smaller (the passes used are
    in the key, and every pass more lets a line put off what it must do)."""
    passes = deal.options["passes"]
    if passes is None:
        return []
    out = []
    for fewer in range(deal.passes_used + 1, passes):
        narrow = deal.copy()
        narrow.options = {**deal.options, "passes": fewer}
        out.append(narrow)
    return out
