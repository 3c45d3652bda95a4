"""Deals: seed -> deal (a documented shuffle), deal JSON read/write, validation.

The shuffle (README.md, "How a seed becomes a deal") uses no library random
stream, so a seed gives the same deal on every platform and version:

* generator: SplitMix64 seeded with the seed (an integer 0 <= seed < 2**64);
* bounded draw ``below(n)``: take 64-bit outputs until one is below
  ``2**64 - 2**64 % n`` and return it modulo ``n`` (no bias);
* starting deck: cards in the encoding order of :mod:`solver.cards` (A..K of
  clubs, diamonds, hearts, spades); two decks are that order twice; Twenty's 96
  cards are the two-deck order without the first copy of each Ace and King;
* Fisher-Yates: for ``i`` from ``n-1`` down to 1, swap ``deck[i]`` with
  ``deck[below(i + 1)]``;
* the shuffled deck is dealt from index 0 into the zones as :func:`deal_from_seed`
  says for each game.

>>> d = deal_from_seed("klondike", 1)
>>> [len(p) for p in d.tableau], d.face_down, len(d.stock)
([1, 2, 3, 4, 5, 6, 7], [0, 1, 2, 3, 4, 5, 6], 24)
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from .cards import CardError, card_name, parse_card, rank, suit
from .options import OptionError, check_game, resolve

MASK64 = (1 << 64) - 1


class DealError(ValueError):
    """A deal that cannot be read or is not a legal table."""


# --------------------------------------------------------------------------
# The random generator and the shuffle
# --------------------------------------------------------------------------
SPLITMIX_GAMMA, SPLITMIX_MIX1, SPLITMIX_MIX2 = 0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB


class SplitMix64:
    """Steele, Lea and Flood's SplitMix64 (the reference constants; solver.play.sampling
    runs many side by side with the same ones)."""

    def __init__(self, seed: int):
        self.state = seed & MASK64

    def next(self) -> int:
        self.state = (self.state + SPLITMIX_GAMMA) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * SPLITMIX_MIX1) & MASK64
        z = ((z ^ (z >> 27)) * SPLITMIX_MIX2) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        limit = (1 << 64) - (1 << 64) % n
        while True:
            x = self.next()
            if x < limit:
                return x % n


def starting_deck(game: str) -> list[int]:
    from .registry import game as lookup

    return lookup(check_game(game)).layout.starting_deck()


def shuffled_deck(game: str, seed: int) -> list[int]:
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MASK64:
        raise DealError(f"seed must be an integer from 0 to 2**64-1, got {seed!r}")
    deck = starting_deck(game)
    rng = SplitMix64(seed)
    for i in range(len(deck) - 1, 0, -1):
        j = rng.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


# --------------------------------------------------------------------------
# The deal value
# --------------------------------------------------------------------------
@dataclass
class Deal:
    """A position to play from: a fresh deal or a mid-game table.

    Piles are lists of card numbers, bottom to top; the stock lists cards in
    the order they come out. Zones a game does not use stay empty; a game with
    zones of its own deals a subclass that adds them (its layout's
    ``deal_type``). ``passes_used`` counts redeals already made (mid-game
    positions only).
    """

    game: str
    options: dict
    seed: int | None = None
    tableau: list = field(default_factory=list)
    stock: list = field(default_factory=list)
    waste: list = field(default_factory=list)
    foundations: list = field(default_factory=list)
    passes_used: int = 0

    def copy(self) -> "Deal":
        return deal_from_json(deal_to_json(self))

    def _repr_svg_(self) -> str:
        """The table as SVG: what a notebook shows for a deal (:mod:`solver.pictures`)."""
        from .pictures import deal_svg
        from .pictures.pages import short_title

        return deal_svg(self, short_title(self))


def deal_from_seed(game: str, seed: int, options: dict | None = None) -> Deal:
    """Deal ``game`` from ``seed``: its shuffled deck (:func:`shuffled_deck`) goes into the
    zones from index 0 on, as the game's layout says (README, "How a seed becomes a deal")."""
    from .registry import game as lookup

    options = resolve(game, options)
    deck = shuffled_deck(game, seed)
    layout = lookup(game).layout
    deal = layout.deal_type(game=game, options=options, seed=seed)
    layout.deal(deal, deck)
    return deal


