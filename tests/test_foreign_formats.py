"""Other tools' deal formats (solver.foreign): readers checked against decoded deals the tools
published, writers by round trips, and `solitaire convert` / `solve --deal` on the command line."""

import json

import pytest
from click.testing import CliRunner

from solver.cards import card_name
from solver.cli import main
from solver.deals import DealError, deal_to_json, format_deal, parse_any_deal
from solver.games.klondike.foreign import pysol_text, shootme, solvitaire
from solver.games.klondike.foreign.formats import FORMATS
from solver.seeds import deal_from_tool_seed, seed_types
from tests.test_foreign_seeds import KS_0_AS_SOLVITAIRE_JSON


def names(cards):
    return [card_name(c) for c in cards]


def same_table(a, b):
    return (a.tableau, a.face_down, a.stock, a.waste, a.foundations) == \
        (b.tableau, b.face_down, b.stock, b.waste, b.foundations)


# ---------------------------------------------------------------------------
# Klondike-Solver deck strings
# ---------------------------------------------------------------------------
# ShootMe/Klondike-Solver issue #11: `KlondikeSolver64.exe /D <this> /DC 3` printed the board below
# (each pile: face-up cards top first, then "-" face-down cards top first; 8 is the stock, first
# drawn first).
ISSUE_11_DECK = ("122021053133044042092074131071132062123061011022101013064091114073063082034041014024103121"
                 "094113102031033134072111084032023052012081112124043104083093051054")
ISSUE_11_BOARD = """\
 1: QD
 2: 7S -2C
 3: 6C -KC-5H
 4: 6S -AC-7C-KH
 5: 6H -9C-2D-KD-4S
 6: 4C -8D-JS-TC-6D-4D
 7: 2S -AS-3S-7H-AH-QH-9D
 8: TH QC 9S JH TD 3C 3H KS 7D JC 8S 3D 2H 5D AD 8C JD QS 4H TS 8H 9H 5C 5S"""


def test_deck_string_reads_as_klondike_solver_printed_it():
    d = shootme.deal_from_deck_string(ISSUE_11_DECK)
    lines = ISSUE_11_BOARD.splitlines()
    for p, line in enumerate(lines[:7]):
        up, *down = line.split(":")[1].split("-")
        assert names(d.tableau[p][::-1]) == up.split() + [c.strip() for c in down]
    assert names(d.stock) == lines[7].split(":")[1].split()


# ShootMe/MinimalKlondike README.md, "Deck Format": this string, drawn as the table below; "the 7C is
# the first card to be turned over in the draw pile ..., then TS, KD, etc."
MINIMAL_KLONDIKE_DECK = ("072103023042094134111092051034044074114052123011083122012131091082124064014093033112071104"
                         "132053133102084041013073063031061043081054113062024021101022032121")
MINIMAL_KLONDIKE_ROWS = ["7D TH 2H 4D 9S KS JC", "9D 5C 3S 4S 7S JS", "5D QH AC 8H QD", "AD KC 9C 8D",
                         "QS 6S AS", "9H 3H", "JD"]
MINIMAL_KLONDIKE_STOCK = "7C TS KD 5H KH TD 8S 4C AH 7H 6H 3C 6C 4H 8C 5S JH 6D 2S 2C TC 2D 3D QC"


def test_deck_string_reads_as_minimal_klondikes_readme_draws_it():
    d = shootme.deal_from_deck_string(MINIMAL_KLONDIKE_DECK)
    for r, row in enumerate(MINIMAL_KLONDIKE_ROWS):
        assert [card_name(d.tableau[r + i][r]) for i in range(7 - r)] == row.split()
    assert names(d.stock) == MINIMAL_KLONDIKE_STOCK.split()


@pytest.mark.parametrize("text,message", [
    ("12345", "156 digits"),
    (ISSUE_11_DECK[:-3] + "145", "card 52"),          # rank 14
    (ISSUE_11_DECK[:-3] + "055", "card 52"),          # suit 5
    (ISSUE_11_DECK[:-3] + "122", "appears 2 times"),  # QD twice
])
def test_bad_deck_strings_are_refused_with_the_card_named(text, message):
    with pytest.raises(DealError, match=message):
        shootme.deal_from_deck_string(text)


# ---------------------------------------------------------------------------
# PySol 'Talon:' layout: the sample in ShootMe/Klondike-Solver TestDeals.txt ("#Pysol game")
# ---------------------------------------------------------------------------
PYSOL_SAMPLE = """\
Talon: TC TS AD 4D QS 3H 3S JH TD KC 8H 8S 4S 4H KS 6D 8D 7C JD 9D 2H QD 3D AS
5C
<7H> 9H
<2D> <9S> AC
<5D> <QH> <5S> 8C
<QC> <2C> <JS> <3C> 7D
<5H> <7S> <KD> <9C> <JC> 6S
<4C> <AH> <2S> <6C> <6H> <TH> KH
"""


