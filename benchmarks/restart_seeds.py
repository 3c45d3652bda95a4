"""How many streams of the restart runs' random choices decide the hard won deals.

A won deal must not depend on a lucky random seed. For each deal of a study that was
won with more than --min-nodes nodes (the hard ones, where the restart runs do the
work), solve it again under --streams restart seeds (``search(restart_seed=k)``; 0 is
the stream the study used) with the same node cap, and count the streams that win it.
A node cap, not a clock, so the table is the same on every machine. Appends the table
to benchmarks/results.md.

    python benchmarks/restart_seeds.py ladder --option passes=2 --study studies/ladder-passes2.jsonl.gz \
        [--min-nodes 1000000] [--streams 10] [--max-nodes 20000000] [--most 20]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from results_log import append  # noqa: E402

from solver.deals import deal_from_seed  # noqa: E402
from solver.options import parse_option_value  # noqa: E402
from solver.solve import solve  # noqa: E402
from solver.studies import load_study  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("game")
    ap.add_argument("--study", type=Path, required=True, help="a study's journal or packed journal")
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                    help="the variant's options, as the study ran it (e.g. passes=2)")
    ap.add_argument("--min-nodes", type=int, default=1_000_000)
    ap.add_argument("--streams", type=int, default=10)
    ap.add_argument("--max-nodes", type=int, default=20_000_000)
    ap.add_argument("--most", type=int, default=20, help="at most this many deals, the hardest first")
    ap.add_argument("--no-append", action="store_true")
    args = ap.parse_args()
    options = {}
    for item in args.option:
        name, _, value = item.partition("=")
        options[name] = parse_option_value(value)
    rows = load_study(args.study)
    hard = rows[(rows.verdict == "won") & (rows.nodes > args.min_nodes)].sort_values("nodes", ascending=False)
    hard = hard.head(args.most)
    lines = ["| seed | study's nodes | streams won | nodes to win (each stream, - not won) |", "|---|---|---|---|"]
    total = decided9 = 0
    start = time.perf_counter()
    for seed, nodes in zip(hard.seed, hard.nodes):
        deal = deal_from_seed(args.game, int(seed), options)
        found = []
        for stream in range(args.streams):
            r = solve(deal, max_nodes=args.max_nodes, time_limit=None, restart_seed=stream)
            assert r.verdict != "lost", f"seed {seed} stream {stream}: lost, but the study won it"
            found.append(r.nodes if r.verdict == "won" else None)
        won = sum(n is not None for n in found)
        total += 1
        decided9 += won >= 0.9 * args.streams
        lines.append(f"| {seed} | {int(nodes):,} | {won} of {args.streams} | "
                     + " ".join("-" if n is None else f"{n / 1e6:.1f}M" for n in found) + " |")
        print(lines[-1], flush=True)
    body = "\n".join(lines) + (f"\n\n{decided9} of {total} deals won in at least 90 % of the streams "
                               f"({time.perf_counter() - start:.0f} s)")
    print(body)
    if not args.no_append:
        opts = " ".join(f"--option {o}" for o in args.option)
        append(f"restart seeds: the hard won deals of {args.game} {json.dumps(options)}", body,
               f"python benchmarks/restart_seeds.py {args.game} {opts} --study {args.study} --min-nodes "
               f"{args.min_nodes} --streams {args.streams} --max-nodes {args.max_nodes} --most {args.most}")


if __name__ == "__main__":
    main()
