"""Pictures of a table (solver/pictures, each game's picture.py): what the SVG shows, zone by zone."""

import random
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter

import pytest

from solver.cards import card_name
from solver.deals import deal_from_json, deal_from_seed
from solver.pictures import deal_svg, scene_of
from solver.pictures.scene import CARD_H, CARD_W, LABEL, Pile, Scene, changes
from solver.pictures.svg import render
from solver.registry import game, games
from tests.helpers import mv

SVG = "{http://www.w3.org/2000/svg}"
RANKS = "A23456789TJQK"
# every variant of every registered game, and a few more options
VARIANTS = [(g.name, v) for g in games().values() for v in g.variants]
VARIANTS += [("pyramid", {"piles": 1, "passes": 1, "stock_top": True}), ("ladder", {"passes": 2})]


def svg_zones(text: str) -> dict[str, list[tuple[str, str]]]:
    """What an SVG shows: zone -> [(card, face), ...] bottom to top, read from its data attributes."""
    root = ET.fromstring(text)
    out = {}
    for g in root.iter(f"{SVG}g"):
        zone = g.get("data-zone")
        if zone is not None:
            assert zone not in out, f"zone {zone} drawn twice"
            out[zone] = [(c.get("data-card"), c.get("data-face")) for c in g.iter(f"{SVG}g")
                         if "card" in (c.get("class") or "").split()]
    return out


def names(text: str) -> list[str]:
    return text.split()


def random_walk(deal, steps, seed):
    """The tables of a random legal line from ``deal`` (reference rules), as deals."""
    r = game(deal.game).rules
    rng = random.Random(seed)
    pos = r.initial(deal)
    out = [r.to_deal(pos)]
    for _ in range(steps):
        legal = r.legal_moves(pos)
        if not legal:
            break
        pos = r.play(pos, rng.choice(legal))
        out.append(r.to_deal(pos))
    return out


# --------------------------------------------------------------------------
# Every game: the picture shows each zone's cards, and every card once per deck
# --------------------------------------------------------------------------
def test_every_game_has_a_picture():
    assert all(g.picture is not None for g in games().values())


@pytest.mark.parametrize("name,options", VARIANTS)
def test_the_svg_shows_each_zone_as_the_layout_reads_it_along_a_random_line(name, options):
    layout = game(name).layout
    for table in random_walk(deal_from_seed(name, 11, options), 120, seed=3):
        shown = svg_zones(deal_svg(table))
        for zone, cards in shown.items():
            expected = layout.zone_cards(table, zone)
            assert expected is not None, f"{zone} is not a zone of {name}"
            assert [c for c, _ in cards] == [card_name(c) for c in expected], zone
        every = Counter(c for cards in shown.values() for c, _ in cards)
        assert every == Counter({card_name(c): game(name).decks for c in range(52)})


def test_klondike_hand_built_table():
    found = [[f"{r}C" for r in RANKS[:9]], [f"{r}D" for r in RANKS[:12]], [f"{r}H" for r in RANKS],
             [f"{r}S" for r in RANKS[:5]]]
    d = deal_from_json(reachable=False, obj={"game": "klondike", "options": {"draw": 3, "passes": 3}, "passes_used": 1,
                        "tableau": [["7S", "8S", "KD", "QS"], ["KC"], [], ["TS", "9S"], ["JS"], [], []],
                        "face_down": [2, 0, 0, 1, 0, 0, 0], "stock": ["QC", "6S", "KS"], "waste": ["TC", "JC"],
                        "foundations": found})
    text = deal_svg(d)
    shown = svg_zones(text)
    assert shown["t1"] == [("7S", "down"), ("8S", "down"), ("KD", "up"), ("QS", "up")]
    assert shown["t2"] == [("KC", "up")] and shown["t3"] == [] and shown["t6"] == shown["t7"] == []
    assert shown["t4"] == [("TS", "down"), ("9S", "up")]
    assert shown["stock"] == [("KS", "down"), ("6S", "down"), ("QC", "down")]   # QC, the next card, on top
    assert shown["waste"] == [("TC", "up"), ("JC", "up")]
    assert shown["f4"] == [(f"{r}S", "up") for r in "A2345"]
    assert set(shown) == {"stock", "waste", "f1", "f2", "f3", "f4"} | {f"t{i}" for i in range(1, 8)}
    assert "pass 2 of 3" in text
    # a face-down card is drawn as the back, so its face is not in the picture
    root = ET.fromstring(text)
    t1 = next(g for g in root.iter(f"{SVG}g") if g.get("data-zone") == "t1")
    uses = [u.get("href") for u in t1.iter(f"{SVG}use")]
    assert uses == ["#sol-back", "#sol-back", "#sol-KD", "#sol-QS"]


