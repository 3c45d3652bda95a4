"""The `solitaire` command (README "Commands"): games, deal, check, and one-line errors."""

import json
import re
from importlib.metadata import version

import pytest
from click.testing import CliRunner

from solver.cards import card_name, parse_card, pretty
from solver.cli import main
from solver.deals import deal_from_seed, deal_to_json

RANKS = "A23456789TJQK"


@pytest.fixture
def runner():
    # click >= 8.2 keeps stderr apart from stdout by default (and has no mix_stderr)
    major, minor = (int(x) for x in version("click").split(".")[:2])
    if (major, minor) >= (8, 2):
        return CliRunner()
    return CliRunner(mix_stderr=False)  # pragma: no cover - older click


def run(runner, *args):
    return runner.invoke(main, [str(a) for a in args], catch_exceptions=False)


def assert_one_line_error(result, code=2):
    assert result.exit_code == code, (result.exit_code, result.stdout, result.stderr)
    err = result.stderr
    assert "Traceback" not in err and "Traceback" not in result.stdout
    assert err.endswith("\n") and err.count("\n") == 1, repr(err)
    return err.strip()


# ---------------------------------------------------------------------------
# games
# ---------------------------------------------------------------------------
def test_games_lists_every_registered_game_with_its_defaults(runner):
    from solver.registry import names
    result = run(runner, "games")
    assert result.exit_code == 0
    lines = result.stdout.strip().splitlines()
    by_game = {line.split()[0]: line for line in lines}
    assert list(by_game) == names() and len(lines) == len(names())
    # defaults from RULES.md: draw 1, one pass, optional rules off; Ladder passes unlimited
    for part in ("one deck", "draw=1", "passes=1", "foundation_to_tableau=false"):
        assert part in by_game["klondike"]
    for part in ("one deck", "piles=1", "passes=1", "stock_top=false"):
        assert part in by_game["pyramid"]
    assert "two decks" in by_game["twenty"] and "no options" in by_game["twenty"]
    assert "two decks" in by_game["ladder"] and "passes=unlimited" in by_game["ladder"]
    for part in ("one deck", "queens_on_kings=false", "wrap=false"):
        assert part in by_game["golf"]


# ---------------------------------------------------------------------------
# deal
# ---------------------------------------------------------------------------
DEAL_CASES = [
    ("klondike", [], {"draw": 1, "passes": 1, "foundation_to_tableau": False}),
    ("klondike", ["--draw", "1"], {"draw": 1, "passes": 1, "foundation_to_tableau": False}),
    ("klondike", ["--draw", "3"], {"draw": 3, "passes": 1, "foundation_to_tableau": False}),
    ("klondike", ["--passes", "1"], {"draw": 1, "passes": 1, "foundation_to_tableau": False}),
    ("klondike", ["--passes", "3"], {"draw": 1, "passes": 3, "foundation_to_tableau": False}),
    ("klondike", ["--passes", "unlimited"], {"draw": 1, "passes": None, "foundation_to_tableau": False}),
    ("klondike", ["--draw", "3", "--passes", "3"], {"draw": 3, "passes": 3, "foundation_to_tableau": False}),
    ("klondike", ["--foundation-to-tableau"], {"draw": 1, "passes": 1, "foundation_to_tableau": True}),
    ("klondike", ["--no-foundation-to-tableau"], {"draw": 1, "passes": 1, "foundation_to_tableau": False}),
    ("pyramid", [], {"piles": 1, "passes": 1, "stock_top": False}),
    ("pyramid", ["--piles", "1"], {"piles": 1, "passes": 1, "stock_top": False}),
    ("pyramid", ["--piles", "3"], {"piles": 3, "passes": 1, "stock_top": False}),
    ("pyramid", ["--passes", "1"], {"piles": 1, "passes": 1, "stock_top": False}),
    ("pyramid", ["--passes", "3"], {"piles": 1, "passes": 3, "stock_top": False}),
    ("pyramid", ["--passes", "unlimited"], {"piles": 1, "passes": None, "stock_top": False}),
    ("pyramid", ["--stock-top"], {"piles": 1, "passes": 1, "stock_top": True}),
    ("pyramid", ["--stock-top", "--passes", "3"], {"piles": 1, "passes": 3, "stock_top": True}),
    ("pyramid", ["--no-stock-top"], {"piles": 1, "passes": 1, "stock_top": False}),
    ("twenty", [], {}),
    ("ladder", [], {"passes": None}),
    ("ladder", ["--passes", "1"], {"passes": 1}),
    ("ladder", ["--passes", "3"], {"passes": 3}),
    ("ladder", ["--passes", "unlimited"], {"passes": None}),
]