# --------------------------------------------------------------------------
# JSON
# --------------------------------------------------------------------------
def deal_to_json(deal: Deal) -> dict:
    from .registry import game

    out: dict = {"game": deal.game, "options": dict(deal.options)}
    if deal.seed is not None:
        out["seed"] = deal.seed
    out.update(game(deal.game).layout.write(deal))
    if deal.passes_used:
        out["passes_used"] = deal.passes_used
    return out


def card_names(cards) -> list[str]:
    """Card numbers as deal files write them (``None`` stays ``None``: a removed card)."""
    return [None if c is None else card_name(c) for c in cards]


def read_cards(value, where: str, allow_none: bool = False) -> list:
    """A deal file's card list; DealError names ``where`` and the card."""
    if not isinstance(value, list):
        raise DealError(f"{where}: expected a list of cards")
    out = []
    for i, token in enumerate(value, 1):
        if token is None and allow_none:
            out.append(None)
            continue
        try:
            out.append(parse_card(token))
        except CardError as err:
            raise DealError(f"{where} card {i}: {err}") from None
    return out


def read_piles(obj, name: str, count: int | None, allow_none: bool = False) -> list:
    """The deal file's field ``name``: a list of ``count`` card lists."""
    value = obj.get(name)
    if not isinstance(value, list):
        raise DealError(f"{name}: expected a list of piles")
    if count is not None and len(value) != count:
        raise DealError(f"{name}: expected {count} piles, got {len(value)}")
    return [read_cards(p, f"{name} pile {i}", allow_none) for i, p in enumerate(value, 1)]


HEADER_FIELDS = {"game", "options", "seed", "passes_used"}


def deal_from_json(obj, *, reachable: bool = True) -> Deal:
    """Read and validate a FORMATS.md deal object (messages name the zone and card). A deal
    file must be a table play reaches from a deal (``Layout.reachable``); ``reachable=False``
    takes any table the rules can play (hand-built tables for tests and analysis)."""
    from .registry import game as lookup

    if not isinstance(obj, dict):
        raise DealError("a deal must be a JSON object")
    try:
        game = check_game(obj.get("game"))
        options = resolve(game, obj.get("options"))
    except OptionError as err:
        raise DealError(str(err)) from None
    layout = lookup(game).layout
    unknown = set(obj) - HEADER_FIELDS - set(layout.zones)
    if unknown:
        raise DealError(f"unknown field {sorted(unknown)[0]!r} in deal")
    deal = layout.deal_type(game=game, options=options, seed=obj.get("seed"))
    if deal.seed is not None and (not isinstance(deal.seed, int) or isinstance(deal.seed, bool)):
        raise DealError(f"seed must be an integer, got {deal.seed!r}")
    passes_used = obj.get("passes_used", 0)
    if not isinstance(passes_used, int) or isinstance(passes_used, bool) or passes_used < 0:
        raise DealError(f"passes_used must be a non-negative integer, got {passes_used!r}")
    deal.passes_used = passes_used
    layout.read(deal, obj)
    validate(deal)
    if reachable:
        layout.reachable(deal)
    return deal


def load_deal(path) -> Deal:
    """Read a deal file; errors are :class:`DealError` naming the file."""
    obj = read_json(path)
    if isinstance(obj, dict) and isinstance(obj.get("deal"), dict):
        obj = obj["deal"]  # a result object: take the deal it carries
    try:
        return deal_from_json(obj)
    except DealError as err:
        raise DealError(f"{path}: {err}") from None


def read_text(path) -> str:
    from .files import unreadable

    problem = unreadable(path)
    if problem:
        raise DealError(f"{path}: {problem}")
    try:
        return Path(path).read_text(encoding="utf-8-sig")   # a byte-order mark is not part of the text
    except OSError as err:
        raise DealError(f"{path}: cannot read file: {err.strerror}") from None
    except UnicodeDecodeError:
        raise DealError(f"{path}: not a text file") from None


def read_json(path):
    text = read_text(path)
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise DealError(f"{path}: line {err.lineno} column {err.colno}: malformed JSON: {err.msg}") from None