def test_pysol_sample_reads_and_writes_back_unchanged():
    d = pysol_text.deal_from_text(PYSOL_SAMPLE)
    assert d.face_down == list(range(7))
    assert names(d.tableau[6]) == "4C AH 2S 6C 6H TH KH".split()
    assert names(d.stock[:3]) == ["TC", "TS", "AD"]       # Klondike-Solver's LoadPysol: cards[28] first
    assert pysol_text.deal_to_text(d) == PYSOL_SAMPLE
    # its dealing order is the deck string Klondike-Solver would read for it
    again = shootme.deal_from_deck_string(shootme.deal_to_deck_string(d))
    assert same_table(again, d)


def test_pysol_layout_accepts_colons_and_ten_and_names_bad_cards():
    with_colons = "\n".join((": " + line) if i else line for i, line in enumerate(PYSOL_SAMPLE.splitlines()))
    assert same_table(pysol_text.deal_from_text(with_colons.replace("TC", "10C")),
                      pysol_text.deal_from_text(PYSOL_SAMPLE))
    with pytest.raises(DealError, match=r"line 3 \(pile 2\) card 2"):
        pysol_text.deal_from_text(PYSOL_SAMPLE.replace("<7H> 9H", "<7H> 9X"))
    with pytest.raises(DealError, match="face-down"):
        pysol_text.deal_from_text(PYSOL_SAMPLE.replace("<7H> 9H", "7H <9H>"))
    with pytest.raises(DealError, match="7 tableau lines"):
        pysol_text.deal_from_text("\n".join(PYSOL_SAMPLE.splitlines()[:-1]))


# ---------------------------------------------------------------------------
# Solvitaire deal JSON
# ---------------------------------------------------------------------------
# Solvitaire resources/deal-presets/klondikeSM2.json: a whole deal, every card face-up (upper case)
SOLVITAIRE_SM2 = {
    "tableau piles": [["JH"], ["JC", "QC"], ["JD", "10S", "KS"], ["3H", "8H", "5D", "10H"],
                      ["5S", "2C", "10D", "8D", "AC"], ["6H", "9C", "7D", "9D", "6C", "AH"],
                      ["4C", "JS", "2H", "5H", "AS", "10C", "7H"]],
    "stock": ["7S", "8C", "5C", "2D", "2S", "7C", "3C", "QH", "6D", "6S", "QS", "KH", "KC", "4S", "QD", "9H",
              "4H", "3S", "AD", "4D", "8S", "KD", "9S", "3D"]}
# Solvitaire resources/deal-presets/err_klondike.json: a position in mid-game (foundations per suit)
SOLVITAIRE_MIDGAME = {
    "tableau piles": [["KH", "QS", "JD", "10S"], ["10d", "7S", "6D", "5C", "4D", "3C", "2D"],
                      ["8h", "7C", "6H", "5S"], ["6c", "4S", "3D", "2S"], ["8d", "qd", "10c", "8c", "9D", "8S", "7H"],
                      ["as", "kd", "qc", "JC"], ["KS", "QH", "JS", "10H", "9C"]],
    "stock": ["9H", "6S", "KC", "JH", "5D", "3S", "9S", "4C", "AD", "7D"], "waste": [],
    "foundations": [["AC", "2C"], [], [], ["AH", "2H", "3H", "4H", "5H"]]}


def test_solvitaire_json_reads_face_down_case_stock_order_and_foundations():
    ks0 = solvitaire.deal_from_json(KS_0_AS_SOLVITAIRE_JSON)
    assert ks0.face_down == list(range(7)) and names(ks0.tableau[4]) == ["9C", "AS", "TS", "QC", "4S"]
    assert names(ks0.stock[:2]) == ["KH", "KD"]              # the last listed is drawn first
    mid = solvitaire.deal_from_json(SOLVITAIRE_MIDGAME)
    assert mid.face_down == [0, 1, 1, 1, 4, 3, 0]
    assert names(mid.tableau[4][:2]) == ["8D", "QD"]
    assert names(mid.foundations[0]) == ["AC", "2C"] and names(mid.foundations[2]) == "AH 2H 3H 4H 5H".split()
    # Solvitaire's own schema: foundations as one flat list
    flat = dict(SOLVITAIRE_MIDGAME, foundations=["AC", "AH", "2C", "2H", "3H", "4H", "5H"])
    assert same_table(solvitaire.deal_from_json(flat), mid)


def test_solvitaire_deal_with_every_card_face_up_is_not_a_klondike_deal():
    # klondikeSM2.json lists all cards upper case (face-up): not a Klondike table
    with pytest.raises(DealError, match="tableau pile 2 card 2: face-up 'QC' cannot lie on face-up 'JC'.*lower-case"):
        solvitaire.deal_from_json(SOLVITAIRE_SM2)


KS0 = KS_0_AS_SOLVITAIRE_JSON


@pytest.mark.parametrize("change,message", [
    ({"tableau piles": KS0["tableau piles"][:6]}, "7 piles"),
    ({"cells": []}, "unknown or non-Klondike field 'cells'"),
    ({"stock": KS0["stock"][:-1] + ["3X"]}, r"stock card 24: not a card: '3X'"),
    ({"stock": KS0["stock"][:-1] + ["14D"]}, r"not a card: '14D'"),
    ({"stock": KS0["stock"][:-1] + ["9S"]}, "9S appears 2 times"),
    ({"tableau piles": [["3D"], ["AD", "8h"]] + KS0["tableau piles"][2:]}, "tableau pile 2 card 2: face-down"),
])
def test_bad_solvitaire_deals_are_refused_with_the_place_named(change, message):
    with pytest.raises(DealError, match=message):
        solvitaire.deal_from_json(dict(KS0, **change))


