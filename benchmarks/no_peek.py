"""Playing without peeking (issue 20): the no-peek player's win rate and its time per game.

    python benchmarks/no_peek.py [--seeds 1-300] [--draw 3] [--passes unlimited]
        [--foundation-to-tableau] [--hidden tableau] [--samples 12] [--player-nodes 20000]
        [--out study.jsonl] [--hint-games 10]

A study through the same journal as ``solitaire batch --player no-peek`` (one process, so
one core: run it under ``nice``), resumed when ``--out`` already holds some of the seeds.
Each deal is solved with full knowledge (``--time-limit`` per deal, the thoughtful
verdict) and played by the player, which sees only observations. Printed and appended to
benchmarks/results.md with the command:

* the player's win rate over every deal played, with its 95% Wilson interval, beside the
  thoughtful rate (won of decided) and the share of winnable deals the player lost;
* seconds per game of the player alone (mean, median, p90, max: one core, warm);
* with ``--hint-games N``: ``hint --no-peek`` from mid-game tables (after half of the
  player's own moves in N games of the study), in this warm process: median and max
  seconds of one decision by a fresh player.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from benchmarks.results_log import append  # noqa: E402
from solver.deals import deal_from_seed  # noqa: E402
from solver.moves import Move  # noqa: E402
from solver.options import parse_option_value, resolve, variant_name  # noqa: E402
from solver.play import Settings, no_peek_hint  # noqa: E402
from solver.report import wilson_interval  # noqa: E402
from solver.solve import solve  # noqa: E402
from solver.studies import no_peek_player, read_journal, run_batch  # noqa: E402


def q(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values)))] if values else float("nan")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="klondike")
    ap.add_argument("--seeds", default="1-300")
    ap.add_argument("--draw", type=int)
    ap.add_argument("--passes")
    ap.add_argument("--foundation-to-tableau", action="store_true")
    ap.add_argument("--hidden", default="tableau", choices=("tableau", "all"))
    ap.add_argument("--samples", type=int)
    ap.add_argument("--player-nodes", type=int)
    ap.add_argument("--player-seed", type=int)
    ap.add_argument("--time-limit", type=float, default=3.0, help="seconds per deal for the thoughtful verdict")
    ap.add_argument("--out", default=None, help="the study's journal (default: under /tmp)")
    ap.add_argument("--hint-games", type=int, default=0)
    ap.add_argument("--no-log", action="store_true", help="print only; do not append to results.md")
    args = ap.parse_args(argv)

    options = {}
    if args.draw is not None:
        options["draw"] = args.draw
    if args.passes is not None:
        options["passes"] = parse_option_value(args.passes)
    if args.foundation_to_tableau:
        options["foundation_to_tableau"] = True
    options = resolve(args.game, options)
    settings = Settings.of(args.samples, args.player_nodes, args.player_seed)
    player = no_peek_player(args.hidden, settings)
    out = Path(args.out or f"/tmp/no-peek-{args.game}-{args.hidden}-{args.seeds}.jsonl")
    solve(deal_from_seed(args.game, 1, options), max_nodes=500, time_limit=None)   # compile before timing
    started = time.perf_counter()
    run_batch(args.game, args.seeds, options, out=out, time_limit=args.time_limit, jobs=1, lines=True,
              progress=True, chunk=1, player=player)
    wall = time.perf_counter() - started
    rows = [r for r in read_journal(out).rows]
    n = len(rows)
    won = sum(r["player_result"] == "won" for r in rows)
    low, high = wilson_interval(won, n)
    verdicts = [r["verdict"] for r in rows]
    decided = sum(v in ("won", "lost") for v in verdicts)
    thoughtful = verdicts.count("won")
    t_low, t_high = wilson_interval(thoughtful, decided)
    winnable_lost = sum(r["verdict"] == "won" and r["player_result"] != "won" for r in rows)
    secs = [r["player_seconds"] for r in rows]
    ends = {}
    for r in rows:
        ends[r["player_end"]] = ends.get(r["player_end"], 0) + 1
    lines = [
        "| variant | hidden | settings | games | player won | player rate [95% CI] | thoughtful won/decided "
        "[95% CI] | winnable lost | s/game mean | median | p90 | max |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
        f"| {variant_name(args.game, options)} | {args.hidden} | {settings.label()} | {n} | {won} | "
        f"{100 * won / n:.2f}% [{100 * low:.2f}, {100 * high:.2f}] | {thoughtful}/{decided} "
        f"[{100 * t_low:.1f}, {100 * t_high:.1f}] | {winnable_lost}/{thoughtful} | {statistics.mean(secs):.2f} | "
        f"{q(secs, 0.5):.2f} | {q(secs, 0.9):.2f} | {max(secs):.2f} |",
        "",
        "Ends: " + ", ".join(f"{k} {v}" for k, v in sorted(ends.items())) + f". Wall time of this run (new deals, "
        f"thoughtful solves included): {wall:.0f} s.",
    ]
    if args.hint_games:
        hints = []
        for r in rows[:args.hint_games]:
            moves = [Move.from_json(m) for m in r.get("player_moves") or []]
            if len(moves) < 10:
                continue
            deal = deal_from_seed(args.game, r["seed"], options)
            _, decision, seconds = no_peek_hint(deal, moves[:len(moves) // 2], args.hidden, settings)
            hints.append((seconds, decision.solves))
        if hints:
            lines += ["", f"`hint --no-peek` after half of the player's moves, {len(hints)} games (warm, a fresh "
                      f"player each): median {q([h[0] for h in hints], 0.5):.2f} s, max {max(h[0] for h in hints):.2f}"
                      f" s; tables solved: median {q([h[1] for h in hints], 0.5)}, max {max(h[1] for h in hints)}."]
    body = "\n".join(lines)
    print(body)
    if not args.no_log:
        command = "nice -n 10 python benchmarks/no_peek.py " + " ".join(argv if argv is not None else sys.argv[1:])
        append(f"no-peek player, {args.game} {json.dumps(options)}", body, command)


if __name__ == "__main__":
    main()
