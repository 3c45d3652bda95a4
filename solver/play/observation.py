"""Observations: what a player who does not peek knows of a game, and tables sampled from it.

An :class:`Observation` is the table as the player knows it: every card it has seen,
where it lies now, and an *unknown* in each other slot. Unknowns are negative numbers
(-1, -2, ... in the order of the slots when the game began), each one the name of one
face-down card for as long as it stays unseen; the rules move them with their slots
(:class:`solver.game.Information`). Nothing else is in it: no seed, no deal, no
position, so an observation cannot lead to a hidden card (tests/test_play.py pickles
two observations of deals that differ only in hidden cards and finds the same bytes).

Who builds what:

* :func:`first_observation` masks a deal (the referee's, :mod:`solver.play.game`):
  the cards the game's ``seen`` says are face up at the level, and unknowns.
* :meth:`Observation.needs` plays a move on the observation and names the slots whose
  cards the move brings face up; the referee reads those cards off the real table and
  :meth:`Observation.after` writes them in. So the next observation is built from the
  previous one, the move and what the move revealed: a card seen stays known wherever
  it goes (a card once on the waste's top is known in its place in the stock).

Sampling (:meth:`Observation.sample`) fills the unknown slots with the cards not yet
seen, in an order drawn uniformly (Fisher-Yates with the project's SplitMix64, so the
same seed gives the same sample on every machine). Why that is the right distribution:
a deal is a uniformly shuffled deck, and everything the player saw so far (the cards
that came face up, and its own moves, which depend on what it saw only) is the same for
every deal that has the seen cards in their slots, and impossible for any other. So the
deals consistent with the observation are equally likely, and they are exactly the
arrangements of the unseen cards over the unknown slots. (Two decks: two copies of a
card are alike, and every arrangement of the multiset comes from as many orders of the
list, so a uniform order gives each arrangement the same chance.)
"""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter
from dataclasses import dataclass, field

from ..cards import card_name
from ..deals import Deal, SplitMix64
from ..moves import Move
from ..registry import game as game_named
from ..replay import IllegalMove


class ObservationError(ValueError):
    """A game without an information model, an unknown level, or a referee's answer that
    does not fit the observation."""


# --------------------------------------------------------------------------
# Slots
# --------------------------------------------------------------------------
def slots(deal: Deal) -> list[tuple]:
    """Every slot holding a card, in a fixed order: the layout's card zones, then the
    indices into each (a removed Pyramid card, ``None``, is no slot)."""
    out: list[tuple] = []

    def walk(value, path):
        for i, item in enumerate(value):
            if isinstance(item, list):
                walk(item, path + (i,))
            elif item is not None:
                out.append(path + (i,))

    for zone in game_named(deal.game).layout.card_zones:
        walk(getattr(deal, zone), (zone,))
    return out


def card_at(deal: Deal, slot: tuple) -> int:
    value = getattr(deal, slot[0])
    for i in slot[1:]:
        value = value[i]
    return value


def _put(deal: Deal, slot: tuple, card: int) -> None:
    value = getattr(deal, slot[0])
    for i in slot[1:-1]:
        value = value[i]
    value[slot[-1]] = card


def _copy(deal: Deal) -> Deal:
    """A deep copy of a deal's lists (deal_from_json would refuse unknown cards)."""
    return dataclasses.replace(deal, **{f.name: _deep(getattr(deal, f.name)) for f in dataclasses.fields(deal)
                                        if isinstance(getattr(deal, f.name), (list, dict))})


def _deep(value):
    if isinstance(value, list):
        return [_deep(v) for v in value]
    if isinstance(value, dict):
        return dict(value)
    return value


def _shape(deal: Deal) -> tuple:
    """What of a table is not a card: its zones' sizes and every other field (Klondike's
    face-down counts, the redeals made), the seed left out."""
    plain = tuple((f.name, repr(getattr(deal, f.name))) for f in dataclasses.fields(deal)
                  if f.name not in game_named(deal.game).layout.card_zones and f.name != "seed")
    return plain, tuple(slots(deal))


def information(game: str):
    """The game's :class:`solver.game.Information`, or an :class:`ObservationError`."""
    info = game_named(game).information
    if info is None:
        raise ObservationError(f"{game} has no information model: it cannot be played without peeking")
    return info


def check_level(level: str) -> str:
    from ..game import HIDDEN_LEVELS

    if level not in HIDDEN_LEVELS:
        raise ObservationError(f"unknown hidden level {level!r} (levels: {', '.join(HIDDEN_LEVELS)})")
    return level


