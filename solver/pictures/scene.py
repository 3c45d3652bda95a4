"""What a picture of a table shows: piles placed on a plane, each with its cards.

A game's ``picture`` (:attr:`solver.game.Game.picture`) turns a deal into a
:class:`Scene`: it says where each zone goes and how its cards lie; drawing the
cards is shared by every game (:mod:`solver.pictures.svg` in Python, the replay
page's script in a browser, both from the same scene and the same :data:`FANS`).

Units are those of the SVG's viewBox: a card is :data:`CARD_W` by :data:`CARD_H`.
"""

from __future__ import annotations

from dataclasses import dataclass

CARD_W = 56
CARD_H = 78
GAP = 8                 # between two columns or rows of cards
PITCH = CARD_W + GAP    # from one column to the next
MARGIN = 10             # around the whole table
LABEL = 14              # room above a row for the piles' labels

# How the cards of a pile lie: the offset from a card to the next one, by the face of
# the lower card (a face-down card needs less of it to show, since nothing on it is read).
# "down": a tableau pile; "right": a waste, its last cards sideways; "stack": one on another.
FANS = {
    "down": {"up": (0, 22), "down": (0, 8)},
    "right": {"up": (30, 0), "down": (30, 0)},
    "stack": {"up": (0, 0), "down": (0, 0)},
}


def column(i: float) -> float:
    """The x of column ``i`` (0-based) of a table laid out in card columns."""
    return MARGIN + i * PITCH


def passes_caption(deal) -> str:
    """Which pass through the stock a table is in, for games whose ``passes`` allow more
    than one (empty otherwise: with a single pass there is nothing to say)."""
    passes = deal.options.get("passes", 1)
    if passes == 1:
        return ""
    if passes is None:
        return f"pass {deal.passes_used + 1} (passes unlimited)"
    return f"pass {deal.passes_used + 1} of {passes}"


@dataclass(frozen=True)
class Pile:
    """One zone as drawn.

    ``zone``: the name moves use (``t1``, ``f2``, ``stock``, ``waste``, ``waste1``,
    ``ladder``, ``p4.2``); ``x``, ``y``: the top-left corner of its bottom card;
    ``cards``: bottom to top, each ``(card, face_up)``; ``fan``: a key of :data:`FANS`;
    ``spread``: how many of the top cards are fanned (the others lie under the lowest
    of them), ``None`` for all; ``label``: text above the pile; ``count``: show how many
    cards it holds (a stock, where the cards do not show it); ``outline``: mark the place
    when it is empty (a Pyramid cell, once cleared, is just gone).
    """

    zone: str
    x: float
    y: float
    cards: tuple[tuple[int, bool], ...] = ()
    fan: str = "stack"
    spread: int | None = None
    label: str = ""
    count: bool = False
    outline: bool = True

    def places(self) -> list[tuple[float, float]]:
        """The top-left corner of each card, bottom to top."""
        steps = FANS[self.fan]
        n = len(self.cards)
        first = 0 if self.spread is None else max(0, n - self.spread)
        x, y = self.x, self.y
        out = []
        for i, (_card, up) in enumerate(self.cards):
            out.append((x, y))
            if i >= first:
                dx, dy = steps["up" if up else "down"]
                x, y = x + dx, y + dy
        return out

    def extent(self) -> tuple[float, float]:
        """The bottom-right corner of what the pile covers."""
        x, y = self.places()[-1] if self.cards else (self.x, self.y)
        return x + CARD_W, y + CARD_H


@dataclass(frozen=True)
class Scene:
    """A table as drawn: its piles, and an optional caption above them."""

    piles: tuple[Pile, ...]
    caption: str = ""

    def size(self) -> tuple[float, float]:
        """Width and height that hold every pile, with the margin."""
        right = max(p.extent()[0] for p in self.piles)
        bottom = max(p.extent()[1] for p in self.piles)
        return right + MARGIN, bottom + MARGIN

    def pile(self, zone: str) -> Pile | None:
        return next((p for p in self.piles if p.zone == zone), None)


@dataclass(frozen=True)
class Change:
    """What one move did to a zone: ``moved`` top cards came to it, and it ``left`` cards
    go (a card that only turned over where it lies is neither)."""

    moved: int = 0
    left: bool = False


def changes(before: Scene, after: Scene) -> dict[str, Change]:
    """The zones a move changed, from the tables before and after it (so the same for
    every kind of move: a card moved, a draw, a removal, a deal, a refill)."""
    out = {}
    old = {p.zone: p.cards for p in before.piles}
    for pile in after.piles:
        was, now = old.get(pile.zone, ()), pile.cards
        same = 0
        while same < min(len(was), len(now)) and was[same] == now[same]:
            same += 1
        # above the common bottom: the same card at the same place has only turned over
        kept = same
        while kept < min(len(was), len(now)) and was[kept][0] == now[kept][0]:
            kept += 1
        moved = len(now) - kept
        left = len(was) > kept
        if moved or left:
            out[pile.zone] = Change(moved, left)
    return out
