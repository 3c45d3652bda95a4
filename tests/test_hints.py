"""Hints from fresh and mid-game tables, review of played games, line cleaning, Pyramid's shortest line."""

import json
import random
from collections import deque

import pytest
from click.testing import CliRunner

from solver.cli import main
from solver.deals import deal_from_json, deal_from_seed, deal_to_json
from solver.hints import hint, position_deal, review
from solver.lines import clean_line, shortest_line
from solver.moves import Move, parse_move
from solver.notation import readable
from solver.replay import IllegalMove, certify
from solver.solve import solve
from tests.helpers import cards, rules

WON_SEEDS = {  # (game, options): seeds the solver wins quickly (checked in the tests that use them)
    ("klondike", "passes=unlimited"): ({"passes": None}, [2, 3, 5]),
    ("klondike", "default"): ({}, [2, 9]),
    ("pyramid", "passes=3"): ({"passes": 3}, [1, 2, 5]),
    ("twenty", "default"): ({}, [1, 2]),
}


def won_line(game, options, seed):
    d = deal_from_seed(game, seed, options)
    res = solve(d, time_limit=20)
    assert res.verdict == "won", (game, seed, res.verdict)
    return d, res.moves


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


# --------------------------------------------------------------------------
# Hand-built tables with a known next move
# --------------------------------------------------------------------------
def klondike_last_king():
    """Everything home but the King of spades on pile 1: the one move is KS t1-f4."""
    names = "A23456789TJQK"
    found = [[f"{r}{s}" for r in names] for s in "CDH"] + [[f"{r}S" for r in names[:-1]]]
    return deal_from_json(reachable=False, obj={"game": "klondike", "tableau": [["KS"], [], [], [], [], [], []],
                           "face_down": [0] * 7, "stock": [], "foundations": found})


def test_hint_from_a_hand_built_klondike_table():
    h = hint(klondike_last_king())
    assert h.verdict == "won" and h.line == [parse_move("KS t1-f4")]


def pyramid_end_table(lost=False):
    """6C (p1.1) is left in the pyramid, the waste holds 9H under 7D, the stock 4C, 5S and 8D.
    ``lost``: a 2D in place of the 7D (and JD in the stock), and 7S left on the 6C in row 2: the
    only 7 covers the only 6, so nothing pairs with either. Every other card is removed; the
    removed cards pair up, as play leaves them."""
    from solver.cards import card_name
    pyramid = [[None] * r for r in range(1, 8)]
    pyramid[0][0] = "6C"
    partner, stock = ("2D", ["4C", "5S", "8D", "JD"]) if lost else ("7D", ["4C", "5S", "8D"])
    if lost:
        pyramid[1][0] = "7S"
    left = cards(" ".join(stock + ["9H", partner, "6C"] + (["7S"] if lost else [])))
    removed = [card_name(c) for c in range(52) if c not in left]
    return deal_from_json({"game": "pyramid", "options": {"passes": 2}, "pyramid": pyramid, "stock": stock,
                           "waste": ["9H", partner], "foundations": [removed]})


def test_hint_from_a_hand_built_pyramid_table():
    """6C pairs with the waste's 7D at once; drawing first would bury the 7 (and waste moves)."""
    d = pyramid_end_table()
    for shortest in (False, True):
        h = hint(d, shortest=shortest)
        assert h.verdict == "won" and h.line == [parse_move("remove 6C@p1.1 7D@waste")]
    assert readable(h.line[0], d) == "remove 6♣ (row 1) with 7♦ (waste)"


def test_hint_says_when_no_line_wins():
    """With a 2 in place of the 7 and the only 7 on the 6C, nothing pairs with either: lost, and the
    command says so."""
    d = pyramid_end_table(lost=True)
    assert hint(d).verdict == "lost"
    assert shortest_line(d)[0] == "lost"
    out = run("hint", "pyramid", "--deal", _save(d))
    assert out.exit_code == 0 and "no winning line exists" in out.output


def _save(d, name="deal.json"):
    import os
    import tempfile
    path = os.path.join(tempfile.mkdtemp(), name)
    with open(path, "w") as f:
        json.dump(deal_to_json(d), f)
    return path


