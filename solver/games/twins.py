"""What a game whose relaxed twin may be the same deal with unlimited passes needs from it
(:attr:`solver.game.Solver.relaxed_lines`, :attr:`solver.game.Solver.relaxed_share`,
:attr:`solver.game.Solver.narrower`)."""

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


def fewer_passes(deal, twin) -> list:
    """With a twin by passes, the deal with each smaller number of passes that still allows
    the redeals it has used, fewest first (:attr:`solver.game.Solver.narrower`): a line of
    one redeals less often, so it is a line of the deal; and its search is far smaller (the
    passes used are in the key, and every pass more lets a line put off what it must do).
    With another twin, none: its line says nothing of how many passes the deal needs (over
    seeds 1-2000 of Klondike draw 3 with three passes, whose twin has one card a draw,
    trying one and two passes first cost 10 % more nodes than it saved)."""
    if not by_passes(deal, twin):
        return []
    out = []
    for fewer in range(deal.passes_used + 1, deal.options["passes"]):
        narrow = deal.copy()
        narrow.options = {**deal.options, "passes": fewer}
        out.append(narrow)
    return out
