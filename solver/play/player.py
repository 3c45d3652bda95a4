"""A player that never sees a face-down card: hindsight optimisation over sampled tables.

At each decision the player holds a set of whole tables consistent with its
:class:`~solver.play.observation.Observation` (drawn uniformly, or every arrangement of
the unseen cards when there are few), and plays the legal move that wins in the most of
them, each table after the move decided by the exact search under a node limit (all the
tables a step needs in one compiled call, :func:`solver.engine.batch.solve_each`; where
the game has a relaxed twin, an undecided table whose twin is lost is lost). A table the
solver leaves undecided counts almost as lost (``UNDECIDED``), but above a proof of loss.
The share of tables won after the move chosen is the decision's estimated chance of
winning (an optimistic one: in each table the solver knows every card, the player will
not).

Finding the best move needs few solves:

* each table is first solved as it stands; a proof of loss settles every move there, and
  the start of the line found is known to win there (and the table after its first move
  is kept, known won, for the next decision);
* besides the legal moves, the player weighs each *commitment* a table's winning line
  makes after safe moves that reveal nothing (drawing round a known stock to a card,
  moving a card aside and back): such moves keep every table as it is, so a commitment
  reached through them is a choice to make now, beside the moves that commit at once.
  When one is chosen, its safe moves and then its move are played (the decision's
  ``plan``) with no more weighing: they reveal nothing that could change the choice;
* the candidates are then examined best bound first (wins known + tables still open) and
  one is solved only in the tables where it is open, until the best one's wins are known
  and no other can reach them: the argmax of hindsight optimisation, exact, without
  deciding every candidate in every table;
* a *safe* move, one after which the table can be reached again (a move back, or a pass
  round the stock), keeps whatever the table is in every table sampled: it is never
  solved. Among moves as good, one that commits (progress) goes first, then one that
  brings more cards face up (hindsight undervalues learning), then the one more of the
  solver's lines start with;
* where the best move loses tables that could be won and the next move is close, more
  tables are drawn (up to ``max_samples``); when every move loses everywhere, too, before
  the player resigns;
* after a move, the tables that still agree with what was revealed are kept (they are
  still a uniform sample: rejection), with what was solved of them; solved tables are
  cached by the rules' key, so a table met again costs nothing.

For a game whose tables can be encoded in bulk (:attr:`solver.game.Solver.open_state`),
the candidates that commit are then weighed on far more tables than the ones above: each
on the same fresh tables at once, the clearly worse dropped, the rest on twice as many,
up to ``bulk_samples``, or each on every arrangement of the unseen cards once when they
are few (:meth:`Player._decide_bulk`); the tables above still give the
commitments their winning lines make, and decide when every arrangement of the unseen
cards can be weighed (then the choice is exact) or no move commits.

Hindsight never minds waiting (in each table it knows the line that wins later), so after
``patience`` safe moves in a row the best committing move is played; among moves as good,
the one to the table played least often in the game goes first (so the player goes round
in circles only when every move does), and it gives up after ``stall`` moves without
progress.

Deterministic: node limits only (never the clock), the project's SplitMix64 seeded by
``seed`` for the samples, a fixed order of moves and tables. The same observations with
the same settings give the same decisions on every machine.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..deals import SplitMix64
from ..engine.batch import LOST as LOST_ROOT
from ..engine.batch import NO_MOVE, WON_ROOT, solve_each
from ..moves import Move
from ..registry import game as game_named
from ..replay import IllegalMove
from .observation import Observation, ObservationError, card_at, information
from .sampling import Templates, arrangements

DEFAULT_SAMPLES = 12
DEFAULT_MAX_SAMPLES = 36
DEFAULT_NODES = 20_000
DEFAULT_STALL = 120      # moves without progress before the player gives up
DEFAULT_PATIENCE = 24    # safe moves in a row before the player commits to the best other move
MAX_WALK = 40            # safe moves of a sample's line walked to find the move it commits with
UNDECIDED = 0.02         # what a table the solver left undecided counts for: near a loss (a short search
                         # that cannot finish a table is mostly one that cannot be won), above a proof of
                         # loss so that a move with only undecided tables is not resigned
BULK_SAMPLES = 96        # tables the best candidate is weighed on in bulk (see Player._decide_bulk)
BULK_FIRST = 16          # tables every candidate is weighed on first, in bulk
BULK_NODES = 2_000       # node limit of a search of a table weighed in bulk
BULK_TIES = 16           # tables candidates that tie on every one are weighed on before the tie is taken
BULK_CLOSE = 1.0         # standard errors of a difference within which the prior order decides
RESIGN_SAMPLES = 384     # tables every commitment is weighed on, all lost, before the player resigns
BULK_EXACT = 2           # every arrangement is weighed when there are at most this many times bulk_samples
MAX_STOCK_WALK = 64      # stock moves walked round a known stock to find the cards it offers
STOCK_MOVES = ("draw", "redeal", "deal")


@dataclass(frozen=True)
class Settings:
    """How the player plays: ``samples`` tables per decision (``max_samples`` where the
    choice is close), ``max_nodes`` per solve, ``seed`` for the samples, and ``stall``: the
    moves it plays without progress (no card seen for the first time, no more cards on the
    foundations or fewer in the stock and waste than ever before) before it gives up.
    ``bulk_samples`` and ``bulk_nodes``: the tables the best candidate is weighed on in
    bulk, and the node limit of each of their searches."""

    samples: int = DEFAULT_SAMPLES
    max_samples: int = DEFAULT_MAX_SAMPLES
    max_nodes: int = DEFAULT_NODES
    seed: int = 0
    stall: int = DEFAULT_STALL
    patience: int = DEFAULT_PATIENCE
    bulk_samples: int = BULK_SAMPLES
    bulk_nodes: int = BULK_NODES

    @classmethod
    def of(cls, samples: int | None = None, max_nodes: int | None = None, seed: int | None = None) -> "Settings":
        """Settings from the command line's choices (``max_samples`` three times ``samples``,
        ``bulk_samples`` in proportion to it)."""
        samples = DEFAULT_SAMPLES if samples is None else samples
        return cls(samples, 3 * samples, DEFAULT_NODES if max_nodes is None else max_nodes,
                   0 if seed is None else seed, bulk_samples=max(BULK_FIRST, BULK_SAMPLES * samples // DEFAULT_SAMPLES))

    def to_json(self) -> dict:
        return {"samples": self.samples, "max_samples": self.max_samples, "max_nodes": self.max_nodes,
                "player_seed": self.seed, "stall": self.stall, "patience": self.patience,
                "bulk_samples": self.bulk_samples, "bulk_nodes": self.bulk_nodes}

    def label(self) -> str:
        """The settings in a study's name (``samples=12/36 nodes=20000 stall=120 patience=24
        bulk=96@2000 seed=0``)."""
        return (f"samples={self.samples}/{self.max_samples} nodes={self.max_nodes} stall={self.stall} "
                f"patience={self.patience} bulk={self.bulk_samples}@{self.bulk_nodes} seed={self.seed}")


@dataclass
class Decision:
    """A move chosen, its estimated chance of winning (None for a forced move, which is
    not weighed), the tables it was weighed on, and each legal move's estimate; or no move
    and why the player stops: ``no_moves`` (none is legal), ``loop`` (every move leads back
    to a table seen before), ``stalled`` (no progress for ``stall`` moves), ``resigned``
    (every move loses in every table weighed)."""

    move: Move | None
    chance: float | None
    samples: int = 0
    exact: bool = False           # the tables were every arrangement of the unseen cards
    # per legal move, best first: (move, chance, exact); a chance not exact is a bound (the
    # move was not examined in every table, and cannot beat the move chosen)
    estimates: list = field(default_factory=list)
    solves: int = 0
    nodes: int = 0
    stop: str | None = None
    plan: list = field(default_factory=list)    # the moves chosen to follow this one (safe, then one that commits)

    def to_json(self) -> dict:
        out = {"move": None if self.move is None else self.move.to_json(),
               "chance": None if self.chance is None else round(self.chance, 4), "samples": self.samples}
        if self.exact:
            out["exact"] = True
        if self.stop:
            out["stop"] = self.stop
        if self.plan:
            out["plan"] = [m.to_json() for m in self.plan]
        if self.estimates:
            out["estimates"] = [{"move": m.to_json(), "chance": round(c, 4), **({} if exact else {"bound": True})}
                                for m, c, exact in self.estimates]
        out.update(solves=self.solves, nodes=self.nodes)
        return out


@dataclass
class _Outcome:
    verdict: str                  # won | lost | unknown
    first: Move | None = None     # with won: the first move of a winning line (None when not known)
    line: "_Line | None" = None   # with won: the whole line, when asked for


LOST = _Outcome("lost")
UNKNOWN = _Outcome("unknown")


@dataclass
class _Table:
    """One sampled table: its rules position, its key, its outcome once solved, and its
    outcome after each move examined there."""

    position: object
    key: object
    outcome: _Outcome | None = None
    after: dict = field(default_factory=dict)     # candidate (a tuple of moves) -> _Outcome
    commit: tuple | None = None   # the candidate the table's winning line makes (this decision's)

    def known_after(self, candidate: tuple, safe: bool = False) -> _Outcome | None:
        """The outcome after the moves of ``candidate`` if it is known without a solve:
        examined already, the table lost, the start of its winning line, or a ``safe``
        move (one the table can be reached again from, which keeps whatever the table is)."""
        if candidate in self.after:
            return self.after[candidate]
        root = self.outcome
        if root is None:
            return None
        if root.verdict == "lost":
            return LOST
        if root.verdict == "won" and (candidate == self.commit or candidate == (root.first,)):
            return _Outcome("won")
        if safe:
            return _Outcome(root.verdict)
        return None


class _Line:
    """A table's winning line, decoded only as far as it is read: the player walks a line
    only to its first move that commits (:meth:`Player._candidates`), most often within
    its first kernel move or two, and decoding a whole line costs more than its search."""

    def __init__(self, solver, deal, kernel_moves: list[int]):
        self.solver, self.deal, self.kernel = solver, deal, kernel_moves
        self.decoded: tuple = ()
        self.read = 0            # kernel moves decoded

    def __getitem__(self, i: int) -> Move | None:
        """The ``i``-th move of the line (a draw naming no cards), None past its end."""
        while i >= len(self.decoded) and self.read < len(self.kernel):
            # (decode_line starts from the deal: prefixes growing fourfold cost at most
            # 4/3 of decoding the longest once)
            self.read = min(len(self.kernel), max(2, 4 * self.read))
            self.decoded = tuple(_plain(m) for m in self.solver.decode_line(self.deal, self.kernel[:self.read],
                                                                              self.solver.reduce_all))
        return self.decoded[i] if i < len(self.decoded) else None


def _won(line: _Line) -> _Outcome:
    return _Outcome("won", line[0], line)


def _plain(move: Move) -> Move:
    """A move as the rules list it: a draw names no cards (the cards are the sample's)."""
    return Move("draw") if move.type == "draw" else move


class Player:
    """Plays ``game`` from observations only (module docstring). One player per game played:
    it keeps its samples and what it solved from one decision to the next."""

    def __init__(self, game: str, settings: Settings | None = None):
        self.game = game
        self.settings = settings or Settings()
        self.rules = game_named(game).rules
        self.solver = game_named(game).solver
        self.info = information(game)
        self.rng = SplitMix64(self.settings.seed)
        self.cache: dict = {}
        self.pool: list[_Table] = []
        self.last: tuple[Observation, Move, bool] | None = None     # the last decision, and whether safe
        self.visited: dict = {}        # table seen in this game (redeals left out) -> how often
        self.progress = None           # (cards known, most on the foundations, fewest in the stock and waste)
        self.stalled = 0               # moves since the last progress
        self.waited = 0                # safe moves played in a row
        self.solves = 0
        self.nodes = 0
        self.plan: list[Move] = []     # the rest of the candidate chosen: safe moves, then the one that commits
        self.plan_chance = None

    # -- solving -------------------------------------------------------------
    def _solve_all(self, positions: list, keys: list, lines: bool = False) -> list[_Outcome]:
        """Each position decided by the exact solver within ``max_nodes`` (one compiled call
        for all that are not cached by key): won (with the first move of the line found),
        lost, or unknown. Where the game has a relaxed twin (:attr:`solver.game.Solver.relaxed`),
        an undecided table whose twin is lost is lost."""
        todo: dict = {}
        for position, key in zip(positions, keys):
            hit = self.cache.get(key)
            if (hit is None or lines and hit.verdict == "won" and hit.line is None) and key not in todo:
                todo[key] = position
        if todo:
            solver = self.solver
            deals = [self.rules.to_deal(p) for p in todo.values()]
            found = solve_each(solver.kernels, np.stack([solver.encode(d, solver.reduce_all) for d in deals]),
                               self.settings.max_nodes, lines=lines)
            verdicts, first, nodes = found[:3]
            self.solves += len(deals)
            self.nodes += int(nodes.sum())
            if lines:
                outcomes = [_Outcome("won", None, _Line(solver, d, [])) if v == WON_ROOT and f == NO_MOVE else
                            _won(_Line(solver, d, k)) if v == WON_ROOT else
                            LOST if v == LOST_ROOT else None for d, v, f, k in zip(deals, verdicts, first, found[3])]
            else:
                outcomes = [_Outcome("won", None if f == NO_MOVE else _plain(solver.decode_line(d, [int(f)],
                                                                                               solver.reduce_all)[0]))
                            if v == WON_ROOT else LOST if v == LOST_ROOT else None
                            for d, v, f in zip(deals, verdicts, first)]
            open_ = [i for i, o in enumerate(outcomes) if o is None]
            twins = [(i, solver.relaxed(deals[i])) for i in open_] if solver.relaxed is not None else []
            twins = [(i, t) for i, t in twins if t is not None]
            if twins:
                verdicts, _, nodes = solve_each(solver.kernels, np.stack([solver.encode(t, solver.reduce_all)
                                                                          for _, t in twins]), self.settings.max_nodes)
                self.solves += len(twins)
                self.nodes += int(nodes.sum())
                for (i, _), v in zip(twins, verdicts):
                    if v == LOST_ROOT:
                        outcomes[i] = LOST
            for key, out in zip(todo, outcomes):
                self.cache[key] = out or UNKNOWN
        return [self.cache[k] for k in keys]

    def _table(self, deal) -> _Table:
        position = self.info.table(deal)
        return _Table(position, self.rules.key(position))

    # -- the samples -----------------------------------------------------------
    def _tables(self, obs: Observation, count: int, exact: list | None) -> list[_Table]:
        """``count`` tables admitted by ``obs``: those kept from the last decision first, then
        fresh ones; every arrangement when ``exact`` lists them."""
        if exact is not None:
            have = {t.key: t for t in self.pool}
            out = []
            for cards in exact:
                t = self._table(obs.fill(cards))
                out.append(have.get(t.key, t))
            self.pool = out
            return out
        while len(self.pool) < count:
            self.pool.append(self._table(obs.sample(self.rng)))
        return self.pool[:count]

    def _follow(self, obs: Observation) -> None:
        """Carry the kept tables over the move last played, keeping those ``obs`` admits (a
        player given an observation that does not follow its last move starts afresh)."""
        last, self.last = self.last, None
        if last is None or obs.moves != last[0].moves + 1:
            self.pool, self.plan = [], []
            return
        before, move, safe = last
        # obs must be what the move led to; then a kept table agrees with it everywhere but
        # perhaps in the slots the move revealed (it agreed before, and the same move was
        # played on both), so only those are compared
        revealed = before.needs(move)
        try:
            follows = before.after(move, [card_at(obs.table, s) for s in revealed]) == obs
        except (ObservationError, IllegalMove, IndexError, TypeError):
            follows = False
        if not follows:
            self.pool, self.plan = [], []
            return
        cards = [card_at(obs.table, s) for s in revealed]
        kept = []
        for t in self.pool:
            position = self.rules.play(t.position, move)
            if revealed:
                deal = self.rules.to_deal(position)
                if any(card_at(deal, s) != c for s, c in zip(revealed, cards)):
                    continue
            kept.append(_Table(position, self.rules.key(position), t.known_after((move,), safe)))
        self.pool = kept

    def _reversible(self, obs: Observation, move: Move) -> bool:
        """Whether ``move`` is safe at ``obs`` (:meth:`_safe`), worked out once per observation."""
        memo = obs._memo.setdefault("safe", {})
        if move not in memo:
            memo[move] = self._safe(obs, move)
        return memo[move]

    def _safe(self, obs: Observation, move: Move) -> bool:
        """Whether the table of ``obs`` can be reached again after ``move``: by one move back,
        or, after a stock move, by stock moves alone (a pass round the stock). Then the move
        keeps whatever the table is, won or lost, in every table the observation admits (the
        unknown cards move with their slots, so the real table comes back when the observed
        one does), and it needs no solve. A card move that brings a card face up is never
        reversible (what it uncovered is not covered again as it was: a face-down card stays
        face up, nothing goes back onto a ladder or into a stock); the look back is made on
        the observed table, whose unknown cards no rule inspects."""
        rules = self.rules
        here = rules.key(obs.position())
        table, revealed = obs._after_move(move)
        position = self.info.table(table)
        if move.type in STOCK_MOVES:
            for _ in range(2 * (_count(obs.table.stock) + _count(obs.table.waste)) + 2):
                for step in (Move("draw"), Move("redeal")):
                    try:
                        position = rules.play(position, step)
                        break
                    except IllegalMove:
                        continue
                else:
                    return False
                if rules.key(position) == here:
                    return True
            return False
        if revealed:
            return False
        return any(rules.key(rules.play(position, back)) == here for back in rules.legal_moves(position)
                   if back.type not in STOCK_MOVES)

    def _seen_key(self, table):
        """A table as the player knows it, the redeals made left out: a move back to a table
        seen before in the game (with nothing learnt since) goes after one to a new table."""
        return self.rules.key(self.info.table(table), passes=False)

    def _stalled(self, obs: Observation) -> bool:
        """Whether the player has gone ``stall`` moves without progress (see :class:`Settings`)."""
        table = obs.table
        now = (obs.known(), _count(table.foundations), -(_count(table.stock) + _count(table.waste)))
        if self.progress is None or any(a > b for a, b in zip(now, self.progress)):
            self.progress = tuple(max(a, b) for a, b in zip(now, self.progress or now))
            self.stalled = 0
            return False
        self.stalled += 1
        return self.stalled > self.settings.stall

    # -- deciding ---------------------------------------------------------------
    def decide(self, obs: Observation) -> Decision:
        """The move to play at ``obs`` (see the module docstring)."""
        if obs.game != self.game:
            raise ValueError(f"a {self.game} player was given a {obs.game} observation")
        self._follow(obs)
        solves, nodes = self.solves, self.nodes
        if self._stalled(obs):
            return Decision(None, None, stop="stalled")
        here = self._seen_key(obs.table)
        self.visited[here] = self.visited.get(here, 0) + 1
        every = obs.legal_moves()
        if not every:
            return Decision(None, 0.0, stop="no_moves")
        if self.plan:
            # the safe moves on the way to the move chosen, and then that move (they reveal
            # nothing, so nothing is learnt that could change the choice)
            move, chance = self.plan.pop(0), self.plan_chance
            if move in every:
                safe = bool(self.plan)
                self.waited = self.waited + 1 if safe else 0
                self.last = (obs, move, safe)
                return Decision(move, chance, plan=list(self.plan))
            self.plan = []
        legal = every
        if len(legal) == 1:
            self.last = (obs, legal[0], self._reversible(obs, legal[0]))
            return Decision(legal[0], None)
        s = self.settings
        exact = obs.arrangements(s.samples)
        if exact is None and self.solver.open_state is not None:
            decision = self._decide_bulk(obs, legal)
            if decision is not None:
                return decision
        count = len(exact) if exact is not None else s.samples
        while True:
            tables = self._tables(obs, count, exact)
            more = exact is None and count < s.max_samples
            self._solve_roots(tables)
            candidates, reveals, safe, times = self._candidates(obs, tables, legal)
            wins, exactly, best, standing = self._weigh(tables, candidates, reveals, safe, times, rivals=more)
            others = [wins[i] for i in range(len(candidates)) if i != best and exactly[i]]
            # close: the best move loses tables that could be won, and another move is near it
            close = wins[best] < standing and bool(others) and wins[best] - max(others) < _margin(len(tables))
            if not more or not (close or wins[best] == 0):
                break
            count = min(s.max_samples, 2 * count)
        n = len(tables)
        order = sorted(range(len(legal)), key=lambda i: (-wins[i], i))     # the moves (candidates of one move)
        estimates = [(legal[i], wins[i] / n, exactly[i]) for i in order]
        done = dict(samples=n, exact=exact is not None, estimates=estimates, solves=self.solves - solves,
                    nodes=self.nodes - nodes)
        if wins[best] == 0:
            return Decision(None, 0.0, stop="resigned", **done)
        if safe[best] and self.waited >= s.patience:
            # hindsight never minds waiting (in each table it knows the line that wins later):
            # after ``patience`` safe moves in a row, the best move that commits is played
            bold = [i for i in range(len(candidates)) if not safe[i] and exactly[i] and wins[i] > 0]
            if bold:
                best = max(bold, key=lambda i: (wins[i], -times[i], -i))
        chosen = candidates[best]
        self.plan, self.plan_chance = list(chosen[1:]), wins[best] / n
        first_safe = safe[best] or len(chosen) > 1
        self.waited = self.waited + 1 if first_safe else 0
        self.last = (obs, chosen[0], first_safe)
        return Decision(chosen[0], wins[best] / n, plan=list(chosen[1:]), **done)

    def _decide_bulk(self, obs: Observation, legal: list[Move]) -> Decision | None:
        """The candidate that wins the most sampled tables, each weighed on up to
        ``bulk_samples`` tables encoded and decided in bulk (:mod:`solver.play.sampling`), for a game that declares
        :attr:`solver.game.Solver.open_state`; None when there is no move to weigh that
        commits (then the tables are weighed one by one, :meth:`_weigh`).

        The candidates are the moves that commit: a legal move that is not safe, and
        each commitment behind safe moves that reveal nothing -- those that the tables'
        winning lines make (:meth:`_candidates`) and every card that going round a
        known stock offers (:meth:`_stock_commitments`). A safe move is never chosen on
        its own: it keeps every table as it is and teaches nothing, so the best thing
        to do after it is one of the commitments, which are weighed here already.

        Every candidate is weighed on the same ``BULK_FIRST`` tables (each searched
        within ``bulk_nodes``; undecided counts ``UNDECIDED``), then those not clearly worse
        than the best (its wins minus theirs, table by table, more than two standard
        errors above 0) on twice as many new tables, and so on, until one is left, the
        rest tie with it on every one of ``BULK_TIES`` tables or more, or the best has
        been weighed on ``bulk_samples`` tables; while every candidate has lost every
        table, they all go on to ``RESIGN_SAMPLES`` tables before the player resigns
        (``BULK_FIRST`` tables all lost leave a chance worth playing for). When the unseen cards can be
        arranged in no more than ``BULK_EXACT`` times ``bulk_samples`` ways, every candidate is
        weighed on each arrangement once instead (the shares are then exact, not
        sampled). Among candidates whose share is within ``BULK_CLOSE`` standard errors
        of the best one's (of their difference, table by table) the order of
        :meth:`_weigh` for equal shares decides: to the table seen less often, then the
        one that brings more cards face up, then the one more of the solver's lines
        make."""
        s = self.settings
        solves, nodes = self.solves, self.nodes
        tables = self._tables(obs, s.samples, None)
        self._solve_roots(tables)
        candidates, reveals, safe, times = self._candidates(obs, tables, legal)
        self._stock_commitments(obs, legal, candidates, reveals, safe, times)
        pick = [i for i in range(len(candidates)) if not safe[i]]
        if not pick:
            return None
        votes = [sum(t.commit == candidates[i] for t in tables) for i in pick]
        ranks = [(times[i], -reveals[i], -votes[a], i) for a, i in enumerate(pick)]
        values, standing, seen, best, exact = self._bulk_shares(obs, [candidates[i] for i in pick], ranks)

        def share(a):
            return float(np.concatenate(values[a]).mean())

        chance = share(best)
        chosen = candidates[pick[best]]
        weighed = {pick[a]: (share(a), len(values[a]) == len(values[best])) for a in range(len(pick)) if values[a]}
        estimates = sorted(((m, *weighed.get(i, (standing, False))) for i, m in enumerate(legal)),
                           key=lambda e: -e[1])
        done = dict(samples=seen, exact=exact, estimates=estimates, solves=self.solves - solves,
                    nodes=self.nodes - nodes)
        if chance == 0:
            return Decision(None, 0.0, stop="resigned", **done)
        self.plan, self.plan_chance = list(chosen[1:]), chance
        self.waited = self.waited + 1 if len(chosen) > 1 else 0
        self.last = (obs, chosen[0], len(chosen) > 1)
        return Decision(chosen[0], chance, plan=list(chosen[1:]), **done)

    def _bulk_shares(self, obs: Observation, candidates: list[tuple], ranks: list[tuple]):
        """Weigh ``candidates`` on tables drawn in bulk (:meth:`_decide_bulk`): each one's won
        values (1, ``UNDECIDED`` or 0 per table, in batches), the share of the tables
        won as they stand (the first batch), the tables the best one was weighed on, the
        best one (see :meth:`_decide_bulk`), and whether every arrangement was weighed."""
        s = self.settings
        templates = Templates(self.solver, obs)
        made = [templates.of(self._pending(obs, c)) for c in candidates]
        root = templates.of(obs.table)
        values: list[list[np.ndarray]] = [[] for _ in candidates]
        active = list(range(len(candidates)))
        seen, batch, standing = 0, BULK_FIRST, None
        every = obs.arrangements(BULK_EXACT * s.bulk_samples)

        def rank(a):
            return (-float(np.concatenate(values[a]).mean()), *ranks[a])

        while True:
            if every is not None:
                # few enough arrangements to weigh each once: the shares are exact
                cards, batch = np.asarray(every, dtype=np.int64).reshape(len(every), -1), len(every)
            else:
                cards = arrangements([self.rng.next() for _ in range(batch)], obs.unseen)
            states = [templates.states(made[a], cards) for a in active]
            if standing is None:
                states.append(templates.states(root, cards))
            verdicts, _, spent = solve_each(self.solver.kernels, np.concatenate(states), s.bulk_nodes)
            self.solves += len(verdicts)
            self.nodes += int(spent.sum())
            won = np.where(verdicts == WON_ROOT, 1.0, np.where(verdicts == LOST_ROOT, 0.0, UNDECIDED))
            for k, a in enumerate(active):
                values[a].append(won[k * batch:(k + 1) * batch])
            if standing is None:
                standing = float(won[len(active) * batch:].mean())
            seen += batch
            best = min(active, key=rank)
            mine = np.concatenate(values[best])
            # every candidate lost every table so far: weigh on, to resign only on many
            hopeless = not mine.any()
            limit = max(RESIGN_SAMPLES, s.bulk_samples) if hopeless else s.bulk_samples
            if seen >= limit or every is not None:
                break
            # keep those not clearly worse than the best: its wins minus theirs, table by
            # table, not more than two standard errors above 0; stop when they all tie
            keep, tied = [best], True
            for a in active:
                if a == best:
                    continue
                d = mine - np.concatenate(values[a])
                lead, error = _lead(d)
                if lead > 0 and lead > 2 * error:
                    continue
                keep.append(a)
                tied = tied and not d.any()
            if not hopeless and (len(keep) == 1 or (tied and seen >= BULK_TIES)):
                break
            active = sorted(keep)
            batch = min(seen, limit - seen)
        # among the candidates as good as the best within BULK_CLOSE standard errors of
        # their difference, table by table, the prior order decides (one to a table seen
        # less often, then one bringing more cards face up: hindsight undervalues
        # learning, and a difference that small is as likely noise)
        # (never one that wins no table for one that wins some: that one would resign)
        mine = np.concatenate(values[best])
        close = [best]
        for a in active:
            if a != best and len(values[a]) == len(values[best]):
                theirs = np.concatenate(values[a])
                lead, error = _lead(mine - theirs)
                if theirs.any() and lead <= BULK_CLOSE * error:
                    close.append(a)
        best = min(close, key=lambda a: ranks[a])
        return values, standing, seen, best, every is not None

    def _pending(self, obs: Observation, candidate: tuple):
        """The observed table after ``candidate``: safe moves that reveal nothing, then one."""
        at = obs
        for move in candidate[:-1]:
            at = at.after(move, [])
        return at.pending(candidate[-1])

    def _stock_commitments(self, obs: Observation, legal: list[Move], candidates: list[tuple], reveals: list[int],
                           safe: list[bool], times: list[int]) -> None:
        """Add to the candidates each move that going round the stock makes legal, with the
        stock moves before it, when the stock can be gone round (a stock move is safe) and
        is known (the stock moves reveal nothing): every card a known stock offers, not only
        those the tables' lines play."""
        step = next((m for m in legal if m.type in STOCK_MOVES), None)
        if step is None or not self._reversible(obs, step) or obs.needs(step):
            return
        here = self.rules.key(obs.position())
        index = set(candidates)
        now = set(legal)
        at, path = obs, ()
        for _ in range(MAX_STOCK_WALK):
            step = next((m for m in at.legal_moves() if m.type in STOCK_MOVES), None)
            if step is None or at.needs(step):
                return
            path += (step,)
            at = at.after(step, [])
            if self.rules.key(at.position()) == here:
                return
            for move in at.legal_moves():
                if move.type in STOCK_MOVES or move in now or path + (move,) in index or self._reversible(at, move):
                    continue
                index.add(path + (move,))
                candidates.append(path + (move,))
                reveals.append(len(at.needs(move)))
                safe.append(False)
                times.append(self.visited.get(self._seen_key(at.pending(move)), 0))

    def _solve_roots(self, tables: list[_Table]) -> None:
        """Solve each table as it stands where it is not known, with its winning line (a
        table kept after the first move of its line is known won, its line not)."""
        need = [t for t in tables if t.outcome is None or (t.outcome.verdict == "won" and t.outcome.line is None)]
        for t, out in zip(need, self._solve_all([t.position for t in need], [t.key for t in need], lines=True)):
            # a won table stays won if its search now runs out of nodes
            t.outcome = out if t.outcome is None or out.verdict == "won" else t.outcome

    def _candidates(self, obs: Observation, tables: list[_Table], legal: list[Move]):
        """What the player may choose between: each legal move, and each move that commits
        (one that is not safe) which a table's winning line makes after safe moves that reveal
        nothing, with those moves before it. They can be undone and teach nothing, so the
        table they lead to is as good as this one in every table sampled: a commitment
        that is reached through them is a choice to be made now, beside the moves that
        commit at once. Sets each table's ``commit``, the candidate its line makes.

        Returns the candidates (tuples of moves), and for each: the cards its last move
        brings face up (a draw's not counted: it turns one up every time, and drawing
        through a stock to see it is no reason to draw), whether it is safe (a legal move
        that is), and how often the player has been at the table it leads to."""
        candidates = [(m,) for m in legal]
        reveals = [0 if m.type in STOCK_MOVES else len(obs.needs(m)) for m in legal]
        safe = [self._reversible(obs, m) for m in legal]
        # how often the player has been at the table each move leads to: among moves as good,
        # the one to the table played least often goes first, so that the player goes round
        # in circles only when every move does, and then round the widest one (the stall limit
        # ends such a game); a move back is still played when it is better
        times = [self.visited.get(self._seen_key(obs.pending(m)), 0) for m in legal]
        index = {c: i for i, c in enumerate(candidates)}
        reached = {(): obs}          # the observation after each run of safe moves walked
        for t in tables:
            t.commit = None
            line = t.outcome.line if t.outcome is not None and t.outcome.verdict == "won" else None
            if line is None or line[0] is None:
                continue
            path: tuple = ()
            for i in range(MAX_WALK):
                move = line[i]
                if move is None:
                    break
                at = reached[path]
                try:
                    if self._reversible(at, move) and not at.needs(move):
                        path += (move,)
                        if path not in reached:
                            reached[path] = at.after(move, [])
                        continue
                except IllegalMove:      # (a line of the table is legal at the observation: never)
                    break
                t.commit = path + (move,)
                if t.commit not in index:
                    index[t.commit] = len(candidates)
                    candidates.append(t.commit)
                    reveals.append(0 if move.type in STOCK_MOVES else len(at.needs(move)))
                    safe.append(False)
                    times.append(self.visited.get(self._seen_key(at.pending(move)), 0))
                break
        return candidates, reveals, safe, times

    def _weigh(self, tables: list[_Table], candidates: list[tuple], reveals: list[int], safe: list[bool],
               times: list[int], rivals: bool):
        """Each candidate's wins over ``tables`` (exact for the best one; for another exact
        or a bound no higher than the best one's wins), which of them are exact, the best
        candidate, and the wins of the tables as they stand (none can have more).

        The tables are solved as they stand (:meth:`_solve_roots`); a line's start is then
        known to win there, and a proof of loss settles every candidate. Then the
        candidate with the best bound (wins known plus tables open) has its open tables
        solved, until the best bound is the exact count of its candidate. With ``rivals``,
        when the best candidate loses some table that the table as it stands wins, one
        whose bound is within the margin of it is counted exactly too (to tell whether the
        choice is close). Among equal bounds the one to the table played least often goes
        first (``times``), then one that commits, then the one that brings more cards face
        up (hindsight undervalues learning), then the one more of the solver's lines
        start with, then the one listed first."""
        count = len(candidates)
        wins = [0.0] * count
        open_: list[list[_Table]] = [[] for _ in range(count)]
        votes = [0] * count
        standing = 0.0
        for t in tables:
            root = t.outcome
            standing += _value(root)
            if root.verdict == "unknown":
                for i in range(count):
                    wins[i] += UNDECIDED
                continue
            for i, c in enumerate(candidates):
                votes[i] += c == t.commit
                known = t.known_after(c, safe[i])
                if known is None:
                    open_[i].append(t)
                else:
                    wins[i] += _value(known)

        def bound(i):
            return wins[i] + len(open_[i])

        def settle(i):
            after = [_played(self.rules, t.position, candidates[i]) for t in open_[i]]
            for t, out in zip(open_[i], self._solve_all(after, [self.rules.key(p) for p in after])):
                t.after[candidates[i]] = out
                wins[i] += _value(out)
            open_[i] = []

        rank = lambda i: (-bound(i), times[i], safe[i], -reveals[i], -votes[i], i)  # noqa: E731
        margin = _margin(len(tables))
        while True:
            best = min(range(count), key=rank)
            if open_[best]:
                settle(best)
                continue
            near = [i for i in range(count) if i != best and open_[i] and bound(i) > wins[best] - margin] \
                if rivals and wins[best] < standing else []
            if not near:
                break
            settle(min(near, key=rank))
        best = min(range(count), key=rank)
        return [bound(i) for i in range(count)], [not open_[i] for i in range(count)], best, standing


def _lead(d: np.ndarray) -> tuple[float, float]:
    """The mean of ``d`` (one candidate's wins minus another's, table by table) and its
    standard error."""
    return float(d.mean()), float(d.std(ddof=1)) / np.sqrt(len(d))


def _played(rules, position, moves: tuple):
    for move in moves:
        position = rules.play(position, move)
    return position


def _count(value) -> int:
    """The cards in a zone (a list of cards or of card lists; a removed card, None, is none)."""
    return sum(_count(v) if isinstance(v, list) else v is not None for v in value)


def _value(outcome: _Outcome) -> float:
    return 1.0 if outcome.verdict == "won" else UNDECIDED if outcome.verdict == "unknown" else 0.0


def _margin(n: int) -> float:
    """How close two moves' wins over ``n`` tables must be to count as a close choice: about
    one standard error of a share near a half, and at least one table."""
    return max(1.0, 0.5 * math.sqrt(n))
