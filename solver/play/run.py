"""Running a game without peeking: a referee holds the deal, the player sees observations.

:class:`Referee` is the only one that holds the real table. It hands the player the
first :class:`~solver.play.observation.Observation`, plays each move the player chooses
with the reference rules, and answers the observation's question "which cards did the
move bring face up" from the real table. :func:`play_game` runs a whole game with a
:class:`~solver.play.player.Player`; :func:`no_peek_hint` is the player's next move after
moves someone played (``solitaire hint --no-peek``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from ..deals import Deal, deal_to_json
from ..moves import Move
from ..registry import game as game_named
from ..replay import certify
from .observation import Observation, card_at, check_level, first_observation, information
from .player import Decision, Player, Settings

# moves a game may last: more than any line the solver finds (a player going round the
# stock for ever with unlimited passes stops here, and the game is lost)
MAX_MOVES = 1500


class Referee:
    """Holds ``deal`` and answers for it; :attr:`observation` is all a player may read."""

    def __init__(self, deal: Deal, level: str):
        information(deal.game)
        check_level(level)
        self.rules = game_named(deal.game).rules
        self.position = self.rules.initial(deal)
        self.observation: Observation = first_observation(deal, level)

    def play(self, move: Move) -> Observation:
        """Play ``move`` (raises :class:`solver.replay.IllegalMove`); the next observation."""
        wanted = self.observation.needs(move)
        self.position = self.rules.play(self.position, move)
        table = self.rules.to_deal(self.position)
        self.observation = self.observation.after(move, [card_at(table, s) for s in wanted])
        return self.observation

    def is_won(self) -> bool:
        return self.rules.is_won(self.position)


@dataclass
class GameRecord:
    """A game played without peeking: the moves, a decision per move (and the last one when
    the player stopped), how it ended, and the work it took."""

    deal: Deal
    level: str
    settings: Settings
    moves: list[Move] = field(default_factory=list)
    decisions: list[Decision] = field(default_factory=list)
    end: str = "no_moves"           # won | move_limit | a Decision's stop: no_moves, loop, stalled, resigned
    seconds: float = 0.0
    solves: int = 0
    nodes: int = 0

    @property
    def won(self) -> bool:
        return self.end == "won"

    @property
    def result(self) -> str:
        return "won" if self.won else "lost"

    def ending(self) -> str:
        """How the game ended, in words: ``won in 152 moves`` or ``lost after 12 moves: why``."""
        n = len(self.moves)
        played = f"{n} move{'s' if n != 1 else ''}"
        if self.won:
            return f"won in {played}"
        why = {"no_moves": "no legal move is left", "loop": "every move leads back to a table already played",
               "stalled": f"no progress in {self.settings.stall} moves",
               "resigned": "every move loses in every table sampled",
               "move_limit": "the game reached its move limit"}[self.end]
        return f"lost after {played}: {why}"

    def to_json(self) -> dict:
        """The docs/formats.md object of ``solitaire play --json``: ``deal`` and ``moves`` as in
        a result object (so ``solitaire check`` replays it), and the player's fields."""
        out = {"game": self.deal.game, "options": dict(self.deal.options)}
        if self.deal.seed is not None:
            out["seed"] = self.deal.seed
        out.update(player="no-peek", hidden=self.level, **self.settings.to_json(), result=self.result, end=self.end,
                   moves=[m.to_json() for m in self.moves],
                   chances=[None if d.chance is None else round(d.chance, 4) for d in self.decisions[:len(self.moves)]],
                   decisions=[d.to_json() for d in self.decisions], solves=self.solves, nodes=self.nodes,
                   seconds=round(self.seconds, 6), deal=deal_to_json(self.deal))
        return out


def play_game(deal: Deal, level: str = "tableau", settings: Settings | None = None, *,
              max_moves: int = MAX_MOVES, on_decision=None) -> GameRecord:
    """Play ``deal`` with a :class:`Player` that sees only observations at ``level``.
    ``on_decision(decision, observation)``, if given, is called after each decision. A won
    game's moves are replayed with the reference rules (:func:`solver.replay.certify`)."""
    settings = settings or Settings()
    started = time.perf_counter()
    referee = Referee(deal, level)
    player = Player(deal.game, settings)
    record = GameRecord(deal, level, settings)
    obs = referee.observation
    while True:
        if referee.is_won():
            record.end = "won"
            break
        if len(record.moves) >= max_moves:
            record.end = "move_limit"
            break
        decision = player.decide(obs)
        record.decisions.append(decision)
        if on_decision is not None:
            on_decision(decision, obs)
        if decision.move is None:
            record.end = decision.stop
            break
        obs = referee.play(decision.move)
        record.moves.append(decision.move)
    record.seconds = time.perf_counter() - started
    record.solves, record.nodes = player.solves, player.nodes
    if record.won:
        certify(deal, record.moves)
    return record


def observe_played(deal: Deal, moves: list[Move], level: str) -> Observation:
    """The observation after ``moves`` (all legal) were played from ``deal``."""
    referee = Referee(deal, level)
    for m in moves:
        referee.play(m)
    return referee.observation


def no_peek_hint(deal: Deal, moves: list[Move], level: str = "tableau", settings: Settings | None = None
                 ) -> tuple[Observation, Decision, float]:
    """The move a player who never peeked would play after ``moves``: the observation, the
    decision and its seconds."""
    obs = observe_played(deal, moves, level)
    started = time.perf_counter()
    decision = Player(deal.game, settings).decide(obs)
    return obs, decision, time.perf_counter() - started
