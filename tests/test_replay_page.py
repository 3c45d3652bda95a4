"""The replay page (solver/pictures/html.py, pages.py) and the --html flag, without a browser:
what the page embeds, read back in Python, is each table of the line as the reference rules
play it. tests/test_browser.py opens the pages in Chromium."""

import json
import random
import re

import pytest
from click.testing import CliRunner

from solver.cards import card_name
from solver.cli import main
from solver.deals import deal_from_json, deal_from_seed
from solver.hints import Review
from solver.moves import Move, parse_move
from solver.pictures.html import Line, page
from solver.pictures.pages import review_page
from solver.registry import game


def random_line(deal, steps, seed):
    r = game(deal.game).rules
    rng = random.Random(seed)
    pos, moves = r.initial(deal), []
    for _ in range(steps):
        legal = r.legal_moves(pos)
        if not legal:
            break
        moves.append(rng.choice(legal))
        pos = r.play(pos, moves[-1])
    return moves


def page_data(html: str) -> dict:
    m = re.search(r'<script id="replay-data" type="application/json">(.*?)</script>', html, re.S)
    return json.loads(m.group(1))


def tables(data: dict, line: int = 0) -> list[dict]:
    """Each step's table as the page's script rebuilds it: zone -> card names (the suit in
    lower case for a face-down card), and the marks of the move."""
    out, piles = [], {}
    for step in data["lines"][line]["steps"]:
        marks = {}
        for item in step["p"]:
            zone = data["geometries"][item[0]][0]
            piles[zone] = item[1]
            if len(item) > 2:
                marks[zone] = (item[2], item[3])
        out.append({"piles": dict(piles), "marks": marks})
    return out


def names(text: str) -> list[str]:
    return [text[i:i + 2].upper() for i in range(0, len(text), 2)]


def replayed(deal, moves):
    r = game(deal.game).rules
    pos = r.initial(deal)
    out = [r.to_deal(pos)]
    for m in moves:
        pos = r.play(pos, m)
        out.append(r.to_deal(pos))
    return out


@pytest.mark.parametrize("name,options", [("klondike", {"draw": 3, "passes": None}), ("pyramid", {"piles": 3}),
                                          ("pyramid", {"passes": 3, "stock_top": True}), ("twenty", {}),
                                          ("ladder", {})])
def test_the_page_embeds_every_table_of_the_line(name, options):
    deal = deal_from_seed(name, 21, options)
    moves = random_line(deal, 150, seed=4)
    data = page_data(page("t", [Line("x", deal, moves)]))
    layout = game(name).layout
    shown = tables(data)
    assert len(shown) == len(moves) + 1 and len(data["lines"][0]["moves"]) == len(moves)
    for k, (table, expected) in enumerate(zip(shown, replayed(deal, moves))):
        for zone, cards in table["piles"].items():
            assert names(cards) == [card_name(c) for c in layout.zone_cards(expected, zone)], (k, zone)
    for k, m in enumerate(moves, 1):
        assert data["lines"][0]["moves"][k - 1]["s"] == str(m)
        if m.type == "move":   # the card moved is marked where it lands
            assert shown[k]["marks"][m.to][0] >= 1 and names(shown[k]["piles"][m.to])[-m.count] == card_name(m.card)


def test_a_250_move_klondike_line_makes_a_small_page():
    deal = deal_from_seed("klondike", 8, {"draw": 3, "passes": None})
    moves = random_line(deal, 250, seed=1)
    assert len(moves) == 250
    html = page("Klondike", [Line("line", deal, moves)])
    assert len(html.encode()) < 300_000


def test_the_page_fetches_nothing():
    deal = deal_from_seed("ladder", 3)
    html = page("Ladder", [Line("line", deal, random_line(deal, 20, seed=2))])
    # the only address in the page is the SVG namespace, which names and loads nothing
    assert set(re.findall(r"https?://[^\s\"']+", html)) == {"http://www.w3.org/2000/svg"}
    assert not re.search(r"<(link|img|iframe)\b|\bsrc=|@import|url\(", html)


LEFT = ("6C", "7S", "7H", "6D")


def losing_pyramid():
    """6♣ at the apex, under 7♠ alone in row 2; 7♥ on the stock (exposed, stock_top) and 6♦ on the
    waste. Pairing 7♥ with 6♦ loses (7♠ can only pair with the 6♣ it covers); pairing 6♦ with 7♠
    and then 6♣ with 7♥ wins. (The removed cards pair up, as play leaves them.)"""
    rest = [card_name(c) for c in range(52) if card_name(c) not in LEFT]
    return deal_from_json({"game": "pyramid", "options": {"stock_top": True},
                           "pyramid": [["6C"], ["7S", None]] + [[None] * r for r in range(3, 8)],
                           "stock": ["7H"], "waste": ["6D"], "foundations": [rest]})


BETTER = [parse_move("remove 6D@waste 7S@p2.1"), parse_move("remove 6C@p1.1 7H@stock")]


