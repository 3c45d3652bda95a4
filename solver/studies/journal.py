"""A study's journal: a JSON Lines file of FORMATS.md result objects, one per finished deal.

Rows carry the added fields ``line_length``, ``limits`` and, for another program's
seed numbers, ``seed_type``; a study with a no-peek player (``batch --player no-peek``)
adds ``player`` (its settings) and the game it played (``player_result`` and the rest,
docs/formats.md); ``--no-lines`` leaves out ``moves`` and ``deal`` to keep
a study of millions of deals small. Rows are appended in the order deals finish.
Why a journal:

* a row is written (one ``write`` per group of rows) as soon as its group of
  deals comes back, so killing the run, even with ``kill -9``, loses at most the
  deals still being solved (written data outlives the process); ``fsync`` at
  most once a second bounds what a crash of the machine itself can lose;
* resuming is reading the journal: finished seeds are skipped, a torn last line
  (a write cut by a crash of the machine) is dropped and cut off the file, so no
  deal is lost or solved twice;
* only the main process writes; workers return text, so a worker cannot tear
  or interleave a line.

Rows are deterministic apart from ``seconds``: with a node limit every field
but ``seconds`` is a function of (game, options, seed, limits); with a time
limit, a deal near the limit may come out ``unknown`` on a slower run.

A study too long for one sitting (10^5 deals) is carried between machines by its
*packed* journal, ``study.jsonl.gz`` (``batch --pack``): the rows sorted by seed and
gzipped (a tenth of the size, small enough to commit), so it does not depend on which
run finished which deal first. A run reads it into the journal first, adding the
seeds the journal lacks (a fresh clone has only the packed copy; a machine that ran
another part has a journal without them): no finished deal is solved again.
"""

from __future__ import annotations

import gzip
import json
import os
import zlib
from dataclasses import dataclass
from pathlib import Path

from ..options import OptionError, resolve, variant_name
from ..engine.memory import DEFAULT_MEMORY_MB
from . import BatchError



@dataclass
class Journal:
    path: Path
    rows: list            # parsed rows, in file order
    good_bytes: int       # length of the file up to the last whole line
    torn: bool            # a torn last line was found (and will be cut off)


ROW_START = b'{"game"'


def _looks_torn(raw: bytes) -> bool:
    """The remains of a row cut by a crash: a prefix of a row, or the zero bytes a file
    system can leave after a power cut. Anything else is not ours to cut off."""
    frag = raw.strip(b"\0 \t\r")
    return not frag or frag.startswith(ROW_START) or ROW_START.startswith(frag)


def read_journal(path) -> Journal:
    """Read a journal; a torn last line (see :func:`_looks_torn`) is reported, not read."""
    from ..files import unreadable

    path = Path(path)
    problem = unreadable(path) if path.exists() else None
    if problem:
        raise BatchError(f"{path}: {problem}")
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return Journal(path, [], 0, False)
    except OSError as err:
        raise BatchError(f"{path}: cannot read: {err.strerror}") from None
    if is_packed(path):
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as err:
            raise BatchError(f"{path}: not a packed journal (gzip): {err}") from None
    rows, pos, torn = [], 0, False
    lines = data.split(b"\n")
    for number, raw in enumerate(lines, 1):
        if number == len(lines):     # after the last newline
            if raw and _looks_torn(raw):
                torn = True          # the write of this line was cut
                break
            if not raw:
                break
        try:
            row = json.loads(raw)
            if not isinstance(row, dict) or not {"game", "seed", "verdict"} <= set(row):
                raise ValueError("not a result row")
        except ValueError:
            is_last = number == len(lines) or number == len(lines) - 1 and not lines[-1].strip(b"\0")
            if is_last and _looks_torn(raw):
                torn = True          # the last line is a cut row (and perhaps zero bytes after it)
                break
            raise BatchError(f"{path} line {number}: not a batch result row (a JSON object with game, "
                             f"seed, verdict)") from None
        rows.append(row)
        pos += len(raw) + 1
    return Journal(path, rows, pos, torn)


def is_packed(path) -> bool:
    return Path(path).name.lower().endswith(".jsonl.gz")


def packed_path(out) -> Path:
    """The packed copy of journal ``out`` (``study.jsonl`` -> ``study.jsonl.gz``)."""
    return Path(str(out) + ".gz")


def write_packed(out) -> Path:
    """Write the packed copy of journal ``out`` (module docstring): its rows sorted by
    seed, gzipped with no time stamp, written whole or not at all."""
    journal = read_journal(out)
    with open(out, "rb") as fh:
        lines = fh.read(journal.good_bytes).split(b"\n")[:len(journal.rows)]
    order = sorted(range(len(lines)), key=lambda i: journal.rows[i]["seed"])
    packed = packed_path(out)
    tmp = Path(str(packed) + ".tmp")
    with open(tmp, "wb") as raw, gzip.GzipFile(filename="", fileobj=raw, mode="wb", compresslevel=9, mtime=0) as fh:
        fh.write(b"".join(lines[i] + b"\n" for i in order))
    os.replace(tmp, packed)
    return packed


