"""Cold and warm wall time of `solitaire solve GAME --seed 1`, for every game.

Cold: an empty Numba cache folder (NUMBA_CACHE_DIR), so everything compiles. Warm:
the same command again, loading from that cache (best of three). With --base, the
same commands run from a worktree of that commit, alternated with this tree's, so
both see the same machine load. Appends the table to benchmarks/results.md.

    python benchmarks/startup.py [--base COMMIT] [--games klondike,golf]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from results_log import append

ROOT = Path(__file__).resolve().parent.parent
CLI = "import sys; from solver.cli import run; sys.argv[0] = 'solitaire'; run()"
GAMES = ("klondike", "pyramid", "twenty", "ladder", "golf")


def timed(tree: Path, game: str, cache: Path) -> float:
    env = dict(os.environ, PYTHONPATH=str(tree), NUMBA_CACHE_DIR=str(cache))
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", CLI, "solve", game, "--seed", "1"], cwd=tree, env=env, check=True,
                   capture_output=True)
    return time.perf_counter() - start


def cold_and_warm(tree: Path, game: str, tmp: Path) -> tuple[float, float]:
    cache = Path(tempfile.mkdtemp(dir=tmp))
    cold = timed(tree, game, cache)
    warm = min(timed(tree, game, cache) for _ in range(3))
    return cold, warm


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", help="a commit to compare against, run alternately with this tree")
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--no-append", action="store_true")
    args = ap.parse_args()
    games = [g for g in args.games.split(",") if g]
    with tempfile.TemporaryDirectory() as tmp:
        trees = {"this tree": ROOT}
        if args.base:
            base = Path(tmp) / "base"
            subprocess.run(["git", "worktree", "add", "--detach", "-q", str(base), args.base], cwd=ROOT, check=True)
            trees = {args.base: base, "this tree": ROOT}
        try:
            rows = []
            for game in games:
                got = {name: cold_and_warm(tree, game, Path(tmp)) for name, tree in trees.items()}
                cells = " | ".join(f"{cold:.1f} s | {warm:.2f} s" for cold, warm in got.values())
                rows.append(f"| {game} | {cells} |")
                print(rows[-1], flush=True)
        finally:
            if args.base:
                subprocess.run(["git", "worktree", "remove", "--force", str(base)], cwd=ROOT, check=True)
    head = " | ".join(f"cold, {name} | warm, {name}" for name in trees)
    table = "\n".join([f"| game | {head} |", "|---" * (1 + 2 * len(trees)) + "|", *rows])
    print(table)
    if not args.no_append:
        append("start-up of `solitaire solve GAME --seed 1`, cold (empty Numba cache) and warm (best of 3)", table,
               "python benchmarks/startup.py" + (f" --base {args.base}" if args.base else ""))


if __name__ == "__main__":
    main()
