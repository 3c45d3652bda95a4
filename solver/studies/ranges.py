"""Seed ranges of a study: ``"1-100,200"`` -> merged inclusive ranges, and the seeds left to do."""

from __future__ import annotations

from ..deals import MASK64
from . import BatchError


def parse_seeds(text: str) -> list[tuple[int, int]]:
    """``"1-100,200,300-310"`` -> merged inclusive ranges ``[(1, 100), (200, 200), (300, 310)]``.

    >>> parse_seeds("5-9,1-6,20")
    [(1, 9), (20, 20)]
    >>> parse_seeds("10-1")
    Traceback (most recent call last):
    ...
    solver.studies.BatchError: seeds '10-1': the range runs backwards (10 > 1)
    """
    ranges = []
    if not isinstance(text, str) or not text.strip():
        raise BatchError("seeds: give a range such as 1-1000")
    for part in text.split(","):
        part = part.strip()
        lo_text, dash, hi_text = part.partition("-")
        try:
            lo = int(lo_text)
            hi = int(hi_text) if dash else lo
        except ValueError:
            raise BatchError(f"seeds {part!r}: expected N or A-B with whole numbers (e.g. 1-1000)") from None
        if lo < 0 or hi > MASK64:
            raise BatchError(f"seeds {part!r}: seeds run from 0 to 2**64-1")
        if lo > hi:
            raise BatchError(f"seeds {part!r}: the range runs backwards ({lo} > {hi})")
        ranges.append((lo, hi))
    ranges.sort()
    merged = [ranges[0]]
    for lo, hi in ranges[1:]:
        if lo <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(hi, merged[-1][1]))
        else:
            merged.append((lo, hi))
    return merged


def _as_ranges(seeds) -> list[tuple[int, int]]:
    if isinstance(seeds, str):
        return parse_seeds(seeds)
    if isinstance(seeds, range) and seeds.step == 1:
        return parse_seeds(f"{seeds.start}-{seeds.stop - 1}") if len(seeds) else []
    return parse_seeds(",".join(str(int(s)) for s in seeds)) if seeds else []


def _count(ranges) -> int:
    return sum(hi - lo + 1 for lo, hi in ranges)


def _todo(ranges, done):
    for lo, hi in ranges:
        seed = lo
        while seed <= hi:
            if seed not in done:
                yield seed
            seed += 1
