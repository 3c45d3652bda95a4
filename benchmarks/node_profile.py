"""Where a search's time goes, by compiled function, sampled with Linux ``perf``.

    python benchmarks/node_profile.py [--game klondike|ladder|ladder-one-pass|twenty] [--hot FUNCTION]

Runs node_cost.py's searches of the game in a child process under ``perf record``, with
an empty Numba cache so that every function is compiled there and its machine code
(an ELF object) is at hand; maps each sample of compiled code to the function it falls
in (``nm`` on each object, each symbol's address as loaded), and prints each function's
share of the samples in compiled code. A function inlined into another counts as the
other. With ``--hot NAME``, also the offsets in that function that took the most
samples (for ``objdump -d`` of its object, which ``--keep DIR`` writes); with
``--lines`` (and ``NUMBA_DEBUGINFO=1`` in the environment), its samples by source line
instead, through ``addr2line`` (the innermost inlined function's line).

Needs ``perf`` (Debian's linux-perf) and ``nm``; on a machine without hardware counters
perf samples by the clock, which is what this reads. Nothing here changes a verdict.
"""

from __future__ import annotations

import argparse
import bisect
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

CHILD = r"""
import gc, json, subprocess, sys, tempfile
from numba.core.registry import CPUDispatcher
from solver.engine.search import search
from solver.registry import game as lookup
from solver.solve import roots
sys.path.insert(0, sys.argv[3])
from node_parts import workload
name, out_file = sys.argv[1], sys.argv[2]
keep = sys.argv[4] if len(sys.argv) > 4 else None
options, deals, cap = workload(name)
solver = lookup(deals[0].game).solver
settings = solver.search_settings(options)
search(solver.kernels, roots(solver, deals[0]), max_nodes=1000, **settings)   # compiles everything
symbols, seen = [], set()
for obj in gc.get_objects():
    if not isinstance(obj, CPUDispatcher):
        continue
    for result in obj.overloads.values():
        library = result.library
        if id(library) in seen:
            continue
        seen.add(id(library))
        try:
            blob = library._get_compiled_object()
        except Exception:
            continue
        with tempfile.NamedTemporaryFile(suffix=".o", delete=False, dir=keep) as f:
            f.write(blob)
        listing = subprocess.run(["nm", "-S", "--defined-only", f.name], capture_output=True, text=True).stdout
        for line in listing.splitlines():
            parts = line.split()
            if len(parts) == 4 and parts[2] in "tT":
                address = library.get_pointer_to_function(parts[3])
                if address:
                    symbols.append((address, int(parts[1], 16), parts[3], f.name, int(parts[0], 16)))
json.dump(sorted(symbols), open(out_file, "w"))
nodes = 0
for deal in deals:
    nodes += search(solver.kernels, roots(solver, deal), max_nodes=cap, **settings).nodes
print(nodes)
"""


def readable(symbol: str) -> str:
    """``solver.games.klondike.kernels.key`` out of Numba's mangled name."""
    wrapper = "wrapper of " if symbol.startswith("cfunc.") else ""
    match = re.match(r"(?:cfunc\.)?_ZN(?:7cpython)?((?:\d+\w+?)+?)B\d", symbol)
    if not match:
        return symbol[:80]
    names, rest = [], match.group(1)
    while rest:
        size = re.match(r"\d+", rest)
        if not size:
            break
        n = int(size.group())
        start = size.end()
        names.append(rest[start:start + n])
        rest = rest[start + n:]
    return wrapper + ".".join(names)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="klondike", choices=("klondike", "ladder", "ladder-one-pass", "twenty"))
    ap.add_argument("--hot", help="also the busiest offsets of the function whose name ends so")
    ap.add_argument("--keep", help="write the compiled objects into this folder (for objdump)")
    ap.add_argument("--lines", action="store_true", help="with --hot: by source line (needs NUMBA_DEBUGINFO=1)")
    ap.add_argument("--frequency", type=int, default=2999, help="samples a second")
    args = ap.parse_args()
    if not shutil.which("perf"):
        sys.exit("node_profile.py: needs perf (Debian: apt-get install linux-perf)")
    if args.keep:
        Path(args.keep).mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        symbols_file, data = Path(tmp) / "symbols.json", Path(tmp) / "perf.data"
        env = dict(os.environ, NUMBA_CACHE_DIR=str(Path(tmp) / "cache"), PYTHONPATH=str(ROOT))
        cmd = [sys.executable, "-c", CHILD, args.game, str(symbols_file), str(HERE)] + ([args.keep] if args.keep else [])
        subprocess.run(["perf", "record", "-q", "-F", str(args.frequency), "-o", str(data), "--"] + cmd,
                       env=env, check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
        symbols = json.loads(symbols_file.read_text())
        ips = subprocess.run(["perf", "script", "-i", str(data), "-F", "ip"], capture_output=True, text=True,
                             check=True).stdout.split()
    starts = [s[0] for s in symbols]
    shares, offsets = collections.Counter(), collections.Counter()
    for text in ips:
        ip = int(text, 16)
        i = bisect.bisect_right(starts, ip) - 1
        if i >= 0 and ip < symbols[i][0] + symbols[i][1]:
            name = readable(symbols[i][2])
            shares[name] += 1
            if args.hot and name.endswith(args.hot) and not name.startswith("wrapper"):
                offsets[(symbols[i][3], ip - symbols[i][0] + symbols[i][4])] += 1
    total = sum(shares.values())
    print(f"{total} samples in compiled code ({args.game}, node_cost.py's searches)")
    for name, count in shares.most_common(15):
        print(f"{100 * count / total:6.1f}%  {name}")
    if args.hot and args.lines:
        by_line = collections.Counter()
        for (obj, address), count in offsets.items():
            found = subprocess.run(["addr2line", "-i", "-e", obj, hex(address)], capture_output=True,
                                   text=True).stdout.split()
            by_line[found[0] if found else "?"] += count
        hot = sum(by_line.values()) or 1
        print(f"busiest lines in {args.hot}:")
        for line, count in by_line.most_common(25):
            print(f"  {100 * count / hot:5.1f}%  {line}")
    elif args.hot:
        hot = sum(offsets.values()) or 1
        print(f"busiest offsets in {args.hot}:")
        for (obj, offset), count in offsets.most_common(10):
            print(f"  {hex(offset)} (in the object)  {100 * count / hot:5.1f}%  {Path(obj).name if args.keep else ''}")


if __name__ == "__main__":
    main()
