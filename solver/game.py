"""What a game is: the one contract between a game package and the rest of the project.

A game lives in its own package under :mod:`solver.games` and exports one
:class:`Game` value named ``GAME``; :mod:`solver.registry` lists the packages.
Nothing outside a game's package knows its name, its zones or its options: the
deals, the command line, the studies, the hints and the engine all go through
this object. Adding a game is a package and one registry line (README,
"Adding a game").

A :class:`Game` has three parts, of which only the last needs Numba:

* **what is played**: the name, the :class:`Option` list, and the
  :class:`Layout` (dealing a shuffled deck into zones, reading and writing the
  zones of a deal file, refusing a table that cannot arise in play), and where
  the zones are drawn (``picture``, :mod:`solver.pictures`);
* **the reference rules** (:class:`Rules`): plain Python written for clarity,
  the oracle every solver line is replayed against; they share no code with the
  kernels;
* **the solver** (:class:`Solver`), imported on first use (``game.solver``), so
  that dealing or checking a line never loads Numba: the engine kernels
  (:mod:`solver.engine.contract`), the encoding of a deal into a kernel state,
  the decoding of a kernel line into moves, and the optional capabilities as
  declared fields (``None`` when a game does not offer one). Nothing asks a
  module whether it happens to have an attribute.

Moves are plain :class:`solver.moves.Move` values; cards are the small integers
of :mod:`solver.cards`; a deal or mid-game table is a :class:`solver.deals.Deal`.
"""

from __future__ import annotations

import importlib
import random
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Hashable, Protocol

if TYPE_CHECKING:   # for the annotations only: importing them here would be circular
    import numpy as np

    from .deals import Deal
    from .engine.contract import Kernels
    from .moves import Move
    from .pictures.scene import Scene


# --------------------------------------------------------------------------
# Options
# --------------------------------------------------------------------------
@dataclass(frozen=True)
class Option:
    """One rule option: its name (as in deal files: ``foundation_to_tableau``), its
    default, and the values it takes: ``choices`` (numbers), ``passes`` (a number
    from 1, or ``None`` for unlimited) or ``flag`` (true or false)."""

    name: str
    default: Any
    kind: str                       # "choices" | "passes" | "flag"
    help: str
    choices: tuple = ()

    def accepts(self, value) -> bool:
        if self.kind == "flag":
            return isinstance(value, bool)
        if self.kind == "passes":
            return value is None or (isinstance(value, int) and not isinstance(value, bool) and value >= 1)
        return value in self.choices and not isinstance(value, bool)

    def expected(self) -> str:
        """What the option takes, for error messages."""
        if self.kind == "flag":
            return "expected true or false"
        if self.kind == "passes":
            return "expected a number of passes from 1, or unlimited"
        return "expected " + " or ".join(map(str, self.choices))

    def spell(self, value) -> str:
        """A value as people and the command line write it: ``unlimited``, ``true``, ``3``."""
        return "unlimited" if value is None else str(value).lower()


# --------------------------------------------------------------------------
# The layout of a deal
# --------------------------------------------------------------------------
class Layout(Protocol):
    """Where the cards of a deal lie, and how a deal file writes them (FORMATS.md).

    ``deal_type``: the :class:`solver.deals.Deal` subclass that adds the game's own
    zones (Klondike's ``face_down``, Pyramid's ``pyramid``), or ``Deal``. ``decks``:
    1 or 2 (two decks hold two interchangeable copies of every card).
    ``zones``: the deal file fields the game fills; ``card_zones``: those holding
    cards (each a list of cards or of card lists). ``move_zones``: a regular
    expression of the zone names its moves use (``t[1-7]|f[1-4]|waste|stock``).
    Most games take the shared base, :class:`solver.games.layouts.PileLayout`.
    """

    deal_type: type
    decks: int
    zones: tuple[str, ...]
    card_zones: tuple[str, ...]
    move_zones: str

    def starting_deck(self) -> list[int]:
        """The cards in their order before the shuffle (README, "How a seed becomes a deal")."""

    def deal(self, deal: "Deal", deck: list[int]) -> None:
        """Fill the zones of a fresh ``deal`` (game, options and seed set) from the shuffled ``deck``."""

    def read(self, deal: "Deal", obj: dict) -> None:
        """Fill the zones of ``deal`` from a deal file's object; raise DealError naming the zone."""

    def write(self, deal: "Deal") -> dict:
        """The zone fields of ``deal`` as a deal file writes them (cards by name)."""

    def validate(self, deal: "Deal") -> None:
        """Refuse, with DealError naming what is wrong, a table the rules cannot play: zone
        sizes, foundation sequences (the whole-deck count is checked before this is called)."""

    def reachable(self, deal: "Deal") -> None:
        """Refuse, with DealError naming the rule broken, a well-formed table that no play
        reaches from a deal (a deal file must be one; the reference rules play any table)."""

    def zone_cards(self, deal: "Deal", zone: str) -> list | None:
        """The cards of move zone ``zone`` (``t3``, ``waste``, ``stock``...) bottom to top, or
        None if the game has no such zone (the stock's top is its next card out)."""

    def zone_words(self, zone: str) -> str:
        """A move zone as the readable notation names it: ``t3`` -> ``pile 3``."""

    def zone_named(self, deal: "Deal", words: str, card: int) -> str | None:
        """The move zone that ``words`` (as :meth:`zone_words` writes them) name in ``deal``
        for ``card``, or None if they name none."""


