"""Winning lines a person can follow: cleaning a solver's line, and Pyramid's shortest line.

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

The result is certified by :func:`solver.solve.certify` (the reference rules
replay it and it wins) and is never longer than the input; if certification
fails the input line is returned unchanged (and that would be a bug here).

:func:`shortest_line` is an exact A* search over reference-rule positions, for
games with a small state (Pyramid): a line with the fewest moves, ``lost``, or
``unknown`` when its node limit is reached first.
"""

from __future__ import annotations

import heapq
from dataclasses import replace

from .deals import Deal
from .moves import Move
from .registry import rules

DEFAULT_CLEAN_BUDGET = 400_000   # replayed moves in the deletion step
DEFAULT_SHORTEST_NODES = 10_000
SHORTCUT_WINDOW = 40            # moves ahead a one-move shortcut is looked for
STOCK_MOVES = ("draw", "redeal", "deal")
MAX_PASSES = 3                   # rounds of shortcuts + deletions


def table_key(r, pos):
    """A position as a comparable value, ignoring the seed and the passes used.

    The rules' positions compare by value without the seed; a hashable one (frozen
    dataclass) is its own key, a mutable one is keyed by its text.
    """
    if hasattr(pos, "passes_used"):
        pos = replace(pos, passes_used=0)
    try:
        hash(pos)
        return pos
    except TypeError:
        return repr(pos)


def _positions(r, start, moves):
    out = [start]
    for m in moves:
        out.append(r.play(out[-1], m))
    return out


def shortcut(r, start, moves: list[Move]) -> list[Move]:
    """One pass of loop cutting and one-move shortcuts (see the module text)."""
    from .rules import IllegalMove

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
    from .rules import IllegalMove

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
    from .solve import SolverBug, certify

    r = rules(deal.game)
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
# The shortest line (small state spaces: Pyramid)
# --------------------------------------------------------------------------
def _covers(r1: int, c1: int, r2: int, c2: int) -> bool:
    """Pyramid cell (r2, c2) lies in the cone below (r1, c1): it must go before (r1, c1) is exposed."""
    return r2 > r1 and c1 <= c2 <= c1 + (r2 - r1)


CELLS = [(r, c) for r in range(1, 8) for c in range(1, r + 1)]
# for each cell index, the cells it may be removed together with (neither lies in the other's cone)
COMPATIBLE = [sum(1 << j for j, (r2, c2) in enumerate(CELLS) if j != i and not _covers(r1, c1, r2, c2)
                   and not _covers(r2, c2, r1, c1)) for i, (r1, c1) in enumerate(CELLS)]  # bit masks


def _pyramid_estimate(pos) -> float:
    """A lower bound on the moves still needed to clear the pyramid (``inf``: it cannot be).

    Removals: a King goes alone, and so does a card none of whose pyramid partners
    (ranks adding to 13, not in its cone or it in theirs, since then both are never
    exposed together) is left: it is paired with a stock or waste card. Each such
    card takes a move of its own; the other cards go at most two per move.
    Draws (moves of another kind): a card that must be paired from the talon
    needs its nearest talon partner reached, which takes at least as many draws as
    that card lies deep in the stock (a waste card counts 0, and so does every card
    with ``stock_top``, where removing the stock's top card uncovers the next); the
    largest of these counts bounds the draws. A card with no partner left anywhere: the table is lost.
    """
    flat = [c for row in pos.pyramid for c in row]
    left = [i for i, c in enumerate(flat) if c is not None]
    if not left:
        return 0
    cells_of_rank = [0] * 14                # bit mask of the pyramid cells holding each rank
    for i in left:
        cells_of_rank[flat[i] % 13 + 1] |= 1 << i
    near = [None] * 14                     # fewest draws to reach a talon card of each rank
    for pile in pos.waste:
        for c in pile:
            near[c % 13 + 1] = 0
    for i, c in enumerate(pos.stock):
        # With stock_top a stock card also comes up when the cards above it are removed
        # (by removals, which need not be draws), so only 0 is safe there.
        cost = 0 if pos.stock_top else i // pos.piles + 1
        rk = c % 13 + 1
        if near[rk] is None or cost < near[rk]:
            near[rk] = cost
    alone = draws = 0
    for i in left:
        rk = flat[i] % 13 + 1
        if rk == 13:
            alone += 1
            continue
        if COMPATIBLE[i] & cells_of_rank[13 - rk]:
            continue
        if near[13 - rk] is None:
            return float("inf")
        alone += 1
        draws = max(draws, near[13 - rk])
    return alone + (len(left) - alone + 1) // 2 + draws


