"""Search one position under several move orders in turn, with growing node budgets.

Depth-first search time on won deals is heavy-tailed: the same deal can take
10**3 nodes in one move order and 10**7 in another. A game that offers several
*roots* -- the same position encoded with different move orders (an order
only sorts the moves a kernel lists, it never adds or removes one) -- can be
searched round-robin: each root gets ``budget`` nodes, then every root again
with ``growth`` times as many, and so on, each run from scratch.

Why the verdicts stay exact: every run is a complete search of the same
reachable states (only the order differs), so a ``won`` line is a line (the
caller replays it) and a ``lost`` from any run is a proof. A run stopped at
its budget says nothing and the next one starts afresh. Deterministic: node
budgets, not time, decide when a run stops (the time limit only ends the whole
search with ``unknown``, as in :func:`search`).
"""

from __future__ import annotations

import time

from .contract import Kernels
from .search import Outcome, search


def search_with_restarts(kernels: Kernels, roots: list, *, max_nodes: int | None = None,
                         time_limit: float | None = None, memory_mb: float = 1024, budget: int = 100_000,
                         growth: int = 4, **options) -> Outcome:
    """Like :func:`search`, over ``roots`` (one position, several move orders) in turns."""
    start = time.perf_counter()
    nodes = 0
    reasons = set()
    while True:
        for root in roots:
            run_nodes = budget if max_nodes is None else min(budget, max_nodes - nodes)
            left = None if time_limit is None else time_limit - (time.perf_counter() - start)
            if run_nodes <= 0 or (left is not None and left <= 0):
                reason = "node_limit" if run_nodes <= 0 else "time_limit"
                return Outcome("unknown", [], nodes, time.perf_counter() - start, reason)
            out = search(kernels, root, max_nodes=run_nodes, time_limit=left, memory_mb=memory_mb, **options)
            nodes += out.nodes
            if out.verdict != "unknown":
                return Outcome(out.verdict, out.line, nodes, time.perf_counter() - start, None, out.stored,
                               out.max_depth)
            reasons.add(out.reason)
            if out.reason == "time_limit":
                return Outcome("unknown", [], nodes, time.perf_counter() - start, "time_limit")
        if reasons <= {"memory", "depth"}:
            # every order ran out of memory or depth below its budget: more nodes would not help
            reason = "memory" if "memory" in reasons else "depth"
            return Outcome("unknown", [], nodes, time.perf_counter() - start, reason)
        reasons.clear()
        budget *= growth
