"""``solve(deal) -> Result``: search, then certify the line with the reference rules."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .deals import Deal, deal_to_json
from .engine.memory import DEFAULT_MEMORY_MB
from .engine.search import search
from .moves import Move
from .registry import game as game_named
from .replay import certify

DEFAULT_TIME_LIMIT = 60.0


@dataclass
class Result:
    deal: Deal
    verdict: str                      # won | lost | unknown
    moves: list[Move] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    reason: str | None = None         # why unknown: node_limit, time_limit, memory, depth

    def to_json(self, *, lines: bool = True, seed: int | None = None, seed_type: str = "ours", **extra) -> dict:
        """The FORMATS.md result object. ``lines=False`` leaves out ``moves`` and ``deal`` (a
        study of millions of deals); ``seed`` and ``seed_type`` name the deal's number when it
        is another program's (``deal.seed`` is always our own); ``extra`` fields follow."""
        out = {"game": self.deal.game, "options": dict(self.deal.options)}
        seed = self.deal.seed if seed is None else seed
        if seed is not None:
            out["seed"] = seed
        if seed_type != "ours":
            out["seed_type"] = seed_type
        out["verdict"] = self.verdict
        if lines:
            out["moves"] = [m.to_json() for m in self.moves]
        out.update(nodes=self.nodes, seconds=round(self.seconds, 6))
        if self.reason:
            out["reason"] = self.reason
        if lines:
            out["deal"] = deal_to_json(self.deal)
        out.update(extra)
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
# and its node budget when no limit is given (Solver.relaxed). Half: a relaxed deal is
# mostly decided at once, the hard ones are lost deals whose twin's proof takes
# seconds, and deals that need more than half of the limit in their own search are
# rarer still (benchmarks/results.md, "Figures behind the code").
RELAXED_SHARE = 0.5
RELAXED_NODES = 5_000_000
# Before the relaxed deal, the deal itself gets a short look: PROBE_NODES nodes (at most
# PROBE_SHARE of the limits). Some deals are decided at once there while their twin's
# search is long; a longer look costs more on the deals it does not decide than it
# saves on those it does (benchmarks/results.md).
PROBE_NODES = 5_000
PROBE_SHARE = 0.05


def solve(deal: Deal, *, max_nodes: int | None = None, time_limit: float | None = DEFAULT_TIME_LIMIT,
          memory_mb: float = DEFAULT_MEMORY_MB, progress=None, interruptible: bool = False,
          **search_options) -> Result:
    """Decide ``deal``; a ``won`` result carries a line the reference rules have replayed.

    A game may offer a relaxed deal (``Solver.relaxed``): one that every winning line of ``deal``
    also wins. Then ``deal`` is searched briefly (:data:`PROBE_NODES`), then the
    relaxed deal is solved within :data:`RELAXED_SHARE` of the limits (or the share the game
    gives it, ``Solver.relaxed_share``), the same way, with a relaxed deal of its own if it
    has one (Klondike draw 3 with many passes: unlimited passes, then one card a draw): if it is lost, so is
    ``deal`` (a proof as good as the search's own); if it is won by a line that the
    reference rules of ``deal`` itself accept and win with (a twin that only allows
    more redeals, and a line that redeals no more than ``deal`` allows), ``deal`` is
    won by it. Otherwise ``deal`` is searched again with what is left of the limits, with
    the game's settings for a likely won deal added (``Solver.likely_won_settings``) when
    its twin was won by a line it does not allow.

    ``memory_mb`` bounds the search memory of each of these searches (all its arrays at
    once, :mod:`solver.engine.memory`), not the process: each gets the whole budget, and
    as they run one after another and each frees its arrays when it returns, the
    process's peak is one search's on top of the process itself.

    ``progress(nodes, stored, seconds)`` is told, between turns, how far the searches
    have come (nodes and seconds over all of them). With ``interruptible``, Ctrl-C ends
    the solve ``unknown`` (``interrupted``), with the nodes reached."""
    game = game_named(deal.game).solver
    nodes, seconds = 0, 0.0

    def run(d: Deal, nodes_cap, seconds_cap, likely_won: bool = False):
        # a game may add search settings for the deal searched (Ladder: randomised restart
        # runs, set by its passes), and more for a deal that is likely won; the caller's win
        settings = {**game.search_settings(d.options),
                    **(game.likely_won_settings(d.options) if likely_won else {}), **search_options}
        told = None
        if progress is not None:
            before_nodes, before_seconds = nodes, seconds
            told = lambda n, stored, s: progress(before_nodes + n, stored, before_seconds + s)  # noqa: E731
        return search(game.kernels, roots(game, d), max_nodes=nodes_cap, time_limit=seconds_cap,
                      memory_mb=memory_mb, progress=told, interruptible=interruptible, **settings)

    easier = game.relaxed(deal) if game.relaxed is not None else None
    twin_won = False
    if easier is not None:
        probe_nodes = PROBE_NODES if max_nodes is None else min(PROBE_NODES, max(1, int(max_nodes * PROBE_SHARE)))
        probe = run(deal, probe_nodes, None if time_limit is None else time_limit * PROBE_SHARE)
        if probe.verdict != "unknown" or probe.reason == "interrupted":
            return _result(game, deal, probe, 0, 0.0)
        nodes, seconds = probe.nodes, probe.seconds
        max_nodes, time_limit = _left(max_nodes, time_limit, probe)

        share = game.relaxed_share(deal, easier) if game.relaxed_share is not None else None
        share = RELAXED_SHARE if share is None else share
        told = None
        if progress is not None:
            before_nodes, before_seconds = nodes, seconds
            told = lambda n, stored, s: progress(before_nodes + n, stored, before_seconds + s)  # noqa: E731
        # the relaxed deal is solved as any deal is: with a relaxed deal of its own, if it has one
        if max_nodes is None and time_limit is None:
            out = solve(easier, max_nodes=RELAXED_NODES, time_limit=None, memory_mb=memory_mb, progress=told,
                        interruptible=interruptible, **search_options)
        else:
            out = solve(easier, max_nodes=None if max_nodes is None else max(1, int(max_nodes * share)),
                        time_limit=None if time_limit is None else time_limit * share, memory_mb=memory_mb,
                        progress=told, interruptible=interruptible, **search_options)
        nodes, seconds = nodes + out.nodes, seconds + out.seconds
        max_nodes, time_limit = _left(max_nodes, time_limit, out)
        if out.verdict == "lost":
            return Result(deal, "lost", [], nodes, seconds)
        # a twin by passes wins the deal when its line redeals no more than the deal allows
        # (the deal's reference rules decide); when it redeals more, the deal is won with
        # more room than it has, and most likely by some other line
        lines = game.relaxed_lines(deal, easier) if game.relaxed_lines is not None else True
        twin_won = out.verdict == "won" and lines
        if twin_won and _wins(deal, out.moves):
            return Result(deal, "won", out.moves, nodes, seconds)
        if out.reason == "interrupted":
            return Result(deal, "unknown", [], nodes, seconds, "interrupted")
    return _result(game, deal, run(deal, max_nodes, time_limit, likely_won=twin_won), nodes, seconds)


def _wins(deal: Deal, moves: list[Move]) -> bool:
    """``moves`` are legal from ``deal`` and win it (the reference rules replay them)."""
    from .replay import replay

    position, illegal = replay(deal, moves)
    return illegal is None and game_named(deal.game).rules.is_won(position)


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
