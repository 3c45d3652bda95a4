"""A self-contained HTML page that replays lines of play: the board drawn by the page's
own script from compact tables, buttons, a slider, keys and the list of moves.

Nothing is fetched: the stylesheet, the card faces (:func:`solver.pictures.svg.defs`),
the tables and the script are all inside the file, so it works opened from disk.

The tables are embedded once per change: each step lists only the piles that differ
from the step before (a move changes two or three zones), as a geometry number (where
the pile lies and how it fans: a table of those is shared by all steps) and its cards
as a string of two letters a card, the suit in lower case when the card is face down
(``QH`` up, ``Qh`` down). The page rebuilds each table on load.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from html import escape
from importlib.resources import files

from ..cards import card_name
from ..moves import Move
from .scene import CARD_H, CARD_W, FANS, Pile
from .steps import line_steps
from .svg import CAPTION, STYLE, defs


@dataclass
class Line:
    """A line on the page: ``name`` (its tab, when the page has several), the table it starts
    from, its moves, the step the page opens at, and marks on moves: move number (1-based)
    -> ``(kind, note)``, kind one of ``played`` (before the line offered), ``lost`` (the
    move that lost the game), ``better`` (a move that keeps it winnable), or ``""`` (a note
    only)."""

    name: str
    deal: object
    moves: list[Move]
    start: int = 0
    marks: dict[int, tuple[str, str]] = field(default_factory=dict)


def _cards(pile: Pile) -> str:
    out = []
    for card, up in pile.cards:
        name = card_name(card)
        out.append(name if up else name[0] + name[1].lower())
    return "".join(out)


class _Geometries:
    """Where piles lie and how they fan, numbered once for the whole page."""

    def __init__(self):
        self.rows: list[list] = []
        self.index: dict[tuple, int] = {}

    def number(self, pile: Pile) -> int:
        key = (pile.zone, pile.x, pile.y, pile.fan, pile.spread, pile.label, int(pile.count), int(pile.outline))
        if key not in self.index:
            self.index[key] = len(self.rows)
            self.rows.append(list(key))
        return self.index[key]


def _line_data(line: Line, geometries: _Geometries, captions: list[str]) -> tuple[dict, tuple[float, float]]:
    steps = line_steps(line.deal, line.moves)
    width = height = 0.0
    encoded, shown = [], {}
    for step in steps:
        w, h = step.scene.size()
        width, height = max(width, w), max(height, h)
        if step.scene.caption not in captions:
            captions.append(step.scene.caption)
        piles = []
        for pile in step.scene.piles:
            item = [geometries.number(pile), _cards(pile)]
            change = step.changes.get(pile.zone)
            if change:
                item += [change.moved, int(change.left)]
            if change or shown.get(pile.zone) != item[:2]:
                piles.append(item)
                shown[pile.zone] = item[:2]
        encoded.append({"p": piles, "c": captions.index(step.scene.caption)})
    moves = []
    for k, step in enumerate(steps[1:], 1):
        entry = {"t": step.text, "s": str(step.move)}
        if k in line.marks:
            entry["k"], entry["n"] = line.marks[k]
        moves.append(entry)
    data = {"name": line.name, "start": line.start, "steps": encoded, "moves": moves}
    return data, (width, height)


def page_data(lines: list[Line]) -> dict:
    """What the page's script reads (see the module docstring)."""
    geometries, captions = _Geometries(), []
    width = height = 0.0
    out = []
    for line in lines:
        data, (w, h) = _line_data(line, geometries, captions)
        out.append(data)
        width, height = max(width, w), max(height, h)
    top = CAPTION if any(captions) else 0
    return {"card": [CARD_W, CARD_H], "fans": FANS, "size": [width, height], "top": top, "captions": captions,
            "geometries": geometries.rows, "lines": out}


def _icon(path: str, cls: str = "") -> str:
    """A button's icon, drawn (a symbol font may lack the media glyphs)."""
    return (f'<svg class="icon {cls}" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">'
            f'<path d="{path}"/></svg>')


def _script_json(obj) -> str:
    # inside <script>: a "</" would end the element early
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")


def page(title: str, lines: list[Line], summary: str = "") -> str:
    """The whole HTML page (text) replaying ``lines``."""
    assets = files("solver.pictures")
    script = assets.joinpath("replay.js").read_text(encoding="utf-8")
    css = assets.joinpath("replay.css").read_text(encoding="utf-8")
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)}</title>
<style>
{css}
{STYLE}
</style>
</head>
<body>
<header><h1>{escape(title)}</h1><p id="summary">{escape(summary)}</p></header>
<nav id="lines" aria-label="lines"></nav>
<main>
<section id="table-area">
<svg id="board" class="sol-table" role="img" aria-label="the table" preserveAspectRatio="xMinYMin meet"></svg>
<div id="controls">
<button id="first" type="button" title="first table (Home)" aria-label="first">{_icon("M3 2h2v12H3zM14 2v12L6 8z")}</button>
<button id="prev" type="button" title="back one move (Left)" aria-label="back">{_icon("M12 2v12L4 8z")}</button>
<button id="play" type="button" title="play or pause (Space)" aria-label="play">{_icon("M4 2v12l9-6z", "icon-play")}{_icon("M4 2h3v12H4zM9 2h3v12H9z", "icon-pause")}<span>Play</span></button>
<button id="next" type="button" title="forward one move (Right)" aria-label="forward">{_icon("M4 2v12l8-6z")}</button>
<button id="last" type="button" title="last table (End)" aria-label="last">{_icon("M11 2h2v12h-2zM2 2v12l8-6z")}</button>
<input id="slider" type="range" min="0" max="0" value="0" aria-label="move">
</div>
<p id="now" aria-live="polite"></p>
</section>
<ol id="moves" start="0"></ol>
</main>
<svg width="0" height="0" style="position:absolute" aria-hidden="true">{defs()}</svg>
<script id="replay-data" type="application/json">{_script_json(page_data(lines))}</script>
<script>
{script}
</script>
</body>
</html>
"""