# --------------------------------------------------------------------------
# The reference rules
# --------------------------------------------------------------------------
class Rules(Protocol):
    """A game's reference rules (a module). Positions are the game's own values; every
    function leaves its argument unchanged."""

    def initial(self, deal: "Deal") -> Any:
        """The position a deal (fresh or mid-game) describes."""

    def legal_moves(self, position) -> list["Move"]:
        """Every legal move, in a fixed order."""

    def play(self, position, move: "Move") -> Any:
        """The position after ``move``; raise :class:`solver.replay.IllegalMove` with the
        reason when it is not legal. Automatic events (a card turned, a pile refilled)
        happen inside. A ``draw`` move's optional ``cards`` must match the cards drawn."""

    def is_won(self, position) -> bool: ...

    def to_deal(self, position) -> "Deal":
        """The position written as a (mid-game) deal: ``initial(to_deal(p))`` is ``p``."""

    def key(self, position, *, passes: bool = True) -> Hashable:
        """The table as a value: equal for two positions with the same cards in the same
        places under the same options, the seed left out. With unlimited redeals the
        redeals made are left out too (they change nothing that follows); with
        ``passes=False`` they are always left out (a table seen again later in a line,
        with more redeals spent, is a loop)."""

    def render(self, position) -> str:
        """A text picture of the table for people."""


# --------------------------------------------------------------------------
# The solver side (loaded on first use)
# --------------------------------------------------------------------------
@dataclass(frozen=True)
class FewestMoves:
    """An exact search for a line with the fewest moves (:mod:`solver.engine.shortest`),
    for games with few enough positions: the reductions that never lengthen a line,
    the player moves each kernel move stands for, and a lower bound on the moves left
    (kernels with :data:`solver.engine.contract.COST_SIG` and ``ESTIMATE_SIG``)."""

    reduce: int
    move_cost: Callable
    moves_left: Callable


@dataclass(frozen=True)
class Solver:
    """What the engine needs to search a game, and what the game offers beyond that.

    ``encode(deal, reduce)`` is the kernel state of a deal with the reductions
    ``reduce`` (bit flags, ``reductions`` names them; 0 is the plain rules) in
    force; ``decode_line(deal, line, reduce)`` turns the kernel moves of a line
    found from that state into FORMATS.md moves, one per card moved or draw made.
    """

    kernels: "Kernels"
    encode: Callable[["Deal", int], Any]
    decode_line: Callable[["Deal", list, int], list]
    reductions: dict[str, int]
    # several move orders: the deal's root state once per order, searched in turns
    # over one table (solver.engine.search)
    move_orders: Callable[["Deal"], list] | None = None
    # a deal that every winning line of the deal also wins (so: lost when it is lost),
    # tried before the deal itself (solver.solve)
    relaxed: Callable[["Deal"], "Deal | None"] | None = None
    # whether a winning line of the relaxed deal (the second argument) may win the deal
    # itself, so that solver.solve replays it with the deal's rules (None: always so); a
    # twin with other rules of play (Klondike's one card a draw) only ever proves a deal lost
    relaxed_lines: Callable[["Deal", "Deal"], bool] | None = None
    # the share of the limits the relaxed deal (the second argument) of a deal may take
    # before the deal itself is searched (None, or no function: solver.solve.RELAXED_SHARE)
    relaxed_share: Callable[["Deal", "Deal"], "float | None"] | None = None
    # settings of solver.engine.search.search (restart runs) for a deal with these options
    search_settings: Callable[[dict], dict] = lambda options: {}
    # settings added for the deal's own search when its relaxed deal was won by a line the
    # deal does not allow (solver.solve): such a deal is mostly
    # won by some other line, which a search built to find wins (restart runs) finds sooner
    likely_won_settings: Callable[[dict], dict] = lambda options: {}
    fewest_moves: FewestMoves | None = None
    # reference moves the kernels never list even with every reduction off (each a move
    # that leads to the same table as another, such as a King moved between empty piles)
    omitted: Callable[[Any, "Move"], bool] | None = None
    # a table the key must not tell from the deal's (its interchangeable piles permuted)
    symmetric: Callable[["Deal", random.Random], "Deal"] | None = None
    # many tables that differ only in which cards lie in some slots, encoded at numpy's
    # speed (solver.play.sampling): ``open_state(deal, slots)`` is the kernel state of
    # ``deal`` (every reduction in force) with nothing in it worked out from the cards
    # in ``slots`` (flags the search works out again are cleared), and the byte of the
    # state that holds each slot's card; writing the same cards in another order into
    # those bytes (and then ``settle``, if the game has one) is the state of the deal with
    # them so placed in the slots
    open_state: Callable[["Deal", list], tuple] | None = None
    # what a state keeps worked out from its cards (for its key), worked out again in place
    # for each row of a 2-D array of states whose card bytes were written directly; None
    # for a game whose states keep nothing of the kind
    settle: Callable[["np.ndarray"], None] | None = None

    @property
    def reduce_all(self) -> int:
        total = 0
        for flag in self.reductions.values():
            total |= flag
        return total


