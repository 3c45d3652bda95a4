"""Before pytest-xdist starts its workers on a fresh checkout, the engine and every game's
solver are compiled into Numba's cache (on disk, so every process loads from it), two or
more at once: otherwise each worker compiles the same kernels for itself at the same
time, a minute and more at the suite's start done once per worker."""

from __future__ import annotations

import time

import pytest

from solver.engine import warm
from solver.registry import games


@pytest.hookimpl(trylast=True)   # after the terminal reporter is set up
def pytest_configure(config):
    workers = len(config.getoption("tx", None) or [])   # xdist's, once -n is resolved
    if hasattr(config, "workerinput") or config.getoption("dist", "no") == "no" or workers < 2:
        return
    parts = {"the engine": [m for m in warm.ENGINE_MODULES if not warm.engine_compiled(m)]}
    parts.update((g.name, [g.solver_module]) for g in games().values() if not warm.solver_compiled(g.solver_module))
    parts = {name: task for name, task in parts.items() if task}
    if not parts:
        return
    say = config.pluginmanager.get_plugin("terminalreporter")
    start = time.monotonic()
    if say:
        say.write_line(f"compiling into Numba's cache first, {workers} at once: {', '.join(parts)}")
    warm.fill_cache(list(parts.values()), workers)
    if say:
        say.write_line(f"compiled in {time.monotonic() - start:.0f} s")
