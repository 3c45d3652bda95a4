"""kill -9 at a random moment, then resume: is the final table the uninterrupted run's?

    python benchmarks/kill_resume.py [--trials 5] [--seeds 1-1500] [--jobs 2] [--random-seed 1]

Runs the study once without interruption (the reference), then per trial starts
``solitaire batch`` in a subprocess, SIGKILLs it after a random delay drawn
between 0 and the reference run's wall time, runs the same command again, and
compares (seed, verdict, nodes, line_length, reason) with the reference and
checks that no seed appears twice in the journal. A node limit (not a time
limit) makes the rows exactly repeatable. Appends the outcome to results.md.
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from results_log import append

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

COLUMNS = ["seed", "verdict", "nodes", "line_length", "reason"]


def command(out, args):
    return [sys.executable, "-c", "from solver.cli import main; main()", "batch", args.game, "--seeds", args.seeds,
            "--max-nodes", str(args.max_nodes), "--jobs", str(args.jobs), "--quiet", "--out", str(out)]


def table(path):
    from solver.studies import load_study
    return load_study(path)[COLUMNS].sort_values("seed").reset_index(drop=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="pyramid")
    ap.add_argument("--seeds", default="1-1500")
    ap.add_argument("--max-nodes", type=int, default=100_000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--trials", type=int, default=5)
    ap.add_argument("--random-seed", type=int, default=1)
    ap.add_argument("--no-append", action="store_true")
    args = ap.parse_args()
    rng = random.Random(args.random_seed)
    outcomes = []
    with tempfile.TemporaryDirectory() as tmp:
        ref = Path(tmp) / "reference.jsonl"
        t0 = time.perf_counter()
        subprocess.run(command(ref, args), cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        wall = time.perf_counter() - t0
        reference = table(ref)
        for trial in range(args.trials):
            out = Path(tmp) / f"trial{trial}.jsonl"
            delay = rng.uniform(0, wall)
            proc = subprocess.Popen(command(out, args), cwd=ROOT, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL)
            time.sleep(delay)
            killed = proc.poll() is None
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            before = out.read_bytes().count(b"\n") if out.exists() else 0
            subprocess.run(command(out, args), cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
            seeds = [json.loads(x)["seed"] for x in out.read_text().splitlines()]
            same = table(out).equals(reference) and len(seeds) == len(set(seeds)) == len(reference)
            outcomes.append((round(delay, 2), killed, before, same))
            print(f"trial {trial}: killed after {delay:.2f} s ({'mid-run' if killed else 'already done'}), "
                  f"{before} rows kept, resumed table equal: {same}", flush=True)
    equal = sum(o[3] for o in outcomes)
    mid = sum(o[1] for o in outcomes)
    summary = (f"{equal}/{len(outcomes)} resumed tables equal the uninterrupted run's ({mid} kills mid-run; "
               f"rows kept at the kill: {', '.join(str(o[2]) for o in outcomes)}; reference run {wall:.1f} s)")
    print(summary)
    if not args.no_append:
        append(f"kill -9 then resume, {args.game} seeds {args.seeds}", summary,
               "python benchmarks/kill_resume.py " + " ".join(sys.argv[1:]))
    sys.exit(0 if equal == len(outcomes) else 1)


if __name__ == "__main__":
    main()
