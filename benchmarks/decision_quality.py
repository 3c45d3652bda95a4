"""Decision quality of the no-peek player, paired position by position, without playing whole games.

    python benchmarks/decision_quality.py collect --seeds 1-200 --out positions.jsonl [--player-nodes 5000]
    python benchmarks/decision_quality.py compare positions.jsonl [more.jsonl ...]
        --variants "base;BULK_TIES=64" [--every 2] [--player-nodes 5000]

A study of 2,000 games measures a change to the player with a standard error of about ten
games, and most games are decided by one move: the first after which the real deal is lost.
This benchmark looks at the decisions themselves.

``--player-nodes`` is the node limit of the player's own searches, as ``solitaire batch
--player-nodes`` sets it (5,000 by default: the study of the published setting, which the
player's estimates depend on; ``Settings`` defaults to 20,000).

``collect`` plays the player (those settings) on the winnable deals of the seeds, finds its
first losing move by binary search over the game (the thoughtful solver, 5 s a position),
and records every weighed decision made before it: positions where the real deal was
still winnable and the player had a choice. Appends one line per deal to ``--out``, so a
killed run resumes by giving the next seeds.

``compare`` puts a fresh player under each variant at each recorded position (every
``--every``-th, drawn with a fixed seed) with the same sampling seed, and where a
variant's chosen plan differs from the first variant's, solves the real deal after
each plan. It counts, per variant, the positions where the plans differ, those where
only the first variant's plan keeps the deal winnable (the variant blundered), those
where only the variant's does (the first one blundered), and the CPU seconds of each
variant's decisions. A variant is ``base`` (the defaults) or comma-separated
``NAME=value``: an upper-case name sets that constant of ``solver.play.player`` for the
decision, a lower-case one that field of ``Settings``.

Rules: Klondike draw 3, unlimited passes, foundation cards back to the tableau, the
face-down tableau cards hidden (the published setting). Appends the tallies to
benchmarks/results.md unless ``--no-append``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import solver.play.player as player_module  # noqa: E402
from results_log import append  # noqa: E402
from solver.deals import deal_from_seed  # noqa: E402
from solver.moves import Move  # noqa: E402
from solver.play import Settings  # noqa: E402
from solver.play.run import observe_played, play_game  # noqa: E402
from solver.registry import game as game_named  # noqa: E402
from solver.solve import solve  # noqa: E402

OPTIONS = {"draw": 3, "passes": None, "foundation_to_tableau": True}
HIDDEN = "tableau"
RULES = game_named("klondike").rules
PLAYER_NODES = 5_000
CONSTANTS = ("BULK_SAMPLES", "BULK_FIRST", "BULK_NODES", "BULK_TIES", "BULK_CLOSE", "RESIGN_SAMPLES",
             "BULK_EXACT", "UNDECIDED")
DEFAULTS = {name: getattr(player_module, name) for name in CONSTANTS}
_verdicts: dict = {}


def verdict_after(deal, moves: list[Move], seconds: float = 5.0) -> str:
    """The thoughtful verdict of the real deal after ``moves`` (cached by position)."""
    position = RULES.initial(deal)
    for move in moves:
        position = RULES.play(position, move)
    key = RULES.key(position)
    if key not in _verdicts:
        _verdicts[key] = solve(RULES.to_deal(position), time_limit=seconds).verdict
    return _verdicts[key]


def first_losing(deal, moves: list[Move]) -> int:
    """The index of the move after which the real deal is lost (len(moves) if it never is)."""
    if verdict_after(deal, moves) == "won":
        return len(moves)
    good, bad = 0, len(moves)
    while bad - good > 1:
        middle = (good + bad) // 2
        if verdict_after(deal, moves[:middle]) == "won":
            good = middle
        else:
            bad = middle
    return good


def collect(seeds: range, out: Path) -> None:
    with open(out, "a", encoding="utf-8") as fh:
        for seed in seeds:
            deal = deal_from_seed("klondike", seed, OPTIONS)
            if solve(deal, time_limit=5).verdict != "won":
                continue
            record = play_game(deal, HIDDEN, Settings.of(max_nodes=PLAYER_NODES))
            losing = len(record.moves) if record.won else first_losing(deal, record.moves)
            points = []
            for k, decision in enumerate(record.decisions):
                if k > losing or decision.move is None:
                    break
                if decision.samples and len(decision.estimates) >= 2:
                    points.append(k)
            fh.write(json.dumps({"seed": seed, "end": record.end, "moves": [m.to_json() for m in record.moves],
                                 "first_losing": losing, "points": points}) + "\n")
            fh.flush()
            print(seed, record.end, len(record.moves), losing, len(points), flush=True)


def variant(name: str) -> tuple[dict, dict]:
    """(player constants, Settings fields) of a variant name."""
    constants, fields = dict(DEFAULTS), {}
    if name != "base":
        for part in name.split(","):
            key, _, value = part.partition("=")
            if key not in CONSTANTS and key not in {f.name for f in dataclasses.fields(Settings)}:
                raise SystemExit(f"error: unknown variant setting {key!r} in {name!r}")
            number = float(value) if "." in value else int(value)
            (constants if key.isupper() else fields)[key] = number
    return constants, fields


def decide(observation, seed: int, name: str) -> tuple | None:
    """The plan (first move and the moves after it) a fresh player chooses under ``name``."""
    constants, fields = variant(name)
    for key, value in constants.items():
        setattr(player_module, key, value)
    try:
        settings = dataclasses.replace(Settings.of(max_nodes=PLAYER_NODES), seed=seed, **fields)
        decision = player_module.Player("klondike", settings).decide(observation)
    finally:
        for key, value in DEFAULTS.items():
            setattr(player_module, key, value)
    if decision.move is None:
        return None
    return tuple(json.dumps(m.to_json()) for m in [decision.move, *decision.plan])


def compare(files: list[Path], names: list[str], every: int) -> str:
    rows = [json.loads(line) for f in files for line in open(f, encoding="utf-8")]
    tally = {n: {"positions": 0, "differ": 0, "variant blundered": 0, "first blundered": 0} for n in names[1:]}
    seconds = {n: 0.0 for n in names}
    draw = random.Random(1)
    for row in rows:
        deal = deal_from_seed("klondike", row["seed"], OPTIONS)
        moves = [Move.from_json(m) for m in row["moves"]]
        for k in [k for k in row["points"] if draw.randrange(every) == 0]:
            observation = observe_played(deal, moves[:k], HIDDEN)
            plans = {}
            for n in names:
                start = time.process_time()
                plans[n] = decide(observation, row["seed"] * 1000 + k, n)
                seconds[n] += time.process_time() - start

            def outcome(plan):
                if plan is None:
                    return "lost"
                return verdict_after(deal, moves[:k] + [Move.from_json(json.loads(m)) for m in plan])

            first = plans[names[0]]
            for n in names[1:]:
                tally[n]["positions"] += 1
                if plans[n] == first:
                    continue
                tally[n]["differ"] += 1
                mine, theirs = outcome(first), outcome(plans[n])
                if mine == "won" and theirs != "won":
                    tally[n]["variant blundered"] += 1
                elif theirs == "won" and mine != "won":
                    tally[n]["first blundered"] += 1
        print(row["seed"], tally, {n: round(v, 1) for n, v in seconds.items()}, flush=True)
    lines = [f"| variant | positions | plans differ | variant blundered | {names[0]} blundered | CPU s |",
             "|---|---|---|---|---|---|", f"| {names[0]} | | | | | {seconds[names[0]]:.1f} |"]
    for n in names[1:]:
        t = tally[n]
        lines.append(f"| {n} | {t['positions']:,} | {t['differ']} | {t['variant blundered']} | "
                     f"{t['first blundered']} | {seconds[n]:.1f} |")
    return "\n".join(lines)


def main() -> None:
    global PLAYER_NODES
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--seeds", required=True, help="LO-HI")
    c.add_argument("--out", required=True, type=Path)
    c.add_argument("--player-nodes", type=int, default=PLAYER_NODES)
    p = sub.add_parser("compare")
    p.add_argument("positions", nargs="+", type=Path)
    p.add_argument("--variants", required=True, help='";"-separated, the first is the reference')
    p.add_argument("--every", type=int, default=1, help="weigh every n-th recorded position (drawn at random)")
    p.add_argument("--player-nodes", type=int, default=PLAYER_NODES)
    p.add_argument("--no-append", action="store_true")
    args = ap.parse_args()
    PLAYER_NODES = args.player_nodes
    if args.command == "collect":
        lo, _, hi = args.seeds.partition("-")
        collect(range(int(lo), int(hi or lo) + 1), args.out)
        return
    names = args.variants.split(";")
    for n in names:
        variant(n)
    table = compare(args.positions, names, args.every)
    print(table)
    if not args.no_append:
        command = (f"python benchmarks/decision_quality.py compare {' '.join(str(f) for f in args.positions)} "
                   f"--variants \"{args.variants}\" --every {args.every} --player-nodes {args.player_nodes}")
        append("no-peek player, decision quality at recorded positions (klondike draw 3, unlimited, "
               "foundation to tableau, hidden tableau)", table, command)


if __name__ == "__main__":
    main()
