"""A first run compiles on two cores: the engine in a child process, a game's kernels here.

Numba compiles one function at a time, in the calling thread, and the first command
after an install compiles the engine's loops and then the game's kernels, one after
the other, on one core. Where the engine has no compiled code in Numba's cache yet and
the machine has a second core, :func:`engine_compiled_aside` starts a child process
that compiles the engine into the cache while the caller compiles the game's kernels.
The child compiles one module after the other and says each one's name when it is in
the cache: first the game's modules that import nothing of its other compiled code
(``Game.compiled_aside``), then the engine's, the search loop first. A search needs the
search loop, and the restart runs, beam, best-first and staged searches only when its
settings use them (only some games' settings do), so the caller waits for the search
loop alone, and for another module only when it imports it (:func:`compiled_aside`,
called before each such import): a game whose search is the depth-first orders alone
starts as soon as its own kernels are compiled. The child ends with the command; a
later command that needs a module it did not reach compiles it then (in a child again
when its game's kernels compile too, or when its searches run in other processes).
Numba writes each cache file whole (a rename), so the two processes never see a
half-written one; and if the child fails, the caller compiles what it imports itself.
"""

from __future__ import annotations

import atexit
import importlib.util
import os
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

from .cache import cache_dirs

ENGINE = Path(__file__).resolve().parent
SEARCH_MODULE = "solver.engine.search"
# each module of the engine with compiled code, in the order the child compiles them (the
# ones more games use first), and the function whose cache index says it was compiled
# (its last or only entry point)
ENGINE_MODULES = {SEARCH_MODULE: "search._run", "solver.engine.restarts": "restarts._run_restarts",
                  "solver.engine.beam": "beam._level", "solver.engine.best_first": "best_first._expand",
                  "solver.engine.staged": "staged._advance"}
CHILD = """
import importlib, os, sys
for name in sys.argv[1:]:
    importlib.import_module(name)
    os.write(1, (name + "\\n").encode())
"""


def _cached(folder: Path, pattern: str) -> bool:
    """Numba's cache of the modules in ``folder`` has an index file matching ``pattern``
    (where Numba looks: under ``NUMBA_CACHE_DIR`` when that is set, else beside the sources)."""
    folders = cache_dirs(folder)
    if os.environ.get("NUMBA_CACHE_DIR"):
        folders = [f for f in folders if f != folder / "__pycache__"]
    return any(any(f.glob(pattern)) for f in folders)


def engine_compiled(module: str = SEARCH_MODULE) -> bool:
    """Numba's cache holds the engine's ``module`` (by default its search loop). Where Numba
    falls back to a folder of its own (sources it cannot write beside), this says no, and a
    child that only loads the cached engine costs a second core about a second."""
    return _cached(ENGINE, ENGINE_MODULES[module] + "-*.nbi")


def solver_compiled(solver_module: str) -> bool:
    """Numba's cache holds the engine's search loop and some of the code of the package of
    ``solver_module`` (a game's solver; its package's cache is emptied whenever a source of it
    changes: engine/cache.py), so a start of that solver loads rather than compiles."""
    spec = importlib.util.find_spec(solver_module.rsplit(".", 1)[0])
    if spec is None or not spec.submodule_search_locations:
        return False
    return engine_compiled() and _cached(Path(next(iter(spec.submodule_search_locations))), "*.nbi")


def _child_env() -> dict:
    """The environment of a compiling child: this one, with the package's root first on its
    path (the child imports this copy of the package, whatever the working folder)."""
    root = str(ENGINE.parent.parent)
    return dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH", "")) if p))


class _Child:
    """The child compiling the engine, and the modules it has said are in the cache."""

    def __init__(self, modules: list[str]):
        self.waiting = set(modules)
        self.process = subprocess.Popen([sys.executable, "-c", CHILD, *modules],
                                        env=_child_env(), stdin=subprocess.DEVNULL,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)

    def wait_for(self, module: str) -> None:
        """Until the child has compiled ``module``, or has ended (then whatever it did not
        compile, the caller compiles when it imports it)."""
        while module in self.waiting:
            line = self.process.stdout.readline()
            if not line:
                self.waiting.clear()
                self.process.wait()
                return
            self.waiting.discard(line.strip())


_child: _Child | None = None


def compiled_aside(*modules: str) -> None:
    """Before importing ``modules`` (the engine's, or a game's ``compiled_aside``): wait while
    a child started by :func:`engine_compiled_aside` is still compiling them (nothing to
    wait for otherwise)."""
    if _child is not None:
        for module in modules:
            _child.wait_for(module)


def end_child() -> None:
    """End the child, if it is still compiling: what it compiles now, no search of this
    command needs (at exit; solver.cli.run calls it too, as its exit skips ``atexit``)."""
    if _child is not None and _child.process.poll() is None:
        _child.process.kill()
        _child.process.wait()


@contextmanager
def engine_compiled_aside(solver_module: str, game_modules: tuple[str, ...] = (), whole: bool = False):
    """Within the block (which loads a game's solver, ``solver_module``), the parts
    of the engine not in the cache yet compile in a child process, when a second core can take
    them and this process compiles too (the search loop or the game's kernels are not in the
    cache), or the command needs the ``whole`` engine (its searches run in other processes, which
    would each compile what is missing). The child compiles the ``game_modules`` first (the
    game's ``compiled_aside``: they wait for it themselves). Leaving the block waits for the
    search loop, or with ``whole`` for the whole engine."""
    global _child
    if _child is None and SEARCH_MODULE not in sys.modules and (os.cpu_count() or 1) > 1:
        missing = [m for m in ENGINE_MODULES if m not in sys.modules and not engine_compiled(m)]
        game_cached = solver_compiled(solver_module)
        todo = ([] if game_cached else [m for m in game_modules if m not in sys.modules]) + missing
        if todo and (whole or not game_cached):
            _child = _Child(todo)
            atexit.register(end_child)
    try:
        yield
    except BaseException:
        end_child()
        raise
    if _child is not None:
        for module in (ENGINE_MODULES if whole else [SEARCH_MODULE]):
            _child.wait_for(module)


def fill_cache(tasks: list[list[str]], processes: int) -> None:
    """Compile ``tasks`` into Numba's cache in up to ``processes`` child processes at once.
    A task is a list of modules imported in order, in one child (a module that imports
    another of its task finds it compiled, not compiled a second time by another child).
    The larger tasks (by the size of the sources in their folders) start first, so that no
    long one is left for the end. For several processes about to compile the same code
    each on its own (a test run's workers): what they would each compile, they then load."""
    import threading

    def size(task):
        specs = [importlib.util.find_spec(m) for m in task]
        folders = {Path(s.origin).parent for s in specs if s is not None and s.origin}
        return sum(p.stat().st_size for folder in folders for p in folder.glob("*.py"))

    todo = sorted(tasks, key=size, reverse=True)
    lock = threading.Lock()
    env = _child_env()

    def work():
        while True:
            with lock:
                if not todo:
                    return
                task = todo.pop(0)
            # a child that fails leaves its modules to whoever imports them next
            subprocess.run([sys.executable, "-c", CHILD, *task], env=env, stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    threads = [threading.Thread(target=work) for _ in range(max(1, min(processes, len(todo))))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
