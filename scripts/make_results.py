"""Regenerate results/: win-rate tables (CSV, markdown) and plots for the variants of RULES.md.

    python scripts/make_results.py [--games pyramid twenty] [--seeds 1-10000] [--jobs 2]
        [--time-limit 10] [--studies studies] [--results results] [--tables-only]

For each variant of each game named it runs (or resumes: the studies are batch
journals, so an interrupted run continues where it stopped) the command

    solitaire batch GAME OPTIONS --seeds A-B --time-limit T --no-lines --quiet --out studies/NAME.jsonl

and then writes, from every study found in --studies (so games run at another
time, or with another seed range, are kept):

    results/win_rates.csv, results/win_rates.md   one row per variant, with the command that made it
    results/win_rates.png                         win rates with 95% intervals
    results/solve_times-GAME.png                  seconds per deal, log scale

The studies' packed journals (``studies/NAME.jsonl.gz``: every finished deal's row,
sorted and gzipped) are committed, so a table can be made again, and a study of 10^5
deals continued, from a fresh clone: the command of a row reads its packed journal in
first and solves only the seeds it lacks.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from solver.registry import games  # noqa: E402

# the variants each game carries (Game.variants: docs/rules.md's, and the published ones)
VARIANTS = {g.name: list(g.variants) for g in games().values()}


def cli_value(value) -> str:
    return "unlimited" if value is None else str(value).lower()


def option_args(options: dict) -> list[str]:
    args = []
    for name, value in options.items():
        flag = "--" + name.replace("_", "-")
        if isinstance(value, bool):
            args.append(flag if value else "--no-" + name.replace("_", "-"))
        else:
            args += [flag, cli_value(value)]
    return args


def study_name(game: str, options: dict) -> str:
    parts = [game] + [f"{k.replace('_', '-')}{'' if v is True else cli_value(v)}" for k, v in options.items()]
    return "-".join(parts)


def command(game, options, seeds, time_limit, studies: Path) -> list[str]:
    out = studies / f"{study_name(game, options)}.jsonl"
    rel = os.path.relpath(out, ROOT)
    return (["solitaire", "batch", game, *option_args(options), "--seeds", seeds, "--time-limit",
             f"{time_limit:g}", "--no-lines", "--quiet", "--pack", "--out", rel])


def run_study(cmd: list[str], jobs: int | None) -> None:
    exe = Path(sys.executable).with_name("solitaire")
    full = [str(exe) if exe.exists() else "solitaire", *cmd[1:]]
    if jobs:
        full += ["--jobs", str(jobs)]
    print("$", shlex.join(cmd), file=sys.stderr, flush=True)
    done = subprocess.run(full, cwd=ROOT)
    if done.returncode:
        sys.exit(f"make_results: {shlex.join(cmd)} failed with exit code {done.returncode}")


def seeds_of(frame) -> str:
    lo, hi = int(frame["seed"].min()), int(frame["seed"].max())
    return f"{lo}-{hi}" if len(frame) == hi - lo + 1 else f"{len(frame)} seeds in {lo}-{hi}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", nargs="*", default=list(VARIANTS), choices=list(VARIANTS))
    ap.add_argument("--seeds", default="1-10000")
    ap.add_argument("--jobs", type=int)
    ap.add_argument("--time-limit", type=float, default=10.0)
    ap.add_argument("--studies", type=Path, default=ROOT / "studies")
    ap.add_argument("--results", type=Path, default=ROOT / "results")
    ap.add_argument("--tables-only", action="store_true", help="run nothing; tables from existing studies")
    args = ap.parse_args()
    args.studies.mkdir(parents=True, exist_ok=True)
    args.results.mkdir(parents=True, exist_ok=True)

    if not args.tables_only:
        for game in args.games:
            for options in VARIANTS[game]:
                run_study(command(game, options, args.seeds, args.time_limit, args.studies), args.jobs)

    import pandas as pd

    from solver.studies import load_study
    from solver.plots import plot_solve_times, plot_win_rates
    from solver.report import render, summarize

    # rows already published whose study is not here (run on another machine or day)
    # are kept as they are; their command says how to make them again
    published = {}
    if (args.results / "win_rates.csv").exists():
        old = pd.read_csv(args.results / "win_rates.csv")
        published = {shlex.split(row["command"])[-1]: old.iloc[[i]] for i, row in old.iterrows()}

    tables, all_rows = [], []
    for game, variants in VARIANTS.items():
        for options in variants:
            csv = args.studies / f"{study_name(game, options)}.csv"
            packed = args.studies / f"{study_name(game, options)}.jsonl.gz"
            # the CSV is written when a study is complete; the packed journal (committed)
            # holds what a study has so far
            source = csv if csv.exists() else packed if packed.exists() else None
            if source is None:
                out = os.path.relpath(args.studies / f"{study_name(game, options)}.jsonl", ROOT)
                if out in published:
                    tables.append(published[out])
                continue
            rows = load_study(source)
            limit = float(rows["time_limit"].iloc[0])
            summary = summarize(rows)
            summary.insert(1, "seeds", seeds_of(rows))
            summary["command"] = shlex.join(command(game, options, seeds_of(rows), limit, args.studies))
            tables.append(summary)
            all_rows.append(rows)
    if not tables:
        sys.exit("make_results: no finished studies in " + str(args.studies))
    table = pd.concat(tables, ignore_index=True)
    table.to_csv(args.results / "win_rates.csv", index=False)
    shown = table.drop(columns=["command", "median_nodes", "p90_nodes", "p99_nodes"])
    commands = "\n".join(f"    {c}" for c in table["command"])
    (args.results / "win_rates.md").write_text(
        f"# Win rates\n\nMade by `python scripts/make_results.py` on {dt.date.today()}. A deal is won, lost "
        f"(proved: no line wins) or unknown (the time limit per deal was reached). `win_rate` is won / "
        f"(won + lost) with its 95% Wilson interval; `if_unknown_lost` and `if_unknown_won` bound the rate "
        f"over all deals whatever the unknown deals are. Seconds are wall-clock per deal on one core of a "
        f"2-core machine shared with other work: the second mode near 10-20 ms in the time plots is "
        f"time-slicing (those deals have the same node counts as the ~1 ms ones). `win_rates.csv` has the same rows with node percentiles and the command "
        f"of each row.\n\n{render(shown, 'markdown')}\nCommands (one per row, in order):\n\n{commands}\n")
    plot_win_rates(table[["variant"] + list(table.columns[table.columns.get_loc("deals"):])],
                   args.results / "win_rates.png", title="Win rate per variant: deals won of those decided, seeds "
                   + ", ".join(sorted(set(table["seeds"]))))
    rows = pd.concat(all_rows, ignore_index=True) if all_rows else pd.DataFrame({"game": []})
    for game, group in rows.groupby("game"):
        plot_solve_times(group, args.results / f"solve_times-{game}.png",
                         title=f"{game}: time to decide each deal, seeds "
                         f"{seeds_of(group[group.variant == group.variant.iloc[0]])}")
    print(render(shown, "table"))


if __name__ == "__main__":
    main()
