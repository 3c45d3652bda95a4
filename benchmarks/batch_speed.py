"""Batch throughput: 1 job vs 2, Dask LocalCluster vs the local pool, overhead per deal.

    python benchmarks/batch_speed.py [--game pyramid] [--options passes=3] [--deals 1000] [--no-dask]

* Throughput is measured in steady state: each setting runs a study of N seeds and
  one of 2N seeds (fresh journals); N / (T(2N) - T(N)) is the rate with the fixed
  start-up cost (pool processes, loading kernels) taken out. The start-up is
  reported on its own.
* Overhead per deal: ``run_batch --jobs 1`` (in-process: journal, JSON, fsync) against
  a plain loop of ``solve(deal_from_seed(...))`` over the same seeds, both warm;
  and, for the pool, the main process's CPU time per deal (its only work is the
  bookkeeping).

Prints a markdown table and appends it, with the command, date and load average,
to benchmarks/results.md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from solver.batch import run_batch  # noqa: E402
from solver.deals import deal_from_seed  # noqa: E402
from solver.solve import solve  # noqa: E402


def parse_options(text: str) -> dict:
    from solver.options import parse_option_value
    return {k: parse_option_value(v) for k, v in (p.split("=") for p in text.split(",") if p)}


def timed_study(tmp, name, game, options, seeds, **kw):
    out = Path(tmp) / f"{name}.jsonl"
    cpu0 = resource.getrusage(resource.RUSAGE_SELF)
    t0 = time.perf_counter()
    run_batch(game, seeds, options, out=out, progress=False, **kw)
    wall = time.perf_counter() - t0
    cpu1 = resource.getrusage(resource.RUSAGE_SELF)
    cpu = (cpu1.ru_utime - cpu0.ru_utime) + (cpu1.ru_stime - cpu0.ru_stime)
    return wall, cpu


def steady_rate(tmp, name, game, options, n, first, **kw):
    """(deals/s in steady state, start-up seconds, main-process CPU s per deal)"""
    t1, _ = timed_study(tmp, f"{name}-1", game, options, f"{first}-{first + n - 1}", **kw)
    t2, cpu2 = timed_study(tmp, f"{name}-2", game, options, f"{first}-{first + 2 * n - 1}", **kw)
    per_deal = max(t2 - t1, 1e-9) / n
    return 1 / per_deal, max(0.0, t1 - n * per_deal), cpu2 / (2 * n)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="pyramid")
    ap.add_argument("--options", default="passes=1")
    ap.add_argument("--deals", type=int, default=1000, help="N: each setting solves N and 2N seeds")
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--max-nodes", type=int, default=2_000_000)
    ap.add_argument("--no-dask", action="store_true")
    ap.add_argument("--no-append", action="store_true")
    args = ap.parse_args()
    game, options, n, first = args.game, parse_options(args.options), args.deals, args.first_seed
    limits = {"max_nodes": args.max_nodes, "time_limit": None}
    load_before = os.getloadavg()
    figures = {}
    import pandas  # noqa: F401 - imported once by any process; not a per-deal cost
    with tempfile.TemporaryDirectory() as tmp:
        # overhead per deal, in one warm process
        seeds = range(first, first + 2 * n)
        for s in seeds[:20]:
            solve(deal_from_seed(game, s, options), **limits)
        t0 = time.perf_counter()
        for s in seeds:
            solve(deal_from_seed(game, s, options), **limits)
        loop = time.perf_counter() - t0
        batch1, _ = timed_study(tmp, "inproc", game, options, f"{first}-{first + 2 * n - 1}", jobs=1, **limits)
        figures["solve() loop, 1 core: deals/s"] = 2 * n / loop
        figures["batch --jobs 1 (in process): deals/s"] = 2 * n / batch1
        figures["batch overhead per deal, in process (ms)"] = 1000 * (batch1 - loop) / (2 * n)

        rate1, start1, _ = steady_rate(tmp, "pool1", game, options, n, first, jobs=1, **limits)
        rate2, start2, main_cpu = steady_rate(tmp, "pool2", game, options, n, first, jobs=2, **limits)
        figures["1 job: deals/s (steady)"] = rate1
        figures["2 jobs: deals/s (steady)"] = rate2
        figures["2 jobs / 1 job"] = rate2 / rate1
        figures["2-job pool start-up (s)"] = start2
        figures["2-job pool: main-process CPU per deal (ms)"] = 1000 * main_cpu
        if not args.no_dask:
            from distributed import Client, LocalCluster
            with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                              dashboard_address=None) as cluster, Client(cluster) as client:
                rated, _, _ = steady_rate(tmp, "dask", game, options, n, first, scheduler=client, **limits)
            figures["Dask LocalCluster 2 workers: deals/s (steady)"] = rated
            figures["Dask / 2-job pool"] = rated / rate2
    load_after = os.getloadavg()
    lines = ["| figure | value |", "|---|---|"] + [f"| {k} | {v:.4g} |" for k, v in figures.items()]
    table = "\n".join(lines)
    print(table)
    if not args.no_append:
        cmd = "python benchmarks/batch_speed.py " + " ".join(sys.argv[1:])
        with open(HERE / "results.md", "a") as fh:
            fh.write(f"\n## batch speed, {game} {args.options}, N={n}, {dt.date.today()}\n\n`{cmd}`\n\n"
                     f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f} "
                     f"({os.cpu_count()} cores, shared)\n\n{table}\n")


if __name__ == "__main__":
    main()
