"""Cold and warm wall time of `solitaire solve klondike --seed 1` (Numba cache).

Cold: the package's Numba cache files are deleted first. Warm: the same command
again. Appends the figures to benchmarks/results.md.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

from results_log import append

HERE = Path(__file__).resolve().parent
PKG = HERE.parent / "solver"
CMD = [str(Path(sys.executable).with_name("solitaire")), "solve", "klondike", "--seed", "1"]


def clear_cache():
    for f in list(PKG.rglob("*.nbi")) + list(PKG.rglob("*.nbc")):
        f.unlink()


def timed():
    start = time.perf_counter()
    subprocess.run(CMD, check=True, capture_output=True)
    return time.perf_counter() - start


def main():
    if not shutil.which(CMD[0]):
        sys.exit(f"{CMD[0]} not found: install the package first")
    clear_cache()
    cold = timed()
    warm = min(timed() for _ in range(3))
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import numba"], check=True)
    numba_import = time.perf_counter() - start
    line = (f"cold {cold:.2f} s, warm {warm:.2f} s (best of 3), of which `import numba` alone "
            f"{numba_import:.2f} s: warm/cold = {warm / cold:.2f}")
    print(line)
    append("start-up of `solitaire solve klondike --seed 1`", line)


if __name__ == "__main__":
    main()