def merge_packed(out, fh, journal: Journal, done: set) -> int:
    """Append to the journal (open as ``fh``, positioned at its end) the rows of its
    packed copy whose seeds it lacks; the number appended."""
    packed = packed_path(out)
    if not packed.exists():
        return 0
    rows = read_journal(packed)
    if rows.torn:
        raise BatchError(f"{packed}: the packed journal is cut short")
    with gzip.open(packed, "rb") as src:
        lines = src.read().split(b"\n")
    new = [line + b"\n" for line, row in zip(lines, rows.rows) if row["seed"] not in done]
    fh.write(b"".join(new))
    fh.flush()
    for row in rows.rows:
        if row["seed"] not in done:
            journal.rows.append(row)
            done.add(row["seed"])
    return len(new)


def normal_limits(limits: dict) -> dict:
    """Limits in one spelling (``1024`` and ``1024.0`` MB are the same study)."""
    def number(value, kind):
        return None if value is None else kind(value)

    return {"max_nodes": number(limits.get("max_nodes"), int),
            "time_limit": number(limits.get("time_limit"), float),
            "memory_mb": number(limits.get("memory_mb", DEFAULT_MEMORY_MB), float)}


def _study_label(game, options, limits, seed_type="ours", player=None) -> str:
    lim = ", ".join(f"{k}={v}" for k, v in normal_limits(limits).items())
    return f"{variant_label(game, options, seed_type, player)} ({lim})"


def player_label(player: dict) -> str:
    """A study's player as its name says it: ``no-peek hidden=tableau samples=12/36 nodes=20000
    stall=120 patience=24 bulk=96@2000 seed=0`` (every setting, so that two players' studies are
    never merged; rows of a player from before the bulk settings have no ``bulk``)."""
    bulk = f"bulk={player['bulk_samples']}@{player.get('bulk_nodes')} " if "bulk_samples" in player else ""
    return (f"{player.get('name')} hidden={player.get('hidden')} samples={player.get('samples')}/"
            f"{player.get('max_samples')} nodes={player.get('max_nodes')} stall={player.get('stall')} "
            f"patience={player.get('patience')} {bulk}seed={player.get('player_seed')}")


def variant_label(game, options, seed_type="ours", player=None) -> str:
    """The variant's name; deals numbered by another tool are another study, and so is a study
    with a no-peek player (its settings named)."""
    name = variant_name(game, options)
    if seed_type != "ours":
        name = f"{name}, {seed_type} seeds"
    return name if not player else f"{name}, {player_label(player)}"


def check_journal(journal: Journal, game: str, options: dict, limits: dict, seed_type: str = "ours",
                  player: dict | None = None) -> set:
    """The finished seeds; refuse a journal of another game, options, limits, seed type or player."""
    done = set()
    want = _study_label(game, options, limits, seed_type, player)
    for number, row in enumerate(journal.rows, 1):
        try:
            got_options = resolve(row["game"], row.get("options"))
            got = _study_label(row["game"], got_options, row.get("limits", {}), row.get("seed_type", "ours"),
                               row.get("player"))
        except (OptionError, TypeError, ValueError, AttributeError):
            got = f"{row.get('game')} {row.get('options')} {row.get('limits')}"
        if got != want:
            raise BatchError(f"{journal.path} line {number}: the journal holds {got}, not {want}; "
                             f"use another --out or the same options, limits, seed type and player")
        done.add(row["seed"])
    return done


def check_out_path(out) -> Path:
    out = Path(out)
    if is_packed(out):
        raise BatchError(f"{out}: --out names the journal ({out.name[:-3]}), not its packed copy (which a run "
                         f"reads from beside the journal)")
    if out.suffix.lower() == ".csv":
        raise BatchError(f"{out}: --out names the journal (JSON Lines, e.g. study.jsonl); "
                         f"the CSV table is written next to it")
    from ..files import unwritable

    if out.is_dir():
        raise BatchError(f"{out}: is a directory; --out names the journal file (e.g. {out}/study.jsonl)")
    if not out.parent.exists():
        try:
            out.parent.mkdir(parents=True)   # a new study in a new folder
        except OSError as err:
            raise BatchError(f"{out}: cannot make the folder {str(out.parent)!r}: {err.strerror}") from None
    problem = unwritable(out)
    if problem:
        raise BatchError(f"{out}: {problem}")
    return out


def csv_path(out) -> Path:
    return Path(out).with_suffix(".csv")


class _Lock:
    """An exclusive lock on the journal, so that two runs never append to one study."""

    def __init__(self, fh, path):
        self.fh = fh
        try:
            import fcntl
        except ImportError:  # pragma: no cover - not POSIX: no lock
            return
        try:
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise BatchError(f"{path}: another batch run is writing this journal") from None
