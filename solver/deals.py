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

from .cards import CardError, card_name, is_red, parse_card, rank, suit
from .options import GAMES, OptionError, check_game, resolve

MASK64 = (1 << 64) - 1


class DealError(ValueError):
    """A deal that cannot be read or is not a legal table."""


# --------------------------------------------------------------------------
# The random generator and the shuffle
# --------------------------------------------------------------------------
class SplitMix64:
    """Steele, Lea and Flood's SplitMix64 (the reference constants)."""

    def __init__(self, seed: int):
        self.state = seed & MASK64

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        limit = (1 << 64) - (1 << 64) % n
        while True:
            x = self.next()
            if x < limit:
                return x % n


def starting_deck(game: str) -> list[int]:
    decks = GAMES[check_game(game)]["decks"]
    cards = list(range(52)) * decks
    if game == "twenty":
        first_copy = [c for c in range(52) if rank(c) not in (1, 13)]
        cards = first_copy + list(range(52))
    return cards


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
    the order they come out. Zones a game does not use stay empty.
    ``passes_used`` counts redeals already made (mid-game positions only).
    For Pyramid, ``pyramid`` rows hold ``None`` where a card was removed, the
    removed cards are listed in ``foundations[0]``, and with ``piles=3``
    ``waste`` is a list of three piles.
    """

    game: str
    options: dict
    seed: int | None = None
    tableau: list = field(default_factory=list)
    face_down: list = field(default_factory=list)
    stock: list = field(default_factory=list)
    waste: list = field(default_factory=list)
    foundations: list = field(default_factory=list)
    pyramid: list = field(default_factory=list)
    ladder: list = field(default_factory=list)
    passes_used: int = 0

    def copy(self) -> "Deal":
        return deal_from_json(deal_to_json(self))


def deal_from_seed(game: str, seed: int, options: dict | None = None) -> Deal:
    """Deal ``game`` from ``seed``. Zones are filled from the shuffled deck in order:

    * klondike: row by row, row r (0..6) puts one card on each pile r..7 (the
      usual way of dealing); the other 24 cards are the stock;
    * pyramid: rows 1..7 left to right (28 cards); the other 24 are the stock;
    * twenty: one card on each of piles 1..20; the other 76 are the stock;
      the foundations start with A and K of each suit;
    * ladder: row by row, four rows of one card on each of the 8 piles; then
      29 cards form the ladder (the first dealt at its bottom); the other 43
      are the stock.
    """
    options = resolve(game, options)
    deck = shuffled_deck(game, seed)
    deal = Deal(game=game, options=options, seed=seed)
    if game == "klondike":
        deal.tableau = [[] for _ in range(7)]
        k = 0
        for row in range(7):
            for pile in range(row, 7):
                deal.tableau[pile].append(deck[k])
                k += 1
        deal.face_down = list(range(7))
        deal.stock = deck[k:]
        deal.foundations = [[] for _ in range(4)]
    elif game == "pyramid":
        deal.pyramid, k = [], 0
        for row in range(1, 8):
            deal.pyramid.append(deck[k:k + row])
            k += row
        deal.stock = deck[k:]
        deal.waste = [[], [], []] if options["piles"] == 3 else []
        deal.foundations = [[]]
    elif game == "twenty":
        deal.tableau = [[c] for c in deck[:20]]
        deal.stock = deck[20:]
        deal.foundations = [[s * 13] for s in range(4)] + [[s * 13 + 12] for s in range(4)]
    elif game == "ladder":
        deal.tableau = [[] for _ in range(8)]
        k = 0
        for _row in range(4):
            for pile in range(8):
                deal.tableau[pile].append(deck[k])
                k += 1
        deal.ladder = deck[32:61]
        deal.stock = deck[61:]
        deal.foundations = [[] for _ in range(8)]
    return deal


# --------------------------------------------------------------------------
# JSON
# --------------------------------------------------------------------------
def deal_to_json(deal: Deal) -> dict:
    names = lambda cards: [card_name(c) for c in cards]  # noqa: E731
    out: dict = {"game": deal.game, "options": dict(deal.options)}
    if deal.seed is not None:
        out["seed"] = deal.seed
    g = deal.game
    if g == "klondike":
        out["tableau"] = [names(p) for p in deal.tableau]
        out["face_down"] = list(deal.face_down)
    elif g == "pyramid":
        out["pyramid"] = [[None if c is None else card_name(c) for c in row] for row in deal.pyramid]
    elif g == "twenty":
        out["foundations"] = [names(p) for p in deal.foundations]
        out["tableau"] = [names(p) for p in deal.tableau]
    elif g == "ladder":
        out["tableau"] = [names(p) for p in deal.tableau]
        out["ladder"] = names(deal.ladder)
    out["stock"] = names(deal.stock)
    if g == "pyramid" and deal.options.get("piles") == 3:
        if any(deal.waste):
            out["waste"] = [names(p) for p in deal.waste]
    elif deal.waste:
        out["waste"] = names(deal.waste)
    if g != "twenty" and any(deal.foundations):
        out["foundations"] = [names(p) for p in deal.foundations]
    if deal.passes_used:
        out["passes_used"] = deal.passes_used
    return out


def _cards(value, where: str, allow_none: bool = False) -> list:
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


def _piles(obj, name: str, count: int | None, allow_none: bool = False) -> list:
    value = obj.get(name)
    if not isinstance(value, list):
        raise DealError(f"{name}: expected a list of piles")
    if count is not None and len(value) != count:
        raise DealError(f"{name}: expected {count} piles, got {len(value)}")
    return [_cards(p, f"{name} pile {i}", allow_none) for i, p in enumerate(value, 1)]


KNOWN_FIELDS = {"game", "options", "seed", "tableau", "face_down", "stock", "waste", "foundations",
                "pyramid", "ladder", "passes_used"}


def deal_from_json(obj) -> Deal:
    """Read and validate a FORMATS.md deal object (messages name the zone and card)."""
    if not isinstance(obj, dict):
        raise DealError("a deal must be a JSON object")
    try:
        game = check_game(obj.get("game"))
        options = resolve(game, obj.get("options"))
    except OptionError as err:
        raise DealError(str(err)) from None
    unknown = set(obj) - KNOWN_FIELDS
    if unknown:
        raise DealError(f"unknown field {sorted(unknown)[0]!r} in deal")
    deal = Deal(game=game, options=options, seed=obj.get("seed"))
    if deal.seed is not None and (not isinstance(deal.seed, int) or isinstance(deal.seed, bool)):
        raise DealError(f"seed must be an integer, got {deal.seed!r}")
    deal.stock = _cards(obj.get("stock", []), "stock")
    passes_used = obj.get("passes_used", 0)
    if not isinstance(passes_used, int) or isinstance(passes_used, bool) or passes_used < 0:
        raise DealError(f"passes_used must be a non-negative integer, got {passes_used!r}")
    deal.passes_used = passes_used
    if game == "klondike":
        deal.tableau = _piles(obj, "tableau", 7)
        fd = obj.get("face_down", [0] * 7)
        if not isinstance(fd, list) or len(fd) != 7 or \
                not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in fd):
            raise DealError("face_down: expected 7 non-negative counts")
        deal.face_down = list(fd)
        deal.waste = _cards(obj.get("waste", []), "waste")
        deal.foundations = _piles(obj, "foundations", 4) if "foundations" in obj else [[] for _ in range(4)]
    elif game == "pyramid":
        deal.pyramid = _piles(obj, "pyramid", 7, allow_none=True)
        for r, row in enumerate(deal.pyramid, 1):
            if len(row) != r:
                raise DealError(f"pyramid row {r}: expected {r} cards, got {len(row)}")
        if options["piles"] == 3:
            deal.waste = _piles(obj, "waste", 3) if "waste" in obj else [[], [], []]
        else:
            deal.waste = _cards(obj.get("waste", []), "waste")
        deal.foundations = _piles(obj, "foundations", 1) if "foundations" in obj else [[]]
    elif game == "twenty":
        deal.foundations = _piles(obj, "foundations", 8)
        deal.tableau = _piles(obj, "tableau", 20)
    elif game == "ladder":
        deal.tableau = _piles(obj, "tableau", 8)
        deal.ladder = _cards(obj.get("ladder", []), "ladder")
        deal.waste = _cards(obj.get("waste", []), "waste")
        deal.foundations = _piles(obj, "foundations", 8) if "foundations" in obj else [[] for _ in range(8)]
    validate(deal)
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


def read_json(path):
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as err:
        raise DealError(f"{path}: cannot read file: {err.strerror}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise DealError(f"{path}: line {err.lineno} column {err.colno}: malformed JSON: {err.msg}") from None


def save_deal(deal: Deal, path) -> None:
    Path(path).write_text(json.dumps(deal_to_json(deal)) + "\n", encoding="utf-8")


# --------------------------------------------------------------------------
# Validation
# --------------------------------------------------------------------------
def all_cards(deal: Deal) -> list[int]:
    cards = list(deal.stock)
    for pile in deal.tableau:
        cards += pile
    for row in deal.pyramid:
        cards += [c for c in row if c is not None]
    cards += deal.ladder
    if deal.game == "pyramid" and deal.options.get("piles") == 3:
        for pile in deal.waste:
            cards += pile
    else:
        cards += deal.waste
    for pile in deal.foundations:
        cards += pile
    return cards


def validate(deal: Deal) -> None:
    """Whole decks, foundation sequences, zone sizes; raises :class:`DealError`."""
    decks = GAMES[deal.game]["decks"]
    counts = Counter(all_cards(deal))
    for card, n in sorted(counts.items()):
        if n > decks:
            raise DealError(f"card {card_name(card)} appears {n} times (the deck has {decks})")
    for card in range(52):
        if counts[card] < decks:
            raise DealError(f"card {card_name(card)} is missing")
    g = deal.game
    if g == "klondike":
        for i, (pile, fd) in enumerate(zip(deal.tableau, deal.face_down), 1):
            if pile and fd >= len(pile) or not pile and fd:
                raise DealError(f"face_down pile {i}: {fd} face-down cards but pile has {len(pile)}")
            for k in range(fd + 1, len(pile)):
                below, above = pile[k - 1], pile[k]
                if rank(below) != rank(above) + 1 or is_red(below) == is_red(above):
                    raise DealError(f"tableau pile {i} card {k + 1}: {card_name(above)} cannot lie face-up "
                                    f"on {card_name(below)}")
        _check_size(len(deal.stock) + len(deal.waste), 24, "stock and waste")
        for s, pile in enumerate(deal.foundations):
            _check_foundation(pile, f"foundations pile {s + 1}", suit_=s, start=1, step=1)
    elif g == "twenty":
        _check_size(len(deal.stock), 76, "stock")
        for f, pile in enumerate(deal.foundations):
            up = f < 4
            if not pile:
                raise DealError(f"foundations pile {f + 1}: a Twenty foundation is never empty")
            _check_foundation(pile, f"foundations pile {f + 1}", suit_=f % 4, start=1 if up else 13,
                              step=1 if up else -1)
        if deal.stock:
            for i, pile in enumerate(deal.tableau, 1):
                if not pile:
                    raise DealError(f"tableau pile {i}: empty while the stock has cards (it is refilled at once)")
    elif g == "ladder":
        _check_size(len(deal.ladder), 29, "ladder")
        _check_size(len(deal.stock) + len(deal.waste), 43, "stock and waste")
        for f, pile in enumerate(deal.foundations):
            _check_foundation(pile, f"foundations pile {f + 1}", suit_=None, start=1, step=1)
    elif g == "pyramid":
        waste = sum(deal.waste, []) if deal.options["piles"] == 3 else deal.waste
        _check_size(len(deal.stock) + len(waste), 24, "stock and waste")
        for r in range(6):
            for c in range(r + 1):
                if deal.pyramid[r][c] is None and (deal.pyramid[r + 1][c] is not None
                                                   or deal.pyramid[r + 1][c + 1] is not None):
                    raise DealError(f"pyramid row {r + 1} card {c + 1}: removed while still covered")
    if deal.passes_used and deal.options.get("passes") is not None and \
            deal.passes_used >= deal.options["passes"]:
        raise DealError(f"passes_used={deal.passes_used} but only {deal.options['passes']} passes allowed")


def _check_size(n: int, most: int, what: str) -> None:
    if n > most:
        raise DealError(f"{what}: {n} cards, at most {most} in this game")


def _check_foundation(pile, where, suit_, start, step):
    if not pile:
        return
    first_suit = suit(pile[0]) if suit_ is None else suit_
    for i, card in enumerate(pile):
        if suit(card) != first_suit or rank(card) != start + i * step:
            raise DealError(f"{where} card {i + 1}: {card_name(card)} does not belong there")
