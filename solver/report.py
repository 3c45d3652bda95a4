"""Win-rate tables from batch studies: one row per variant (or per ``by`` group).

The win rate is ``won / (won + lost)``: the share of decided deals that are
won, with its 95% Wilson score interval. Unknown deals (a limit was reached) are
left out of it, so the table also gives the two rates that bound any answer
for them: every unknown lost (``won / deals``) and every unknown won
(``(won + unknown) / deals``).

A study with a no-peek player (``batch --player no-peek``) adds the player's rate
beside it: ``player_won`` of the deals it played, ``player_rate`` with its Wilson
interval, and ``winnable_lost``, the share of the deals proved winnable (``won``)
that the player lost. Every game the player plays ends won or lost, so its rate
counts every deal played.

>>> lo, hi = wilson_interval(8, 10)
>>> round(lo, 4), round(hi, 4)
(0.4902, 0.9433)
"""

from __future__ import annotations

import json
import math

Z95 = 1.959963984540054   # the 97.5% point of the standard normal

FORMATS = ("table", "csv", "markdown", "json")
DEFAULT_BY = ("variant",)


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (NaN, NaN with no trials)."""
    if trials <= 0:
        return math.nan, math.nan
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    return max(0.0, centre - half), min(1.0, centre + half)


def load_rows(studies):
    """The per-deal rows of ``studies`` (paths of journals or CSVs, or DataFrames) in one DataFrame."""
    import pandas as pd

    from .studies import BatchError
    from .studies.table import load_study

    if isinstance(studies, (str, bytes, pd.DataFrame)) or hasattr(studies, "__fspath__"):
        studies = [studies]
    frames = [s if isinstance(s, pd.DataFrame) else load_study(s) for s in studies]
    if not frames:
        raise BatchError("report: no studies given")
    rows = pd.concat(frames, ignore_index=True)
    if rows.empty:
        raise BatchError("report: the studies hold no deals yet")
    return rows


def summarize(studies, by=DEFAULT_BY):
    """The win-rate DataFrame of ``studies``: paths (journals or CSVs), or per-deal DataFrames.

    One row per group of ``by`` (column names of the per-deal rows: ``variant``,
    ``game``, ``reason``, ``time_limit``, ``max_nodes``...).
    """
    import numpy as np
    import pandas as pd

    from .studies import BatchError

    rows = load_rows(studies)
    players = _has_players(rows)
    by = list(by or DEFAULT_BY)
    for name in by:
        if name not in rows.columns:
            raise BatchError(f"report: cannot group by {name!r} (columns: {', '.join(rows.columns)})")
    # the same deal in two files counts once
    rows = rows.drop_duplicates(subset=["variant", "seed"] + [b for b in by if b != "variant"], keep="first")
    out = []
    for key, group in rows.groupby(by, sort=True, dropna=False):
        key = key if isinstance(key, tuple) else (key,)
        verdicts = group["verdict"].value_counts()
        won, lost, unknown = (int(verdicts.get(v, 0)) for v in ("won", "lost", "unknown"))
        deals = len(group)
        decided = won + lost
        low, high = wilson_interval(won, decided)
        record = dict(zip(by, key))
        record.update(
            deals=deals, won=won, lost=lost, unknown=unknown,
            win_rate=won / decided if decided else math.nan, ci95_low=low, ci95_high=high,
            if_unknown_lost=won / deals, if_unknown_won=(won + unknown) / deals,
        )
        for column, label in (("seconds", "s"), ("nodes", "nodes")):
            values = group[column].to_numpy(dtype=float)
            for name, q in (("median", 0.5), ("p90", 0.9), ("p99", 0.99)):
                record[f"{name}_{label}"] = float(np.quantile(values, q))
            record[f"max_{label}"] = float(values.max())
        if players:
            record.update(_player_record(group))
        out.append(record)
    return pd.DataFrame.from_records(out)


PLAYER_COLUMNS = ("player_deals", "player_won", "player_rate", "player_ci95_low", "player_ci95_high", "winnable_lost",
                  "player_median_s", "player_mean_s")


def _has_players(rows) -> bool:
    return "player_result" in rows.columns and bool(rows["player_result"].notna().any())


def _player_record(group) -> dict:
    """The no-peek player's figures of one group (NaN where the group has no player)."""
    import numpy as np

    played = group[group["player_result"].notna()]
    n = len(played)
    won = int((played["player_result"] == "won").sum())
    low, high = wilson_interval(won, n)
    winnable = played[played["verdict"] == "won"]
    lost = int((winnable["player_result"] != "won").sum())
    seconds = played["player_seconds"].to_numpy(dtype=float)
    return {"player_deals": n, "player_won": won, "player_rate": won / n if n else math.nan,
            "player_ci95_low": low, "player_ci95_high": high,
            "winnable_lost": lost / len(winnable) if len(winnable) else math.nan,
            "player_median_s": float(np.median(seconds)) if n else math.nan,
            "player_mean_s": float(seconds.mean()) if n else math.nan}


# --------------------------------------------------------------------------
# Rendering
# --------------------------------------------------------------------------
RATE_COLUMNS = ("win_rate", "ci95_low", "ci95_high", "if_unknown_lost", "if_unknown_won", "player_rate",
                "player_ci95_low", "player_ci95_high", "winnable_lost")


def _cell(column: str, value) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    if column in RATE_COLUMNS:
        return f"{100 * value:.2f}%"
    if column.endswith("_s"):
        return f"{value:.3g}"
    if column.endswith("_nodes") or column in ("player_deals", "player_won"):
        return f"{value:.0f}"
    return str(value)


def _text_rows(frame):
    header = list(frame.columns)
    body = [[_cell(c, v) for c, v in zip(header, row)] for row in frame.itertuples(index=False)]
    return header, body


def render(frame, fmt: str = "table") -> str:
    """``table`` (aligned text), ``csv``, ``markdown`` or ``json`` (records)."""
    from .studies import BatchError

    if fmt == "csv":
        return frame.to_csv(index=False)
    if fmt == "json":
        return json.dumps(json.loads(frame.to_json(orient="records")), indent=1) + "\n"
    header, body = _text_rows(frame)
    if fmt == "markdown":
        lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
        lines += ["| " + " | ".join(cells) + " |" for cells in body]
        return "\n".join(lines) + "\n"
    if fmt == "table":
        widths = [max(len(h), *(len(r[i]) for r in body)) if body else len(h) for i, h in enumerate(header)]
        fmt_row = lambda cells: "  ".join(  # noqa: E731
            c.ljust(w) if i < 1 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths)))
        return "\n".join([fmt_row(header)] + [fmt_row(r) for r in body]) + "\n"
    raise BatchError(f"report: unknown format {fmt!r} (formats: {', '.join(FORMATS)})")
