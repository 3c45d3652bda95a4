"""The engine's own promises, on Klondike kernels: limits give `unknown` with a
reason, results are deterministic, and table growth does not change answers."""

from solver.deals import deal_from_seed
from solver.engine.search import search
from solver.games import klondike as G


def deal(seed, **opts):
    return deal_from_seed("klondike", seed, {"draw": 1, "passes": 1, **opts})


def test_node_limit_gives_unknown_with_reason():
    out = search(G.KERNELS, G.encode(deal(1)), max_nodes=500)
    assert out.verdict == "unknown" and out.reason == "node_limit" and out.nodes <= 500


def test_memory_bound_gives_unknown_not_a_crash():
    # seed 1 needs far more than 1024 slots: the table may not grow past the bound
    out = search(G.KERNELS, G.encode(deal(1)), memory_mb=0.001, initial_slots=1024)
    assert out.verdict == "unknown" and out.reason == "memory"


def test_depth_cut_never_claims_lost():
    out = search(G.KERNELS, G.encode(deal(1)), max_depth=5)
    assert out.verdict == "unknown" and out.reason == "depth"


def test_same_deal_same_verdict_and_line():
    a = search(G.KERNELS, G.encode(deal(2)), chunk=997)
    b = search(G.KERNELS, G.encode(deal(2)), chunk=50_000)
    assert a.verdict == b.verdict == "won"
    assert a.line == b.line and a.nodes == b.nodes


def test_table_growth_does_not_change_the_answer():
    small = search(G.KERNELS, G.encode(deal(4)), initial_slots=1024)
    large = search(G.KERNELS, G.encode(deal(4)), initial_slots=1 << 22)
    assert small.verdict == large.verdict != "unknown"
    assert small.line == large.line
