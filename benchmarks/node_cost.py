"""Time per search node: this checkout against an earlier commit, on the same searches.

    python benchmarks/node_cost.py --base COMMIT [--rounds 3] [--no-append]
        [--only klondike|ladder|ladder-one-pass|twenty|player]

Runs fixed searches (the slow tail of Klondike draw 3 with Solvitaire's seeds, which
are lost deals of 1-2M nodes, Ladder deals with unlimited passes and with one pass
and Twenty's hardest lost deals cut at 2M nodes, and the no-peek player's
1,000-node searches of sampled Klondike tables, 250 per deal) in a fresh process per
(tree, round), alternating the two trees so that a noisy neighbour hits both alike.
The base commit is checked out into a temporary git worktree. Prints, per game, the
best nanoseconds per node of each tree over the rounds and their ratio, and checks
that both trees searched the same number of nodes (a change meant only for speed must
not change the search). Appends the table to benchmarks/results.md.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from base_tree import ROOT, base_worktree, head_label
from results_log import append


KLONDIKE_SEEDS = [2152, 6850, 4058, 1509, 8261]   # Solvitaire's, all lost in 1.3-1.9M nodes
LADDER_SEEDS = [196, 486, 12]
LADDER_ONE_PASS_SEEDS = [5, 12, 33]   # one pass: unknown at 10 s (the variant with most of them), cut at 2M
LADDER_NODES = 2_000_000
TWENTY_SEEDS = [2947, 7300, 22285]   # unknown at 10 s, lost in 26-78M nodes: cut at LADDER_NODES

CHILD = r"""
import json, sys
from solver.deals import deal_from_seed
from solver.engine.search import search
from solver.seeds import deal_from_tool_seed
game_name, seeds, cap = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
game_options = json.loads(sys.argv[4]) if len(sys.argv) > 4 else {}
try:   # the game contract (solver.game)
    from solver.registry import game as lookup
    from solver.solve import roots
    solver = lookup(game_name).solver
    kernels, settings = solver.kernels, solver.search_settings
    # a tree from before the settings depended on the options holds a dict
    options = settings if isinstance(settings, dict) else settings(game_options)
    root = lambda d: roots(solver, d)
except ImportError:   # a tree from before the game contract
    from solver.registry import kernels_module
    from solver.solve import _roots
    module = kernels_module(game_name)
    kernels, options = module.KERNELS, getattr(module, "SEARCH_OPTIONS", {})
    root = lambda d: _roots(module, d)
def deal(seed):
    if game_name == "klondike":
        return deal_from_tool_seed("klondike", seed, "solvitaire",
                                   {"draw": 3, "passes": None, "foundation_to_tableau": True})
    return deal_from_seed(game_name, seed, game_options)
search(kernels, root(deal(seeds[0])), max_nodes=1000, **options)   # load the compiled code
nodes = seconds = 0
for seed in seeds:
    out = search(kernels, root(deal(seed)), max_nodes=cap, **options)
    nodes += out.nodes
    seconds += out.seconds
print(json.dumps({"nodes": nodes, "seconds": seconds}))
"""


# The no-peek player's workload: many short searches in one compiled call, each of a
# table sampled at the start of a game (``solve_each``, 1,000 nodes each). Their nodes are
# mostly first visits, so move generation weighs more in them than in a long search.
PLAYER_SEEDS = [1, 2, 3, 4, 5, 6, 7, 8]
PLAYER_TABLES = 250
PLAYER_NODES = 1000

CHILD_PLAYER = r"""
import json, sys, time
import numpy as np
from solver.deals import deal_from_seed
from solver.engine.batch import solve_each
from solver.play.run import Referee
from solver.play.sampling import Templates, arrangements
from solver.registry import game as lookup
game_name, seeds, cap = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
tables, nodes_each = cap
solver = lookup(game_name).solver
states = []
for seed in seeds:
    deal = deal_from_seed(game_name, seed, {"draw": 3, "passes": None, "foundation_to_tableau": True})
    obs = Referee(deal, "tableau").observation
    templates = Templates(solver, obs)
    cards = arrangements([seed * 100_003 + k for k in range(tables)], obs.unseen)
    states.append(templates.states(templates.of(obs.table), cards))
roots = np.concatenate(states)
solve_each(solver.kernels, roots[:4], 100)   # load the compiled code
started = time.perf_counter()
_, _, spent = solve_each(solver.kernels, roots, nodes_each)
print(json.dumps({"nodes": int(spent.sum()), "seconds": time.perf_counter() - started}))
"""


def measure(tree: Path, game: str, seeds: list[int], cap, child: str = CHILD, options: dict | None = None) -> dict:
    done = subprocess.run([sys.executable, "-c", child, game, json.dumps(seeds), json.dumps(cap),
                           json.dumps(options or {})], cwd=tree,
                          env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"}, capture_output=True,
                          text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", required=True, help="the commit to compare against")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--no-append", action="store_true")
    ap.add_argument("--only", choices=("klondike", "ladder", "ladder-one-pass", "twenty", "player"),
                    help="only this one of the workloads")
    args = ap.parse_args()
    head = head_label()
    with base_worktree(args.base) as base:
        rows = []
        for label, name, game, seeds, cap, child, options in (
                ("klondike", "klondike", "klondike", KLONDIKE_SEEDS, None, CHILD, {}),
                ("ladder", "ladder", "ladder", LADDER_SEEDS, LADDER_NODES, CHILD, {}),
                ("ladder, one pass", "ladder-one-pass", "ladder", LADDER_ONE_PASS_SEEDS, LADDER_NODES, CHILD,
                 {"passes": 1}),
                ("twenty", "twenty", "twenty", TWENTY_SEEDS, LADDER_NODES, CHILD, {}),
                (f"klondike, player's {PLAYER_NODES:,}-node searches", "player", "klondike", PLAYER_SEEDS,
                 [PLAYER_TABLES, PLAYER_NODES], CHILD_PLAYER, {})):
            if args.only and args.only != name:
                continue
            best = {}
            nodes = {}
            for tree in (base, ROOT):   # first runs compile (each tree has its own cache)
                measure(tree, game, seeds[:1], [4, 100] if child is CHILD_PLAYER else 1000, child, options)
            for _ in range(args.rounds):
                for which, tree in (("base", base), ("head", ROOT)):
                    got = measure(tree, game, seeds, cap, child, options)
                    ns = got["seconds"] / got["nodes"] * 1e9
                    best[which] = min(best.get(which, ns), ns)
                    nodes[which] = got["nodes"]
            same = "yes" if nodes["base"] == nodes["head"] else f"NO ({nodes['base']} vs {nodes['head']})"
            rows.append(f"| {label} | {', '.join(map(str, seeds))} | {nodes['head']:,} | {best['base']:.0f} "
                        f"| {best['head']:.0f} | {best['base'] / best['head']:.2f} | {same} |")
    table = "\n".join([f"| game | seeds | nodes | ns/node at {args.base} | ns/node at {head} | speed-up | same nodes |",
                       "|---|---|---|---|---|---|---|", *rows])
    print(table)
    if not args.no_append:
        append(f"time per node, {head} against {args.base}",
               f"(best of {args.rounds} alternating runs per tree)\n\n{table}",
               f"python benchmarks/node_cost.py --base {args.base} --rounds {args.rounds}")


if __name__ == "__main__":
    main()
