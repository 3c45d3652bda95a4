"""A study's per-deal table: the journal's rows as a pandas DataFrame, and its CSV."""

from __future__ import annotations

import json
import os
from pathlib import Path

from ..deals import DealError
from ..options import OptionError, resolve
from . import BatchError
from .journal import (player_label, read_journal, variant_label)

CSV_COLUMNS = ["game", "variant", "options", "seed", "seed_type", "verdict", "nodes", "seconds", "line_length", "reason",
               "max_nodes", "time_limit", "memory_mb", "player", "player_result", "player_end", "player_length",
               "player_seconds"]


def rows_frame(rows: list):
    import pandas as pd

    records = []
    for row in rows:
        options = resolve(row["game"], row.get("options"))
        limits = row.get("limits") or {}
        player = row.get("player")
        records.append({
            "game": row["game"], "variant": variant_label(row["game"], options, row.get("seed_type", "ours"), player),
            "options": json.dumps(options, sort_keys=True), "seed": row["seed"],
            "seed_type": row.get("seed_type", "ours"), "verdict": row["verdict"],
            "nodes": row.get("nodes"), "seconds": row.get("seconds"),
            "line_length": row.get("line_length", len(row.get("moves") or [])), "reason": row.get("reason"),
            "max_nodes": limits.get("max_nodes"), "time_limit": limits.get("time_limit"),
            "memory_mb": limits.get("memory_mb"),
            "player": player_label(player) if player else None, "player_result": row.get("player_result"),
            "player_end": row.get("player_end"), "player_length": row.get("player_length"),
            "player_seconds": row.get("player_seconds"),
        })
    frame = _typed(pd.DataFrame.from_records(records, columns=CSV_COLUMNS))
    frame = frame.drop_duplicates(subset=["variant", "seed"], keep="first")   # variant names the seed type
    return frame.sort_values(["variant", "seed"], kind="stable").reset_index(drop=True)


COLUMN_TYPES = {"game": "string", "variant": "string", "options": "string", "seed": "uint64", "seed_type": "string",
                "verdict": "string", "nodes": "int64", "seconds": "float64", "line_length": "int64",
                "reason": "string", "max_nodes": "Int64", "time_limit": "float64", "memory_mb": "float64",
                "player": "string", "player_result": "string", "player_end": "string", "player_length": "Int64",
                "player_seconds": "float64"}


def _typed(frame):
    """The same column types whether the rows came from a journal or a CSV."""
    return frame.astype({c: t for c, t in COLUMN_TYPES.items() if c in frame.columns})


def load_study(path):
    """One DataFrame (columns :data:`CSV_COLUMNS`) from a journal (``.jsonl``) or its CSV."""
    import pandas as pd

    from ..files import unreadable

    path = Path(path)
    problem = unreadable(path)
    if problem:
        raise BatchError(f"{path}: {problem}")
    if path.suffix.lower() == ".csv":
        try:
            frame = pd.read_csv(path, dtype={"reason": "object", "options": "object"})
        except (ValueError, pd.errors.ParserError, UnicodeDecodeError) as err:
            raise BatchError(f"{path}: not a study table: {' '.join(str(err).split())}") from None
        missing = [c for c in ("game", "variant", "seed", "verdict", "nodes", "seconds") if c not in frame]
        if missing:
            raise BatchError(f"{path}: not a study table (no column {missing[0]!r})")
        try:
            return _typed(frame)
        except (ValueError, TypeError) as err:
            raise BatchError(f"{path}: not a study table: {err}") from None
    journal = read_journal(path)
    try:
        return rows_frame(journal.rows)
    except (OptionError, DealError, KeyError) as err:
        raise BatchError(f"{path}: bad row: {err}") from None


def write_csv(frame, path) -> None:
    tmp = Path(str(path) + ".tmp")
    frame.to_csv(tmp, index=False)
    os.replace(tmp, path)   # never a half-written table
