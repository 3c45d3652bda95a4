"""Moves as plain values, in the FORMATS.md shape, and their notation.

A :class:`Move` is a frozen value: ``type`` plus the fields that type needs.
Zones are strings: ``stock``, ``waste``, ``t1``..``tN`` (tableau piles),
``f1``..``f8`` (foundations), and the zones of a game's own (FORMATS.md).

>>> m = Move("move", card=parse_card("7S"), from_="t3", to="t5", count=1)
>>> m.to_json()
{'type': 'move', 'card': '7S', 'from': 't3', 'to': 't5', 'count': 1}
>>> Move.from_json(m.to_json()) == m
True
>>> str(m)
'7S t3-t5'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from .cards import CardError, card_name, parse_card

MOVE_TYPES = ("move", "draw", "redeal", "deal", "remove")


@cache
def zone_pattern() -> re.Pattern:
    """The zone names some game's moves use (each game's layout lists its own)."""
    from .registry import games

    return re.compile("^(" + "|".join(f"(?:{g.layout.move_zones})" for g in games().values()) + ")$")


class MoveFormatError(ValueError):
    """A move object or token that cannot be read."""


@dataclass(frozen=True)
class Move:
    type: str
    card: int | None = None
    from_: str | None = None
    to: str | None = None
    count: int = 1
    cards: tuple[int, ...] = ()

    # -- JSON (FORMATS.md) -------------------------------------------------
    def to_json(self) -> dict:
        out: dict = {"type": self.type}
        if self.type == "move":
            out.update(card=card_name(self.card), **{"from": self.from_}, to=self.to, count=self.count)
        elif self.type == "remove":
            out.update(cards=[card_name(c) for c in self.cards], **{"from": list(self.from_.split(","))})
        elif self.type == "draw" and self.cards:
            out["cards"] = [card_name(c) for c in self.cards]
        return out

    @classmethod
    def from_json(cls, obj) -> "Move":
        if not isinstance(obj, dict):
            raise MoveFormatError(f"a move must be an object, got {obj!r}")
        kind = obj.get("type")
        if kind not in MOVE_TYPES:
            raise MoveFormatError(f"unknown move type {kind!r}")
        try:
            if kind == "move":
                for field in ("card", "from", "to"):
                    if field not in obj:
                        raise MoveFormatError(f"move is missing {field!r}")
                count = obj.get("count", 1)
                if not isinstance(count, int) or isinstance(count, bool) or count < 1:
                    raise MoveFormatError(f"bad count {count!r}")
                return cls("move", card=parse_card(obj["card"]), from_=_zone(obj["from"]),
                           to=_zone(obj["to"]), count=count)
            if kind == "remove":
                cards = obj.get("cards")
                zones = obj.get("from")
                if isinstance(zones, str):
                    zones = [zones]
                if not isinstance(cards, list) or not isinstance(zones, list) or not 1 <= len(cards) <= 2 \
                        or len(cards) != len(zones):
                    raise MoveFormatError("remove needs 'cards' and 'from' lists of one or two entries")
                return cls("remove", cards=tuple(parse_card(c) for c in cards),
                           from_=",".join(_zone(z) for z in zones))
            if kind == "draw":
                cards = obj.get("cards") or []
                if not isinstance(cards, list):
                    raise MoveFormatError(f"draw: 'cards' must be a list of cards, got {cards!r}")
                return cls("draw", cards=tuple(parse_card(c) for c in cards))
            return cls(kind)
        except CardError as err:
            raise MoveFormatError(str(err)) from None

    # -- compact notation --------------------------------------------------
    def __str__(self) -> str:
        if self.type == "move":
            many = f"x{self.count}" if self.count > 1 else ""
            return f"{card_name(self.card)}{many} {self.from_}-{self.to}"
        if self.type == "remove":
            return "remove " + " ".join(f"{card_name(c)}@{z}" for c, z in zip(self.cards, self.from_.split(",")))
        return self.type

    def zones(self) -> tuple[str, ...]:
        """The source zones of a remove, one per card."""
        return tuple(self.from_.split(",")) if self.from_ else ()


def _zone(text) -> str:
    if not isinstance(text, str) or not zone_pattern().match(text):
        raise MoveFormatError(f"unknown zone {text!r}")
    return text


def remove(*pairs: tuple[int, str]) -> Move:
    """A Pyramid removal of one or two (card, zone) pairs, in a canonical order."""
    pairs = tuple(sorted(pairs, key=lambda p: p[1]))
    return Move("remove", cards=tuple(c for c, _ in pairs), from_=",".join(z for _, z in pairs))


def parse_move(text: str) -> Move:
    """Read the compact notation of :meth:`Move.__str__` back."""
    words = text.split()
    if words == ["draw"] or words == ["redeal"] or words == ["deal"]:
        return Move(words[0])
    try:
        if words and words[0] == "remove" and 2 <= len(words) <= 3:
            return remove(*[(parse_card(w.split("@")[0]), _zone(w.split("@")[1])) for w in words[1:]])
        if len(words) == 2 and "-" in words[1]:
            head, count = (words[0].split("x") + ["1"])[:2]
            src, dst = words[1].split("-", 1)
            return Move("move", card=parse_card(head), from_=_zone(src), to=_zone(dst), count=int(count))
    except (CardError, IndexError, ValueError) as err:
        raise MoveFormatError(f"cannot read move {text!r}: {err}") from None
    raise MoveFormatError(f"cannot read move {text!r}")
