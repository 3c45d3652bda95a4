"""Look for an unsound reduction: verdicts with every reduction against each switched off, at scale.

    python scripts/reduction_sweep.py twenty --seeds 1-200 [--options '{"passes": 1}']
        [--max-nodes 300000] [--every 4] [--out sweep-faults]

A reduction that drops a winning move shows only where the search needs that move, and
the contract test's positions are small. This walks the deals of many seeds and, at
every ``--every``-th position of two kinds of line (a random line of the reference rules
that prefers moves up, and the solver's winning line with one random move off it), searches
the position with every reduction, with each switched off in turn, with none, and with
``solve`` as a user calls it; and the game's relaxed deal if it has one. Each search has
the node cap; the verdicts of the searches that decide must all agree, the relaxed deal
must not be lost where the position is won, and every won line must replay to a win with
the reference rules. Each disagreement is printed and its position written as a deal
file into ``--out``. Exit status 1 if any was found, 2 on bad arguments.

The lines are seeded by the seed of the deal, so a run is the same on every machine.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def positions(game, deal, rng, every: int, cap: int):
    """Positions along a random line and along the solver's line with one move off it."""
    from solver.solve import solve

    from tests.helpers import playout   # the contract test's random lines

    r = game.rules
    yield from playout(game, deal, rng, 399)[every::every]
    moves = solve(deal, max_nodes=cap, time_limit=None).moves or []
    pos = r.initial(deal)
    for k, move in enumerate(moves):
        if k % every == 0 and k:
            yield pos
            others = [m for m in r.legal_moves(pos) if m != move]
            if others:
                yield r.play(pos, rng.choice(others))
        pos = r.play(pos, move)


def check(game, deal, cap: int) -> tuple[dict, str | None]:
    """The verdict of each setting on ``deal``; a fault's description, or None.

    The settings: the kernels' search with every reduction, with each switched off, and with
    none; ``solve`` as a user gets it (its relaxed deal, move orders, restart runs and the
    rest); and the relaxed deal (``Solver.relaxed``), which must not be lost where the deal
    is won."""
    from solver.engine.search import search
    from solver.replay import replay
    from solver.solve import solve

    solver = game.solver
    settings = {"all": solver.reduce_all, "none": 0}
    for name, flag in solver.reductions.items():
        settings[f"no {name}"] = solver.reduce_all & ~flag
    verdicts = {}
    for name, reduce in settings.items():
        result = search(solver.kernels, solver.encode(deal, reduce), max_nodes=cap)
        verdicts[name] = result.verdict
        if result.verdict == "won":
            moves = solver.decode_line(deal, result.line, reduce)
            end, illegal = replay(deal, moves)
            if illegal is not None or not game.rules.is_won(end):
                return verdicts, f"{name}: its line does not win ({illegal})"
    verdicts["solve"] = solve(deal, max_nodes=cap, time_limit=None).verdict   # solve replays its wins
    decided = {v for v in verdicts.values() if v != "unknown"}
    if len(decided) > 1:
        return verdicts, "verdicts disagree"
    relaxed = solver.relaxed(deal) if solver.relaxed else None
    if relaxed is not None and decided == {"won"}:
        result = search(solver.kernels, solver.encode(relaxed, solver.reduce_all), max_nodes=cap)
        verdicts["relaxed"] = result.verdict
        if result.verdict == "lost":
            return verdicts, "the relaxed deal is lost, the deal won"
    return verdicts, None


def sweep(game, options: dict, seeds, cap: int, every: int):
    """``(seed, n, deal, verdicts, fault)`` for each position with a legal move checked."""
    from solver.deals import deal_from_seed

    for seed in seeds:
        deal = deal_from_seed(game.name, seed, options)
        for n, pos in enumerate(positions(game, deal, random.Random(seed), every, cap)):
            if game.rules.legal_moves(pos):
                here = game.rules.to_deal(pos)
                yield (seed, n, here, *check(game, here, cap))


def main(argv=None) -> int:
    from solver.deals import deal_from_seed, deal_to_json
    from solver.registry import game as game_named

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("--options", default="{}", help="the variant as deal-file options (JSON)")
    ap.add_argument("--seeds", default="1-100")
    ap.add_argument("--max-nodes", type=int, default=300_000)
    ap.add_argument("--every", type=int, default=4, help="check every n-th position of each line")
    ap.add_argument("--out", default="sweep-faults", help="folder for the deal files of faults")
    args = ap.parse_args(argv)
    try:
        game = game_named(args.game)
    except ValueError as e:   # OptionError: names the known games
        ap.error(str(e))
    try:
        options = json.loads(args.options)
        deal_from_seed(game.name, 1, options)
    except ValueError as e:   # malformed JSON, or an option the game refuses
        ap.error(f"--options {args.options}: {e}")
    lo, _, hi = args.seeds.partition("-")
    if not (lo.isdigit() and hi.isdigit() and 0 < int(lo) <= int(hi)):
        ap.error(f"--seeds {args.seeds}: expected a range such as 1-300")
    lo, hi = int(lo), int(hi)
    counts = {"positions": 0, "won": 0, "lost": 0, "undecided": 0, "faults": 0}
    start = time.perf_counter()
    last = lo
    for seed, n, here, verdicts, fault in sweep(game, options, range(lo, hi + 1),
                                                args.max_nodes, args.every):
        if seed != last and (seed - lo) % 10 == 0:
            print(f"seeds {lo}-{seed - 1}: {counts}, {time.perf_counter() - start:.0f} s", flush=True)
        last = seed
        counts["positions"] += 1
        decided = {v for v in verdicts.values() if v != "unknown"}
        if len(decided) < 2:
            counts[decided.pop() if decided else "undecided"] += 1
        if fault:
            counts["faults"] += 1
            out = Path(args.out)
            out.mkdir(exist_ok=True)
            path = out / f"{game.name}-{seed}-{n}.json"
            path.write_text(json.dumps(deal_to_json(here)) + "\n")
            print(f"FAULT seed {seed} position {n}: {fault}: {verdicts} -> {path}", flush=True)
    print(f"seeds {lo}-{hi}: {counts}, {time.perf_counter() - start:.0f} s", flush=True)
    return 1 if counts["faults"] else 0


if __name__ == "__main__":
    sys.exit(main())
