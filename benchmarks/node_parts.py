"""Where a search node's time goes, kernel by kernel, on node_cost.py's searches.

    python benchmarks/node_parts.py [--games klondike,ladder] [--sample 20000]

For each deal of ``node_cost.py`` (Klondike draw 3 with Solvitaire's seeds, Ladder cut at
2M nodes), runs the search as the solver does (one move order, no restart runs) and
prints its nanoseconds per node; then replays the same depth-first search in a plain
compiled loop that samples up to ``--sample`` of the states it expands, and times each
kernel on those states and their children, each in its own compiled loop (best of 3):

* ``moves``: per expanded state, and per node (times the share of nodes expanded);
* ``copy+apply``: the child copied from its parent and the move played, per child;
* ``key``, ``won+transient``, ``dominance`` (group and vector): per child;
* ``probe``: the children's keys visited in a table as full as the search's (its
  cost depends on the table's size: caches).

The parts are measured apart, so they need not add up to the search's figure: what is
left is the loop itself (the stacks, the counters, a state finished as the search
leaves it) and the caches the parts share. No verdict depends on this; it says where
to look (benchmarks/results.md, the node cost sections).
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
from numba import njit

from node_cost import KLONDIKE_SEEDS, LADDER_NODES, LADDER_ONE_PASS_SEEDS, LADDER_SEEDS, TWENTY_SEEDS

from solver.deals import deal_from_seed
from solver.engine.contract import copy_state
from solver.engine.search import search
from solver.engine.table import new_table, visit
from solver.registry import game as lookup
from solver.seeds import deal_from_tool_seed
from solver.solve import roots

KLONDIKE_OPTIONS = {"draw": 3, "passes": None, "foundation_to_tableau": True}
TABLE_SLOTS = 1 << 23    # the replay's table: room for the longest search here


@njit
def _replay(moves, apply, key, is_won, transient, root, max_nodes, every, sample, max_moves):
    """The search's depth-first order with a table, without its extras (a key's dominance
    field, if any, counts as part of the key); every
    ``every``-th expanded state goes into ``sample``. (nodes, expanded, stored, sampled)."""
    rows = 2001
    states = np.empty((rows, root.shape[0]), np.uint8)
    stack = np.empty((rows, max_moves), np.int32)
    counts = np.zeros(rows, np.int64)
    cursor = np.zeros(rows, np.int64)
    keys = np.zeros(TABLE_SLOTS, np.uint64)
    flags = np.zeros(TABLE_SLOTS, np.uint8)
    copy_state(states[0], root)
    counts[0] = moves(states[0], stack[0])
    depth = nodes = stored = sampled = 0
    expanded = 1
    while nodes < max_nodes:
        if cursor[depth] >= counts[depth]:
            if depth == 0:
                break
            depth -= 1
            continue
        m = stack[depth, cursor[depth]]
        cursor[depth] += 1
        child = states[depth + 1]
        copy_state(child, states[depth])
        apply(child, m)
        nodes += 1
        if is_won(child):
            break
        if not transient(child):
            if visit(keys, flags, key(child), np.uint8(1), 0) == 0:
                continue
            stored += 1
        if depth + 1 >= rows - 1:
            continue
        depth += 1
        counts[depth] = moves(child, stack[depth])
        cursor[depth] = 0
        expanded += 1
        if expanded % every == 0 and sampled < sample.shape[0]:
            copy_state(sample[sampled], child)
            sampled += 1
    return nodes, expanded, stored, sampled


@njit
def _time_moves(moves, states, out):
    total = 0
    for i in range(states.shape[0]):
        total += moves(states[i], out)
    return total


@njit
def _children(moves, apply, states, out, children, one_row):
    """Every child of ``states``, one a row of ``children``; with ``one_row`` each into
    row 0 in turn (the copy and the move timed as the search makes them, in a warm row)."""
    n = 0
    for i in range(states.shape[0]):
        for q in range(moves(states[i], out)):
            row = children[0 if one_row else n]
            copy_state(row, states[i])
            apply(row, out[q])
            n += 1
    return n


@njit
def _time_key(key, children, keys):
    for i in range(children.shape[0]):
        keys[i] = key(children[i])


@njit
def _time_won(is_won, transient, children):
    total = 0
    for i in range(children.shape[0]):
        total += is_won(children[i]) + transient(children[i])
    return total


@njit
def _time_dominance(group, vector, children):
    total = np.uint64(0)
    for i in range(children.shape[0]):
        total ^= group(children[i]) ^ vector(children[i])
    return total


@njit
def _time_probe(keys, table_keys, table_flags):
    total = 0
    for i in range(keys.shape[0]):
        total += visit(table_keys, table_flags, keys[i], np.uint8(1), 0)
    return total


def _best(f, *args, reps=3):
    best = float("inf")
    for _ in range(reps):
        started = time.perf_counter()
        f(*args)
        best = min(best, time.perf_counter() - started)
    return best


def workload(game: str) -> tuple[dict, list, int | None]:
    """node_cost.py's searches of ``game`` (or of its workload ``ladder-one-pass``): (options,
    deals, node cap)."""
    if game == "klondike":
        return (KLONDIKE_OPTIONS, [deal_from_tool_seed("klondike", s, "solvitaire", KLONDIKE_OPTIONS)
                                   for s in KLONDIKE_SEEDS], None)
    if game == "twenty":   # lost deals, cut at the same cap as Ladder's
        return {}, [deal_from_seed(game, s, {}) for s in TWENTY_SEEDS], LADDER_NODES
    if game == "ladder-one-pass":
        return {"passes": 1}, [deal_from_seed("ladder", s, {"passes": 1}) for s in LADDER_ONE_PASS_SEEDS], LADDER_NODES
    return {}, [deal_from_seed(game, s, {}) for s in LADDER_SEEDS], LADDER_NODES


def parts(game: str, options: dict, deal, max_nodes: int | None, sample_size: int) -> dict:
    solver = lookup(game).solver
    k = solver.kernels
    root_rows = roots(solver, deal)
    root = root_rows[0] if root_rows.ndim == 2 else root_rows
    settings = {**solver.search_settings(options), "restarts": 0}
    out = search(k, root, max_nodes=max_nodes, **settings)
    kernels = (k.moves, k.apply, k.key, k.is_won, k.transient)
    probe = np.empty((1, k.state_size), np.uint8)
    nodes, expanded, stored, _ = _replay(*kernels, root, out.nodes, 1, probe, k.max_moves)
    every = max(1, expanded // sample_size)
    sample = np.empty((sample_size, k.state_size), np.uint8)
    replay_seconds = _best(_replay, *kernels, root, out.nodes, every, sample, k.max_moves, reps=1)
    sample = sample[:_replay(*kernels, root, out.nodes, every, sample, k.max_moves)[3]]
    out_moves = np.empty(2 * k.max_moves, np.int32)
    n_children = _time_moves(k.moves, sample, out_moves)
    children = np.empty((n_children, k.state_size), np.uint8)
    _children(k.moves, k.apply, sample, out_moves, children, False)
    moves_each = _best(_time_moves, k.moves, sample, out_moves) / len(sample)
    copy_apply = (_best(_children, k.moves, k.apply, sample, out_moves, np.empty((1, k.state_size), np.uint8), True)
                  - moves_each * len(sample)) / n_children
    keys = np.empty(n_children, np.uint64)
    key_each = _best(_time_key, k.key, children, keys) / n_children
    won_each = _best(_time_won, k.is_won, k.transient, children) / n_children
    dominance_each = _best(_time_dominance, *k.dominance, children) / n_children
    slots = 1 << max(16, int(np.ceil(np.log2(max(stored, 1) / 0.5))))
    table = new_table(slots)
    _time_probe(np.random.default_rng(1).integers(1, 2 ** 63, size=stored, dtype=np.uint64), *table)
    fresh = (table[0].copy(), table[1].copy())   # (the probes store the new keys: a fresh copy is timed)
    probe_each = _best(_time_probe, keys, *fresh, reps=1) / n_children
    ns = lambda seconds: round(seconds * 1e9)   # noqa: E731
    return {"game": game, "seed": deal.seed, "verdict": out.verdict, "nodes": out.nodes,
            "ns_per_node_search": ns(out.seconds / out.nodes), "ns_per_node_replay": ns(replay_seconds / nodes),
            "expanded_share": round(expanded / nodes, 3), "moves_listed": round(n_children / len(sample), 2),
            "ns_moves_per_expanded": ns(moves_each), "ns_moves_per_node": ns(moves_each * expanded / nodes),
            "ns_copy_apply": ns(copy_apply), "ns_key": ns(key_each), "ns_won_transient": ns(won_each),
            "ns_dominance": ns(dominance_each), "ns_probe": ns(probe_each), "table_slots": slots}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", default="klondike,ladder")
    ap.add_argument("--sample", type=int, default=20_000)
    args = ap.parse_args()
    for game in args.games.split(","):
        options, deals, cap = workload(game)
        for deal in deals:
            print(json.dumps(parts(game, options, deal, cap, args.sample)), flush=True)

if __name__ == "__main__":
    main()