def _talon_run(r, pos, key):
    """The run of draws (and redeals) from ``pos``: ``(its moves, [(k, stock, waste,
    passes_used) after its first k + 1 moves, ...])``. Draws do not look at the
    pyramid, so the run depends on the talon only, and callers cache it by the talon."""
    from .rules.pyramid import can_redeal

    moves, tables, cur, seen = [], [], pos, {key(pos)}
    while True:
        if cur.stock:
            stock_move = Move("draw")
        elif can_redeal(cur):
            stock_move = Move("redeal")
        else:
            return moves, tables
        cur = r.play(cur, stock_move)
        if key(cur) in seen:        # unlimited passes: the talon came round to where it was
            return moves, tables
        seen.add(key(cur))
        tables.append((len(moves), cur.stock, cur.waste, cur.passes_used))
        moves.append(stock_move)


def _pyramid_steps(r, pos, key, runs):
    """The steps worth trying from ``pos``, as ``(moves, table after them)``.

    A step is a removal now, or draws (and redeals) followed by a removal that
    takes a stock or waste card. Any winning line can be rearranged into such
    steps without growing: a removal of pyramid cards only can move before the
    draws and redeals preceding it (they do not depend on the pyramid, nor it on
    them), so the removal that ends a run of draws takes a talon card, and draws
    after the last removal are never needed. An exposed pyramid King is the only
    step tried when there is one: every winning line removes it, and removing it
    first leaves every other move legal and the line as long.
    """
    from .moves import remove
    from .rules.pyramid import exposed, waste_zones

    in_pyramid = [(c, z) for c, z in exposed(pos) if z.startswith("p")]
    for c, z in in_pyramid:
        if c % 13 == 12:
            m = remove((c, z))
            return [([m], r.play(pos, m))]
    steps = [([m], r.play(pos, m)) for m in r.legal_moves(pos) if m.type == "remove"]
    talon_key = (pos.stock, pos.waste, pos.passes_used)
    if talon_key not in runs:
        runs[talon_key] = _talon_run(r, pos, key)
    zones = waste_zones(pos)
    # Along the run the pyramid stays as it is: only the talon's exposed cards change.
    run_moves, run_tables = runs[talon_key]
    for k, stock, waste, passes_used in run_tables:
        talon = [(pile[-1], z) for z, pile in zip(zones, waste) if pile]
        if pos.stock_top and stock:
            talon.append((stock[0], "stock"))
        cur = None
        for i, (c, z) in enumerate(talon):
            pairs = [remove((c, z))] if c % 13 == 12 else []
            pairs += [remove((c, z), other) for other in in_pyramid + talon[i + 1:]
                      if c % 13 + other[0] % 13 == 11]
            for m in pairs:
                if cur is None:
                    cur = replace(pos, stock=stock, waste=waste, passes_used=passes_used)
                steps.append((run_moves[:k + 1] + [m], r.play(cur, m)))
    return steps


def shortest_line(deal: Deal, max_nodes: int = DEFAULT_SHORTEST_NODES):
    """``(verdict, moves, nodes)``: a winning line with the fewest moves (``won``),
    ``lost`` when no line wins, ``unknown`` when ``max_nodes`` tables were expanded first.

    A* over reference-rule tables taken after each removal, with the steps of
    :func:`_pyramid_steps` as edges (cost: their number of moves) and
    :func:`_pyramid_estimate`, which never overstates the moves still needed. A
    table reached again by a shorter line is searched again, so the first won
    table taken from the queue is reached by a shortest line. Tables that differ
    only in the passes used are merged when passes are unlimited.
    """
    if deal.game != "pyramid":
        raise ValueError("shortest lines are offered for Pyramid only (its state is small)")
    r = rules(deal.game)
    start = r.initial(deal)
    unlimited = start.passes is None

    def key(p):
        return replace(p, passes_used=0) if unlimited else p

    parent = {key(start): None}
    best_g = {key(start): 0}
    runs: dict = {}             # talon -> the run of draws from it (see _talon_run)
    queue = [(_pyramid_estimate(start), 0, 0, start)]  # (f, -g, tie, table): deeper first among equals
    tie = 0
    nodes = 0
    while queue:
        _f, minus_g, _t, pos = heapq.heappop(queue)
        g = -minus_g
        k = key(pos)
        if best_g.get(k, g) < g:
            continue       # a stale queue entry
        if r.is_won(pos):
            line = []
            while parent[k] is not None:
                k, step = parent[k]
                line[:0] = step
            return "won", line, nodes
        nodes += 1
        if nodes > max_nodes:
            return "unknown", [], nodes
        for step, nxt in _pyramid_steps(r, pos, key, runs):
            g2 = g + len(step)
            nk = key(nxt)
            if nk in best_g and best_g[nk] <= g2:
                continue
            h = _pyramid_estimate(nxt)
            if h == float("inf"):
                continue
            best_g[nk] = g2
            parent[nk] = (k, step)
            tie += 1
            heapq.heappush(queue, (g2 + h, -g2, tie, nxt))
    return "lost", [], nodes