def parse_any_deal(text: str, options: dict | None = None, game: str | None = None) -> Deal:
    """The deal in the text of a deal file: the project's deal JSON (or a result object
    carrying one), or another program's format that a game reads (``Game.deal_formats``;
    only ``game``'s when it is given). Foreign formats carry no rule options: their deal
    takes ``options``, else the defaults."""
    from .registry import game as lookup
    from .registry import games

    stripped = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#")).strip()
    if stripped.startswith("{"):
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as err:
            raise DealError(f"line {err.lineno} column {err.colno}: malformed JSON: {err.msg}") from None
        if isinstance(obj, dict) and isinstance(obj.get("deal"), dict):
            return deal_from_json(obj["deal"])   # a result object: take the deal it carries
        if isinstance(obj, dict) and "game" in obj:
            return deal_from_json(obj)
    readers = [lookup(game)] if game is not None else list(games().values())
    readers = [g for g in readers if g.deal_formats is not None]
    for g in readers:
        deal = g.deal_formats.read(text, options)
        if deal is not None:
            return deal
    if stripped.startswith("{"):
        return deal_from_json(obj)   # not a deal: its own error says what the object lacks
    others = "".join(f", or {g.deal_formats.description}" for g in readers)
    raise DealError(f"unrecognised deal format (expected the project's deal JSON{others})")


def load_any_deal(path, options: dict | None = None, game: str | None = None) -> Deal:
    """Read a deal file in any known format (:func:`parse_any_deal`); errors are
    :class:`DealError` naming the file."""
    try:
        return parse_any_deal(read_text(path), options, game)
    except DealError as err:
        message = str(err)
        raise DealError(message if message.startswith(f"{path}:") else f"{path}: {message}") from None


# --------------------------------------------------------------------------
# Validation
# --------------------------------------------------------------------------
def all_cards(deal: Deal) -> list[int]:
    """Every card of every card zone of ``deal`` (``None``, a card taken away, left out)."""
    from .registry import game

    cards: list[int] = []

    def add(value):
        for item in value:
            if isinstance(item, list):
                add(item)
            elif item is not None:
                cards.append(item)

    for zone in game(deal.game).layout.card_zones:
        add(getattr(deal, zone))
    return cards


def validate(deal: Deal) -> None:
    """Whole decks, then the game's own checks (zone sizes, foundation sequences, a table
    that can arise in play); raises :class:`DealError`."""
    from .registry import game

    g = game(deal.game)
    counts = Counter(all_cards(deal))
    for card, n in sorted(counts.items()):
        if n > g.decks:
            raise DealError(f"card {card_name(card)} appears {n} times (the deck has {g.decks})")
    for card in range(52):
        if counts[card] < g.decks:
            raise DealError(f"card {card_name(card)} is missing")
    g.layout.validate(deal)
    passes = deal.options.get("passes")
    if deal.passes_used and passes is not None and deal.passes_used >= passes:
        raise DealError(f"passes_used={deal.passes_used} but only {passes} passes allowed")


def check_size(n: int, most: int, what: str) -> None:
    if n > most:
        raise DealError(f"{what}: {n} cards, at most {most} in this game")


def check_foundation(pile, where, suit_, start, step):
    """A foundation built from ``start`` by ``step`` in one suit (``suit_``, or its first card's)."""
    if not pile:
        return
    first_suit = suit(pile[0]) if suit_ is None else suit_
    for i, card in enumerate(pile):
        if suit(card) != first_suit or rank(card) != start + i * step:
            raise DealError(f"{where} card {i + 1}: {card_name(card)} does not belong there")


def format_deal(deal: Deal, fmt: str) -> str:
    """The deal written in format ``fmt``: ``json`` (FORMATS.md) or one of its game's
    other programs' formats (``Game.deal_formats``); text ending in a newline."""
    from .registry import game

    if fmt == "json":
        return json.dumps(deal_to_json(deal)) + "\n"
    formats = game(deal.game).deal_formats
    if formats is None or fmt not in formats.names:
        known = ", ".join(["json", *(formats.names if formats else ())])
        raise DealError(f"{deal.game} deals are written as {known}, not {fmt!r}")
    return formats.write(deal, fmt)
