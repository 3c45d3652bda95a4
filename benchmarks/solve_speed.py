"""Solve speed per variant on a fixed seed range: the table the issues ask for.

    python benchmarks/solve_speed.py klondike --seeds 1-1000 [--variant draw=1,passes=1 ...]
        [--time-limit 10] [--jobs 2]

Prints one markdown table (deals/s, nodes/s, median/p99/max seconds per deal,
won/lost/unknown, peak memory of a worker) and appends it, with the command and
the date, to benchmarks/results.md. Each variant also runs a plain baseline in
the same process for a ratio: the first 20 seeds with every reduction switched
off (where the game has a REDUCE switch), same node cap for both.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from results_log import append

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

DEFAULT_VARIANTS = {
    "klondike": ["draw=1,passes=1", "draw=3,passes=3", "draw=1,passes=unlimited", "draw=3,passes=unlimited",
                 "draw=1,passes=unlimited,foundation_to_tableau=true",
                 "draw=3,passes=unlimited,foundation_to_tableau=true"],
    "pyramid": ["piles=1,passes=1", "piles=1,passes=3", "piles=1,passes=unlimited", "piles=3",
                "piles=1,passes=3,stock_top=true"],
    "twenty": [""],
    "ladder": ["passes=unlimited", "passes=2"],
}


def parse_variant(text: str) -> dict:
    from solver.options import parse_option_value
    out = {}
    for part in filter(None, text.split(",")):
        name, value = part.split("=")
        out[name] = parse_option_value(value)
    return out


def solve_one(args):
    game, options, seed, time_limit = args
    from solver.deals import deal_from_seed
    from solver.solve import solve
    r = solve(deal_from_seed(game, seed, options), time_limit=time_limit)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return seed, r.verdict, r.nodes, r.seconds, peak


def warm_worker():
    from solver.deals import deal_from_seed
    from solver.registry import names
    from solver.solve import solve
    for game in names():   # compile or load every game's kernels before the clock starts
        solve(deal_from_seed(game, 2), max_nodes=1000, time_limit=5)


def baseline_ratio(game, options, seeds, cap=200_000):
    """Nodes to decide the first seeds with and without reductions (same process)."""
    from solver.deals import deal_from_seed
    from solver.engine.search import search
    from solver.registry import game as lookup
    g = lookup(game).solver
    full = plain = 0
    for seed in seeds:
        d = deal_from_seed(game, seed, options)
        a = search(g.kernels, g.encode(d, g.reduce_all), max_nodes=cap)
        b = search(g.kernels, g.encode(d, 0), max_nodes=cap)
        full += a.nodes
        plain += b.nodes
    return plain / max(full, 1)


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("--seeds", default="1-1000")
    ap.add_argument("--variant", action="append")
    ap.add_argument("--time-limit", type=float, default=10.0)
    ap.add_argument("--jobs", type=int, default=os.cpu_count())
    ap.add_argument("--no-append", action="store_true")
    args = ap.parse_args()
    lo, hi = map(int, args.seeds.split("-"))
    seeds = list(range(lo, hi + 1))
    variants = args.variant or DEFAULT_VARIANTS[args.game]
    rows = []
    with ProcessPoolExecutor(args.jobs, initializer=warm_worker) as pool:
        for text in variants:
            options = parse_variant(text)
            start = time.perf_counter()
            results = list(pool.map(solve_one, [(args.game, options, s, args.time_limit) for s in seeds],
                                    chunksize=4))
            wall = time.perf_counter() - start
            secs = [r[3] for r in results]
            nodes = sum(r[2] for r in results)
            verdicts = [r[1] for r in results]
            ratio = baseline_ratio(args.game, options, seeds[:20])
            rows.append({
                "variant": text, "deals": len(seeds), "won": verdicts.count("won"),
                "lost": verdicts.count("lost"), "unknown": verdicts.count("unknown"),
                "deals/s": len(seeds) / wall, "nodes/s (per core)": nodes / max(sum(secs), 1e-9),
                "median s": statistics.median(secs), "p99 s": pct(secs, 0.99), "max s": max(secs),
                "peak MB": max(r[4] for r in results),
                "plain/reduced nodes": ratio,
            })
            slow = [(r[0], r[1], round(r[3], 2)) for r in results if r[1] == "unknown" or r[3] > 1]
            print(f"{text}: slow or unknown: {slow[:30]}", file=sys.stderr)
    header = list(rows[0])
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for row in rows:
        cells = []
        for k in header:
            v = row[k]
            cells.append("-" if v is None else f"{v:.4g}" if isinstance(v, float) else str(v))
        lines.append("| " + " | ".join(cells) + " |")
    table = "\n".join(lines)
    print(table)
    if not args.no_append:
        append(f"{args.game}, seeds {args.seeds}, {args.jobs} jobs", table,
               "python benchmarks/solve_speed.py " + " ".join(sys.argv[1:]))


if __name__ == "__main__":
    main()
