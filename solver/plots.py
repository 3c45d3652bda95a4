"""PNG plots of studies (matplotlib, no display needed): win rates with their
intervals, and the distribution of the time to decide a deal on a log scale.

Both are drawn at 900 pixels wide with 10-11 point text, the width at which a README
or a results page shows an image unscaled, so the text reads without zooming."""

from __future__ import annotations

import math
import re
import textwrap

WIDTH_IN, DPI = 9.0, 100        # 900 pixels wide
FONT = 11


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")   # files only: works on a machine without a display
    import matplotlib.pyplot as plt
    plt.rcParams.update({"font.size": FONT, "axes.titlesize": FONT + 1, "axes.labelsize": FONT,
                         "legend.fontsize": FONT - 1, "xtick.labelsize": FONT - 1, "ytick.labelsize": FONT - 1})
    return plt


def short_label(variant: str) -> str:
    """A variant as a plot names it: an option that is off left out, one that is on named
    alone (``klondike draw=1 passes=1 foundation_to_tableau=false`` -> ``klondike draw=1 passes=1``); a
    no-peek player's settings shortened to its level, on a line of its own."""
    text = re.sub(r" [a-z_]+=false\b", "", str(variant))
    text = re.sub(r", no-peek hidden=(\w+) .*$", r"\nwithout peeking, hidden \1", text)
    return re.sub(r"\b([a-z_]+)=true\b", r"\1", text)


def win_rate_figure(summary, title: str = "Win rate per variant: deals won of those decided"):
    """One row per row of :func:`solver.report.summarize`: the win rate of decided deals with
    its 95% Wilson interval, and a grey bar from 'every unknown lost' to 'every unknown won'."""
    plt = _pyplot()
    from matplotlib.lines import Line2D

    keys = list(summary.columns[:_key_count(summary)])
    players = "player_rate" in summary.columns
    labels = [short_label(" ".join(str(summary.iloc[i][c]) for c in keys)) for i in range(len(summary))]
    if players:   # long names over lines of their own, so that the axes keep their width
        labels = ["\n".join(textwrap.fill(part, 30) for part in label.split("\n")) for label in labels]
    fig, ax = plt.subplots(figsize=(WIDTH_IN, (0.55 if not players else 1.0) * len(summary) + 2.6), dpi=DPI)
    ys = list(range(len(summary)))[::-1]
    for y, (_, row) in zip(ys, summary.iterrows()):
        if not math.isnan(row["win_rate"]):
            ax.errorbar(100 * row["win_rate"], y, xerr=[[100 * (row["win_rate"] - row["ci95_low"])],
                                                      [100 * (row["ci95_high"] - row["win_rate"])]],
                        fmt="o", color="tab:blue", capsize=4)
            note = (f"{100 * row['win_rate']:.1f}% [{100 * row['ci95_low']:.1f}, {100 * row['ci95_high']:.1f}]"
                    f"  n={row['deals']:,}" + (f", {row['unknown']:,} unknown" if row["unknown"] else ""))
            right = row["win_rate"] > 0.5   # the note goes on the side with room
            ax.annotate(note, (100 * (row["ci95_low"] if right else row["ci95_high"]), y),
                        xytext=(-8 if right else 8, 0), textcoords="offset points", fontsize=FONT - 2,
                        ha="right" if right else "left", va="center")
        if row["unknown"]:
            ax.plot([100 * row["if_unknown_lost"], 100 * row["if_unknown_won"]], [y - 0.28, y - 0.28],
                    color="tab:gray", linewidth=2.5)
        if players and not math.isnan(row["player_rate"]):
            rate, low, high = (100 * row[c] for c in ("player_rate", "player_ci95_low", "player_ci95_high"))
            ax.errorbar(rate, y + 0.28, xerr=[[rate - low], [high - rate]], fmt="s", color="tab:orange", capsize=4)
            note = f"no peeking {rate:.1f}% [{low:.1f}, {high:.1f}]  n={row['player_deals']:,}"
            if not math.isnan(row["winnable_lost"]):
                note += f"\nlost {100 * row['winnable_lost']:.0f}% of the winnable"
            ax.annotate(note.replace("\n", "; "), (rate, y + 0.28), xytext=(0, 7), textcoords="offset points",
                        fontsize=FONT - 2, ha="center", va="bottom", color="tab:orange")
    ax.set_yticks(ys, labels)
    ax.set_ylim(-0.8, len(summary) - (0.3 if not players else -0.2))
    ax.set_xlabel("deals won, % of the deals decided (won or proved lost)")
    ax.set_xlim(0, 100)
    ax.grid(axis="x", alpha=0.3)
    ax.set_title(title)
    handles = [Line2D([], [], color="tab:blue", marker="o", linestyle="-", label="win rate, 95% Wilson interval"),
               Line2D([], [], color="tab:gray", linewidth=2.5,
                      label="% of all deals if every unknown deal were lost .. won")]
    if players:
        handles.append(Line2D([], [], color="tab:orange", marker="s", linestyle="-",
                              label="played without peeking: % of the deals played, 95% interval"))
    fig.legend(handles=handles, loc="lower center", ncol=2 if not players else 1, frameon=False)
    fig.tight_layout(rect=(0, 0.06 if not players else 0.16, 1, 1))
    return fig


