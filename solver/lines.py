"""Winning lines a person can follow: cleaning a solver's line, and the shortest line.

A solver's line wins but may wander: a card moved and later moved back, a card
moved twice where one move would do, a pass through the stock that plays
nothing, a move that changes nothing the rest of the line needs. :func:`clean_line`
removes these with two game-generic steps, in up to ``MAX_PASSES`` rounds (until
neither helps), then a last round of shortcuts so that no table comes back:

* **shortcuts**: along the line's positions ``P0..Pn``, from each ``Pi`` jump to
  the latest ``Pj`` that is the same table as ``Pi`` (a loop: cut it) or that one
  legal move reaches (replace ``i..j`` by that move). "Same table" ignores the
  passes used: reaching a table with fewer redeals spent is never worse.
* **deletions**: drop one move and replay the rest; a later move that no longer
  fits as written is *repaired* to the legal move that takes the same card(s) to
  the same place (the card may now sit elsewhere), a draw no longer checks the
  cards it turns. The deletion is kept when the replay still wins. The work is
  bounded by a count of replayed moves (deterministic, unlike a clock).

The result is certified by :func:`solver.replay.certify` (the reference rules
replay it and it wins) and is never longer than the input; if certification
fails the input line is returned unchanged (and that would be a bug here).

:func:`shortest_line` is an exact A* search over the game's kernel
states, for games with few states (those that offer it): a line with the fewest moves,
``lost``, or ``unknown`` when a limit is reached first.
"""

from __future__ import annotations

from typing import NamedTuple

from .deals import Deal
from .moves import Move
from .registry import game
from .replay import IllegalMove, SolverBug, certify
from .solve import DEFAULT_MEMORY_MB

DEFAULT_CLEAN_BUDGET = 400_000   # replayed moves in the deletion step
DEFAULT_SHORTEST_SECONDS = 60.0
SHORTCUT_WINDOW = 40            # moves ahead a one-move shortcut is looked for
STOCK_MOVES = ("draw", "redeal", "deal")
MAX_PASSES = 3                   # rounds of shortcuts + deletions


def table_key(r, pos):
    """A position as a comparable value, ignoring the seed and the passes used."""
    return r.key(pos, passes=False)


def _positions(r, start, moves):
    out = [start]
    for m in moves:
        out.append(r.play(out[-1], m))
    return out


def shortcut(r, start, moves: list[Move]) -> list[Move]:
    """One pass of loop cutting and one-move shortcuts (see the module text)."""
    positions = _positions(r, start, moves)
    keys = [table_key(r, p) for p in positions]
    last = {k: i for i, k in enumerate(keys)}
    out, i, n = [], 0, len(moves)
    while i < n:
        j = last[keys[i]]
        if j > i:          # the table comes back later: everything between is a loop
            i = j
            continue
        best_j, best = i + 1, moves[i]
        # A move reaching a later table of the line moves a card the line moves soon
        # (or is a stock move when the line makes one soon); the others are not tried.
        soon = moves[i:i + SHORTCUT_WINDOW]
        cards = {m.card for m in soon} | {c for m in soon for c in m.cards}
        kinds = {m.type for m in soon}
        for m in r.legal_moves(positions[i]):
            if m.type not in kinds or not (m.card in cards or set(m.cards) & cards or m.type in STOCK_MOVES):
                continue
            try:
                k = last.get(table_key(r, r.play(positions[i], m)), -1)
            except IllegalMove:
                continue
            if k > best_j:
                best_j, best = k, m
        out.append(best)
        i = best_j
    return out


def _repair(r, pos, move: Move):
    """The position after ``move``, or after the legal move doing the same thing; None if none."""
    try:
        return r.play(pos, move), move
    except IllegalMove:
        pass
    if move.type == "draw" and move.cards:
        return _repair(r, pos, Move("draw"))
    for m in r.legal_moves(pos):
        if m.type == move.type and m.card == move.card and m.to == move.to \
                and sorted(m.cards) == sorted(move.cards):    # a removal's cards: in zone order
            return r.play(pos, m), m
    return None


