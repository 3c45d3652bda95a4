"""What one reduction buys: a game's searches with it and without it, alternated.

    python benchmarks/reduction_gain.py twenty deadlock [--seeds 1-3000] [--max-nodes 300000] [--block 100]
        [--options '{"passes": 3}']

Searches every seed with all the game's reductions and with all but the named one
(``Solver.reductions``), with the game's default search settings and a node cap, in
blocks of seeds whose order alternates between the two, in one process. Prints, per
setting, the time, nodes, nanoseconds a node and verdicts, and the ratios: a
reduction that checks something at every node costs time per node and must win it
back in nodes. The two settings must agree on every seed both decide.
"""

from __future__ import annotations

import argparse
import json
import time

from solver.deals import deal_from_seed
from solver.engine.search import search
from solver.registry import game as game_named


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("reduction")
    ap.add_argument("--seeds", default="1-3000")
    ap.add_argument("--max-nodes", type=int, default=300_000)
    ap.add_argument("--block", type=int, default=100)
    ap.add_argument("--options", default="{}", help="the variant as deal-file options (JSON); default: the game's")
    args = ap.parse_args()
    solver = game_named(args.game).solver
    if args.reduction not in solver.reductions:
        ap.error(f"{args.game} has no reduction {args.reduction!r} (it has: {', '.join(solver.reductions)})")
    try:
        options = json.loads(args.options)
    except ValueError as e:
        ap.error(f"--options {args.options}: {e}")
    lo, hi = (int(x) for x in args.seeds.split("-"))
    deals = [deal_from_seed(args.game, s, options) for s in range(lo, hi + 1)]
    settings = solver.search_settings(deals[0].options)
    modes = {"all": solver.reduce_all, f"no {args.reduction}": solver.reduce_all & ~solver.reductions[args.reduction]}
    for flags in modes.values():   # compile before timing
        search(solver.kernels, solver.encode(deals[0], flags), max_nodes=1000, **settings)
    totals = {name: {"seconds": 0.0, "nodes": 0, "verdicts": {}} for name in modes}
    verdicts = {name: [] for name in modes}
    for b in range(0, len(deals), args.block):
        order = list(modes) if (b // args.block) % 2 == 0 else list(modes)[::-1]
        for name in order:
            t = time.perf_counter()
            for d in deals[b:b + args.block]:
                r = search(solver.kernels, solver.encode(d, modes[name]), max_nodes=args.max_nodes, **settings)
                totals[name]["nodes"] += r.nodes
                totals[name]["verdicts"][r.verdict] = totals[name]["verdicts"].get(r.verdict, 0) + 1
                verdicts[name].append(r.verdict)
            totals[name]["seconds"] += time.perf_counter() - t
    a, b = modes
    clash = [lo + i for i, (x, y) in enumerate(zip(verdicts[a], verdicts[b])) if {x, y} == {"won", "lost"}]
    for name, t in totals.items():
        print(f"{name:>14}: {t['seconds']:.2f} s, {t['nodes']:,} nodes, "
              f"{1e9 * t['seconds'] / max(1, t['nodes']):.0f} ns a node, {t['verdicts']}")
    print(f"without / with: time {totals[b]['seconds'] / totals[a]['seconds']:.2f}x, "
          f"nodes {totals[b]['nodes'] / max(1, totals[a]['nodes']):.2f}x")
    if clash:
        raise SystemExit(f"verdicts disagree on seeds {clash}")


if __name__ == "__main__":
    main()
