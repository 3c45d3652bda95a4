"""Batch throughput: 1 job vs 2, Dask LocalCluster vs the local pool, overhead per deal.

    python benchmarks/batch_speed.py [--game pyramid] [--options passes=1] [--deals 1000] [--reps 2]
        [--no-dask]

* Throughput: each setting (1 job, 2 jobs, a Dask LocalCluster of 2 single-thread
  workers) solves the same N seeds; the rate is counted from the first group of
  deals back to the last (``BatchSummary.rate``), so pool start-up and loading the
  kernels are left out (start-up is reported: the rest of the wall time). Settings are interleaved and
  repeated, the best time of each kept, because the machine is shared: the load
  average is reported with the figures.
* Busy share: the rows' solve seconds over (workers x wall): how much of its time
  each worker spends solving. Under other load a search's wall time stretches as
  much as the run's, so this share says what the batch machinery costs whatever
  the load, and 2 x (busy share with 2 jobs / with 1) is the 2-job speed-up on
  free cores.
* Overhead per deal: ``run_batch --jobs 1`` (in process: journal, JSON, fsync)
  against a plain loop of ``solve(deal_from_seed(...))`` over the same seeds, both
  warm, in CPU seconds of this process (which other load barely moves) and in wall
  time; and for the pool, the main process's CPU per deal (its only work is the
  bookkeeping).

Prints a markdown table and appends it, with the command, date and load average,
to benchmarks/results.md.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

from results_log import append

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from solver.studies import run_batch  # noqa: E402
from solver.deals import deal_from_seed  # noqa: E402
from solver.solve import solve  # noqa: E402


def parse_options(text: str) -> dict:
    from solver.options import parse_option_value
    return {k: parse_option_value(v) for k, v in (p.split("=") for p in text.split(",") if p)}


def timed_study(tmp, name, game, options, seeds, **kw):
    """(wall s, CPU s of this process) of one fresh study."""
    out = Path(tmp) / f"{name}.jsonl"
    for path in (out, out.with_suffix(".csv")):
        path.unlink(missing_ok=True)
    cpu0, t0 = time.process_time(), time.perf_counter()
    summary = run_batch(game, seeds, options, out=out, progress=False, **kw)
    timed_study.last = summary
    return time.perf_counter() - t0, time.process_time() - cpu0


def solving_seconds(tmp, name) -> float:
    """The summed wall time of the searches themselves (the rows' ``seconds``)."""
    from solver.studies import load_study
    return float(load_study(Path(tmp) / f"{name}.jsonl")["seconds"].sum())


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="pyramid")
    ap.add_argument("--options", default="passes=1")
    ap.add_argument("--deals", type=int, default=1000, help="N, the seeds each setting solves")
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--max-nodes", type=int, default=2_000_000)
    ap.add_argument("--reps", type=int, default=2)
    ap.add_argument("--no-dask", action="store_true")
    ap.add_argument("--no-append", action="store_true")
    args = ap.parse_args()
    game, options, n, first = args.game, parse_options(args.options), args.deals, args.first_seed
    limits = {"max_nodes": args.max_nodes, "time_limit": None}
    seeds = f"{first}-{first + n - 1}"
    one = f"{first}-{first}"
    load_before = os.getloadavg()
    figures = {}
    import pandas  # noqa: F401 - imported once by any process; not a per-deal cost
    with tempfile.TemporaryDirectory() as tmp:
        # overhead per deal, in one warm process
        for s in range(first, first + 20):
            solve(deal_from_seed(game, s, options), **limits)
        timed_study(tmp, "warm", game, options, one, jobs=1, **limits)
        best = {"loop": (1e9, 1e9), "batch": (1e9, 1e9)}
        for _ in range(args.reps):
            cpu0, t0 = time.process_time(), time.perf_counter()
            for s in range(first, first + n):
                solve(deal_from_seed(game, s, options), **limits)
            loop = (time.perf_counter() - t0, time.process_time() - cpu0)
            batch = timed_study(tmp, "inproc", game, options, seeds, jobs=1, **limits)
            best = {"loop": min(best["loop"], loop), "batch": min(best["batch"], batch)}
        figures["solve() loop, 1 core: deals/s"] = n / best["loop"][0]
        figures["batch --jobs 1 (in process): deals/s"] = n / best["batch"][0]
        figures["batch overhead per deal, CPU (ms)"] = 1000 * (best["batch"][1] - best["loop"][1]) / n
        figures["batch overhead per deal, wall (ms)"] = 1000 * (best["batch"][0] - best["loop"][0]) / n

        rate, start, busy, main_cpu = {}, {}, {}, {}

        def measure(settings):
            for _ in range(args.reps):   # settings interleaved, so a burst of other load hits all
                for label, kw in settings.items():
                    tn, cpu = timed_study(tmp, f"{label}-n", game, options, seeds, **kw, **limits)
                    r = timed_study.last.rate   # from the first group back to the last
                    if r > rate.get(label, 0):
                        rate[label], start[label], main_cpu[label] = r, tn - n / r, cpu / n
                        workers = kw.get("jobs") or 2
                        busy[label] = solving_seconds(tmp, f"{label}-n") * r / (workers * n)

        settings = {"1 job": {"jobs": 1}, "2 jobs": {"jobs": 2}}
        measure(settings)
        if not args.no_dask:
            # after the pool runs: the LocalCluster's scheduler runs in this process and
            # would add its own CPU to the main-process figure
            from distributed import Client

            from solver.studies import local_cluster
            with local_cluster(2) as cluster, Client(cluster) as client:
                timed_study(tmp, "dask-warm", game, options, f"{first}-{first + 3}", scheduler=client, **limits)
                settings = {**settings, "Dask 2 workers": {"scheduler": client}}
                measure({"2 jobs": {"jobs": 2}, "Dask 2 workers": {"scheduler": client}})
        for label in settings:
            figures[f"{label}: deals/s (start-up {start[label]:.2f} s excluded)"] = rate[label]
        figures["2 jobs / 1 job"] = rate["2 jobs"] / rate["1 job"]
        # the share of each worker's time spent inside solve(): what the batch machinery
        # controls; the rest of a shortfall is cores that other processes hold
        for label in settings:
            figures[f"{label}: workers busy solving (share of workers x wall)"] = busy[label]
        figures["2 jobs / 1 job on free cores (2 x busy ratio, derived)"] = 2 * busy["2 jobs"] / busy["1 job"]
        figures["2-job pool: main-process CPU per deal (ms)"] = 1000 * main_cpu["2 jobs"]
        if "Dask 2 workers" in rate:
            figures["Dask / 2-job pool"] = rate["Dask 2 workers"] / rate["2 jobs"]
    load_after = os.getloadavg()
    lines = ["| figure | value |", "|---|---|"] + [f"| {k} | {v:.4g} |" for k, v in figures.items()]
    table = "\n".join(lines)
    print(table)
    if not args.no_append:
        append(f"batch speed, {game} {args.options}, N={n}",
               f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f} "
               f"({os.cpu_count()} cores, shared)\n\n{table}",
               "python benchmarks/batch_speed.py " + " ".join(sys.argv[1:]))


if __name__ == "__main__":
    main()
