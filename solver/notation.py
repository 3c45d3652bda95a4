"""Readable move notation for people, and reading moves back in any notation.

Three notations name a move:

* FORMATS.md JSON (:meth:`solver.moves.Move.to_json`), for programs;
* the compact notation (``str(move)``, :func:`solver.moves.parse_move`): ``7S t3-t5``,
  ``draw``, ``remove QH@p4.2 AC@waste``;
* the readable notation of this module, which names what a player sees::

      7♠ from pile 3 onto 8♥ in pile 5
      7♠ and the 2 cards above it from pile 3 onto 8♥ in pile 5
      K♠ from waste to empty pile 2
      A♣ from pile 3 to empty foundation 1      2♣ from waste onto A♣ in foundation 1
      draw            draw (7♠ 8♥ 9♣)           redeal          deal a row
      remove K♠ (row 7)        remove Q♥ (row 4) with A♣ (waste)

The readable form mentions what the table shows (the card a move lands on, the
row of a Pyramid card), so it is written and read against the position *before*
the move, given as a :class:`solver.deals.Deal` (``rules.to_deal(pos)``). That
keeps this module game-generic: zones are named the same way in every game, and
the deal's fields say what lies where. Reading checks what the text claims
(``onto 8♥`` when the pile's top is 8♦ is an error naming both cards).

>>> from solver.deals import deal_from_seed
>>> d = deal_from_seed("pyramid", 1)
>>> from solver.moves import parse_move
>>> readable(parse_move("remove KC@p7.1"), d)
'remove K♣ (row 7)'
>>> parse_readable("remove K♣ (row 7)", d) == parse_move("remove KC@p7.1")
True
"""

from __future__ import annotations

import re

from .cards import CardError, card_name, parse_card, pretty
from .deals import Deal
from .moves import Move, MoveFormatError, parse_move, remove


# --------------------------------------------------------------------------
# What lies where in a deal (each game's layout knows its zones)
# --------------------------------------------------------------------------
def _layout(deal: Deal):
    from .registry import game

    return game(deal.game).layout


def zone_pile(deal: Deal, zone: str) -> list | None:
    """The cards of ``zone`` (bottom to top) in ``deal``, or None if it has no such zone."""
    return _layout(deal).zone_cards(deal, zone)


def zone_words(zone: str, deal: Deal) -> str:
    """``t3`` -> ``pile 3``, ``f1`` -> ``foundation 1``, as the deal's game names its zones."""
    return _layout(deal).zone_words(zone)


# --------------------------------------------------------------------------
# Writing
# --------------------------------------------------------------------------
def readable(move: Move, deal: Deal) -> str:
    """``move`` in words, as it reads on the table ``deal`` (the position before the move)."""
    if move.type == "draw":
        return f"draw ({' '.join(pretty(c) for c in move.cards)})" if move.cards else "draw"
    if move.type == "redeal":
        return "redeal"
    if move.type == "deal":
        return "deal a row"
    if move.type == "remove":
        parts = [f"{pretty(c)} ({zone_words(z, deal)})" for c, z in zip(move.cards, move.zones())]
        return "remove " + " with ".join(parts)
    head = pretty(move.card)
    if move.count > 1:
        head += f" and the {move.count - 1} card{'s' if move.count > 2 else ''} above it"
    target = zone_pile(deal, move.to)
    where = zone_words(move.to, deal)
    if target:
        land = f"onto {pretty(target[-1])} in {where}"
    else:
        land = f"to empty {where}"
    return f"{head} from {zone_words(move.from_, deal)} {land}"


# --------------------------------------------------------------------------
# Reading
# --------------------------------------------------------------------------
_CARD = r"(\S+?)"
_ZONE = r"(pile \d+|foundation \d+|[a-z]+(?: \d+)?)"
_MOVE_RE = re.compile(
    rf"^{_CARD}(?: and the (\d+) cards? above it)? from {_ZONE} "
    rf"(?:onto {_CARD} in {_ZONE}|to empty {_ZONE}|to {_ZONE})$")
