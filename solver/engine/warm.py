"""A first run compiles on two cores: the engine in a child process, a game's kernels here.

Numba compiles one function at a time, in the calling thread, and the first command
after an install compiles the engine's loops and then the game's kernels, one after
the other, on one core. Where the engine has no compiled code in Numba's cache yet and
the machine has a second core, :func:`engine_compiled_aside` starts a child process
that compiles the engine into the cache while the caller compiles the game's kernels
(the search loop, and the restart runs, beam, best-first and staged searches that some
games use: together they take less time than any game's kernels, so the caller seldom
waits); the caller waits for the child before it imports the engine, which then loads
from the cache. Numba writes each cache file whole (a rename), so the two processes
never see a half-written one; and if the child fails, the caller compiles the engine
itself.
"""

from __future__ import annotations

import os
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

from .cache import cache_dirs

ENGINE = Path(__file__).resolve().parent
SEARCH_MODULE = "solver.engine.search"
CHILD_IMPORTS = (f"import {SEARCH_MODULE}, solver.engine.restarts, solver.engine.beam, solver.engine.best_first, "
                 "solver.engine.staged")


def _cached(folder: Path, pattern: str) -> bool:
    """Numba's cache of the modules in ``folder`` has an index file matching ``pattern``
    (where Numba looks: under ``NUMBA_CACHE_DIR`` when that is set, else beside the sources)."""
    folders = cache_dirs(folder)
    if os.environ.get("NUMBA_CACHE_DIR"):
        folders = [f for f in folders if f != folder / "__pycache__"]
    return any(any(f.glob(pattern)) for f in folders)


def engine_compiled() -> bool:
    """Numba's cache holds the engine's search loop. Where Numba falls back to a folder
    of its own (sources it cannot write beside), this says no, and a child that only
    loads the cached engine costs a second core about a second."""
    return _cached(ENGINE, "search._run-*.nbi")


def solver_compiled(package_folder: Path) -> bool:
    """Numba's cache holds the engine and some of the code of the game in ``package_folder``
    (its package's cache is emptied whenever a source of it changes: engine/cache.py), so
    a solver's start loads rather than compiles."""
    return engine_compiled() and _cached(package_folder, "*.nbi")


@contextmanager
def engine_compiled_aside():
    """Within the block, the engine compiles in a child process when it needs to and a
    second core can take it (else nothing happens); leaving it waits for the child."""
    child = None
    if SEARCH_MODULE not in sys.modules and (os.cpu_count() or 1) > 1 and not engine_compiled():
        root = str(ENGINE.parent.parent)
        path = os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH", "")) if p)
        child = subprocess.Popen([sys.executable, "-c", CHILD_IMPORTS],
                                 env=dict(os.environ, PYTHONPATH=path), stdin=subprocess.DEVNULL,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        yield
    finally:
        if child is not None:
            try:
                child.wait()
            except BaseException:
                child.kill()
                raise
