"""A :class:`~solver.pictures.scene.Scene` drawn as SVG, the same for every game.

Each card face is drawn once, in ``<defs>`` (:func:`defs`), and placed with ``<use>``;
the replay page embeds the same defs and stylesheet and places cards the same way
from its script, so a card looks the same in a notebook and on the page. The suit
symbols are paths, not font glyphs, so they show on a machine without a suit font.

What the SVG shows is readable by programs (the tests, the replay page's test):
each pile is a ``<g data-zone="t1">``, each card in it a
``<g class="card" data-card="QH" data-face="up">``, bottom to top.
"""

from __future__ import annotations

from html import escape

from ..cards import SUITS, card_name, is_red
from .scene import CARD_H, CARD_W, Change, Pile, Scene

PREFIX = "sol-"          # of every id, so that tables inlined in one document share defs safely
CAPTION = 20             # room above the table for a caption
RED, BLACK = "#c8102e", "#1a1a1a"

_SUIT_PATHS = {
    "C": ('<circle cx="50" cy="28" r="21"/><circle cx="27" cy="58" r="21"/><circle cx="73" cy="58" r="21"/>'
          '<circle cx="50" cy="52" r="12"/><path d="M45 55C45 78 40 89 31 98H69C60 89 55 78 55 55Z"/>'),
    "D": '<path d="M50 2L90 50L50 98L10 50Z"/>',
    "H": ('<path d="M50 94C21 70 3 50 3 29C3 13 15 3 29 3C39 3 46 9 50 18C54 9 61 3 71 3C85 3 97 13 97 29'
          'C97 50 79 70 50 94Z"/>'),
    "S": ('<path d="M50 3C79 29 97 45 97 63C97 77 86 85 74 85C65 85 58 81 54 74C55 85 59 92 67 98H33'
          'C41 92 45 85 46 74C42 81 35 85 26 85C14 85 3 77 3 63C3 45 21 29 50 3Z"/>'),
}

# The stylesheet of a table (also the replay page's): the look, kept apart from the geometry.
STYLE = """
svg.sol-table { font-family: sans-serif; }
svg.sol-table .felt { fill: #1f6e3d; }
svg.sol-table .caption { fill: #f3f7f3; font-size: 13px; }
svg.sol-table .label { fill: #dcebdc; font-size: 13px; }
svg.sol-table .slot { fill: rgba(0, 0, 0, 0.15); stroke: rgba(255, 255, 255, 0.55); stroke-width: 1.2;
  stroke-dasharray: 4 3; }
svg.sol-table .count rect { fill: #263238; stroke: #fff; stroke-width: 0.8; }
svg.sol-table .count text { fill: #fff; font-size: 10px; font-weight: bold; text-anchor: middle; }
svg.sol-table .mark { fill: none; stroke: #ffb300; stroke-width: 3.5; }
svg.sol-table .from { fill: none; stroke: #ffb300; stroke-width: 2; stroke-dasharray: 5 3; }
""".strip()


def num(x: float) -> str:
    """A coordinate as SVG writes it (``64``, not ``64.0``)."""
    return str(int(x)) if float(x).is_integer() else f"{x:.2f}".rstrip("0")


# --------------------------------------------------------------------------
# The cards, drawn once
# --------------------------------------------------------------------------
def _index(rank_text: str, suit_letter: str, colour: str) -> str:
    """Rank and suit in a corner: they are what shows of a card under the next one of a fan."""
    tight = ' letter-spacing="-1.5"' if len(rank_text) > 1 else ""
    sx = 17 if len(rank_text) == 1 else 23
    return (f'<text x="3" y="17" font-size="17" font-weight="bold" fill="{colour}"{tight}>{rank_text}</text>'
            f'<use href="#{PREFIX}s{suit_letter}" x="{sx}" y="4" width="14" height="14"/>')


def card_face(card: int) -> str:
    name = card_name(card)
    rank_text = "10" if name[0] == "T" else name[0]
    colour = RED if is_red(card) else BLACK
    corner = _index(rank_text, name[1], colour)
    return (f'<g id="{PREFIX}{name}"><rect x="0.5" y="0.5" width="{CARD_W - 1}" height="{CARD_H - 1}" rx="5" '
            f'fill="#fff" stroke="#555"/>{corner}'
            # the big pip sits in the upper half, which is what shows of a Pyramid card half covered
            f'<use href="#{PREFIX}s{name[1]}" x="{CARD_W / 2 - 12:g}" y="21" width="24" height="24"/>'
            f'<g transform="rotate(180 {CARD_W / 2:g} {CARD_H / 2:g})">{corner}</g></g>')


