"""PNG plots of studies (matplotlib, no display needed): win rates with their
intervals, and the distribution of solve times on a log scale."""

from __future__ import annotations

import math


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")   # files only: works on a machine without a display
    import matplotlib.pyplot as plt
    return plt


def plot_win_rates(summary, path, title: str = "Win rate per variant (95% Wilson interval)") -> None:
    """One horizontal bar per row of :func:`solver.report.summarize`: the win rate of decided deals
    with its interval, and a thin line from 'every unknown lost' to 'every unknown won'."""
    plt = _pyplot()
    labels = [" ".join(str(summary.iloc[i][c]) for c in summary.columns[:_key_count(summary)])
              for i in range(len(summary))]
    fig, ax = plt.subplots(figsize=(9, 0.5 * len(summary) + 1.6))
    ys = list(range(len(summary)))[::-1]
    for y, (_, row) in zip(ys, summary.iterrows()):
        if not math.isnan(row["win_rate"]):
            ax.errorbar(100 * row["win_rate"], y, xerr=[[100 * (row["win_rate"] - row["ci95_low"])],
                                                      [100 * (row["ci95_high"] - row["win_rate"])]],
                        fmt="o", color="tab:blue", capsize=4)
            note = (f"{100 * row['win_rate']:.2f}% [{100 * row['ci95_low']:.2f}, {100 * row['ci95_high']:.2f}]"
                    f"  n={row['deals']}" + (f", {row['unknown']} unknown" if row["unknown"] else ""))
            right = row["win_rate"] > 0.5   # the note goes on the side with room
            ax.annotate(note, (100 * (row["ci95_low"] if right else row["ci95_high"]), y),
                        xytext=(-6 if right else 6, 4), textcoords="offset points", fontsize=7,
                        ha="right" if right else "left")
        if row["unknown"]:
            ax.plot([100 * row["if_unknown_lost"], 100 * row["if_unknown_won"]], [y - 0.25, y - 0.25],
                    color="tab:gray", linewidth=2)
    ax.set_yticks(ys, labels, fontsize=8)
    ax.set_ylim(-0.7, len(summary) - 0.3)
    ax.set_xlabel("won, % of decided deals; grey: all deals, unknown counted lost .. won", fontsize=9)
    ax.set_xlim(0, 100)
    ax.grid(axis="x", alpha=0.3)
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_solve_times(rows, path, by: str = "variant", title: str = "Solve time per deal") -> None:
    """Step histograms of seconds per deal, one per ``by`` group, logarithmic bins."""
    import numpy as np

    plt = _pyplot()
    seconds = rows["seconds"].to_numpy(dtype=float)
    low = max(min(seconds.min(), 1e-3), 1e-6) if len(seconds) else 1e-4
    high = max(seconds.max(), low * 10) if len(seconds) else 1.0
    bins = np.logspace(math.log10(low) - 0.05, math.log10(high) + 0.05, 50)
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for label, group in rows.groupby(by, sort=True):
        ax.hist(np.clip(group["seconds"].to_numpy(dtype=float), low, None), bins=bins, histtype="step",
                label=f"{label} (n={len(group)})")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("seconds per deal (log scale)")
    ax.set_ylabel("deals")
    ax.legend(fontsize=7)
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _key_count(summary) -> int:
    return list(summary.columns).index("deals")