_DRAW_RE = re.compile(r"^draw(?: \((.*)\))?$")
_PART_RE = re.compile(r"^(\S+) \(([a-z]+(?: \d+)?)\)$")


def _zone_from_words(words: str, deal: Deal, card: int, text: str) -> str:
    zone = _layout(deal).zone_named(deal, words, card)
    if zone is None:
        raise MoveFormatError(f"{text!r}: there is no {words} in {deal.game}")
    return zone


def _card(token: str, text: str) -> int:
    try:
        return parse_card(token)
    except CardError as err:
        raise MoveFormatError(f"cannot read move {text!r}: {err}") from None


def parse_readable(text: str, deal: Deal) -> Move:
    """Read the readable notation back, on the table ``deal`` (the position before the move).

    What the words claim is checked against the table: the card a move lands on,
    that the moved card is where the text says, the place of a card removed. The
    legality of the move itself is the rules' business (the caller replays it).
    """
    words = " ".join(text.split())
    low = words.lower()
    if low == "redeal":
        return Move("redeal")
    if low in ("deal", "deal a row"):
        return Move("deal")
    m = _DRAW_RE.match(low)
    if m:
        cards = tuple(_card(t, text) for t in (m.group(1) or "").split())
        return Move("draw", cards=cards)
    if low.startswith("remove "):
        parts = [p.strip() for p in words[7:].split(" with ")]
        if not 1 <= len(parts) <= 2:
            raise MoveFormatError(f"cannot read move {text!r}: a removal names one or two cards")
        pairs = []
        for part in parts:
            pm = _PART_RE.match(part.lower())
            if not pm:
                raise MoveFormatError(f"cannot read move {text!r}: expected CARD (PLACE) for each card, "
                                      f"such as 'Q♥ (waste)'")
            card = _card(part.split()[0], text)
            zone = _layout(deal).zone_named(deal, pm.group(2), card)
            if zone is None:
                raise MoveFormatError(f"{text!r}: {card_name(card)} is not in {pm.group(2)}")
            pairs.append((card, zone))
        return remove(*pairs)
    m = _MOVE_RE.match(low)
    if not m:
        raise MoveFormatError(f"cannot read move {text!r}")
    card = _card(words.split()[0], text)
    src = _zone_from_words(m.group(3), deal, card, text)
    onto = m.group(4)
    dst = _zone_from_words(m.group(5) or m.group(6) or m.group(7), deal, card, text)
    pile = zone_pile(deal, src)
    if pile is None:
        raise MoveFormatError(f"{text!r}: there is no {m.group(3)} in {deal.game}")
    if card not in pile:
        raise MoveFormatError(f"{text!r}: {card_name(card)} is not in {m.group(3)}")
    count = pile[::-1].index(card) + 1 if src[0] == "t" else 1  # the card and all above it
    if m.group(2) is not None and int(m.group(2)) + 1 != count:
        raise MoveFormatError(f"{text!r}: {card_name(card)} has {count - 1} card(s) above it in {m.group(3)}")
    target = zone_pile(deal, dst)
    if target is None:
        raise MoveFormatError(f"{text!r}: there is no {m.group(5) or m.group(6) or m.group(7)} in {deal.game}")
    if onto is not None:
        under = _card(words.split(" onto ")[1].split()[0], text)
        if not target or target[-1] != under:
            top = card_name(target[-1]) if target else "nothing (it is empty)"
            raise MoveFormatError(f"{text!r}: the top of {m.group(5)} is {top}, not {card_name(under)}")
    elif m.group(6) is not None and target:
        raise MoveFormatError(f"{text!r}: {m.group(6)} is not empty (its top is {card_name(target[-1])})")
    return Move("move", card=card, from_=src, to=dst, count=count)


def parse_any(text: str, deal: Deal) -> Move:
    """A move in compact or readable notation (compact first), read on the table ``deal``."""
    try:
        return parse_move(text.strip())
    except MoveFormatError:
        pass
    return parse_readable(text, deal)