# --------------------------------------------------------------------------
# What a player sees (playing without peeking, docs/rules.md)
# --------------------------------------------------------------------------
HIDDEN_LEVELS = ("tableau", "all")


@dataclass(frozen=True)
class Information:
    """What a player who never looks at a hidden card sees of a table (docs/rules.md,
    "Playing without peeking"); :mod:`solver.play` builds observations and samples from it.

    A *slot* is where a card lies in a deal: a card zone's name and the indices into it
    (``("tableau", 2, 0)``: the bottom card of pile 3; ``("stock", 0)``: the next stock
    card). ``seen(deal, level, slot)`` says whether the card in that slot is face up for
    the player at ``level`` (one of :data:`HIDDEN_LEVELS`): ``tableau`` hides only cards
    that lie face down on the table (the stock's order is known), ``all`` hides the stock
    as well and whatever else of the game lies face down. A card once seen stays known
    wherever it goes; that memory is :mod:`solver.play`'s, not the game's.

    ``table(deal)`` is the rules' position of a deal some of whose cards are unknown
    (negative numbers in their slots), built without the checks of ``rules.initial``; the
    game's ``rules.legal_moves`` and ``rules.play`` must never look at a card the player
    cannot see (a face-down card only moves when its slot moves), which the contract test
    checks along playouts."""

    seen: Callable[["Deal", str, tuple], bool]
    table: Callable[["Deal"], Any]


# --------------------------------------------------------------------------
# The game
# --------------------------------------------------------------------------
@dataclass(frozen=True)
class DealFormats:
    """Other programs' deal files: the format names ``solitaire convert --to`` writes
    (besides ``json``), what they are (for an error on an unknown file), a reader (the
    text of a file and the options to play it with -> a Deal, or None when the text
    is in none of these formats) and a writer."""

    names: tuple[str, ...]
    description: str
    read: Callable[[str, "dict | None"], "Deal | None"]
    write: Callable[["Deal", str], str]


@dataclass(frozen=True)
class Game:
    """A game: see the module docstring. ``solver_module`` names the module (imported on
    first use of :attr:`solver`) whose ``SOLVER`` is the game's :class:`Solver`."""

    name: str
    title: str
    options: tuple[Option, ...]
    layout: Layout
    rules: Rules
    solver_module: str
    # modules of the solver's package that import nothing of the rest of its compiled code:
    # on a first run the engine's child process compiles them beside this process, which
    # compiles the rest (engine/warm.py); the solver waits for them before importing them
    # (engine.warm.compiled_aside)
    compiled_aside: tuple[str, ...] = ()
    # a rule between options (None when the options are fine together, else why not)
    options_conflict: Callable[[dict], str | None] = lambda options: None
    # the variants a study of the game covers (results/, golden runs), most played first
    variants: tuple[dict, ...] = ({},)
    # the solver offers lines with the fewest moves (Solver.fewest_moves); said here too so
    # that the command line knows without loading the solver
    offers_shortest: bool = False
    # other programs' deal numbers: seed type -> function(number, options) -> Deal
    seed_types: dict[str, Callable] = field(default_factory=dict)
    # other programs' deal files
    deal_formats: DealFormats | None = None
    # a picture of a table: where each zone of a deal is drawn and how its cards lie
    # (solver.pictures.scene); the cards themselves are drawn by solver.pictures, the
    # same for every game. Pure Python (the game's picture.py), so drawing loads no Numba
    picture: Callable[["Deal"], "Scene"] | None = None
    # what a player who does not peek sees (solver.play); pure Python, like the rules
    information: Information | None = None

    @property
    def solver(self) -> Solver:
        return _solver(self.solver_module)

    @property
    def decks(self) -> int:
        return self.layout.decks

    def option(self, name: str) -> Option | None:
        return next((o for o in self.options if o.name == name), None)

    def defaults(self) -> dict:
        return {o.name: o.default for o in self.options}

    def zone_pattern(self) -> re.Pattern:
        return re.compile(f"^({self.layout.move_zones})$")


_SOLVERS: dict[str, Solver] = {}


def _solver(module: str) -> Solver:
    if module not in _SOLVERS:
        _SOLVERS[module] = importlib.import_module(module).SOLVER
    return _SOLVERS[module]
