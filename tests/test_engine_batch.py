"""solve_each: many short searches in one compiled call decide as the engine's search does."""

import numpy as np
import pytest

from solver.deals import deal_from_seed
from solver.engine.batch import FIRST_NODES, LOST, NO_MOVE, UNKNOWN, WON_ROOT, solve_each
from solver.engine.search import search
from solver.options import resolve
from solver.registry import game, names
from solver.replay import replay

CODES = {"lost": LOST, "won": WON_ROOT, "unknown": UNKNOWN}
OPTIONS = {"pyramid": {"passes": 3}}   # (one pass wins too few of the seeds)


def _roots(name, seeds):
    solver = game(name).solver
    options = resolve(name, OPTIONS.get(name, {}))
    deals = [deal_from_seed(name, s, options) for s in seeds]
    return deals, np.stack([solver.encode(d, solver.reduce_all) for d in deals])


@pytest.mark.parametrize("name", names())
def test_each_root_gets_the_search_of_the_engine(name):
    """The same verdict, nodes and first move as search() with one move order, the table
    cleared between roots (a table left over would skip states and change the nodes)."""
    solver = game(name).solver
    deals, roots = _roots(name, range(1, 25))
    verdicts, first, nodes = solve_each(solver.kernels, roots, 4000)
    assert set(verdicts) >= {WON_ROOT}, "the seeds must include won deals to test the first move"
    for i in range(len(deals)):
        alone = search(solver.kernels, roots[i], max_nodes=4000)
        assert (verdicts[i], nodes[i]) == (CODES[alone.verdict], alone.nodes), (name, i)
        if alone.verdict == "won":
            assert first[i] == alone.line[0]
    # and the lines asked for are the search's lines
    _, _, _, lines = solve_each(solver.kernels, roots, 4000, lines=True)
    for i in range(len(deals)):
        alone = search(solver.kernels, roots[i], max_nodes=4000)
        assert lines[i] == (alone.line if alone.verdict == "won" else [])
    # in another order, each root still gets the same answer
    back = solve_each(solver.kernels, roots[::-1].copy(), 4000)
    assert (back[0][::-1] == verdicts).all() and (back[2][::-1] == nodes).all()


@pytest.mark.parametrize("name", names())
def test_first_move_decodes_to_a_legal_move_of_a_winning_line(name):
    """The first kernel move alone decodes to the first move of the whole line, which the
    reference rules accept."""
    solver = game(name).solver
    deals, roots = _roots(name, range(1, 25))
    verdicts, first, _ = solve_each(solver.kernels, roots, 20000)
    checked = 0
    for deal, root, v, f in zip(deals, roots, verdicts, first):
        if v != WON_ROOT or f == NO_MOVE:
            continue
        line = search(solver.kernels, root, max_nodes=20000).line
        whole = solver.decode_line(deal, line, solver.reduce_all)
        assert solver.decode_line(deal, [int(f)], solver.reduce_all)[0] == whole[0]
        assert replay(deal, whole[:1])[1] is None
        checked += 1
    assert checked


def test_a_won_root_and_the_limits():
    solver = game("klondike").solver
    deals, roots = _roots("klondike", [1, 2, 3])
    verdicts, first, nodes = solve_each(solver.kernels, roots, 1)
    assert (verdicts == UNKNOWN).all() and (nodes == 1).all()
    with pytest.raises(ValueError):
        solve_each(solver.kernels, roots, 0)
    empty = solve_each(solver.kernels, roots[:0], 10)
    assert all(len(a) == 0 for a in empty)


def test_a_long_search_grows_its_table_and_the_next_root_is_not_changed_by_it():
    """Ladder's seed 12 stores more states than the first table holds at 600,000 nodes:
    the table grows, and each root still gets the engine's own search."""
    solver = game("ladder").solver
    deals, roots = _roots("ladder", [12, 1, 2])
    verdicts, first, nodes = solve_each(solver.kernels, roots, 600_000)
    stored = []
    for i in range(len(deals)):
        alone = search(solver.kernels, roots[i], max_nodes=600_000)
        assert (verdicts[i], nodes[i]) == (CODES[alone.verdict], alone.nodes)
        stored.append(alone.stored)
    assert stored[0] > 4 * FIRST_NODES   # past the first table's load


def test_a_table_the_memory_budget_cannot_hold_is_unknown():
    solver = game("ladder").solver
    _, roots = _roots("ladder", [12])
    verdicts, _, nodes = solve_each(solver.kernels, roots, 10 ** 30, memory_mb=2)
    assert verdicts[0] == UNKNOWN and 0 < nodes[0] < 10 ** 6