def visible_cards(game, seed):
    """Cards that the table picture must show (face-up ones), by game."""
    d = deal_from_seed(game, seed)
    if game == "klondike":
        return [p[-1] for p in d.tableau]
    if game == "pyramid":
        return d.pyramid[6] + d.pyramid[0]
    if game == "twenty":
        return [p[-1] for p in d.tableau]
    return [c for p in d.tableau for c in p] + [d.ladder[-1]]


@pytest.mark.parametrize("game, args, options", DEAL_CASES)
@pytest.mark.parametrize("seed", [1, 77])
def test_deal_shows_the_table(runner, game, args, options, seed):
    result = run(runner, "deal", game, "--seed", seed, *args)
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    out = result.stdout
    for card in visible_cards(game, seed):
        assert card_name(card) in out or pretty(card) in out, card_name(card)


@pytest.mark.parametrize("game, args, options", DEAL_CASES)
def test_deal_json_is_the_deal_of_the_seed(runner, game, args, options):
    result = run(runner, "deal", game, "--seed", 12345, *args, "--json")
    assert result.exit_code == 0, result.stderr
    obj = json.loads(result.stdout)
    assert obj == deal_to_json(deal_from_seed(game, 12345, options))
    assert obj["options"] == options and obj["seed"] == 12345


