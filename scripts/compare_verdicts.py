"""Compare a batch study's verdicts with published labels (seed,label CSV).

    solitaire batch klondike --seed-type solvitaire --draw 3 --passes unlimited \
        --foundation-to-tableau --seeds 1-10000 --out studies/solvitaire-d3.jsonl
    python scripts/compare_verdicts.py studies/solvitaire-d3.jsonl \
        ../shared/data/klondike-solvitaire-seeds-draw3.csv [--markdown results/solvitaire-agreement.md]

Prints how many labelled deals agree, disagree, or were left unknown, and lists
every disagreement and unknown by seed (a disagreement is a bug in one of the
two: replay our line for our `won`, search harder for our `lost`).
"""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def compare(study, labels: dict[int, str]) -> dict:
    ours = {int(seed): verdict for seed, verdict in zip(study["seed"], study["verdict"])}
    out = {"agree": [], "disagree": [], "unknown": [], "unlabelled": [], "missing": []}
    for seed, label in sorted(labels.items()):
        verdict = ours.get(seed)
        if verdict is None:
            out["missing"].append(seed)
        elif verdict == "unknown":
            out["unknown"].append((seed, label))
        elif label not in ("won", "lost"):
            out["unlabelled"].append((seed, verdict))
        elif verdict == label:
            out["agree"].append(seed)
        else:
            out["disagree"].append((seed, verdict, label))
    return out


def main(argv=None) -> int:
    from solver.studies import load_study

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("study")
    ap.add_argument("labels")
    ap.add_argument("--markdown", help="also write the summary to this file")
    args = ap.parse_args(argv)
    study = load_study(args.study)
    with open(args.labels, newline="") as fh:
        labels = {int(row["seed"]): row["label"] for row in csv.DictReader(fh)}
    res = compare(study, labels)
    times = study["seconds"].astype(float)
    lines = [
        f"study {args.study} against {args.labels}",
        f"- labelled deals in the study: {len(labels) - len(res['missing'])} of {len(labels)}",
        f"- agree: {len(res['agree'])}",
        f"- disagree: {len(res['disagree'])} {res['disagree'] or ''}",
        f"- unknown (limit reached): {len(res['unknown'])} {res['unknown'] or ''}",
        f"- decided where no published run did: {res['unlabelled'] or 'none'}",
        f"- seconds per deal: median {times.median():.4f}, p90 {times.quantile(0.9):.3f}, "
        f"p99 {times.quantile(0.99):.3f}, max {times.max():.2f}, total {times.sum():.0f}",
    ]
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    if args.markdown:
        Path(args.markdown).write_text(text)
    return 1 if res["disagree"] else 0


if __name__ == "__main__":
    sys.exit(main())
