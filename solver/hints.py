"""Hints and game review, for every game with a solver.

:func:`hint`: replay the moves played so far (reference rules), turn the table
reached into a mid-game :class:`~solver.deals.Deal` (``rules.to_deal``), solve
it, and offer a winning line a person can follow (:func:`solver.lines.clean_line`,
or the shortest line where the game offers one).

:func:`review`: find the move that lost a played game. Winnability only ever
goes from won to lost along a game (a table reached from a lost table is lost,
so a won table's predecessors are all won), so the tables after each move read
``won ... won lost ... lost``, and the first lost one is found by bisection:
about log2(n) solves instead of n. A solve that ends ``unknown`` is never taken
as lost: the search then tries the other tables of the undecided stretch, and
if none decides, the review says between which moves the game was lost and
which tables stayed undecided.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .deals import Deal, deal_to_json
from .lines import clean_line, shortest_line
from .moves import Move
from .registry import game
from .replay import certify
from .solve import DEFAULT_MEMORY_MB, Result, solve


@dataclass
class Hint:
    position: Deal                  # the table after the played moves
    played: int                     # how many moves were played
    verdict: str                    # won | lost | unknown (for the table reached)
    line: list[Move] = field(default_factory=list)   # the line offered (cleaned or shortest)
    raw_length: int = 0             # the solver's line before cleaning
    nodes: int = 0
    seconds: float = 0.0
    reason: str | None = None
    shortest: str | None = None     # with shortest=True: won (the line is shortest) | unknown | lost
    shortest_reason: str | None = None   # why the shortest search ended unknown: time_limit, memory, node_limit

    def to_json(self) -> dict:
        """A FORMATS.md result object for the table reached, plus the hint's own fields.

        ``deal`` is the table after the played moves and ``moves`` the whole line
        offered from it, so ``solitaire check`` replays the object as it stands.
        """
        extra = {"played": self.played, "next": self.line[0].to_json() if self.line else None,
                 "line_length": len(self.line), "raw_length": self.raw_length}
        if self.shortest is not None:
            extra["shortest"] = self.shortest
            if self.shortest_reason:
                extra["shortest_reason"] = self.shortest_reason
        result = Result(self.position, self.verdict, self.line, self.nodes, self.seconds, self.reason)
        return result.to_json(**extra)


def position_deal(deal: Deal, moves: list[Move]) -> Deal:
    """The table after ``moves`` (all legal) as a mid-game deal the kernels can encode."""
    r = game(deal.game).rules
    pos = r.initial(deal)
    for m in moves:
        pos = r.play(pos, m)
    return r.to_deal(pos)


def hint(position: Deal, played: int = 0, *, max_nodes: int | None = None, time_limit: float | None = 10.0,
         memory_mb: float = DEFAULT_MEMORY_MB, clean: bool = True, shortest: bool = False,
         shortest_nodes: int | None = None, progress=None, interruptible: bool = False) -> Hint:
    """A winning line from the table ``position`` (a fresh or mid-game deal); ``progress``
    and ``interruptible`` as for :func:`solver.solve.solve`."""
    r = game(position.game).rules
    if r.is_won(r.initial(position)):
        return Hint(position, played, "won")
    result = solve(position, max_nodes=max_nodes, time_limit=time_limit, memory_mb=memory_mb, progress=progress,
                   interruptible=interruptible)
    out = Hint(position, played, result.verdict, list(result.moves), len(result.moves), result.nodes,
               result.seconds, result.reason)
    if result.verdict != "won":
        return out
    if shortest:
        best = shortest_line(position, max_nodes=shortest_nodes, time_limit=time_limit, memory_mb=memory_mb)
        out.shortest, out.shortest_reason = best.verdict, best.reason
        if best.verdict == "won":
            certify(position, best.moves)
            out.line = best.moves
            return out
    if clean:
        out.line = clean_line(position, out.line)
    return out


# --------------------------------------------------------------------------
# Review
# --------------------------------------------------------------------------
@dataclass
class Review:
    deal: Deal
    moves: list[Move]
    verdicts: dict                    # table index k (after k moves) -> Result
    outcome: str                      # see review()
    lost_at: int | None = None        # 1-based number of the move that lost the game
    lo: int | None = None             # last table known winnable
    hi: int | None = None             # first table known lost
    better: Move | None = None        # a move from table lo that keeps the game winnable
    better_line: list[Move] = field(default_factory=list)

    def to_json(self) -> dict:
        out = {"game": self.deal.game, "options": dict(self.deal.options)}
        if self.deal.seed is not None:
            out["seed"] = self.deal.seed
        out.update(outcome=self.outcome, moves_played=len(self.moves))
        if self.lost_at is not None:
            out["lost_at"] = self.lost_at
            out["losing_move"] = self.moves[self.lost_at - 1].to_json()
        if self.lo is not None:
            out["last_winnable"] = self.lo
        if self.hi is not None:
            out["first_lost"] = self.hi
        if self.better is not None:
            out["better"] = self.better.to_json()
            out["better_line"] = [m.to_json() for m in self.better_line]
        out["solved"] = {str(k): {"verdict": v.verdict, "nodes": v.nodes, "seconds": round(v.seconds, 6),
                                  **({"reason": v.reason} if v.reason else {})}
                         for k, v in sorted(self.verdicts.items())}
        out["deal"] = deal_to_json(self.deal)
        return out


def review(deal: Deal, moves: list[Move], *, max_nodes: int | None = None, time_limit: float | None = 5.0,
           memory_mb: float = DEFAULT_MEMORY_MB, clean: bool = True, progress=None) -> Review:
    """Find the first move after which the deal could no longer be won.

    ``outcome`` is one of: ``won`` (the game was played to a win), ``winnable``
    (the last table can still be won), ``lost_from_start`` (the deal itself
    cannot be won), ``lost_at`` (``lost_at`` is the losing move, ``better`` a move
    that keeps it winnable), ``undecided`` (limits left the answer open: ``lo`` is
    the last table known winnable, ``hi`` the first known lost or None).
    """
    r = game(deal.game).rules
    tables = [r.initial(deal)]
    for m in moves:
        tables.append(r.play(tables[-1], m))
    verdicts: dict[int, Result] = {}

    def verdict(k: int) -> str:
        if r.is_won(tables[k]):
            return "won"
        if k not in verdicts:
            verdicts[k] = solve(r.to_deal(tables[k]), max_nodes=max_nodes, time_limit=time_limit,
                                memory_mb=memory_mb, progress=progress)
        return verdicts[k].verdict

    n = len(moves)
    out = Review(deal, moves, verdicts, "undecided")
    if r.is_won(tables[n]):
        out.outcome = "won"
        return out
    last = verdict(n)
    if last == "won":
        out.outcome = "winnable"
        return out
    first = verdict(0)
    if first == "lost":
        out.outcome, out.hi = "lost_from_start", 0
        return out
    lo = 0 if first == "won" else None
    hi = n if last == "lost" else None
    if lo is None:
        # The deal itself is undecided: look for a winnable table, latest first; the lost
        # tables met on the way move the first known lost one down.
        for k in range(n - 1, 0, -1):
            v = verdict(k)
            if v == "won":
                lo = k
                break
            if v == "lost":
                hi = k
        if lo is None:
            out.hi = hi
            return out
    if hi is None:
        # The last table is undecided: look for a lost table after lo, earliest first (bisection needs one).
        hi = next((k for k in range(lo + 1, n) if verdict(k) == "lost"), None)
        if hi is None:
            out.lo = lo
            return out
    while hi - lo > 1:
        mid = (lo + hi) // 2
        # mid first, then its neighbours, until a table in (lo, hi) is decided
        order = sorted(range(lo + 1, hi), key=lambda k: (abs(k - mid), k))
        decided = next(((k, v) for k in order if (v := verdict(k)) != "unknown"), None)
        if decided is None:
            break
        k, v = decided
        if v == "won":
            lo = k
        else:
            hi = k
    out.lo, out.hi = lo, hi
    if hi - lo == 1:
        out.outcome, out.lost_at = "lost_at", hi
        line = verdicts[lo].moves if lo in verdicts else []
        if lo in verdicts and clean:
            line = clean_line(r.to_deal(tables[lo]), line)
        out.better_line = line
        out.better = line[0] if line else None
    return out
