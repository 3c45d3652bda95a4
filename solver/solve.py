"""``solve(deal) -> Result``: search, then certify the line with the reference rules."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .deals import Deal, deal_to_json
from .engine.search import search
from .moves import Move
from .registry import game as game_named
from .replay import SolverBug, certify

DEFAULT_TIME_LIMIT = 60.0
DEFAULT_MEMORY_MB = 1024


@dataclass
class Result:
    deal: Deal
    verdict: str                      # won | lost | unknown
    moves: list[Move] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    reason: str | None = None         # why unknown: node_limit, time_limit, memory, depth

    def to_json(self) -> dict:
        out = {"game": self.deal.game, "options": dict(self.deal.options)}
        if self.deal.seed is not None:
            out["seed"] = self.deal.seed
        out.update(verdict=self.verdict, moves=[m.to_json() for m in self.moves], nodes=self.nodes,
                   seconds=round(self.seconds, 6))
        if self.reason:
            out["reason"] = self.reason
        out["deal"] = deal_to_json(self.deal)
        return out

    def _repr_svg_(self) -> str:
        """What a notebook shows for a result: the deal, with the verdict above it (the
        replay of the line is :meth:`replay_html`)."""
        from .pictures import deal_svg
        from .pictures.pages import short_title, verdict_words

        return deal_svg(self.deal, f"{short_title(self.deal)}: {verdict_words(self)}")

    def replay_html(self) -> str:
        """A self-contained HTML page replaying the line (the deal alone when it is not won)."""
        from .pictures.pages import solve_page

        return solve_page(self)


# The share of the limits a relaxed deal may use before the deal itself is searched,
# and its node budget when no limit is given (see ``relaxed`` in a game module). Half:
# a relaxed deal is mostly decided in milliseconds (Klondike's draw-1 twins: p99
# 0.5 s), and the hard ones are lost deals whose twin's proof takes seconds
# (Solvitaire's seed 598: 4.9 s), while deals that need more than half of the limit
# in their own search are rarer still. Over the 94 of Solvitaire's 10,000 seeds that
# took over 3 s or were left unknown, at 10 s: 60 decided with a half, 54 with a third.
RELAXED_SHARE = 0.5
RELAXED_NODES = 5_000_000
# Before the relaxed deal, the deal itself gets a short look: PROBE_NODES nodes (at most
# PROBE_SHARE of the limits). Some deals are decided at once there while their twin's
# search is long: of the 254 of Solvitaire's seeds that took over 0.3 s, 7 are decided
# within 5,000 nodes of their own search (seed 7211: lost in 7 nodes, after 930,000 in
# its twin; 2150: 13 nodes, after 3.2M). 5,000 nodes cost about 5 ms when the look
# fails; 50,000 caught 15 of the 254 but cost 0.85 % more nodes over them in all.
PROBE_NODES = 5_000
PROBE_SHARE = 0.05


def solve(deal: Deal, *, max_nodes: int | None = None, time_limit: float | None = DEFAULT_TIME_LIMIT,
          memory_mb: float = DEFAULT_MEMORY_MB, **search_options) -> Result:
    """Decide ``deal``; a ``won`` result carries a line the reference rules have replayed.

    A game may offer a relaxed deal (``Solver.relaxed``): one that every winning line of ``deal``
    also wins. Then ``deal`` is searched briefly (:data:`PROBE_NODES`), then the
    relaxed deal within :data:`RELAXED_SHARE` of the limits: if it is lost, so is
    ``deal`` (a proof as good as the search's own). Otherwise ``deal`` is searched
    again with what is left of the limits."""
    game = game_named(deal.game).solver
    nodes, seconds = 0, 0.0

    # a game may add search settings (Ladder: randomised restart runs); the caller's win
    search_options = {**game.search_settings, **search_options}

    def run(d: Deal, nodes_cap, seconds_cap):
        return search(game.kernels, roots(game, d), max_nodes=nodes_cap, time_limit=seconds_cap,
                      memory_mb=memory_mb, **search_options)

    easier = game.relaxed(deal) if game.relaxed is not None else None
    if easier is not None:
        probe_nodes = PROBE_NODES if max_nodes is None else min(PROBE_NODES, max(1, int(max_nodes * PROBE_SHARE)))
        probe = run(deal, probe_nodes, None if time_limit is None else time_limit * PROBE_SHARE)
        if probe.verdict != "unknown":
            return _result(game, deal, probe, 0, 0.0)
        nodes, seconds = probe.nodes, probe.seconds
        max_nodes, time_limit = _left(max_nodes, time_limit, probe)
        if max_nodes is None and time_limit is None:
            twin_nodes, twin_seconds = RELAXED_NODES, None
        else:
            twin_nodes = None if max_nodes is None else max(1, int(max_nodes * RELAXED_SHARE))
            twin_seconds = None if time_limit is None else time_limit * RELAXED_SHARE
        twin = run(easier, twin_nodes, twin_seconds)
        nodes, seconds = nodes + twin.nodes, seconds + twin.seconds
        if twin.verdict == "lost":
            return Result(deal, "lost", [], nodes, seconds)
        max_nodes, time_limit = _left(max_nodes, time_limit, twin)
    return _result(game, deal, run(deal, max_nodes, time_limit), nodes, seconds)


def _left(max_nodes, time_limit, spent):
    """The limits that remain after the search ``spent``."""
    if max_nodes is not None:
        max_nodes = max(0, max_nodes - spent.nodes)
    if time_limit is not None:
        time_limit = max(0.0, time_limit - spent.seconds)
    return max_nodes, time_limit


def _result(game, deal: Deal, outcome, nodes: int, seconds: float) -> Result:
    """The Result of the last search, with the nodes and seconds of those before it; a won
    line is certified by the reference rules."""
    moves: list[Move] = []
    if outcome.verdict == "won":
        moves = game.decode_line(deal, outcome.line, game.reduce_all)
        certify(deal, moves)
    return Result(deal, outcome.verdict, moves, nodes + outcome.nodes, seconds + outcome.seconds, outcome.reason)


def roots(game, deal: Deal) -> np.ndarray:
    """The root state(s) of ``deal`` for the search: one per move order when the game has
    several (searched in turns over one table, see engine.search), else one."""
    if game.move_orders is not None:
        return np.stack(game.move_orders(deal))
    return game.encode(deal, game.reduce_all)