def test_pyramid_cells_removed_cards_and_an_exposed_stock_top():
    d = deal_from_seed("pyramid", 4, {"passes": 3, "stock_top": True})
    d.foundations = [[d.pyramid[6][0], d.pyramid[6][6]]]   # pretend two cards of row 7 are gone
    d.pyramid[6][0] = d.pyramid[6][6] = None
    shown = svg_zones(deal_svg(d))
    assert shown["p7.1"] == [] and shown["p7.7"] == []
    assert shown["p1.1"] == [(card_name(d.pyramid[0][0]), "up")]
    assert shown["f1"] == [(card_name(d.foundations[0][0]), "up"), (card_name(d.foundations[0][1]), "up")]
    # the stock's next card is exposed with stock_top, so it is the one face-up card there
    assert [f for _, f in shown["stock"]] == ["down"] * 23 + ["up"]
    assert shown["stock"][-1][0] == card_name(d.stock[0])
    assert len([z for z in shown if z.startswith("p")]) == 28
    # a removed cell leaves no empty outline: the pyramid has holes, not slots
    root = ET.fromstring(deal_svg(d))
    cell = next(g for g in root.iter(f"{SVG}g") if g.get("data-zone") == "p7.1")
    assert not list(cell.iter(f"{SVG}rect"))


def test_pyramid_three_waste_piles():
    d = deal_from_seed("pyramid", 4, {"piles": 3})
    r = game("pyramid").rules
    table = r.to_deal(r.play(r.initial(d), mv("draw")))
    shown = svg_zones(deal_svg(table))
    assert "waste" not in shown
    assert [shown[f"waste{k}"] for k in (1, 2, 3)] == [[(card_name(c), "up")] for c in d.stock[:3]]


def test_twenty_labels_say_which_foundations_go_up_and_which_down():
    root = ET.fromstring(deal_svg(deal_from_seed("twenty", 1)))
    labels = {g.get("data-zone"): "".join(t.text for t in g.iter(f"{SVG}text") if "label" in t.get("class", ""))
              for g in root.iter(f"{SVG}g") if g.get("data-zone")}
    for k in range(1, 5):
        assert "A↑" in labels[f"f{k}"] and "K↓" not in labels[f"f{k}"]
    for k in range(5, 9):
        assert "K↓" in labels[f"f{k}"] and "A↑" not in labels[f"f{k}"]
    assert svg_zones(deal_svg(deal_from_seed("twenty", 1)))["f5"] == [("KC", "up")]


def test_ladder_shows_only_its_top_card():
    d = deal_from_seed("ladder", 2)
    shown = svg_zones(deal_svg(d))
    assert [f for _, f in shown["ladder"]] == ["down"] * 28 + ["up"]
    assert shown["ladder"][-1][0] == card_name(d.ladder[-1])
    assert all(f == "up" for zone in (f"t{i}" for i in range(1, 9)) for _, f in shown[zone])
    # the cards under the top lie on one another, but for a short fan of three
    pile = scene_of(d).pile("ladder")
    assert len(set(pile.places())) == 4


# --------------------------------------------------------------------------
# Geometry
# --------------------------------------------------------------------------
def boxes(scene: Scene):
    for pile in scene.piles:
        right, bottom = pile.extent()
        yield pile.zone, (pile.x, pile.y - (LABEL if pile.label else 0), right, bottom)


