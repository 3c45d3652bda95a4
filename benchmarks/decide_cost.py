"""Nodes and time to decide whole deals: this checkout against an earlier commit.

    python benchmarks/decide_cost.py --base COMMIT --game GAME --seeds 2947,7300,1-200
        [--options '{"passes": 1}'] [--max-nodes 100000000] [--rounds 3] [--no-append]

For a change that changes the search (a reduction, a bound, a move order), where
node_cost.py's nanoseconds per node compare trees of different shapes: each tree
solves every deal to the end (``solve()`` with a node cap, no time limit and a memory
bound of 16,000 MB, so the work is the same on every machine) in a fresh process per
(tree, round), the trees alternating so that a noisy neighbour hits both alike. Prints, per tree, the verdicts,
the nodes of all deals, and the best process time over the rounds, with the ratio;
and every deal that the two trees decide differently (won against lost is a bug; one
of them ``unknown`` at the cap is not). The base commit is checked out into a
temporary git worktree. Appends the table to benchmarks/results.md.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from base_tree import ROOT, base_worktree, head_label
from results_log import append


CHILD = r"""
import json, sys, time
from solver.deals import deal_from_seed
from solver.solve import solve
game, seeds, options, cap = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3]), int(sys.argv[4])
verdicts, nodes = {}, 0
started = time.process_time()
for seed in seeds:
    result = solve(deal_from_seed(game, seed, options), max_nodes=cap, time_limit=None, memory_mb=16000)
    verdicts[seed] = result.verdict
    nodes += result.nodes
print(json.dumps({"verdicts": verdicts, "nodes": nodes, "seconds": time.process_time() - started}))
"""


def parse_seeds(text: str) -> list[int]:
    """``2947,7300,1-200`` -> the seeds, in that order, each once."""
    seeds: list[int] = []
    for part in text.split(","):
        low, _, high = part.partition("-")
        for seed in range(int(low), int(high or low) + 1):
            if seed not in seeds:
                seeds.append(seed)
    return seeds


def measure(tree: Path, game: str, seeds: list[int], options: dict, cap: int) -> dict:
    done = subprocess.run([sys.executable, "-c", CHILD, game, json.dumps(seeds), json.dumps(options), str(cap)],
                          cwd=tree, env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"}, capture_output=True,
                          text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", required=True, help="the commit to compare against")
    ap.add_argument("--game", required=True)
    ap.add_argument("--seeds", required=True, help="seeds and ranges, comma-separated: 2947,7300,1-200")
    ap.add_argument("--options", default="{}", help="the variant's options as JSON")
    ap.add_argument("--max-nodes", type=int, default=100_000_000, help="node cap of each deal")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--no-append", action="store_true")
    args = ap.parse_args()
    seeds = parse_seeds(args.seeds)
    options = json.loads(args.options)
    head = head_label()
    with base_worktree(args.base) as base:
        for tree in (base, ROOT):   # first runs compile (each tree has its own cache)
            measure(tree, args.game, seeds[:1], options, 1000)
        best: dict[str, float] = {}
        got: dict[str, dict] = {}
        for _ in range(args.rounds):
            for which, tree in (("base", base), ("head", ROOT)):
                got[which] = measure(tree, args.game, seeds, options, args.max_nodes)
                best[which] = min(best.get(which, got[which]["seconds"]), got[which]["seconds"])
    rows = []
    for which, label in (("base", args.base), ("head", head)):
        counts = {v: list(got[which]["verdicts"].values()).count(v) for v in ("won", "lost", "unknown")}
        rows.append(f"| {label} | {counts['won']} | {counts['lost']} | {counts['unknown']} | "
                    f"{got[which]['nodes']:,} | {best[which]:.2f} |")
    differ = [f"{seed}: {got['base']['verdicts'][seed]} -> {got['head']['verdicts'][seed]}"
              for seed in got["base"]["verdicts"] if got["base"]["verdicts"][seed] != got["head"]["verdicts"][seed]]
    table = "\n".join([
        "| tree | won | lost | unknown | nodes | seconds (best) |", "|---|---|---|---|---|---|", *rows, "",
        f"nodes {got['head']['nodes'] / got['base']['nodes']:.3f}x, time {best['head'] / best['base']:.3f}x "
        f"of {args.base}'s; verdicts that differ: {', '.join(differ) or 'none'}"])
    print(table)
    if not args.no_append:
        command = (f"python benchmarks/decide_cost.py --base {args.base} --game {args.game} --seeds {args.seeds} "
                   f"--options '{args.options}' --max-nodes {args.max_nodes} --rounds {args.rounds}")
        append(f"deciding {args.game} deals, {head} against {args.base}",
               f"({len(seeds)} deals, best process time of {args.rounds} alternating runs per tree)\n\n{table}",
               command)


if __name__ == "__main__":
    main()
