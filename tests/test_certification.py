"""Certification: every won line the solver reports replays with the reference rules.

For 200 seeds of each variant of every game with a solver, solve() is run at a
node cap (a cap keeps CI time bounded; an `unknown` is no claim and needs no
certificate). solve() itself replays every `won` line and raises SolverBug if
the reference rules disagree; this test also replays the line independently,
through the JSON form a user gets. (`lost` is checked by brute force and by
agreement between search settings in the games' kernel tests.)
"""

import pytest

from solver.deals import deal_from_json, deal_from_seed
from solver.moves import Move
from tests.helpers import rules
from solver.replay import replay
from solver.solve import solve

VARIANTS = {
    "klondike": [{"draw": 1, "passes": 1}, {"draw": 3, "passes": 3}, {"draw": 1, "passes": None},
                 {"draw": 3, "passes": None}, {"draw": 1, "passes": None, "foundation_to_tableau": True},
                 {"draw": 3, "passes": None, "foundation_to_tableau": True}],
    "twenty": [{}],
    "pyramid": [{"piles": 1, "passes": 1}, {"piles": 1, "passes": 3}, {"piles": 1, "passes": None},
                {"piles": 3, "passes": 1}, {"piles": 1, "passes": 3, "stock_top": True}],
    "ladder": [{"passes": None}, {"passes": 2}],
}
SEEDS = range(1, 201)
NODE_CAP = 60_000

CASES = [(game, opts) for game, variants in VARIANTS.items() for opts in variants]


@pytest.mark.slow
@pytest.mark.parametrize("game,options", CASES, ids=[f"{g}-{o}" for g, o in CASES])
def test_every_won_line_replays(game, options):
    verdicts = {"won": 0, "lost": 0, "unknown": 0}
    for seed in SEEDS:
        deal = deal_from_seed(game, seed, options)
        result = solve(deal, max_nodes=NODE_CAP, time_limit=None)
        verdicts[result.verdict] += 1
        if result.verdict != "won":
            continue
        obj = result.to_json()
        again = deal_from_json(obj["deal"])
        moves = [Move.from_json(m) for m in obj["moves"]]
        pos, illegal = replay(again, moves)
        assert illegal is None, f"seed {seed}: {illegal}"
        assert rules(game).is_won(pos), f"seed {seed}: the line does not win"
    assert verdicts["won"] > 0  # the sample must exercise the certificate
