"""Golden runs (``scripts/golden.py``): every recorded search and perft count comes out the same.

A change that alters what the search does (its moves, their order, a reduction, the
engine) changes a node count or a line here. If the change is meant, rewrite the
files with ``python scripts/golden.py`` and let the diff of ``tests/golden/`` be
reviewed with the change.
"""

import pytest

from scripts.golden import PERFT, PLAN, perft_row, plan_rows, read_golden, run_row


LONG = 1_000_000   # rows with a larger node cap run in the slow suite
LONG_PERFT = 100_000   # perft rows with more leaves too (the reference rules count them one by one)


def check_rows(game, long: bool):
    want = read_golden(game)
    assert [{k: r[k] for k in ("options", "seed", "max_nodes")} for r in want] == plan_rows(game), \
        "the golden file does not follow the plan in scripts/golden.py: regenerate it"
    for row in want:
        if (row["max_nodes"] > LONG) != long:
            continue
        got = run_row(game, {k: row[k] for k in ("options", "seed", "max_nodes")})
        assert got == row, f"{game}: the search changed (python scripts/golden.py rewrites tests/golden/)"


@pytest.mark.parametrize("game", list(PLAN))
def test_golden_searches(game):
    check_rows(game, long=False)


@pytest.mark.slow
@pytest.mark.parametrize("game", list(PLAN))
def test_golden_long_searches(game):
    check_rows(game, long=True)


def check_perft(game, long: bool):
    want = read_golden(game, "perft")
    depth, deals = PERFT[game]
    assert [(r["seed"], r["options"], r["depth"]) for r in want] == [(s, o, depth) for s, o in deals], \
        "the golden perft file does not follow the plan in scripts/golden.py: regenerate it"
    for row in want:
        if (row["leaves"] > LONG_PERFT) == long:
            assert perft_row(game, row["seed"], row["options"]) == row, f"{game}: the reference rules' moves changed"


@pytest.mark.parametrize("game", list(PLAN))
def test_golden_perft(game):
    check_perft(game, long=False)


@pytest.mark.slow
@pytest.mark.parametrize("game", list(PLAN))
def test_golden_long_perft(game):
    check_perft(game, long=True)