# ---------------------------------------------------------------------------
# Round trips through every format
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("seed_type", seed_types())
@pytest.mark.parametrize("fmt", ("json",) + FORMATS)
def test_fresh_deals_survive_every_format(seed_type, fmt):
    for seed in (1, 2):
        d = deal_from_tool_seed("klondike", seed, seed_type)
        text = format_deal(d, fmt)
        back = parse_any_deal(text, d.options)
        assert same_table(back, d) and format_deal(back, fmt) == text


def test_positions_in_mid_game_survive_solvitaire_json_and_our_json():
    mid = solvitaire.deal_from_json(SOLVITAIRE_MIDGAME)
    for position in (mid, solvitaire.deal_from_json(solvitaire.deal_to_json(mid))):
        for fmt in ("solvitaire", "json"):
            assert same_table(parse_any_deal(format_deal(position, fmt)), mid)
    for fmt in ("shootme", "pysol"):
        with pytest.raises(DealError):
            format_deal(mid, fmt)


def test_solvitaire_writer_uses_ten_and_lower_case_face_down():
    obj = solvitaire.deal_to_json(solvitaire.deal_from_json(SOLVITAIRE_MIDGAME))
    assert obj["tableau piles"][1][:2] == ["10d", "7S"]
    assert obj["stock"] == SOLVITAIRE_MIDGAME["stock"]
    assert obj["foundations"] == ["AC", "2C", "AH", "2H", "3H", "4H", "5H"]


# ---------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------
def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def test_convert_chains_through_every_format(tmp_path):
    src = tmp_path / "deal.txt"
    src.write_text(PYSOL_SAMPLE)
    original = pysol_text.deal_from_text(PYSOL_SAMPLE)
    current = src
    for fmt in ("solvitaire", "shootme", "json", "pysol"):
        out = run("convert", current, "--to", fmt)
        assert out.exit_code == 0, out.stderr
        current = tmp_path / f"deal.{fmt}"
        current.write_text(out.stdout)
        assert same_table(parse_any_deal(out.stdout), original)
    assert current.read_text() == PYSOL_SAMPLE


def test_convert_to_json_takes_rule_options(tmp_path):
    src = tmp_path / "deal.txt"
    src.write_text(ISSUE_11_DECK + "\n")
    obj = json.loads(run("convert", src, "--to", "json", "--draw", 3, "--passes", "unlimited").stdout)
    assert obj["options"] == {"draw": 3, "passes": None, "foundation_to_tableau": False}
    assert obj["tableau"][0] == ["QD"]


def test_solve_reads_a_solvitaire_deal_file(tmp_path):
    d = deal_from_tool_seed("klondike", 5, "solvitaire")
    src = tmp_path / "deal.json"
    src.write_text(json.dumps(solvitaire.deal_to_json(d)))
    out = run("solve", "klondike", "--deal", src, "--draw", 3, "--passes", "unlimited", "--foundation-to-tableau",
              "--json")
    result = json.loads(out.stdout)
    assert result["verdict"] == "won"
    assert result["deal"]["tableau"] == deal_to_json(d)["tableau"]


@pytest.mark.parametrize("content,message", [
    ("hello", "unrecognised deal format"),
    ('{"tableau piles": 3}', "7 piles"),
    ("1234", "156 digits"),
])
def test_bad_deal_files_give_one_line_naming_the_file(tmp_path, content, message):
    src = tmp_path / "bad.txt"
    src.write_text(content)
    for args in (("convert", src, "--to", "json"), ("solve", "klondike", "--deal", src)):
        out = run(*args)
        assert out.exit_code == 2 and out.stderr.count("\n") == 1
        assert str(src) in out.stderr and message in out.stderr


def test_convert_refuses_what_the_target_cannot_hold(tmp_path):
    src = tmp_path / "mid.json"
    src.write_text(json.dumps(SOLVITAIRE_MIDGAME))
    out = run("convert", src, "--to", "shootme")
    assert out.exit_code == 2 and "fresh deal" in out.stderr
    assert run("solve", "pyramid", "--deal", src).exit_code == 2
    assert run("solve", "klondike", "--deal", src, "--seed-type", "solvitaire").exit_code == 2


def test_issue_11_deck_is_won_as_minimal_klondikes_test_says():
    # ShootMe/MinimalKlondike KlondikeTest/SolverTest.cs, Game_Solve_Minimal_01_98_3: the same deck
    # string is won in 98 moves at draw 3, no foundation-to-tableau moves, at most 10 rounds
    from solver.solve import solve

    d = shootme.deal_from_deck_string(ISSUE_11_DECK, {"draw": 3, "passes": 10})
    assert solve(d, max_nodes=1_000_000, time_limit=None).verdict == "won"