# --------------------------------------------------------------------------
# The observation
# --------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class Observation:
    """What the player knows after ``moves`` moves: ``table`` is a deal whose unknown cards
    are negative (no seed), ``unseen`` the cards not yet seen (sorted; as many as unknowns)."""

    game: str
    level: str
    table: Deal
    unseen: tuple[int, ...]
    moves: int = 0
    _slots: tuple = field(default=(), repr=False)
    # what is worked out from the fields and asked for again and again (a player weighs
    # each move several times); never written after it is made
    _memo: dict = field(default_factory=dict, repr=False, compare=False)

    def __getstate__(self) -> dict:
        """What pickles: the fields, not what was worked out from them."""
        return {**self.__dict__, "_memo": {}}

    # -- what the player can read ---------------------------------------------
    @property
    def options(self) -> dict:
        return dict(self.table.options)

    def unknown_slots(self) -> list[tuple]:
        return [s for s in self._slots if card_at(self.table, s) < 0]

    def known(self) -> int:
        """How many cards are known (seen now or remembered)."""
        return len(self._slots) - len(self.unseen)

    def position(self):
        """The rules' position of the observed table (unknown cards negative; shared: the
        rules' ``play`` makes a new position, nothing changes this one)."""
        if "position" not in self._memo:
            self._memo["position"] = information(self.game).table(_copy(self.table))
        return self._memo["position"]

    def legal_moves(self) -> list[Move]:
        """The legal moves: they depend on face-up cards only, so they are the real table's."""
        return game_named(self.game).rules.legal_moves(self.position())

    def is_won(self) -> bool:
        return game_named(self.game).rules.is_won(self.position())

    def key(self):
        """A value equal for two equal observations (what is known, and where)."""
        return (self.game, self.level, self.moves, _shape(self.table),
                tuple(card_at(self.table, s) for s in self._slots))

    def __eq__(self, other) -> bool:
        return isinstance(other, Observation) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def describe(self) -> dict:
        """The observed table in deal-file form, ``"??"`` for a card not seen (for people and
        JSON; not a deal file)."""
        layout = game_named(self.game).layout
        shown = self.table

        def names(value):
            if isinstance(value, list):
                return [names(v) for v in value]
            if isinstance(value, int) and value < 0:
                return "??"
            return value

        out = {"game": self.game, "options": dict(self.table.options)}
        for zone in layout.zones:
            value = getattr(shown, zone)
            if zone in layout.card_zones:
                out[zone] = names(_names_of(value))
            else:
                out[zone] = value
        if self.table.passes_used:
            out["passes_used"] = self.table.passes_used
        return out

    # -- a move and what it reveals -------------------------------------------
    def pending(self, move: Move) -> Deal:
        """The table after ``move`` before anything it reveals is written in (shared: read it,
        do not change it)."""
        return self._after_move(move)[0]

    def needs(self, move: Move) -> list[tuple]:
        """The slots whose cards ``move`` brings face up (the referee answers with their
        cards); raises :class:`solver.replay.IllegalMove` when the move is not legal."""
        return list(self._after_move(move)[1])

    def after(self, move: Move, revealed: list[int]) -> "Observation":
        """The observation after ``move``, ``revealed`` being the cards in the slots
        :meth:`needs` named (in that order)."""
        table, wanted = self._after_move(move)
        table = _copy(table)
        if len(revealed) != len(wanted):
            raise ObservationError(f"{move}: {len(wanted)} card(s) revealed, not {len(revealed)}")
        unseen = Counter(self.unseen)
        for slot, card in zip(wanted, revealed):
            if unseen[card] <= 0:
                raise ObservationError(f"{move}: {card_name(card)} cannot be revealed: it is not an unseen card")
            unseen[card] -= 1
            _put(table, slot, card)
        return Observation(self.game, self.level, table, tuple(sorted(unseen.elements())), self.moves + 1,
                           tuple(slots(table)))

    def _after_move(self, move: Move) -> tuple[Deal, tuple]:
        """The table after ``move`` (shared) and the slots it reveals."""
        if move.type == "draw" and move.cards:
            raise IllegalMove("a draw played without peeking names no cards")
        memo = self._memo.setdefault("after", {})
        if move not in memo:
            rules = game_named(self.game).rules
            info = information(self.game)
            table = rules.to_deal(rules.play(self.position(), move))
            table.seed = None
            memo[move] = table, tuple(s for s in slots(table) if card_at(table, s) < 0
                                      and info.seen(table, self.level, s))
        return memo[move]

    # -- sampling ---------------------------------------------------------------
    def admits(self, deal: Deal) -> bool:
        """Whether ``deal`` (a whole table) agrees with every card known here."""
        if "shape" not in self._memo:
            self._memo["shape"] = _shape(self.table)
        if deal.game != self.game or _shape(deal) != self._memo["shape"]:
            return False
        return all(card_at(self.table, s) < 0 or card_at(self.table, s) == card_at(deal, s) for s in self._slots)

    def fill(self, cards) -> Deal:
        """The table with the unknown slots (in slot order) holding ``cards``."""
        deal = _copy(self.table)
        for slot, card in zip(self.unknown_slots(), cards, strict=True):
            _put(deal, slot, card)
        return deal

    def sample(self, rng: SplitMix64) -> Deal:
        """A whole table drawn uniformly from those the observation admits (module docstring)."""
        cards = list(self.unseen)
        for i in range(len(cards) - 1, 0, -1):
            j = rng.below(i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        return self.fill(cards)

    def arrangements(self, most: int) -> list[tuple[int, ...]] | None:
        """Every distinct arrangement of the unseen cards over the unknown slots (each equally
        likely), when there are at most ``most`` of them; else None."""
        count = _arrangement_count(self.unseen)
        if count > most:
            return None
        return sorted(set(itertools.permutations(self.unseen)))


def _names_of(value):
    if isinstance(value, list):
        return [_names_of(v) for v in value]
    if isinstance(value, int) and value >= 0:
        return card_name(value)
    return value


def _arrangement_count(cards) -> int:
    from math import factorial

    total = factorial(len(cards))
    for n in Counter(cards).values():
        total //= factorial(n)
    return total


def first_observation(deal: Deal, level: str) -> Observation:
    """What a player sees of ``deal`` before its first move (the referee's call)."""
    info = information(deal.game)
    check_level(level)
    table = _copy(deal)
    table.seed = None
    every = slots(table)
    hidden = [s for s in every if not info.seen(table, level, s)]
    unseen = [card_at(table, s) for s in hidden]
    for k, slot in enumerate(hidden):
        _put(table, slot, -(k + 1))
    return Observation(deal.game, level, table, tuple(sorted(unseen)), 0, tuple(every))
