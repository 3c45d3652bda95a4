"""Seconds per game of the no-peek player, this tree against a base commit, alternated.

    python benchmarks/player_speed.py --base COMMIT [--seeds 2-9] [--rounds 3]
        [--draw 3] [--passes unlimited] [--foundation-to-tableau] [--hidden tableau]

Each round plays the same games once with the base commit's code (a worktree) and once
with this tree's, one after the other in fresh processes (each warmed by one short game
first, so compiling is left out), so both see the same machine load. Prints, per tree,
the best round's seconds per game, the games won, and the solves and nodes of the
player; and the ratio. The games themselves may differ between the trees (that is what
a change to the player does): compare the results of a study, not of these few games.
Appends the table to benchmarks/results.md.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from results_log import append

ROOT = Path(__file__).resolve().parent.parent
PLAY = """
import json, sys, time
from solver.deals import deal_from_seed
from solver.options import resolve, parse_option_value
from solver.play.run import play_game
args = json.loads(sys.argv[1])
options = resolve("klondike", args["options"])
play_game(deal_from_seed("klondike", 1, options), args["hidden"], max_moves=5)
start = time.perf_counter()
won = solves = nodes = 0
for seed in args["seeds"]:
    record = play_game(deal_from_seed("klondike", seed, options), args["hidden"])
    won += record.won
    solves += record.solves
    nodes += record.nodes
print(json.dumps({"seconds": time.perf_counter() - start, "won": won, "solves": solves, "nodes": nodes}))
"""


def run(tree: Path, job: dict) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree))
    done = subprocess.run([sys.executable, "-c", PLAY, json.dumps(job)], cwd=tree, env=env, check=True,
                          capture_output=True, text=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", required=True, help="the commit to compare against")
    ap.add_argument("--seeds", default="2-9")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--draw", type=int, default=3)
    ap.add_argument("--passes", default="unlimited")
    ap.add_argument("--foundation-to-tableau", action="store_true")
    ap.add_argument("--hidden", default="tableau", choices=("tableau", "all"))
    ap.add_argument("--no-append", action="store_true")
    args = ap.parse_args()
    lo, hi = (int(x) for x in args.seeds.split("-"))
    options = {"draw": args.draw, "passes": None if args.passes == "unlimited" else int(args.passes),
               "foundation_to_tableau": args.foundation_to_tableau}
    job = {"options": options, "hidden": args.hidden, "seeds": list(range(lo, hi + 1))}
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "base"
        subprocess.run(["git", "worktree", "add", "--detach", "-q", str(base), args.base], cwd=ROOT, check=True)
        try:
            trees = {args.base: base, "this tree": ROOT}
            best: dict = {}
            for r in range(args.rounds):
                for name, tree in trees.items():
                    got = run(tree, job)
                    print(f"round {r + 1} {name}: {got}", flush=True)
                    if name not in best or got["seconds"] < best[name]["seconds"]:
                        best[name] = got
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(base)], cwd=ROOT, check=True)
    games = len(job["seeds"])
    rows = [f"| {name} | {got['seconds'] / games:.2f} | {got['won']}/{games} | {got['solves'] / games:,.0f} | "
            f"{got['nodes'] / games:,.0f} |" for name, got in best.items()]
    ratio = best[args.base]["seconds"] / best["this tree"]["seconds"]
    table = "\n".join(["| tree | s/game (best round) | won | solves/game | nodes/game |", "|---|---|---|---|---|",
                       *rows]) + f"\n\nThis tree is {ratio:.2f}x as fast as {args.base} per game."
    print(table)
    if not args.no_append:
        command = (f"python benchmarks/player_speed.py --base {args.base} --seeds {args.seeds} --rounds {args.rounds}"
                   f" --draw {args.draw} --passes {args.passes}"
                   + (" --foundation-to-tableau" if args.foundation_to_tableau else "") + f" --hidden {args.hidden}")
        append(f"no-peek player, seconds per game against {args.base} (klondike {options}, hidden {args.hidden})",
               table, command)


if __name__ == "__main__":
    main()
