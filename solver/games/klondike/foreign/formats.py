"""Other programs' Klondike deal files: detect, read, write.

Formats (names for ``solitaire convert --to``):

* ``solvitaire``: Solvitaire's deal JSON (:mod:`solver.games.klondike.foreign.solvitaire`);
* ``shootme``: Klondike-Solver's 156-digit deck string (:mod:`solver.games.klondike.foreign.shootme`);
* ``pysol``: the ``Talon:`` text layout (:mod:`solver.games.klondike.foreign.pysol_text`).

Reading tells them apart by content (:func:`solver.deals.load_any_deal` reads the
project's own JSON first): a JSON object with ``tableau piles`` is Solvitaire's,
text starting ``Talon:`` is PySol's, 156 digits are a deck string. The foreign
formats carry no rule options: a deal read from them takes the given options,
else the defaults.
"""

from __future__ import annotations

import json

from ....deals import Deal, DealError
from . import pysol_text, shootme, solvitaire

FORMATS = ("solvitaire", "shootme", "pysol")
DESCRIPTION = "Solvitaire's deal JSON, a 156-digit Klondike-Solver deck string, or a PySol 'Talon:' layout"


def _without_comments(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#")).strip()


def read_foreign(text: str, options: dict | None = None) -> Deal | None:
    """The Klondike deal in ``text`` in one of :data:`FORMATS`, or None if it is in none of them."""
    stripped = _without_comments(text)
    if stripped.startswith("{"):
        try:
            obj = json.loads(text)
        except json.JSONDecodeError:
            return None
        if isinstance(obj, dict) and "tableau piles" in obj:
            return solvitaire.deal_from_json(obj, options)
        return None
    if pysol_text.looks_like(stripped):
        return pysol_text.deal_from_text(text, options)
    if stripped and all(ch.isdigit() or ch.isspace() for ch in stripped):
        body = "".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
        return shootme.deal_from_deck_string(body, options)
    return None


def format_deal(deal: Deal, fmt: str) -> str:
    """The deal written in format ``fmt`` (text ending in a newline)."""
    if fmt == "solvitaire":
        obj = solvitaire.deal_to_json(deal)
        piles = ",\n  ".join(json.dumps(p) for p in obj["tableau piles"])
        rest = "".join(f',\n "{k}": {json.dumps(v)}' for k, v in obj.items() if k != "tableau piles")
        return '{"tableau piles": [\n  ' + piles + "\n ]" + rest + "\n}\n"
    if fmt == "shootme":
        return shootme.deal_to_deck_string(deal) + "\n"
    if fmt == "pysol":
        return pysol_text.deal_to_text(deal)
    raise DealError(f"unknown deal format {fmt!r} (known: json, {', '.join(FORMATS)})")