def test_deal_json_of_the_largest_seed(runner):
    seed = 2 ** 64 - 1
    result = run(runner, "deal", "ladder", "--seed", seed, "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == deal_to_json(deal_from_seed("ladder", seed))


def test_deal_game_name_is_case_insensitive(runner):
    result = run(runner, "deal", "Klondike", "--seed", 3, "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == deal_to_json(deal_from_seed("klondike", 3))


@pytest.mark.parametrize("game, args, option", [
    ("klondike", ["--piles", "3"], "--piles"),
    ("klondike", ["--stock-top"], "--stock-top"),
    ("klondike", ["--no-stock-top"], "--stock-top"),
    ("pyramid", ["--draw", "3"], "--draw"),
    ("pyramid", ["--foundation-to-tableau"], "--foundation-to-tableau"),
    ("twenty", ["--passes", "3"], "--passes"),
    ("twenty", ["--draw", "1"], "--draw"),
    ("ladder", ["--draw", "3"], "--draw"),
    ("ladder", ["--piles", "1"], "--piles"),
])
def test_option_that_does_not_apply(runner, game, args, option):
    result = run(runner, "deal", game, "--seed", 1, *args)
    err = assert_one_line_error(result)
    assert option in err and game in err
    assert result.stdout == ""


@pytest.mark.parametrize("game, args, word", [
    ("klondike", ["--draw", "2"], "draw"),
    ("klondike", ["--passes", "0"], "passes"),
    ("klondike", ["--passes", "lots"], "lots"),
    ("pyramid", ["--piles", "3", "--passes", "3"], "piles=3"),
    ("ladder", ["--passes", "-1"], "passes"),
])
def test_bad_option_value(runner, game, args, word):
    err = assert_one_line_error(run(runner, "deal", game, "--seed", 1, *args))
    assert word in err


def test_unknown_game(runner):
    result = run(runner, "deal", "solitaire-of-doom", "--seed", 1)
    assert result.exit_code != 0
    err = assert_one_line_error(result)
    assert "solitaire-of-doom" in err


def test_unknown_option_flag(runner):
    err = assert_one_line_error(run(runner, "deal", "klondike", "--seed", 1, "--colour", "red"))
    assert "--colour" in err


@pytest.mark.parametrize("command, typed, meant", [("solve", "--file", "--deal"),
                                                   ("solve", "--timeout", "--time-limit"),
                                                   ("batch", "--output", "--out"), ("batch", "--workers", "--jobs")])
def test_an_option_known_by_another_name_is_pointed_to(runner, command, typed, meant):
    err = assert_one_line_error(run(runner, command, "klondike", typed, "x"))
    assert f"No such option '{typed}'. Did you mean '{meant}'?" in err


def test_a_synonym_points_only_to_an_option_the_command_has(runner):
    err = assert_one_line_error(run(runner, "deal", "klondike", "--timeout", "3"))   # deal has no --time-limit
    assert "--time-limit" not in err and "No such option '--timeout'" in err


# ---------------------------------------------------------------------------
# check
# ---------------------------------------------------------------------------
def suit_run(suit, first, last):
    return [RANKS[r - 1] + suit for r in range(first, last + 1)]


def near_won_klondike():
    """Five cards left: KC on t1, QH on KS in t2, KD on t3, KH in the stock."""
    return {
        "game": "klondike", "options": {"draw": 1, "passes": 1},
        "tableau": [["KC"], ["KS", "QH"], ["KD"], [], [], [], []],
        "face_down": [0] * 7,
        "stock": ["KH"],
        "foundations": [suit_run("C", 1, 12), suit_run("D", 1, 12), suit_run("H", 1, 11), suit_run("S", 1, 12)],
    }


def m(card, src, dst, count=1):
    return {"type": "move", "card": card, "from": src, "to": dst, "count": count}


WINNING_LINE = [m("QH", "t2", "f3"), m("KS", "t2", "f4"), m("KC", "t1", "f1"), {"type": "draw"},
                m("KH", "waste", "f3"), m("KD", "t3", "f2")]


def write(tmp_path, name, obj):
    path = tmp_path / name
    path.write_text(obj if isinstance(obj, str) else json.dumps(obj), encoding="utf-8")
    return str(path)


def test_the_hand_built_deal_is_a_whole_deck():
    deal = near_won_klondike()
    names = [c for p in deal["tableau"] for c in p] + deal["stock"] + [c for f in deal["foundations"] for c in f]
    assert sorted(parse_card(c) for c in names) == list(range(52))


def test_check_winning_line(runner, tmp_path):
    path = write(tmp_path, "win.json", {"deal": near_won_klondike(), "moves": WINNING_LINE})
    result = run(runner, "check", path)
    assert result.exit_code == 0, result.stderr
    assert "wins" in result.stdout and "does not win" not in result.stdout
    assert result.stderr == ""


def test_check_winning_twenty_line(runner, tmp_path):
    foundations = ([suit_run("C", 1, 12)] + [suit_run(s, 1, 13) for s in "DHS"]
                   + [suit_run(s, 1, 13)[::-1] for s in "CDHS"])
    deal = {"game": "twenty", "options": {}, "foundations": foundations,
            "tableau": [["KC"]] + [[] for _ in range(19)], "stock": []}
    path = write(tmp_path, "twenty.json", {"deal": deal, "moves": [m("KC", "t1", "f1")]})
    result = run(runner, "check", path)
    assert result.exit_code == 0, result.stderr
    assert "wins" in result.stdout


def test_check_winning_pyramid_line(runner, tmp_path):
    # Only the top card p1.1 is left (any other card would cover a removed one); a card
    # of the waste adds up to 13 with it.
    deal = deal_to_json(deal_from_seed("pyramid", 1))
    top = deal["pyramid"][0][0]
    partner = next(c for row in deal["pyramid"] for c in row if RANKS.index(c[0]) + RANKS.index(top[0]) + 2 == 13)
    # every other card removed (they pair up, as play removes them: the deck less a pair)
    removed = [c for row in deal["pyramid"] for c in row if c not in (top, partner)] + deal["stock"]
    deal["pyramid"] = [[None] * r for r in range(1, 8)]
    deal["pyramid"][0][0] = top
    deal["waste"], deal["stock"], deal["foundations"] = [partner], [], [removed]
    move = {"type": "remove", "cards": [top, partner], "from": ["p1.1", "waste"]}
    path = write(tmp_path, "pyramid.json", {"deal": deal, "moves": [move]})
    result = run(runner, "check", path)
    assert result.exit_code == 0, result.stderr
    assert "wins" in result.stdout
    path = write(tmp_path, "pyramid0.json", {"deal": deal, "moves": []})
    assert run(runner, "check", path).exit_code == 1


@pytest.mark.parametrize("k", [0, 1, 3, 5])
def test_check_legal_prefix_does_not_win(runner, tmp_path, k):
    path = write(tmp_path, "prefix.json", {"deal": near_won_klondike(), "moves": WINNING_LINE[:k]})
    result = run(runner, "check", path)
    assert result.exit_code == 1
    assert "does not win" in result.stdout
    assert result.stderr == ""


def test_check_from_game_and_seed(runner, tmp_path):
    path = write(tmp_path, "seed.json", {"game": "klondike", "seed": 1, "options": {"draw": 3},
                                         "moves": [{"type": "draw", "cards": ["QC", "4S", "6C"]}]})
    result = run(runner, "check", path)
    assert result.exit_code == 1 and "does not win" in result.stdout


@pytest.mark.parametrize("k, bad, reason", [
    (1, m("KS", "t2", "f4"), "KS"),            # KS is covered by QH
    (3, m("KC", "t1", "f2"), "KC"),            # wrong foundation
    (4, m("KH", "waste", "f3"), "waste"),      # the waste is still empty
    (6, m("KD", "t3", "f1"), "KD"),            # KD on the clubs
])
def test_check_illegal_move_names_file_move_and_reason(runner, tmp_path, k, bad, reason):
    moves = list(WINNING_LINE)
    moves[k - 1] = bad
    path = write(tmp_path, "illegal.json", {"deal": near_won_klondike(), "moves": moves})
    err = assert_one_line_error(run(runner, "check", path))
    assert path in err
    assert f"move {k}" in err and "illegal" in err
    assert reason in err
    # a reason follows the move
    assert len(err.split("illegal", 1)[1].strip(" :")) > 3


def test_check_draw_cards_must_match(runner, tmp_path):
    moves = list(WINNING_LINE)
    moves[3] = {"type": "draw", "cards": ["KD"]}  # the stock turns up KH
    path = write(tmp_path, "draw.json", {"deal": near_won_klondike(), "moves": moves})
    err = assert_one_line_error(run(runner, "check", path))
    assert "move 4" in err and "KH" in err


def test_check_malformed_json(runner, tmp_path):
    path = write(tmp_path, "broken.json", '{"deal": {"game": "klondike"},\n "moves": [\n  {"type": "draw"},,\n]}\n')
    err = assert_one_line_error(run(runner, "check", path))
    assert path in err and "line 3" in err


def test_check_nonexistent_file(runner, tmp_path):
    path = str(tmp_path / "missing.json")
    err = assert_one_line_error(run(runner, "check", path))
    assert path in err


def test_check_unknown_card_in_the_deal(runner, tmp_path):
    deal = near_won_klondike()
    deal["tableau"][2] = ["KX"]
    path = write(tmp_path, "card.json", {"deal": deal, "moves": WINNING_LINE})
    err = assert_one_line_error(run(runner, "check", path))
    assert path in err and "'KX'" in err and "tableau pile 3 card 1" in err


def test_check_missing_card_in_the_deal(runner, tmp_path):
    deal = near_won_klondike()
    deal["stock"] = []
    path = write(tmp_path, "missing-card.json", {"deal": deal, "moves": []})
    err = assert_one_line_error(run(runner, "check", path))
    assert path in err and "KH" in err and "missing" in err


@pytest.mark.parametrize("bad", [{"type": "teleport"}, {"type": None}, {"kind": "draw"}])
def test_check_unknown_move_type_names_the_move_number(runner, tmp_path, bad):
    moves = WINNING_LINE[:2] + [bad] + WINNING_LINE[2:]
    path = write(tmp_path, "type.json", {"deal": near_won_klondike(), "moves": moves})
    err = assert_one_line_error(run(runner, "check", path))
    assert path in err and "move 3" in err and "type" in err


@pytest.mark.parametrize("bad, word", [
    (m("Q?", "t2", "f3"), "'Q?'"),
    (m("QH", "t99", "f3"), "t99"),
    ({"type": "move", "card": "QH", "from": "t2"}, "to"),
    ({"type": "draw", "cards": 5}, "cards"),
    ({"type": "move", "card": "QH", "from": "t2", "to": "f3", "count": 0}, "count"),
    ("draw", "object"),
])
def test_check_unreadable_move_names_the_move_number(runner, tmp_path, bad, word):
    moves = [bad] + WINNING_LINE[1:]
    path = write(tmp_path, "move.json", {"deal": near_won_klondike(), "moves": moves})
    err = assert_one_line_error(run(runner, "check", path))
    assert "move 1" in err and word in err


@pytest.mark.parametrize("obj, word", [
    ([1, 2, 3], "result object"),
    ({"moves": []}, "deal"),
    ({"deal": near_won_klondike()}, "moves"),
    ({"game": "chess", "seed": 1, "moves": []}, "chess"),
    ({"game": ["klondike"], "seed": 1, "moves": []}, "unknown game"),
    ({"game": "klondike", "seed": -5, "moves": []}, "seed"),
    ({"game": "klondike", "seed": 1, "options": {"draw": 2}, "moves": []}, "draw"),
])
def test_check_bad_result_objects(runner, tmp_path, obj, word):
    path = write(tmp_path, "result.json", obj)
    err = assert_one_line_error(run(runner, "check", path))
    assert path in err and word in err


# ---------------------------------------------------------------------------
# the console script's quick exit (solver.cli.run)
# ---------------------------------------------------------------------------
def console(*args):
    """The installed `solitaire` script's entry point, in a fresh process, output to pipes
    (block-buffered: output not flushed before os._exit would be lost)."""
    import subprocess
    import sys
    from pathlib import Path

    return subprocess.run([sys.executable, "-c", "from solver.cli import run; run()", *map(str, args)],
                          cwd=Path(__file__).resolve().parents[1], capture_output=True, text=True, timeout=300)


def test_console_script_keeps_output_and_exit_codes(tmp_path):
    ok = console("solve", "pyramid", "--seed", 2, "--passes", 3, "--json")
    assert ok.returncode == 0, ok.stderr
    result = json.loads(ok.stdout)
    assert result["verdict"] == "won" and result["moves"]
    bad = console("solve", "pyramid", "--seed", 2, "--passes", 0)
    assert bad.returncode == 2 and bad.stdout == "" and bad.stderr.count("\n") == 1
    assert "passes" in bad.stderr and "Traceback" not in bad.stderr
    deal = tmp_path / "deal.json"
    made = console("deal", "klondike", "--seed", 3, "--json")
    deal.write_text(made.stdout)
    assert console("solve", "klondike", "--deal", deal).stdout.startswith(f"klondike {deal} (draw=1, passes=1")


def test_check_says_when_a_results_verdict_contradicts_its_replay(runner, tmp_path):
    won = json.loads(run(runner, "solve", "golf", "--seed", 2, "--json").stdout)
    assert won["verdict"] == "won"
    path = write(tmp_path, "lost.json", dict(won, verdict="lost"))     # the moves win: not lost
    result = run(runner, "check", path)
    assert result.exit_code == 1 and "wins" in result.stdout and "contradicts" in result.stdout
    path = write(tmp_path, "won.json", dict(won, moves=won["moves"][:3]))   # says won, does not win
    result = run(runner, "check", path)
    assert result.exit_code == 1 and "does not win" in result.stdout and "contradicts" in result.stdout
    path = write(tmp_path, "ok.json", won)
    assert run(runner, "check", path).exit_code == 0


def test_the_command_list_names_every_command_in_full(runner):
    out = run(runner, "--help").stdout
    listed = out.split("Commands:")[1]
    assert "..." not in listed
    for name in ("batch", "check", "convert", "deal", "games", "hint", "report", "review", "solve"):
        assert f"  {name} " in listed


@pytest.mark.parametrize("game", ["klondike", "pyramid", "twenty", "ladder", "golf"])
def test_deal_shows_options_as_the_command_line_spells_them_and_cards_with_suit_symbols(runner, game):
    out = run(runner, "deal", game, "--seed", 1).stdout
    head, table = out.split("\n", 1)
    assert "None" not in head and "False" not in head and "True" not in head
    assert head.count(game) == 1 and game not in table.lower().split("\n")[0]   # one header, not two
    assert any(symbol in table for symbol in "♣♦♥♠")
    assert not re.search(r"\b[2-9TJQKA][CDHS]\b", table)    # no letter suits


def test_deal_shows_a_deal_file(runner, tmp_path):
    path = tmp_path / "d.json"
    path.write_text(run(runner, "deal", "ladder", "--seed", 4, "--json").stdout)
    shown = run(runner, "deal", "ladder", "--deal", path).stdout
    assert shown.split("\n", 1)[1] == run(runner, "deal", "ladder", "--seed", 4).stdout.split("\n", 1)[1]


def test_an_option_given_over_a_deal_files_own_is_said(runner, tmp_path):
    path = tmp_path / "d.json"
    path.write_text(run(runner, "deal", "klondike", "--seed", 3, "--draw", 3, "--json").stdout)
    out = run(runner, "solve", "klondike", "--deal", path, "--draw", 1, "--max-nodes", 100)
    assert "playing draw=1 as given, not the deal file's draw=3" in out.stderr
    assert "(draw=1," in out.stdout


def test_a_bad_option_value_names_the_option(runner):
    assert "--passes: bad option value 'abc'" in assert_one_line_error(run(runner, "solve", "klondike", "--seed", 1,
                                                                            "--passes", "abc"))