def card_back() -> str:
    return (f'<g id="{PREFIX}back"><rect x="0.5" y="0.5" width="{CARD_W - 1}" height="{CARD_H - 1}" rx="5" '
            f'fill="#2f5fa7" stroke="#1b3a6b"/><rect x="4" y="4" width="{CARD_W - 8}" height="{CARD_H - 8}" '
            f'rx="3" fill="none" stroke="#c9d7ef" stroke-width="1.2"/>'
            f'<path d="M{CARD_W / 2:g} 14L{CARD_W - 12} {CARD_H / 2:g}L{CARD_W / 2:g} {CARD_H - 14}'
            f'L12 {CARD_H / 2:g}Z" fill="none" stroke="#c9d7ef" stroke-width="1.2"/></g>')


def defs(cards=None) -> str:
    """The ``<defs>`` for ``cards`` (card numbers; every card when None) and the back."""
    wanted = sorted(set(range(52) if cards is None else cards))
    suits = "".join(f'<symbol id="{PREFIX}s{s}" viewBox="0 0 100 100" fill="{RED if s in "DH" else BLACK}">'
                    f'{_SUIT_PATHS[s]}</symbol>' for s in SUITS)
    return "<defs>" + suits + card_back() + "".join(card_face(c) for c in wanted) + "</defs>"


# --------------------------------------------------------------------------
# A table
# --------------------------------------------------------------------------
def pile_svg(pile: Pile, change: Change | None = None) -> str:
    parts = [f'<g data-zone="{escape(pile.zone)}">']
    if pile.label:
        parts.append(f'<text class="label" x="{num(pile.x)}" y="{num(pile.y - 4)}">{escape(pile.label)}</text>')
    if not pile.cards and pile.outline:
        parts.append(f'<rect class="slot" x="{num(pile.x)}" y="{num(pile.y)}" width="{CARD_W}" '
                     f'height="{CARD_H}" rx="5"/>')
    places = pile.places()
    moved = change.moved if change else 0
    for i, ((card, up), (x, y)) in enumerate(zip(pile.cards, places)):
        is_moved = i >= len(pile.cards) - moved
        parts.append(f'<g class="card{" moved" if is_moved else ""}" data-card="{card_name(card)}" '
                     f'data-face="{"up" if up else "down"}" transform="translate({num(x)},{num(y)})">'
                     f'<use href="#{PREFIX}{card_name(card) if up else "back"}"/>'
                     + (f'<rect class="mark" x="-2" y="-2" width="{CARD_W + 4}" height="{CARD_H + 4}" rx="6"/>'
                        if is_moved else "") + "</g>")
    x, y = places[-1] if places else (pile.x, pile.y)
    if change and change.left:
        parts.append(f'<rect class="from" x="{num(x - 3)}" y="{num(y - 3)}" width="{CARD_W + 6}" '
                     f'height="{CARD_H + 6}" rx="7"/>')
    if pile.count and pile.cards:
        parts.append(f'<g class="count"><rect x="{num(x + CARD_W - 22)}" y="{num(y + CARD_H - 15)}" width="24" '
                     f'height="15" rx="7"/><text x="{num(x + CARD_W - 10)}" y="{num(y + CARD_H - 4)}">'
                     f'{len(pile.cards)}</text></g>')
    parts.append("</g>")
    return "".join(parts)


def render(scene: Scene, changes: dict[str, Change] | None = None, *, style: bool = True) -> str:
    """The SVG of ``scene``; ``changes`` (from :func:`~solver.pictures.scene.changes`) marks
    the cards a move brought and the zones it took cards from. The SVG scales to the
    width it is given (a viewBox) and is at its natural size by default."""
    width, height = scene.size()
    top = CAPTION if scene.caption else 0
    changes = changes or {}
    used = {card for pile in scene.piles for card, up in pile.cards if up}
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="sol-table" viewBox="0 0 {num(width)} '
           f'{num(height + top)}" width="{num(width)}" height="{num(height + top)}" role="img">']
    if style:
        out.append(f"<style>{STYLE}</style>")
    out.append(defs(used))
    out.append(f'<rect class="felt" width="{num(width)}" height="{num(height + top)}" rx="6"/>')
    if scene.caption:
        out.append(f'<text class="caption" x="10" y="15">{escape(scene.caption)}</text>')
    out.append(f'<g transform="translate(0,{top})">' if top else "<g>")
    out.extend(pile_svg(p, changes.get(p.zone)) for p in scene.piles)
    out.append("</g></svg>")
    return "".join(out)
