"""`solitaire solve ladder`: verdicts, lines the reference rules replay, limits, bad options."""

import json

import pytest

from solver.deals import deal_from_json, deal_from_seed, deal_to_json
from solver.games.ladder import rules as R
from solver.moves import Move, parse_move
from solver.replay import replay
from tests.test_cli import assert_one_line_error, run, runner  # noqa: F401  (runner is a fixture)


@pytest.mark.parametrize("args, options", [([], {"passes": None}), (["--passes", "unlimited"], {"passes": None})])
def test_solve_json_gives_a_line_the_reference_rules_replay(runner, args, options):  # noqa: F811
    result = run(runner, "solve", "ladder", "--seed", 1, *args, "--json")
    assert result.exit_code == 0, result.stderr
    obj = json.loads(result.stdout)
    assert obj["game"] == "ladder" and obj["seed"] == 1 and obj["options"] == options
    assert obj["deal"] == deal_to_json(deal_from_seed("ladder", 1, options))
    assert obj["verdict"] == "won" and obj["nodes"] > 0
    pos, illegal = replay(deal_from_json(obj["deal"]), [Move.from_json(m) for m in obj["moves"]])
    assert illegal is None and R.is_won(pos)


def test_solve_text_lists_the_same_line(runner):  # noqa: F811
    text = run(runner, "solve", "ladder", "--seed", 1)
    assert text.exit_code == 0, text.stderr
    head, _, *rows = text.stdout.strip().splitlines()
    assert head.startswith("ladder seed 1 (passes=unlimited): won")
    moves = [parse_move(row.split(". ", 1)[1]) for row in rows]
    obj = json.loads(run(runner, "solve", "ladder", "--seed", 1, "--json").stdout)
    assert [str(m) for m in moves] == [str(Move.from_json(m)) for m in obj["moves"]]


def test_solve_limit_reached_is_unknown_not_an_error(runner):  # noqa: F811
    result = run(runner, "solve", "ladder", "--seed", 1, "--passes", 2, "--max-nodes", 50, "--json")
    assert result.exit_code == 0, result.stderr
    obj = json.loads(result.stdout)
    assert obj["verdict"] == "unknown" and obj["reason"] == "node_limit" and obj["moves"] == []
    assert obj["options"] == {"passes": 2}


@pytest.mark.parametrize("args, word", [(["--passes", "0"], "passes"), (["--draw", "3"], "--draw")])
def test_solve_bad_options_are_one_line_errors(runner, args, word):  # noqa: F811
    err = assert_one_line_error(run(runner, "solve", "ladder", "--seed", 1, *args))
    assert word in err