# --------------------------------------------------------------------------
# Mid-game tables as deals
# --------------------------------------------------------------------------
@pytest.mark.parametrize("key", list(WON_SEEDS))
def test_mid_game_table_as_deal_agrees_with_the_reference_table(key):
    game = key[0]
    options, seeds = WON_SEEDS[key]
    r = rules(game)
    d, line = won_line(game, options, seeds[0])
    pos = r.initial(d)
    for k, m in enumerate(line):
        if k in (len(line) // 4, len(line) // 2, 3 * len(line) // 4):
            mid = r.to_deal(pos)
            assert r.initial(mid) == pos
            assert r.initial(deal_from_json(deal_to_json(mid))) == pos  # through the JSON format too
            # the rest of the line wins from the converted table, so the solver must say won
            res = solve(mid, time_limit=20)
            assert res.verdict == "won"
            certify(mid, res.moves)
            certify(mid, line[k:])
        pos = r.play(pos, m)


def test_pyramid_converted_tables_agree_with_exhaustive_search():
    """Near the end of lines (won and lost), solve(to_deal) agrees with breadth-first search over the
    reference rules."""
    r = rules("pyramid")
    checked = {"won": 0, "lost": 0}
    for seed in (1, 2, 5):
        d, line = won_line("pyramid", {"passes": 3}, seed)
        pos = r.initial(d)
        for m in line[:-8]:
            pos = r.play(pos, m)
        for alt in r.legal_moves(pos):
            table = r.to_deal(r.play(pos, alt))
            verdict = "lost" if bfs_length(table) is None else "won"
            assert solve(table, time_limit=20).verdict == verdict
            checked[verdict] += 1
    assert checked["won"] > 0


# --------------------------------------------------------------------------
# Line cleaning
# --------------------------------------------------------------------------
@pytest.mark.parametrize("key", list(WON_SEEDS))
def test_cleaned_lines_replay_and_are_never_longer(key):
    game = key[0]
    options, seeds = WON_SEEDS[key]
    for seed in seeds:
        d, line = won_line(game, options, seed)
        cleaned = clean_line(d, line)
        certify(d, cleaned)
        assert len(cleaned) <= len(line)


@pytest.mark.parametrize("key", [k for k in WON_SEEDS if k[0] == "klondike"])
def test_no_table_comes_back_along_a_cleaned_line(key):
    """No card moved and moved back, no pass through the stock that ends where it began."""
    from solver.lines import table_key
    options, seeds = WON_SEEDS[key]
    r = rules("klondike")
    for seed in seeds:
        d, line = won_line("klondike", options, seed)
        pos, seen = r.initial(d), []
        for m in clean_line(d, line):
            seen.append(table_key(r, pos))
            pos = r.play(pos, m)
        assert len(set(seen)) == len(seen)


def test_cleaning_cuts_a_pass_that_plays_nothing_and_a_card_moved_back():
    d, line = won_line("klondike", {"passes": None}, 2)
    r = rules("klondike")
    # a whole pass through the stock that plays nothing, put in front of the line
    pos = r.initial(d)
    pad = []
    while pos.stock:
        pad.append(Move("draw"))
        pos = r.play(pos, pad[-1])
    pad.append(Move("redeal"))
    padded = pad + line
    certify(d, padded)
    assert len(clean_line(d, padded)) <= len(line) < len(padded)


@pytest.mark.parametrize("options", [{"passes": None}, {"passes": None, "foundation_to_tableau": True}])
def test_cleaning_cuts_a_card_moved_and_moved_back(options):
    from solver.lines import table_key
    d, line = won_line("klondike", options, 2)
    r = rules("klondike")
    pos = r.initial(d)
    for k, m in enumerate(line):
        for there in r.legal_moves(pos):
            moved = r.play(pos, there)
            back = [b for b in r.legal_moves(moved) if table_key(r, r.play(moved, b)) == table_key(r, pos)]
            if back:
                padded = line[:k] + [there, back[0]] + line[k:]
                certify(d, padded)
                assert len(clean_line(d, padded)) <= len(line)
                return
        pos = r.play(pos, m)
    pytest.fail("no move that can be undone along the line")


def test_cleaning_shortens_the_solvers_klondike_lines():
    total_raw = total_clean = 0
    for seed in (2, 3, 5):
        d, line = won_line("klondike", {"passes": None}, seed)
        total_raw += len(line)
        total_clean += len(clean_line(d, line))
    assert total_clean < total_raw


def test_the_cleaner_keeps_a_line_it_cannot_certify():
    """A line that does not win is returned unchanged: nothing unreplayed is ever offered."""
    d, line = won_line("klondike", {"passes": None}, 2)
    assert clean_line(d, line[:-1]) == line[:-1]


# --------------------------------------------------------------------------
# Pyramid's shortest line
# --------------------------------------------------------------------------
def bfs_length(deal):
    """Fewest moves to a win by plain breadth-first search over the reference rules (no
    estimate, no reduction): the independent check. None when no line wins."""
    from dataclasses import replace

    r = rules("pyramid")
    start = r.initial(deal)

    def seen_key(pos):   # with unlimited passes the count used says nothing: merge, or never end
        return replace(pos, passes_used=0) if pos.passes is None else pos

    seen = {seen_key(start)}
    queue = deque([(start, 0)])
    while queue:
        pos, g = queue.popleft()
        if r.is_won(pos):
            return g
        for m in r.legal_moves(pos):
            nxt = r.play(pos, m)
            if seen_key(nxt) not in seen:
                seen.add(seen_key(nxt))
                queue.append((nxt, g + 1))
    return None


@pytest.mark.parametrize("options", [{"passes": 3}, {"piles": 3}, {"passes": None, "stock_top": True}, {}])
def test_shortest_pyramid_line_matches_breadth_first_search(options):
    """From tables 12-14 moves before the end of won lines, in every kind of Pyramid."""
    r = rules("pyramid")
    checked = 0
    for seed in range(1, 300):
        d = deal_from_seed("pyramid", seed, options)
        res = solve(d, time_limit=20)
        if res.verdict != "won":
            continue
        back = 12 + checked
        pos = r.initial(d)
        for m in res.moves[:-back]:
            pos = r.play(pos, m)
        table = r.to_deal(pos)
        verdict, short, _, _ = shortest_line(table)
        assert verdict == "won"
        certify(table, short)
        assert len(short) == bfs_length(table) <= back
        assert len(short) <= len(clean_line(table, res.moves[-back:]))
        checked += 1
        if checked == 3:
            return
    pytest.fail("fewer than 3 won deals")


def test_shortest_gives_unknown_at_its_limit():
    d = deal_from_seed("pyramid", 1, {"passes": 3})
    verdict, moves, nodes, reason = shortest_line(d, max_nodes=50)
    assert verdict == "unknown" and moves == [] and nodes == 50 and reason == "node_limit"
    assert shortest_line(d, memory_mb=4).reason == "memory"
    assert shortest_line(deal_from_seed("pyramid", 5, {"passes": 3}), time_limit=0.01).reason == "time_limit"
    h = hint(d, shortest=True, shortest_nodes=50)
    assert h.shortest == "unknown" and h.to_json()["shortest_reason"] == "node_limit"
    assert len(h.line) <= h.raw_length    # the cleaned line is offered instead
    out = run("hint", "pyramid", "--seed", 1, "--passes", 3, "--shortest", "--shortest-nodes", 50)
    assert out.exit_code == 0 and "no shortest line found within the --shortest-nodes limit" in out.output


def talon_king_table(stock_top):
    """6C is the last pyramid card; the waste top is a King, the stock holds 7D then 4C."""
    from solver.cards import card_name
    pyramid = [[None] * r for r in range(1, 8)]
    pyramid[0][0] = "6C"
    talon = cards("KD 7D 4C")
    removed = [card_name(c) for c in range(52) if c not in talon and c != cards("6C")[0]]
    return deal_from_json(reachable=False, obj={"game": "pyramid", "options": {"passes": 1, "stock_top": stock_top},
                           "pyramid": pyramid, "stock": ["7D", "4C"], "waste": ["KD"], "foundations": [removed]})


@pytest.mark.parametrize("stock_top", [False, True])
def test_shortest_line_leaves_a_talon_king_alone(stock_top):
    """The win is a cleared pyramid: the waste King need not go, so the fewest moves are
    draw + remove (1 with stock_top: 6C with the stock's 7D). Forcing the King's removal,
    as the solver's reduction does, would add a move."""
    d = talon_king_table(stock_top)
    verdict, line, _, _ = shortest_line(d)
    assert verdict == "won"
    certify(d, line)
    assert len(line) == bfs_length(d) == (1 if stock_top else 2)
    assert all("KD" not in str(m) for m in line)


@pytest.mark.parametrize("options,seeds", [({"piles": 3}, [1, 2]), ({"passes": 3}, [1, 12]),
                                           ({"passes": None}, [1]), ({"passes": None, "stock_top": True}, [6])])
def test_shortest_line_from_a_whole_deal_agrees_with_every_reduction_off(options, seeds):
    """From fresh deals: the same fewest moves with the macro moves, forced removals, dead-state
    pruning and buried cards switched off (the search then sees the plain rules' moves, and
    takes about 10x the states), and never longer than the cleaned solver line."""
    from solver.engine.shortest import fewest_moves
    from solver.games.pyramid import kernels as pyramid

    plain = pyramid.REDUCE_FEWEST   # no macro moves, no reduction
    for seed in seeds:
        d = deal_from_seed("pyramid", seed, options)
        verdict, line, _, _ = shortest_line(d)
        assert verdict == "won", seed
        certify(d, line)
        slow = fewest_moves(pyramid.KERNELS, pyramid.move_cost, pyramid.moves_left, pyramid.encode(d, plain))
        assert slow.verdict == "won" and slow.max_depth == len(slow.line) == len(line), seed
        assert len(line) <= len(clean_line(d, solve(d).moves))


# --------------------------------------------------------------------------
# Review
# --------------------------------------------------------------------------
def losing_game(game, options, seed, extra=40):
    """A winning line's prefix, then the first deviation the solver proves lost, then random legal moves."""
    key = (game, tuple(sorted(options.items())), seed, extra)
    if key not in _LOSING_GAMES:
        _LOSING_GAMES[key] = _make_losing_game(game, options, seed, extra)
    d, played, losing = _LOSING_GAMES[key]
    return d.copy(), list(played), losing


_LOSING_GAMES: dict = {}


def _make_losing_game(game, options, seed, extra):
    r = rules(game)
    d, line = won_line(game, options, seed)
    pos = r.initial(d)
    for k, m in enumerate(line):
        for alt in r.legal_moves(pos):
            if alt == m:
                continue
            after = r.play(pos, alt)
            if solve(r.to_deal(after), time_limit=5).verdict == "lost":
                played = line[:k] + [alt]
                rng = random.Random(seed)
                for _ in range(extra):
                    legal = r.legal_moves(after)
                    if not legal:
                        break
                    played.append(rng.choice(legal))
                    after = r.play(after, played[-1])
                return d, played, k + 1
        pos = r.play(pos, m)
    pytest.skip("no losing deviation found")


@pytest.mark.parametrize("game,options,seed", [("klondike", {}, 2), ("pyramid", {"passes": 3}, 1)])
def test_review_finds_the_losing_move_and_a_better_one(game, options, seed):
    d, played, losing = losing_game(game, options, seed)
    rv = review(d, played)
    assert rv.outcome == "lost_at" and rv.lost_at == losing
    r = rules(game)
    before = position_deal(d, played[:losing - 1])
    # independent checks: the table before is won, the one after is lost, the better move keeps it won
    assert solve(before).verdict == "won"
    assert solve(position_deal(d, played[:losing])).verdict == "lost"
    assert rv.better is not None and rv.better != played[losing - 1]
    after_better = r.to_deal(r.play(r.initial(before), rv.better))
    assert solve(after_better).verdict == "won"
    certify(before, rv.better_line)


def test_review_of_a_won_game_and_of_a_game_still_winnable():
    d, line = won_line("klondike", {"passes": None}, 2)
    assert review(d, line).outcome == "won"
    assert review(d, line[:30]).outcome == "winnable"


@pytest.mark.parametrize("max_nodes", [1, 2000])
def test_review_never_calls_an_undecided_table_lost(max_nodes):
    d, played, losing = losing_game("klondike", {}, 2)
    rv = review(d, played, max_nodes=max_nodes)
    assert rv.outcome in ("undecided", "lost_at")
    if rv.outcome == "lost_at":
        assert rv.lost_at == losing
    if rv.hi is not None:     # the first table called lost is lost, and not before the real losing move
        assert rv.hi >= losing and rv.verdicts[rv.hi].verdict == "lost"
    if rv.lo is not None:
        assert rv.lo < losing
    for k, v in rv.verdicts.items():
        if v.verdict == "lost":  # a loss claimed under a small limit must be a real one
            assert k >= losing and solve(position_deal(d, played[:k])).verdict == "lost"


# --------------------------------------------------------------------------
# The commands
# --------------------------------------------------------------------------
def test_hint_command_next_move_and_whole_line(tmp_path):
    d, line = won_line("klondike", {"passes": None}, 2)
    played = " ".join(str(m) for m in line[:10])
    out = run("hint", "klondike", "--seed", 2, "--passes", "unlimited", "--played", played)
    assert out.exit_code == 0, out.output
    assert "after 10 moves played" in out.output and "next:" in out.output
    js = run("hint", "klondike", "--seed", 2, "--passes", "unlimited", "--played", played, "--json")
    obj = json.loads(js.stdout)
    assert obj["played"] == 10 and obj["verdict"] == "won" and obj["line_length"] == len(obj["moves"])
    assert obj["next"] == obj["moves"][0] and obj["line_length"] <= obj["raw_length"]
    # the table in the object is the one after the 10 moves, and check replays the object as a win
    assert deal_from_json(obj["deal"]) == position_deal(d, line[:10])
    path = tmp_path / "hint.json"
    path.write_text(js.output)
    assert run("check", path).output.startswith("wins")
    every = run("hint", "klondike", "--seed", 2, "--passes", "unlimited", "--played", played, "--all", "--show")
    assert every.exit_code == 0 and f"{obj['line_length']:4}. " in every.output
    assert every.output.count("Foundations:") == obj["line_length"] + 1


def test_moves_files_in_every_notation_give_the_same_table(tmp_path):
    d, line = won_line("klondike", {"passes": None}, 3)
    r = rules("klondike")
    first = line[:25]
    pos, texts = r.initial(d), []
    for m in first:
        texts.append(readable(m, r.to_deal(pos)))
        pos = r.play(pos, m)
    files = {
        "json_list.json": json.dumps([m.to_json() for m in first]),
        "json_lines.jsonl": "\n".join(json.dumps(m.to_json()) for m in first) + "\n",
        "compact.txt": "# compact, numbered as solve prints\n" + "\n".join(f"{i}. {m}" for i, m in
                                                                        enumerate(first, 1)),
        "compact_one_line.txt": " ".join(str(m) for m in first),
        "readable.txt": "\n".join(texts),
    }
    wanted = None
    for name, text in files.items():
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        out = run("hint", "klondike", "--seed", 3, "--passes", "unlimited", "--moves", path, "--json")
        assert out.exit_code == 0, (name, out.output)
        obj = json.loads(out.stdout)
        obj.pop("seconds")
        assert obj["played"] == 25 and deal_from_json(obj["deal"]) == r.to_deal(pos), name
        wanted = wanted or obj
        assert obj == wanted
    out = run("hint", "klondike", "--seed", 3, "--passes", "unlimited", "--played", "; ".join(texts), "--json")
    obj = json.loads(out.stdout)
    obj.pop("seconds")
    assert obj == wanted


def test_an_illegal_played_move_is_named_with_the_reason():
    d = deal_from_seed("klondike", 2)
    r = rules("klondike")
    good = r.legal_moves(r.initial(d))[0]
    pos = r.play(r.initial(d), good)
    bad = parse_move("7S t3-t5")
    with pytest.raises(IllegalMove) as err:
        r.play(pos, bad)
    out = run("hint", "klondike", "--seed", 2, "--played", f"{good} 7S t3-t5")
    assert out.exit_code == 2
    line = out.output.strip()
    assert "\n" not in line and "Traceback" not in line
    assert "move 2" in line and "7S t3-t5" in line and str(err.value) in line
    out = run("hint", "klondike", "--seed", 2, "--played", "fly away")
    assert out.exit_code == 2 and "cannot read move 'fly away'" in out.output


@pytest.mark.parametrize("args,fragment", [
    (["hint", "pyramid", "--seed", 1, "--played", "draw", "--moves", "x"], "at most one of"),
    (["hint", "klondike", "--seed", 1, "--shortest"], "not offered for klondike"),
    (["review", "klondike", "--seed", 1, "--moves", "/no/such/file"], "cannot read file"),
])
def test_bad_input_is_one_line(args, fragment):
    out = run(*args)
    assert out.exit_code == 2 and fragment in out.output and out.output.count("\n") == 1


def test_review_command(tmp_path):
    d, played, losing = losing_game("klondike", {}, 2)
    path = tmp_path / "game.json"
    path.write_text(json.dumps([m.to_json() for m in played]))
    out = run("review", "klondike", "--seed", 2, "--moves", path)
    assert out.exit_code == 0, out.output
    assert f"move {losing} lost the game" in out.output and "instead:" in out.output
    obj = json.loads(run("review", "klondike", "--seed", 2, "--moves", path, "--json").stdout)
    assert obj["outcome"] == "lost_at" and obj["lost_at"] == losing
    assert obj["losing_move"] == played[losing - 1].to_json()


def test_a_mid_game_deal_file_gives_the_same_hint_as_the_moves_played(tmp_path):
    d, line = won_line("klondike", {"passes": None}, 5)
    played = line[:30]
    mid = position_deal(d, played)
    assert mid.waste or any(mid.foundations)        # a real mid-game table: waste or foundations in use
    path = tmp_path / "mid.json"
    path.write_text(json.dumps(deal_to_json(mid)))
    by_file = json.loads(run("hint", "klondike", "--deal", path, "--json").stdout)
    by_moves = json.loads(run("hint", "klondike", "--seed", 5, "--passes", "unlimited", "--played",
                              " ".join(map(str, played)), "--json").stdout)
    for obj in (by_file, by_moves):
        obj.pop("seconds"), obj.pop("played"), obj.pop("seed", None), obj["deal"].pop("seed", None)
        obj["deal"].pop("passes_used", None)
    assert by_file == by_moves and by_file["verdict"] == "won"


def test_hint_says_unknown_at_a_limit_and_never_lost():
    out = run("hint", "klondike", "--seed", 1, "--max-nodes", 1)
    assert out.exit_code == 0 and "no hint" in out.output and "node_limit" in out.output
    assert "no winning line" not in out.output
    obj = json.loads(run("hint", "klondike", "--seed", 1, "--max-nodes", 1, "--json").stdout)
    assert obj["verdict"] == "unknown" and obj["moves"] == [] and obj["reason"] == "node_limit"


def test_moves_file_forms_and_their_errors(tmp_path):
    from solver.played import PlayedMoveError, read_moves_file
    d, line = won_line("klondike", {"passes": None}, 2)
    result = solve(d).to_json()
    pretty = tmp_path / "result.json"
    pretty.write_text(json.dumps(result, indent=2))          # a result object over many lines
    assert [e.move for e in read_moves_file(pretty)] == solve(d).moves
    one = tmp_path / "one.jsonl"
    one.write_text(json.dumps(line[0].to_json()) + "\n")
    assert [e.move for e in read_moves_file(one)] == [line[0]]
    for text, fragment in [('[{"type": "draw"},', "line 1 column"),
                           ('{"type": "draw"}\n{"type": "fly"}\n', "line 2: unknown move type 'fly'"),
                           ('[{"type": "draw"}, {"type": "move", "card": "ZZ"}]', "move 2: move is missing")]:
        bad = tmp_path / "bad.json"
        bad.write_text(text)
        with pytest.raises(PlayedMoveError, match=fragment):
            read_moves_file(bad)
        out = run("review", "klondike", "--seed", 2, "--moves", bad)
        assert out.exit_code == 2 and fragment in out.output and out.output.count("\n") == 1
