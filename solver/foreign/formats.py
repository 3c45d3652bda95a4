"""Deal files in any known format: detect, read, write.

Formats (names for ``solitaire convert --to``):

* ``json``: the project's deal JSON (FORMATS.md);
* ``solvitaire``: Solvitaire's deal JSON (:mod:`solver.foreign.solvitaire`);
* ``shootme``: Klondike-Solver's 156-digit deck string (:mod:`solver.foreign.shootme`);
* ``pysol``: the ``Talon:`` text layout (:mod:`solver.foreign.pysol_text`).

Reading tells them apart by content: a JSON object with ``game`` (or a result
object carrying a ``deal``) is ours, one with ``tableau piles`` is Solvitaire's,
text starting ``Talon:`` is PySol's, 156 digits are a deck string. The foreign
formats carry no rule options: a deal read from them takes the given options,
else the defaults.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..deals import Deal, DealError, deal_from_json, deal_to_json
from . import pysol_text, shootme, solvitaire

FORMATS = ("json", "solvitaire", "shootme", "pysol")


def read_text(path) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as err:
        raise DealError(f"{path}: cannot read file: {err.strerror}") from None
    except UnicodeDecodeError:
        raise DealError(f"{path}: not a text file") from None


def detect(text: str) -> str:
    stripped = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#")).strip()
    if stripped.startswith("{"):
        return "json"  # ours or Solvitaire's: told apart after parsing
    if pysol_text.looks_like(stripped):
        return "pysol"
    if stripped and all(ch.isdigit() or ch.isspace() for ch in stripped):
        return "shootme"
    raise DealError("unrecognised deal format (expected the project's deal JSON, Solvitaire's deal JSON, "
                    "a 156-digit Klondike-Solver deck string, or a PySol 'Talon:' layout)")


def parse_deal(text: str, options: dict | None = None) -> tuple[Deal, str]:
    """``(deal, format name)`` from the text of a deal file."""
    fmt = detect(text)
    if fmt == "pysol":
        return pysol_text.deal_from_text(text, options), fmt
    if fmt == "shootme":
        body = "".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
        return shootme.deal_from_deck_string(body, options), fmt
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as err:
        raise DealError(f"line {err.lineno} column {err.colno}: malformed JSON: {err.msg}") from None
    if isinstance(obj, dict) and "tableau piles" in obj:
        return solvitaire.deal_from_json(obj, options), "solvitaire"
    if isinstance(obj, dict) and isinstance(obj.get("deal"), dict):
        obj = obj["deal"]  # a result object: take the deal it carries
    return deal_from_json(obj), "json"


def load_any_deal(path, options: dict | None = None) -> Deal:
    """Read a deal file in any known format; errors are :class:`DealError` naming the file."""
    try:
        return parse_deal(read_text(path), options)[0]
    except DealError as err:
        message = str(err)
        raise DealError(message if message.startswith(f"{path}:") else f"{path}: {message}") from None


def format_deal(deal: Deal, fmt: str) -> str:
    """The deal written in format ``fmt`` (text ending in a newline)."""
    if fmt == "json":
        return json.dumps(deal_to_json(deal)) + "\n"
    if fmt == "solvitaire":
        obj = solvitaire.deal_to_json(deal)
        piles = ",\n  ".join(json.dumps(p) for p in obj["tableau piles"])
        rest = "".join(f',\n "{k}": {json.dumps(v)}' for k, v in obj.items() if k != "tableau piles")
        return '{"tableau piles": [\n  ' + piles + "\n ]" + rest + "\n}\n"
    if fmt == "shootme":
        return shootme.deal_to_deck_string(deal) + "\n"
    if fmt == "pysol":
        return pysol_text.deal_to_text(deal)
    raise DealError(f"unknown deal format {fmt!r} (known: {', '.join(FORMATS)})")
