"""Peak resident set of one solve over the process's baseline, per --memory-mb.

    python benchmarks/memory_peak.py [--game ladder --seed 12] [--memory-mb 50 200] [--tree PATH] [--no-append]

Each budget runs in a fresh child process (of the tree at PATH, default this checkout):
it first solves a deal decided at once (seed 1 of the game, which loads what a solve
loads: the baseline of solver/engine/memory.py), reads its peak resident set (VmHWM),
then solves the deal with the budget, a node cap (--max-nodes) and no time limit, and
reads it again. Prints the verdict, the nodes, the baseline and the peak over it, and
appends the table to benchmarks/results.md. Linux only (/proc/self/status).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from results_log import append

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import json, sys
from solver.deals import deal_from_seed
from solver.solve import solve

def hwm_mb():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024

game, seed, memory_mb, max_nodes = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
solve(deal_from_seed(game, 1, {}), time_limit=None)
baseline = hwm_mb()
result = solve(deal_from_seed(game, seed, {}), memory_mb=memory_mb, max_nodes=max_nodes, time_limit=None)
print(json.dumps({"verdict": result.verdict, "reason": result.reason, "nodes": result.nodes,
                  "baseline": baseline, "peak": hwm_mb()}))
"""


def measure(tree: Path, game: str, seed: int, memory_mb: float, max_nodes: int) -> dict:
    done = subprocess.run([sys.executable, "-c", CHILD, game, str(seed), str(memory_mb), str(max_nodes)], cwd=tree,
                          env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"}, capture_output=True, text=True,
                          check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="ladder")
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--memory-mb", type=float, nargs="+", default=[50, 200])
    ap.add_argument("--max-nodes", type=int, default=20_000_000)
    ap.add_argument("--tree", type=Path, default=ROOT)
    ap.add_argument("--no-append", action="store_true")
    args = ap.parse_args()
    measure(args.tree, args.game, 1, 1024, 1000)   # the first run may compile: not measured
    rows = []
    for memory_mb in args.memory_mb:
        got = measure(args.tree, args.game, args.seed, memory_mb, args.max_nodes)
        verdict = got["verdict"] + (f" ({got['reason']})" if got["reason"] else "")
        rows.append(f"| {memory_mb:g} | {verdict} | {got['nodes']:,} | {got['baseline']:.1f} "
                    f"| {got['peak'] - got['baseline']:.1f} |")
    table = "\n".join(["| --memory-mb | verdict | nodes | baseline MB | peak over baseline MB |",
                       "|---|---|---|---|---|", *rows])
    print(table)
    if not args.no_append:
        append(f"peak resident set per --memory-mb, {args.game} seed {args.seed}", table,
               f"python benchmarks/memory_peak.py --game {args.game} --seed {args.seed} --memory-mb "
               + " ".join(f"{m:g}" for m in args.memory_mb))


if __name__ == "__main__":
    main()