def plot_win_rates(summary, path, title: str = "Win rate per variant: deals won of those decided") -> None:
    plt = _pyplot()
    fig = win_rate_figure(summary, title)
    fig.savefig(path, dpi=DPI)
    plt.close(fig)


def solve_time_figure(rows, by: str = "variant", title: str = "Time to decide each deal"):
    """Step histograms of the seconds each deal took, one per ``by`` group, in bins of equal
    width on a log scale; a dashed line at the time limit, where the unknown deals stop."""
    import numpy as np

    plt = _pyplot()
    seconds = rows["seconds"].to_numpy(dtype=float)
    limits = sorted(set(rows["time_limit"].dropna())) if "time_limit" in rows else []
    low = max(min(seconds.min(), 1e-3), 1e-6) if len(seconds) else 1e-4
    high = max(seconds.max(), *(limits or [0]), low * 10) if len(seconds) else 1.0
    bins = np.logspace(math.log10(low) - 0.05, math.log10(high) + 0.05, 50)
    groups = list(rows.groupby(by, sort=True))
    legend_in = 0.3 * len(groups) + 0.2          # a line of legend under the axes per group
    fig, ax = plt.subplots(figsize=(WIDTH_IN, 4.8 + legend_in), dpi=DPI)
    for label, group in groups:
        unknown = int((group["verdict"] == "unknown").sum()) if "verdict" in group else 0
        ax.hist(np.clip(group["seconds"].to_numpy(dtype=float), low, None), bins=bins, histtype="step",
                linewidth=1.6, label=f"{short_label(label)} (n={len(group):,}"
                + (f", {unknown:,} unknown)" if unknown else ")"))
    for limit in limits:
        ax.axvline(limit, color="black", linestyle="--", linewidth=1)
        ax.annotate(f"time limit {limit:g} s", (limit, 1), xycoords=("data", "axes fraction"), xytext=(-4, -4),
                    textcoords="offset points", ha="right", va="top", fontsize=FONT - 2)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("time to decide a deal (seconds, wall clock, one core; log scale)")
    ax.set_ylabel("deals per bin (log scale)")
    ax.set_title(title)
    handles, labels = ax.get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=1, frameon=False)
    fig.tight_layout(rect=(0, legend_in / (4.8 + legend_in), 1, 1))
    return fig


def plot_solve_times(rows, path, by: str = "variant", title: str = "Time to decide each deal") -> None:
    plt = _pyplot()
    fig = solve_time_figure(rows, by, title)
    fig.savefig(path, dpi=DPI)
    plt.close(fig)


def _key_count(summary) -> int:
    return list(summary.columns).index("deals")
