"""--memory-mb bounds a search's memory (solver/engine/memory.py): every array it holds
at once, not the Python process. Checked three ways: the charges equal the arrays made,
the bytes numpy allocates during a search (tracemalloc) stay within the budget, and the
peak resident set of a child process grows by at most the budget over its baseline."""

import json
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest
from click.testing import CliRunner

import solver.engine.search as search_module
from solver.cli import main
from solver.deals import deal_from_seed
from solver.engine.memory import MB
from solver.engine.search import _RestartRun, _Run, search
from solver.registry import game, names
from solver.solve import roots

ROOT = Path(__file__).resolve().parents[1]


def ladder_roots(seed):
    solver = game("ladder").solver
    return solver, roots(solver, deal_from_seed("ladder", seed, {}))


@pytest.mark.parametrize("name", names())
def test_a_run_is_charged_the_bytes_it_holds(name):
    """What the driver charges before making a run is what the run's arrays take, and
    what it charges for a growth is what the bigger copies take."""
    solver = game(name).solver
    k, root = solver.kernels, solver.encode(deal_from_seed(name, 1, {}), solver.reduce_all)
    for run, charged in ((_Run(k, root, 2000), _Run.nbytes_for(k, 2000)),
                         (_RestartRun(k, root, 2000, 0, 1000), _RestartRun.nbytes_for(k, 2000, 1000)),
                         (_Run(k, root, 5), _Run.nbytes_for(k, 5))):
        assert run.nbytes == charged
        while run.rows < run.max_rows:
            wanted = run.grown_nbytes()
            run.grow()
            assert sum(getattr(run, a).nbytes for a in run.DEPTH_ARRAYS) == wanted
            assert all(getattr(run, a).shape[0] == run.rows for a in run.DEPTH_ARRAYS)
        assert run.rows == run.max_rows


def test_stack_growth_does_not_change_the_search(monkeypatch):
    """Stacks of 2 rows doubled on demand (a search of depth over 100) search exactly as
    stacks of max_depth + 1 rows: the compiled loops resume where they asked for rows."""
    solver, r = ladder_roots(2)
    full = search(solver.kernels, r, **solver.search_settings({"passes": None}))
    monkeypatch.setattr(search_module, "INITIAL_ROWS", 2)
    grown = search(solver.kernels, r, **solver.search_settings({"passes": None}))
    assert full.verdict == grown.verdict == "won" and grown.max_depth > 64
    assert (full.line, full.nodes, full.stored) == (grown.line, grown.nodes, grown.stored)


@pytest.mark.parametrize("memory_mb", [8, 12])
def test_what_a_search_allocates_stays_within_the_budget(memory_mb):
    """Ladder seed 12 fills any small budget (its multimap grows as fast as its table):
    the search ends unknown (memory), and numpy never held more than the budget."""
    solver, r = ladder_roots(12)
    search(solver.kernels, r, max_nodes=100, **solver.search_settings({"passes": None}))   # compiled code loaded
    tracemalloc.start()
    try:
        out = search(solver.kernels, r, memory_mb=memory_mb, max_nodes=5_000_000, **solver.search_settings({"passes": None}))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert out.verdict == "unknown" and out.reason == "memory"
    assert memory_mb * MB * 0.5 < peak <= memory_mb * MB


def test_the_shortest_line_store_stays_within_the_budget():
    from solver.engine.shortest import fewest_moves
    from solver.games.pyramid import kernels as P

    root = P.encode(deal_from_seed("pyramid", 5, {"passes": 3}), P.FEWEST_MOVES_REDUCE)
    fewest_moves(P.KERNELS, P.move_cost, P.moves_left, root, max_nodes=10)
    for memory_mb in (1, 8):
        tracemalloc.start()
        try:
            out = fewest_moves(P.KERNELS, P.move_cost, P.moves_left, root, memory_mb=memory_mb)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert out.verdict == "unknown" and out.reason == "memory" and out.nodes > 0
        assert peak <= memory_mb * MB
    out = fewest_moves(P.KERNELS, P.move_cost, P.moves_left, root, memory_mb=0.02)
    assert (out.verdict, out.reason, out.nodes) == ("unknown", "memory", 0)


def test_a_budget_that_cannot_hold_the_first_arrays_is_unknown_memory_at_once():
    """--memory-mb 1 cannot hold Ladder's seven runs and its restart run's table: the
    verdict is unknown (memory) with 0 nodes, an answer (exit 0), not an error. Golf's
    first arrays fit in 1 MB: its search runs with a smaller first table."""
    result = CliRunner().invoke(main, ["solve", "ladder", "--seed", "12", "--memory-mb", "1", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert (out["verdict"], out["reason"], out["nodes"]) == ("unknown", "memory", 0)
    solver = game("golf").solver
    out = search(solver.kernels, solver.encode(deal_from_seed("golf", 2, {}), solver.reduce_all), memory_mb=1)
    assert out.verdict == "won" and out.nodes > 0


# the peak resident set (VmHWM) of a child before and after one search; before it, the
# child has solved a deal decided at once (ladder seed 1), which loads what a solve
# loads: that is the baseline the budget is counted from (solver/engine/memory.py)
CHILD = r"""
import json, sys
from solver.deals import deal_from_seed
from solver.solve import solve

def hwm_mb():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024

solve(deal_from_seed("ladder", 1, {}), time_limit=None)
baseline = hwm_mb()
memory_mb, max_nodes = float(sys.argv[1]), int(sys.argv[2])
result = solve(deal_from_seed("ladder", 12, {}), memory_mb=memory_mb, max_nodes=max_nodes, time_limit=None)
print(json.dumps({"verdict": result.verdict, "reason": result.reason, "nodes": result.nodes,
                  "baseline": baseline, "peak": hwm_mb()}))
"""

MARGIN_MB = 10   # the allocator's own bookkeeping and what the process does besides the search


def peak_of_a_search(memory_mb, max_nodes):
    if not Path("/proc/self/status").exists():
        pytest.skip("needs /proc (Linux)")
    done = subprocess.run([sys.executable, "-c", CHILD, str(memory_mb), str(max_nodes)], cwd=ROOT,
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_resident_set_grows_by_at_most_the_budget():
    """Ladder seed 12 at 50 MB and at 200 MB (it reaches either bound, in about 2M and 8M
    nodes): unknown (memory), and the peak resident set over the baseline is within the
    budget; the smaller budget gives a correspondingly smaller peak."""
    small = peak_of_a_search(50, 20_000_000)
    large = peak_of_a_search(200, 20_000_000)
    for memory_mb, run in ((50, small), (200, large)):
        assert (run["verdict"], run["reason"]) == ("unknown", "memory"), run
        assert run["peak"] - run["baseline"] <= memory_mb + MARGIN_MB, run
    assert large["peak"] - large["baseline"] > 100 + (small["peak"] - small["baseline"]), (small, large)
