"""Whatever the tool prints as a line reads back as a moves file (--moves).

``solve``'s numbered list with its header, ``hint --all``'s ``readable   [compact]``
lines, ``hint``'s ``next:`` line, and both commands' ``--json`` objects: each, saved to
a file as printed, is read by ``review --moves`` (and ``hint --moves``) and replays to
the same table, for every game.
"""

import json

import pytest
from click.testing import CliRunner

from solver.cli import main
from solver.deals import deal_from_seed
from solver.registry import names
from solver.solve import solve


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def won_seed(game):
    return next(s for s in range(1, 60)
                if solve(deal_from_seed(game, s), max_nodes=100_000, time_limit=None).verdict == "won")


@pytest.mark.parametrize("game", names())
def test_solve_and_hint_lines_read_back_as_played_moves(game, tmp_path):
    seed = won_seed(game)
    for args in (["solve", game, "--seed", seed], ["hint", game, "--seed", seed, "--all"],
                 ["solve", game, "--seed", seed, "--json"], ["hint", game, "--seed", seed, "--all", "--json"]):
        printed = run(*args)
        assert printed.exit_code == 0, printed.stderr
        path = tmp_path / "line.txt"
        path.write_text(printed.stdout)
        reviewed = run("review", game, "--seed", seed, "--moves", path)
        assert reviewed.exit_code == 0, f"{args}: {reviewed.stderr}"
        assert "the game was won" in reviewed.stdout, args


@pytest.mark.parametrize("game", names())
def test_a_hints_next_line_reads_back_as_the_move_played(game, tmp_path):
    seed = won_seed(game)
    printed = run("hint", game, "--seed", seed)
    path = tmp_path / "next.txt"
    path.write_text(printed.stdout)
    after = run("hint", game, "--seed", seed, "--moves", path, "--json")
    assert after.exit_code == 0, after.stderr
    first = json.loads(run("hint", game, "--seed", seed, "--json").stdout)
    assert json.loads(after.stdout)["played"] == 1
    assert json.loads(after.stdout)["deal"] != first["deal"]   # the move was played
