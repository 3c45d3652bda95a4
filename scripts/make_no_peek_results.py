"""Regenerate results/no_peek.md and .csv: the no-peek player's win rate beside the thoughtful one.

    python scripts/make_no_peek_results.py [--seeds 1-1000] [--jobs 2] [--tables-only]
        [--only klondike-draw1-passes1-all ...]

For each study in STUDIES below it runs (or resumes, from the journal or its committed
packed copy) the command

    solitaire batch GAME OPTIONS --player no-peek --hidden LEVEL --seeds A-B --no-lines --quiet --pack
        --out studies/no-peek-NAME.jsonl

then writes one row per study from the packed journals in studies/ (the rows so far of a
study not yet complete): deals, the thoughtful verdicts (won, lost, unknown, win rate with
its 95% Wilson interval), the player's games won, its rate with its interval, the share of
winnable deals it lost, its seconds per game, and the command.
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
sys.path.insert(0, str(ROOT / "scripts"))

from make_results import option_args  # noqa: E402

# (name, game, options, hidden level, more arguments): the published setting first (its
# thoughtful verdicts at 3 s a deal, as benchmarks/no_peek.py runs it), then the first
# figures with every card hidden that a person cannot see
STUDIES = [
    ("klondike-draw3-passesunlimited-ftt-tableau-nodes2k", "klondike",
     {"draw": 3, "passes": None, "foundation_to_tableau": True}, "tableau",
     ["--time-limit", "3", "--player-nodes", "5000"]),
    ("klondike-draw1-passes1-all", "klondike", {"draw": 1, "passes": 1}, "all", []),
    ("klondike-draw3-passes3-all", "klondike", {"draw": 3, "passes": 3}, "all", []),
    ("klondike-draw3-passesunlimited-all", "klondike", {"draw": 3, "passes": None}, "all", []),
    ("pyramid-passes3-all", "pyramid", {"passes": 3}, "all", []),
    ("twenty-all", "twenty", {}, "all", []),
    ("ladder-all", "ladder", {}, "all", []),
]


def command(name, game, options, hidden, extra, seeds, studies: Path) -> list[str]:
    out = os.path.relpath(studies / f"no-peek-{name}.jsonl", ROOT)
    return ["solitaire", "batch", game, *option_args(options), "--player", "no-peek", "--hidden", hidden,
            "--seeds", seeds, *extra, "--no-lines", "--quiet", "--pack", "--out", out]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="1-1000")
    ap.add_argument("--jobs", type=int)
    ap.add_argument("--only", nargs="*", help="the studies to run (names of STUDIES)")
    ap.add_argument("--studies", type=Path, default=ROOT / "studies")
    ap.add_argument("--results", type=Path, default=ROOT / "results")
    ap.add_argument("--tables-only", action="store_true", help="run nothing; tables from the packed journals")
    args = ap.parse_args()
    args.studies.mkdir(parents=True, exist_ok=True)
    if not args.tables_only:
        exe = Path(sys.executable).with_name("solitaire")
        for name, game, options, hidden, extra in STUDIES:
            if args.only and name not in args.only:
                continue
            cmd = command(name, game, options, hidden, extra, args.seeds, args.studies)
            print("$", shlex.join(cmd), file=sys.stderr, flush=True)
            full = [str(exe) if exe.exists() else "solitaire", *cmd[1:]] + (["--jobs", str(args.jobs)]
                                                                             if args.jobs else [])
            if subprocess.run(full, cwd=ROOT).returncode:
                sys.exit(f"make_no_peek_results: {shlex.join(cmd)} failed")

    import pandas as pd

    from solver.report import render, summarize
    from solver.studies import load_study

    rows = []
    for name, game, options, hidden, extra in STUDIES:
        packed = args.studies / f"no-peek-{name}.jsonl.gz"
        if not packed.exists():
            continue
        frame = load_study(packed)
        summary = summarize(frame)
        lo, hi = int(frame["seed"].min()), int(frame["seed"].max())
        seeds = f"{lo}-{hi}" if len(frame) == hi - lo + 1 else f"{len(frame)} seeds in {lo}-{hi}"
        summary.insert(1, "hidden", hidden)
        summary.insert(2, "seeds", seeds)
        summary["player_s_per_game"] = round(float(frame["player_seconds"].mean()), 2)
        summary["command"] = shlex.join(command(name, game, options, hidden, extra, f"{lo}-{hi}", args.studies))
        rows.append(summary)
    if not rows:
        sys.exit("make_no_peek_results: no packed no-peek studies in " + str(args.studies))
    table = pd.concat(rows, ignore_index=True)
    args.results.mkdir(parents=True, exist_ok=True)
    table.to_csv(args.results / "no_peek.csv", index=False)
    keep = ["variant", "hidden", "seeds", "deals", "won", "lost", "unknown", "win_rate", "ci95_low", "ci95_high",
            "player_won", "player_rate", "player_ci95_low", "player_ci95_high", "winnable_lost", "player_s_per_game"]
    shown = table[[c for c in keep if c in table.columns]]
    commands = "\n".join(f"    {c}" for c in table["command"])
    (args.results / "no_peek.md").write_text(
        f"# Playing without peeking\n\nMade by `python scripts/make_no_peek_results.py` on {dt.date.today()}. "
        f"Each deal is solved with every card known (the thoughtful verdict: `won`, `lost`, `unknown` at the "
        f"time limit of the row's command, 10 s unless it says 3; `win_rate` = won / (won + lost) with its "
        f"95% Wilson interval) and played by the no-peek player (default settings, `solver/play/`), which "
        f"sees only what a person at the table sees: "
        f"`hidden tableau` hides the face-down tableau cards and shows the stock's order (the setting of the "
        f"published studies), `hidden all` hides every card not yet seen (docs/rules.md says what each game "
        f"hides). `player_rate` is the share of all deals the player won, with its 95% Wilson interval; "
        f"`winnable_lost` the share of the deals proved won that it lost; `player_s_per_game` its mean "
        f"seconds a game on one core of a 2-core machine shared with other work. `no_peek.csv` has the same "
        f"rows with more columns.\n\n{render(shown, 'markdown')}\nCommands (one per row, in order):\n\n"
        f"{commands}\n")
    print(render(shown, "table"))


if __name__ == "__main__":
    main()
