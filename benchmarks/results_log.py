"""Append a measurement to benchmarks/results.md: a dated heading, the command, the figures."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results.md"


def append(title: str, body: str, command: str | None = None) -> None:
    """Add ``## title, date``, then ``command`` as code (when given), then ``body``."""
    text = f"\n## {title}, {dt.date.today()}\n\n"
    if command:
        text += f"`{command}`\n\n"
    with open(RESULTS, "a", encoding="utf-8") as fh:
        fh.write(text + body + "\n")
