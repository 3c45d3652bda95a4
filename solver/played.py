"""The moves a person has played: read them (file or command line) and replay them.

Accepted inputs:

* a moves file holding FORMATS.md move JSON, as a JSON list or JSON Lines, or a
  result object (its ``moves``);
* a text moves file: one or more compact moves per line (``7S t3-t5 draw``), or
  one readable move per line (``7♠ from pile 3 onto 8♥ in pile 5``); blank lines,
  ``#`` comments and a leading move number (``12.``, as ``solve`` prints) are
  ignored; so is what ``solve``, ``hint`` and ``review`` print around a line (their
  header lines), and of a line ending in ``[compact]`` (``hint --all``) the bracketed
  compact move is read: whatever the tool prints as a line reads back;
* ``--played "MOVES"``: compact moves separated by spaces, or any notation
  separated by ``;`` or new lines.

Text moves are read on the table they are played on, since the readable notation
refers to it (:mod:`solver.notation`). Every move is replayed by the reference
rules; the first illegal one is an error naming the move, where it came from, and
the rules' reason.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from .deals import Deal
from .moves import Move, MoveFormatError
from .notation import parse_any
from .registry import game
from .replay import IllegalMove


class PlayedMoveError(MoveFormatError):
    """A played move that cannot be read or is not legal where it is played."""


@dataclass(frozen=True)
class Played:
    """One played move before it is read: a Move (from JSON) or text, and where it came from."""

    where: str
    move: Move | None = None
    text: str | None = None


_NUMBER = re.compile(r"^\s*\d+[.)]\s*")
_SIMPLE = {"draw", "redeal", "deal"}
_BRACKETED = re.compile(r"^(?:next:\s*)?.*\[([^\[\]]+)\]\s*$")   # "readable   [compact]", as hint prints
# what solve, hint and review print around a line, which a moves file may carry along: their
# first line names the game (then the deal, its options and what was found), and the others
_HEADER = re.compile(r"^(?:line \(\d+ moves?\):|winnable: .*|the game is won.*|no winning line .*|no hint: .*)$")


def _names_a_game(text: str) -> bool:
    from .registry import names

    head = text.split(" ", 1)[0]
    return head in names() and (":" in text)


def tool_line(line: str) -> str | None:
    """The move text of a line the tool printed, or None for one of its header lines:
    ``12. 7S t3-t5`` is ``7S t3-t5``; ``  3. draw (3♥)   [draw]`` is ``draw`` (the
    compact notation in brackets); ``klondike seed 2 (draw=1, ...): won ...`` is skipped."""
    text = _NUMBER.sub("", line).strip()
    if _HEADER.match(text) or _names_a_game(text):
        return None
    bracketed = _BRACKETED.match(text)
    return bracketed.group(1).strip() if bracketed else text


def split_compact(text: str) -> list[str] | None:
    """Split space-separated compact moves (``7S t3-t5 draw remove KC@p7.1``); None if not compact."""
    words, out, i = text.split(), [], 0
    while i < len(words):
        w = words[i]
        if w in _SIMPLE:
            out.append(w)
            i += 1
        elif w == "remove":
            j = i + 1
            while j < len(words) and j < i + 3 and "@" in words[j]:
                j += 1
            if j == i + 1:
                return None
            out.append(" ".join(words[i:j]))
            i = j
        elif i + 1 < len(words) and re.fullmatch(r"[a-z0-9]+-[a-z0-9.]+", words[i + 1]) and "@" not in w:
            out.append(f"{w} {words[i + 1]}")
            i += 2
        else:
            return None
    return out


def _text_entries(chunks: list[tuple[str, str]]) -> list[Played]:
    """``chunks``: (where, text) pieces, each one line or one ``;`` part."""
    out = []
    for where, chunk in chunks:
        chunk = tool_line(chunk.split("#", 1)[0])
        if not chunk:
            continue
        compact = split_compact(chunk)
        if compact is not None and len(compact) > 1:
            out += [Played(f"{where}, move {k}", text=t) for k, t in enumerate(compact, 1)]
        else:
            out.append(Played(where, text=chunk))
    return out


def parse_played(text: str) -> list[Played]:
    """The ``--played`` argument."""
    parts = re.split(r"[;\n]", text)
    return _text_entries([(f"--played part {i}" if len(parts) > 1 else "--played", p)
                          for i, p in enumerate(parts, 1)])


def read_moves_file(path) -> list[Played]:
    from .files import unreadable

    problem = unreadable(path)
    if problem:
        raise PlayedMoveError(f"{path}: {problem}")
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as err:
        raise PlayedMoveError(f"{path}: cannot read file: {getattr(err, 'strerror', None) or err}") from None
    stripped = text.lstrip()
    if stripped.startswith(("[", "{")):
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as err:
            if stripped.startswith("["):
                raise PlayedMoveError(f"{path}: line {err.lineno} column {err.colno}: malformed JSON: {err.msg}") \
                    from None
            return _json_lines(path, text)      # several objects: JSON Lines
        if isinstance(obj, dict) and isinstance(obj.get("moves"), list):
            obj = obj["moves"]                  # a result object
        elif isinstance(obj, dict):
            obj = [obj]                         # JSON Lines holding one move
        if not isinstance(obj, list):
            raise PlayedMoveError(f"{path}: expected a list of moves")
        return [_json_entry(m, f"{path}: move {i}") for i, m in enumerate(obj, 1)]
    return _text_entries([(f"{path}: line {n}", line) for n, line in enumerate(text.splitlines(), 1)])


def _json_lines(path, text: str) -> list[Played]:
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as err:
            raise PlayedMoveError(f"{path}: line {n}: malformed JSON: {err.msg}") from None
        out.append(_json_entry(obj, f"{path}: line {n}"))
    return out


def _json_entry(obj, where: str) -> Played:
    try:
        return Played(where, move=Move.from_json(obj))
    except MoveFormatError as err:
        raise PlayedMoveError(f"{where}: {err}") from None


def replay_played(deal: Deal, played: list[Played]) -> tuple[list, list[Move]]:
    """Replay ``played`` from ``deal``: (positions before and after each move, the moves).

    ``positions[k]`` is the table after ``k`` moves. Raises :class:`PlayedMoveError`
    naming the first move that cannot be read or is illegal, and why.
    """
    r = game(deal.game).rules
    pos = r.initial(deal)
    positions, moves = [pos], []
    for k, entry in enumerate(played, 1):
        move = entry.move
        if move is None:
            try:
                move = parse_any(entry.text, r.to_deal(pos))
            except MoveFormatError as err:
                raise PlayedMoveError(f"move {k} ({entry.where}): {err}") from None
        try:
            pos = r.play(pos, move)
        except IllegalMove as err:
            raise PlayedMoveError(f"move {k} ({entry.where}) '{entry.text or move}' is illegal: {err}") from None
        positions.append(pos)
        moves.append(move)
    return positions, moves
