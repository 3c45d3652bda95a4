"""Numba's on-disk cache stays true to the sources (solver/engine/cache.py).

A package whose cached entry point inlines a helper from another file: after the
helper's file is edited, a fresh process must run the new code. Numba alone keys a
cached function by its own file, so without the guard the old machine code would
come back.
"""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

INIT = "from solver.engine.cache import keep_fresh\nkeep_fresh(__file__)\n"
HELPER = "from numba import njit\n\n@njit(inline='always')\ndef value():\n    return {}\n"
ENTRY = textwrap.dedent("""
    from numba import njit, types
    from .helper import value

    @njit(types.int64(types.int64), cache=True)
    def f(x):
        return x + value()
""")


def run(package_root: Path) -> int:
    code = "import kernelpkg.entry as e; print(e.f(1))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=package_root,
                          env={"PYTHONPATH": f"{package_root}:{ROOT}", "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    return int(done.stdout.strip())


def test_an_edit_of_an_inlined_helper_reaches_a_cached_entry_point(tmp_path):
    pkg = tmp_path / "kernelpkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(INIT)
    (pkg / "entry.py").write_text(ENTRY)
    (pkg / "helper.py").write_text(HELPER.format(10))
    assert run(tmp_path) == 11
    assert any(p.suffix == ".nbi" for p in (pkg / "__pycache__").iterdir())   # it was cached
    assert run(tmp_path) == 11
    # entry.py is untouched. The new source has another length: Python's own bytecode cache
    # knows a source by its size and its mtime in whole seconds, and the two runs above can
    # take less than a second, so an edit of the same size could reload the old helper
    # (that, not Numba's cache, is what made this test fail once in CI)
    (pkg / "helper.py").write_text(HELPER.format(200))
    assert run(tmp_path) == 201
    assert run(tmp_path) == 201


def run_script(code: str, cache: Path) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, cwd=ROOT,
                          timeout=600, env=dict(os.environ, NUMBA_CACHE_DIR=str(cache), PYTHONPATH=str(ROOT)))
    assert done.returncode == 0, done.stderr
    return done


@pytest.mark.slow
def test_a_first_run_compiles_the_engine_in_a_second_process(tmp_path):
    """engine/warm.py: with nothing compiled, leaving the block finds the search loop in the
    cache although this process never imported it (a child compiled it meanwhile); the
    other modules are waited for when a search needs them, and load from the cache."""
    run_script("""
        import sys
        from solver.engine.warm import compiled_aside, engine_compiled, engine_compiled_aside
        assert not engine_compiled()
        with engine_compiled_aside("solver.games.golf.solver"):
            import solver.games.golf.solver
        assert "solver.engine.search" not in sys.modules
        assert engine_compiled()
        import solver.engine.search   # loads what the child compiled
        assert solver.engine.search._run.stats.cache_hits
        compiled_aside("solver.engine.staged")   # the last the child compiles
        assert all(engine_compiled(m) for m in ("solver.engine.restarts", "solver.engine.beam",
                                                "solver.engine.best_first", "solver.engine.staged"))
        import solver.engine.staged
        assert solver.engine.staged._advance.stats.cache_hits and not solver.engine.staged._advance.stats.cache_misses
    """, tmp_path)


@pytest.mark.slow
def test_the_child_ends_with_a_command_whose_search_needs_only_the_search_loop(tmp_path):
    """The child stops where the command ends (no process outlives it): the modules no
    search asked for stay out of the cache, and a later command compiles them then (beside
    it when the command's searches run in other processes)."""
    done = run_script("""
        from solver.engine import warm
        with warm.engine_compiled_aside("solver.games.golf.solver"):
            import solver.games.golf.solver
        print(warm._child.process.pid)
        assert warm._child.process.poll() is None   # still compiling the rest
    """, tmp_path)
    pid = int(done.stdout.split()[-1])
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
    run_script("""
        from solver.engine import warm
        assert warm.engine_compiled() and not warm.engine_compiled("solver.engine.staged")
        with warm.engine_compiled_aside("solver.games.golf.solver"):   # everything this needs is cached
            import solver.games.golf.solver
        assert warm._child is None
    """, tmp_path)
    run_script("""
        from solver.engine import warm
        with warm.engine_compiled_aside("solver.games.golf.solver", whole=True):   # a batch's workers need all
            import solver.games.golf.solver
        assert all(warm.engine_compiled(m) for m in warm.ENGINE_MODULES)
    """, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["klondike", "ladder"])
def test_a_games_modules_compiled_aside_load_from_what_the_child_compiled(tmp_path, name):
    """A game's apply and key (in its compiled_aside) compile in the child while this
    process compiles moves, and load from the cache here."""
    run_script(f"""
        import importlib
        from solver.engine import warm
        from solver.registry import games
        g = games()["{name}"]
        assert g.compiled_aside
        with warm.engine_compiled_aside(g.solver_module, g.compiled_aside):
            g.solver
        p = importlib.import_module("solver.games.{name}.position_kernels")
        assert "solver.games.{name}.position_kernels" in g.compiled_aside
        assert p.apply.stats.cache_hits and not p.apply.stats.cache_misses
        assert p.key.stats.cache_hits and not p.key.stats.cache_misses
    """, tmp_path)


def test_a_games_modules_compiled_aside_import_nothing_of_its_solver():
    """What the child compiles aside must not pull in the rest of the game's compiled code,
    or both processes would compile that."""
    from solver.registry import games
    for g in games().values():
        for module in g.compiled_aside:
            package = g.solver_module.rsplit(".", 1)[0]
            code = (f"import sys, {module}; loaded = [m for m in sys.modules if m.startswith('{package}.')]; "
                    f"print(' '.join(loaded))")
            done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                                  env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=300)
            assert done.returncode == 0, done.stderr
            loaded = set(done.stdout.split())
            assert g.solver_module not in loaded and f"{package}.kernels" not in loaded, (module, loaded)


def test_the_modules_the_games_share_are_among_the_sources_their_cache_depends_on():
    """Klondike's and Ladder's keys inline the talon's dominance field, and every game's
    kernels read the card bit tables: an edit of either must clear the games' caches."""
    from solver.engine.cache import shared_kernel_sources
    names = {Path(p).name for p in shared_kernel_sources()}
    assert {"contract.py", "cardbits.py", "talon_dominance.py"} <= names
    games = ROOT / "solver" / "games"
    assert all(p.name in names for p in games.glob("*.py") if "numba" in p.read_text(encoding="utf-8"))


@pytest.mark.slow
def test_fill_cache_compiles_each_task_in_a_child_for_later_processes_to_load(tmp_path):
    """What tests/conftest.py runs before the suite's workers start: after it, a process
    importing the tasks' modules loads them (cache hits, no compiling), though the caller
    imported none of them."""
    run_script("""
        import sys
        from solver.engine import warm
        assert not warm.engine_compiled() and not warm.solver_compiled("solver.games.golf.solver")
        warm.fill_cache([["solver.engine.search"], ["solver.games.golf.solver"]], 2)
        assert "solver.engine.search" not in sys.modules and "solver.games.golf.solver" not in sys.modules
        assert warm.engine_compiled() and warm.solver_compiled("solver.games.golf.solver")
        assert not warm.engine_compiled("solver.engine.staged")   # in no task
    """, tmp_path)
    run_script("""
        import solver.engine.search as search
        import solver.games.golf.kernels as kernels
        assert search._run.stats.cache_hits and not search._run.stats.cache_misses
        assert kernels.apply.stats.cache_hits and not kernels.apply.stats.cache_misses
    """, tmp_path)
