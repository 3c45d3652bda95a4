"""What a game whose relaxed twin may be the same deal with unlimited passes needs from it
(:attr:`solver.game.Solver.relaxed_lines`, :attr:`solver.game.Solver.relaxed_share`)."""

from __future__ import annotations

# A twin by passes takes nearly all of the limits: its line mostly redeals no more often
# than the deal allows, and the deal's own search is the larger one (the passes used are
# in its key), so it seldom decides what the twin leaves undecided; it gets what a twin
# won with too many redeals leaves. (With half the limits, a lost deal of many passes
# whose twin needed more than half stayed unknown: benchmarks/results.md.)
PASSES_TWIN_SHARE = 0.9


def by_passes(deal, twin) -> bool:
    """``twin`` is ``deal`` with unlimited passes and nothing else changed: then a winning
    line of the twin that redeals no more often than the deal allows wins the deal."""
    return deal.options["passes"] is not None and twin.options == {**deal.options, "passes": None}


def relaxed_share(deal, twin) -> float | None:
    """The share of the limits the relaxed ``twin`` of ``deal`` may take: :data:`PASSES_TWIN_SHARE`
    for a twin by passes, else None (the engine's default)."""
    return PASSES_TWIN_SHARE if by_passes(deal, twin) else None