def delete_moves(r, start, moves: list[Move], budget: int = DEFAULT_CLEAN_BUDGET) -> list[Move]:
    """Drop single moves while the (repaired) rest still wins; at most ``budget`` replayed moves.

    After dropping move ``i``, the replay of move ``i + 1 + t`` is compared with the
    line's own table after it; once they are equal the rest of the line is known to
    win from there and the replay stops.
    """
    line = list(moves)
    positions = _positions(r, start, line)
    i = 0
    spent = 0
    while i < len(line) and spent < budget:
        pos, tail, tail_positions = positions[i], [], []
        won = False
        for t, m in enumerate(line[i + 1:]):
            spent += 1
            step = _repair(r, pos, m)
            if step is None:
                break
            pos, done = step
            tail.append(done)
            tail_positions.append(pos)
            if pos == positions[i + 2 + t]:      # back on the line: the rest is unchanged
                tail += line[i + 2 + t:]
                tail_positions += positions[i + 3 + t:]
                won = True
                break
            if r.is_won(pos):
                won = True                       # won early: the rest of the line is not needed
                break
        if won:
            line = line[:i] + tail
            positions = positions[:i + 1] + tail_positions
        else:
            i += 1
    return line


def clean_line(deal: Deal, moves: list[Move], budget: int = DEFAULT_CLEAN_BUDGET) -> list[Move]:
    """A certified winning line from ``deal``, never longer than ``moves`` (a winning line)."""
    r = game(deal.game).rules
    start = r.initial(deal)
    line = list(moves)
    for _round in range(MAX_PASSES):
        shorter = delete_moves(r, start, shortcut(r, start, line), budget)
        if len(shorter) >= len(line):
            break
        line = shorter
    line = shortcut(r, start, line)   # last: no table of the line comes back (no loops)
    try:
        certify(deal, line)
    except SolverBug:
        return list(moves)
    return line


# --------------------------------------------------------------------------
# The shortest line (games with few positions)
# --------------------------------------------------------------------------
class Shortest(NamedTuple):
    verdict: str                # won (moves is a shortest line) | lost | unknown
    moves: list[Move]
    nodes: int                  # states expanded
    reason: str | None = None   # for unknown: time_limit, memory, node_limit


def shortest_line(deal: Deal, *, max_nodes: int | None = None, time_limit: float | None = DEFAULT_SHORTEST_SECONDS,
                  memory_mb: float = DEFAULT_MEMORY_MB):
    """A winning line with the fewest moves (``won``), ``lost`` when no line wins,
    ``unknown`` (with the limit's ``reason``) when a limit was reached first.

    A* search (:mod:`solver.engine.shortest`) over the game's kernel states
    encoded with only reductions that never lengthen a line, each kernel move
    costing the player moves its ``move_cost`` kernel counts, guided by its
    ``moves_left`` bound: the game's :class:`solver.game.FewestMoves`, offered by
    games with few enough states.
    """
    from .engine.shortest import fewest_moves

    solver = game(deal.game).solver
    fewest = solver.fewest_moves
    if fewest is None:
        raise ValueError(f"shortest lines are not offered for {deal.game} (too many positions)")
    outcome = fewest_moves(solver.kernels, fewest.move_cost, fewest.moves_left, solver.encode(deal, fewest.reduce),
                           max_nodes=max_nodes, time_limit=time_limit, memory_mb=memory_mb)
    if outcome.verdict != "won":
        return Shortest(outcome.verdict, [], outcome.nodes, outcome.reason)
    moves = solver.decode_line(deal, outcome.line, fewest.reduce)
    if len(moves) != outcome.max_depth:
        raise SolverBug(f"{deal.game}: the line has {len(moves)} moves, its kernel costs add up to "
                        f"{outcome.max_depth}")
    return Shortest("won", moves, outcome.nodes)