@pytest.mark.parametrize("name,options", VARIANTS)
def test_no_two_zones_overlap_and_all_fit(name, options):
    for table in random_walk(deal_from_seed(name, 5, options), 150, seed=8)[::10]:
        scene = scene_of(table)
        width, height = scene.size()
        placed = list(boxes(scene))
        for zone, (x0, y0, x1, y1) in placed:
            assert 0 <= x0 and 0 <= y0 and x1 <= width and y1 <= height, zone
        for i, (za, a) in enumerate(placed):
            for zb, b in placed[i + 1:]:
                if za[0] == zb[0] == "p":
                    continue      # Pyramid cards lie half over the two below them: that is the game
                apart = a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
                assert apart, (za, zb)


def test_a_fan_shows_the_last_cards_and_stacks_the_rest():
    cards = tuple((c, True) for c in range(5))
    assert Pile("waste", 10, 20, cards, fan="right", spread=3).places() == [(10, 20)] * 3 + [(40, 20), (70, 20)]
    pile = Pile("t1", 0, 0, ((1, False), (2, False), (3, True), (4, True)), fan="down")
    assert pile.places() == [(0, 0), (0, 8), (0, 16), (0, 38)]
    assert pile.extent() == (CARD_W, 38 + CARD_H)
    assert Pile("stock", 5, 5, cards).places() == [(5, 5)] * 5


# --------------------------------------------------------------------------
# What a move changed
# --------------------------------------------------------------------------
def test_a_move_marks_the_cards_it_moved_and_the_zone_it_left():
    # a pile's top onto another pile, turning up the face-down card under it
    r = game("klondike").rules
    for seed in range(1, 50):
        d = deal_from_seed("klondike", seed)
        pos = r.initial(d)
        move = next((m for m in r.legal_moves(pos) if m.type == "move" and m.from_[0] == m.to[0] == "t"
                     and d.face_down[int(m.from_[1:]) - 1] > 0), None)
        if move is not None:
            break
    after = r.to_deal(r.play(pos, move))
    marks = changes(scene_of(d), scene_of(after))
    assert set(marks) == {move.from_, move.to}
    assert marks[move.to].moved == move.count and not marks[move.to].left
    # the card turned up on the pile left behind did not move, so it is not marked
    assert marks[move.from_].moved == 0 and marks[move.from_].left
    root = ET.fromstring(render(scene_of(after), marks))
    moved = [(g.get("data-card")) for g in root.iter(f"{SVG}g") if "moved" in (g.get("class") or "").split()]
    assert moved == [card_name(move.card)]
    assert len([x for x in root.iter(f"{SVG}rect") if x.get("class") == "from"]) == 1


@pytest.mark.parametrize("name,options,kind,zones", [
    ("klondike", {"draw": 3}, "draw", {"stock": (0, True), "waste": (3, False)}),
    ("twenty", {}, "deal", None),
])
def test_draws_and_deals_mark_every_card_they_bring(name, options, kind, zones):
    d = deal_from_seed(name, 3, options)
    r = game(name).rules
    pos = r.initial(d)
    while not any(m.type == kind for m in r.legal_moves(pos)):
        pos = r.play(pos, r.legal_moves(pos)[0])
    before = r.to_deal(pos)
    after = r.to_deal(r.play(pos, mv(kind)))
    marks = {z: (c.moved, c.left) for z, c in changes(scene_of(before), scene_of(after)).items()}
    if zones is None:    # Twenty's deal: one card onto each of the 20 piles
        zones = {f"t{i}": (1, False) for i in range(1, 21)} | {"stock": (0, True)}
    assert marks == zones


# --------------------------------------------------------------------------
# Drawing loads no solver
# --------------------------------------------------------------------------
def test_drawing_imports_no_numba():
    code = ("import sys\nfrom solver.deals import deal_from_seed\nfrom solver.pictures import deal_svg\n"
            "from solver.pictures.pages import solve_page\n"
            "from solver.registry import names\n"
            "for g in names():\n    deal_svg(deal_from_seed(g, 1))\n"
            "assert 'numba' not in sys.modules, 'numba loaded'\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