def test_review_page_marks_the_losing_move_and_the_better_one():
    d = losing_pyramid()
    lost, better = parse_move("remove 7H@stock 6D@waste"), BETTER[0]
    data = page_data(review_page(Review(d, [lost], {}, "lost_at", lost_at=1, lo=0, hi=1, better=better,
                                        better_line=BETTER)))
    played, instead = data["lines"]
    assert played["moves"][0]["k"] == "lost" and str(better) in played["moves"][0]["n"]
    assert instead["moves"][0]["k"] == "better" and instead["moves"][0]["s"] == str(better)
    assert tables(data, 1)[-1]["piles"]["p1.1"] == ""      # the better line clears the pyramid


def test_hint_page_greys_the_moves_played_and_opens_where_the_hint_starts():
    from solver.hints import Hint
    from solver.pictures.pages import hint_page

    deal = deal_from_seed("twenty", 5)
    moves = random_line(deal, 30, seed=9)
    played, offered = moves[:12], moves[12:]
    r = game("twenty").rules
    pos = r.initial(deal)
    for m in played:
        pos = r.play(pos, m)
    data = page_data(hint_page(deal, played, Hint(r.to_deal(pos), 12, "won", offered)))
    line = data["lines"][0]
    assert line["start"] == 12 and len(line["moves"]) == 30
    assert [m.get("k") for m in line["moves"]] == ["played"] * 12 + [None] * 18
    table = tables(data)[12]["piles"]
    assert all(names(cards) == [card_name(c) for c in game("twenty").layout.zone_cards(r.to_deal(pos), zone)]
               for zone, cards in table.items())


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_commands_write_pages(tmp_path):
    d = losing_pyramid()
    deal_file, moves_file = tmp_path / "deal.json", tmp_path / "moves.txt"
    deal_file.write_text(json.dumps({"game": d.game, "options": d.options, "pyramid": [[card_name(c) if c is not None
                         else None for c in row] for row in d.pyramid], "stock": ["7H"], "waste": ["6D"],
                         "foundations": [[card_name(c) for c in d.foundations[0]]]}))
    moves_file.write_text("remove 7H@stock 6D@waste\n")
    out = run("review", "pyramid", "--deal", deal_file, "--moves", moves_file, "--html", tmp_path / "review.html")
    assert out.exit_code == 0, out.output
    data = page_data((tmp_path / "review.html").read_text())
    assert [m["k"] for m in data["lines"][0]["moves"]] == ["lost"] and len(data["lines"]) == 2
    out = run("hint", "pyramid", "--deal", deal_file, "--all", "--html", tmp_path / "hint.html")
    assert out.exit_code == 0, out.output
    data = page_data((tmp_path / "hint.html").read_text())
    assert [m["s"] for m in data["lines"][0]["moves"]] == ["remove 7S@p2.1 6D@waste", "remove 6C@p1.1 7H@stock"]
    out = run("solve", "pyramid", "--seed", 1, "--passes", 3, "--json", "--html", tmp_path / "solve.html")
    assert out.exit_code == 0, out.output
    result = json.loads(out.stdout)       # --json output stays pure JSON
    data = page_data((tmp_path / "solve.html").read_text())
    assert [m["s"] for m in data["lines"][0]["moves"]] == [str(Move.from_json(m)) for m in result["moves"]]
    out = run("play", "pyramid", "--seed", 1, "--passes", 3, "--hidden", "all", "--json", "--html",
              tmp_path / "play.html")
    assert out.exit_code == 0, out.output
    record = json.loads(out.stdout)
    data = page_data((tmp_path / "play.html").read_text())
    shown = data["lines"][0]["moves"]
    assert [m["s"] for m in shown] == [str(Move.from_json(m)) for m in record["moves"]]
    assert [m["n"] for m in shown] == ["forced" if c is None else f"estimated chance {100 * c:.0f}%"
                                       for c in record["chances"]]
    assert (record["result"] == "won") == ("won in" in (tmp_path / "play.html").read_text())


@pytest.mark.parametrize("where,fragment", [
    ("missing/x.html", "no such directory"),
    (".", "is a directory"),
    ("afile/x.html", "is not a directory"),
])
@pytest.mark.parametrize("command", [["solve", "twenty", "--seed", 1], ["hint", "twenty", "--seed", 1],
                                     ["review", "twenty", "--seed", 1, "--moves", "MOVES"],
                                     ["play", "twenty", "--seed", 1]])
def test_an_html_file_that_cannot_be_written_is_one_line(tmp_path, command, where, fragment):
    (tmp_path / "afile").write_text("")
    (tmp_path / "moves.txt").write_text("QS t14-f8\n")
    args = [str(tmp_path / "moves.txt") if a == "MOVES" else a for a in command]
    out = CliRunner().invoke(main, [str(a) for a in args] + ["--html", str(tmp_path / where)])
    assert out.exit_code == 2, out.output
    assert "Traceback" not in out.output and out.output.count("\n") == 1 and fragment in out.output
