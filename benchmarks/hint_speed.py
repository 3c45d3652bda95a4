"""Hints and review: speed and line lengths (issue 6 targets).

    python benchmarks/hint_speed.py [--seeds 1-50] [--review-games 5] [--shortest 10]

Measured, in one warm process (kernels compiled and a first hint made before timing):

* hint from a dealt position at default limits (``hint()`` as the command calls it:
  solve + clean), per variant: median / p90 / max seconds, split into solving and
  cleaning, and verdict counts;
* hint from mid-game tables (half-way along a won line);
* line lengths: the solver's raw line vs the cleaned line (won deals), mean and
  worst ratio (cleaned/raw must never exceed 1);
* review of ~100-move Klondike games (default variant) made by playing a won
  line, deviating with the first move the solver proves lost after move 40,
  then random legal moves up to 100 moves: seconds per review, and solves made;
* Pyramid ``--shortest``: how often the exact search finishes within the hint
  command's default limits, its time, and shortest vs cleaned length.

Prints markdown and appends it, with the command and date, to benchmarks/results.md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from solver.deals import deal_from_seed  # noqa: E402
from solver.hints import hint, review  # noqa: E402
from solver.lines import clean_line, shortest_line  # noqa: E402
from solver.registry import game as lookup  # noqa: E402
from solver.solve import solve  # noqa: E402

VARIANTS = [("klondike", {}), ("klondike", {"passes": None}), ("pyramid", {}), ("pyramid", {"passes": 3}),
            ("twenty", {})]


def label(game, options):
    return game + (" " + ",".join(f"{k}={'unlimited' if v is None else v}" for k, v in options.items())
                   if options else " default")


def q(values, p):
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values)))]


def timed_hint(deal):
    t = time.perf_counter()
    h = hint(deal)
    return h, time.perf_counter() - t


def hint_rows(seeds):
    rows, lengths = [], []
    for game, options in VARIANTS:
        r = lookup(game).rules
        fresh, mid, fresh_won = [], [], []
        solve_s, counts = [], {"won": 0, "lost": 0, "unknown": 0}
        raw_len, clean_len = [], []
        for seed in seeds:
            d = deal_from_seed(game, seed, options)
            h, secs = timed_hint(d)
            fresh.append(secs)
            solve_s.append(h.seconds)
            counts[h.verdict] += 1
            if h.verdict == "won":
                fresh_won.append(secs)
                raw_len.append(h.raw_length)
                clean_len.append(len(h.line))
                pos = r.initial(d)
                for m in h.line[:len(h.line) // 2]:
                    pos = r.play(pos, m)
                _hm, secs_mid = timed_hint(r.to_deal(pos))
                mid.append(secs_mid)
        clean_s = [a - b for a, b in zip(fresh, solve_s)]
        rows.append(f"| {label(game, options)} | {len(seeds)} | {counts['won']}/{counts['lost']}/{counts['unknown']} "
                    f"| {statistics.median(fresh):.3f} | {q(fresh, 0.9):.3f} | {max(fresh):.3f} "
                    f"| {sum(1 for s in fresh if s < 1) / len(fresh):.0%} "
                    f"| {statistics.median(fresh_won) if fresh_won else float('nan'):.3f} "
                    f"| {sum(1 for s in fresh_won if s < 1)}/{len(fresh_won)} "
                    f"| {statistics.median(clean_s):.3f} | {max(clean_s):.3f} "
                    f"| {statistics.median(mid) if mid else float('nan'):.3f} | {max(mid) if mid else float('nan'):.3f} |")
        if raw_len:
            ratios = [c / r_ for c, r_ in zip(clean_len, raw_len)]
            lengths.append(f"| {label(game, options)} | {len(raw_len)} | {statistics.mean(raw_len):.1f} "
                           f"| {statistics.mean(clean_len):.1f} | {statistics.mean(ratios):.3f} | {max(ratios):.3f} "
                           f"| {sum(c < r_ for c, r_ in zip(clean_len, raw_len))} |")
        print(rows[-1], flush=True)
    return rows, lengths


def make_review_game(seed, length=100, deviate_after=40):
    """(deal, moves, losing move number) or None: see the module text."""
    game = "klondike"
    r = lookup(game).rules
    d = deal_from_seed(game, seed)
    res = solve(d, time_limit=10)
    if res.verdict != "won":
        return None
    pos = r.initial(d)
    for k, m in enumerate(res.moves):
        if k >= deviate_after:
            for alt in r.legal_moves(pos):
                if alt == m:
                    continue
                after = r.play(pos, alt)
                if solve(r.to_deal(after), time_limit=2).verdict == "lost":
                    played = res.moves[:k] + [alt]
                    rng = random.Random(seed)
                    while len(played) < length:
                        legal = r.legal_moves(after)
                        if not legal:
                            break
                        played.append(rng.choice(legal))
                        after = r.play(after, played[-1])
                    return d, played, k + 1
        pos = r.play(pos, m)
    return None


def review_rows(n_games):
    rows = []
    seed = 0
    while len(rows) < n_games and seed < 200:
        seed += 1
        made = make_review_game(seed)
        if made is None:
            continue
        d, played, losing = made
        t = time.perf_counter()
        rv = review(d, played)
        secs = time.perf_counter() - t
        found = rv.lost_at if rv.outcome == "lost_at" else rv.outcome
        rows.append(f"| {seed} | {len(played)} | {losing} | {found} | {len(rv.verdicts)} "
                    f"| {sum(v.seconds for v in rv.verdicts.values()):.2f} | {secs:.2f} |")
        print(rows[-1], flush=True)
    return rows


def shortest_rows(n, seeds, to_go=(None, 30, 40)):
    """Pyramid passes=3: the exact shortest search from the deal and from the table ``to_go`` moves
    before the end of the solver's line."""
    rows, done, tried = [], 0, 0
    r = lookup("pyramid").rules
    for seed in seeds:
        if tried >= n:
            break
        d = deal_from_seed("pyramid", seed, {"passes": 3})
        res = solve(d)
        if res.verdict != "won":
            continue
        for back in to_go:
            tried += 1
            table, tail = d, res.moves
            if back is not None:
                pos = r.initial(d)
                for m in res.moves[:-back]:
                    pos = r.play(pos, m)
                table, tail = r.to_deal(pos), res.moves[-back:]
            t = time.perf_counter()
            verdict, line, nodes, _ = shortest_line(table, time_limit=10.0)   # the hint command's default
            secs = time.perf_counter() - t
            cleaned = clean_line(table, tail)
            done += verdict == "won"
            rows.append(f"| {seed} | {'deal' if back is None else f'{back} moves before the end'} | {len(tail)} "
                        f"| {len(cleaned)} | {verdict} | {len(line) if line else '-'} | {nodes} | {secs:.2f} |")
            print(rows[-1], flush=True)
    return rows, done, tried


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", default="1-50")
    ap.add_argument("--review-games", type=int, default=5)
    ap.add_argument("--shortest", type=int, default=4, help="Pyramid searches for the shortest line")
    ap.add_argument("--parts", default="hints,review,shortest", help="which measurements to run")
    args = ap.parse_args()
    parts = args.parts.split(",")
    lo, hi = (int(x) for x in args.seeds.split("-"))
    seeds = list(range(lo, hi + 1))
    for game, options in VARIANTS:   # warm: compile the kernels, first hint
        hint(deal_from_seed(game, 1, options), time_limit=1)

    out = [f"\n## hints and review, {dt.date.today()}\n",
           f"`python benchmarks/hint_speed.py --seeds {args.seeds} --review-games {args.review_games} "
           f"--shortest {args.shortest} --parts {args.parts}` (one process, warm; hint = solve + clean at "
           f"default limits, time limit 10 s)\n"]
    if "hints" in parts:
        out += ["| variant | deals | won/lost/unknown | hint median s | p90 s | max s | under 1 s | won: median s "
           "| won: under 1 s | clean median s | clean max s | mid-game hint median s | mid-game max s |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
        rows, lengths = hint_rows(seeds)
        out += rows
        out += ["", "Line lengths of won deals (cleaned = what `hint --all` shows):", "",
            "| variant | won | raw mean | cleaned mean | mean cleaned/raw | worst cleaned/raw | shorter |",
            "|---|---|---|---|---|---|---|"] + lengths
    if "review" in parts:
        out += ["", "Review of ~100-move Klondike games (draw=1, passes=1; a lost deviation after move 40, then "
            "random legal moves; time limit 5 s per table):", "",
            "| seed | moves | losing move | review found | tables solved | solving s | review s |",
            "|---|---|---|---|---|---|---|"] + review_rows(args.review_games)
    if "shortest" in parts:
        srows, done, tried = shortest_rows(args.shortest, seeds)
        out += ["", f"Pyramid passes=3 `--shortest` (A* over kernel states, the hint command's "
            f"default limits: 10 s, 1024 MB): finished {done} of {tried} searches",
            "", "| seed | from | raw | cleaned | shortest verdict | shortest length | nodes | seconds |",
            "|---|---|---|---|---|---|---|---|"] + srows
    text = "\n".join(out) + "\n"
    print(text)
    with open(HERE / "results.md", "a", encoding="utf-8") as f:
        f.write(text)


if __name__ == "__main__":
    main()
