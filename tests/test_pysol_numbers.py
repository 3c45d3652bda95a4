"""PySolFC's game numbers (seed type ``pysol``), pinned by deals published elsewhere.

* Klondike 460: fc-solve's ``t/t/board-gen.t`` ("klondike 460", made by
  ``make_pysol_freecell_board.py -t 460 klondike``).
* Golf 5: fc-solve's ``Games-Solitaire-Verify`` test board ``5.golf.board``.
* Pyramid 1: numbers below 32000 are Microsoft FreeCell's shuffle, and Pyramid deals its
  28 cards in FreeCell's order, so its rows are the first 28 cards of FreeCell deal #1.
* The Mersenne-twister range (32000 and up): FreeCell deals published by PySolFC's tests
  (123456), pysol-cards' tests (300000000000) and fc-solve's board-gen.t (800600): column
  0 of a FreeCell deal is every eighth card of the dealing order.
"""

import pytest
from click.testing import CliRunner

from solver.cards import card_name
from solver.cli import main
from solver.deals import DealError
from solver.games.pysol import dealing_order
from solver.seeds import deal_from_tool_seed


def names(cards):
    return [card_name(c) for c in cards]


def test_klondike_460_is_fc_solves_board():
    d = deal_from_tool_seed("klondike", 460, "pysol")
    assert [names(p) for p in d.tableau] == [
        ["QC"], ["4H", "6S"], ["KD", "9H", "2S"], ["8S", "TH", "JD", "5H"], ["TS", "JH", "5C", "KC", "2D"],
        ["JC", "6H", "7D", "3D", "JS", "8C"], ["9C", "5S", "QH", "9D", "QD", "4C", "7H"]]
    assert " ".join(names(d.stock)) == ("3C AD AH KH KS 2H 3S 4D QS TD 8H AS 8D 6C 5D 4S 3H 6D 2C 7S AC 9S "
                                        "7C TC")
    assert d.face_down == list(range(7)) and d.seed is None


def test_golf_5_is_the_verifiers_board():
    d = deal_from_tool_seed("golf", 5, "pysol")
    assert names(d.foundations[0]) == ["9D"]
    assert names(d.tableau[0]) == ["AH", "3D", "3C", "5H", "8H"]
    assert names(d.tableau[6]) == ["2S", "2C", "KD", "7H", "8C"]
    assert " ".join(names(d.stock)) == "KS QD 4H AC 2H TC TH 6D 6H 6C QC JS 9S AD 7C TS"


def test_pyramid_1_is_freecell_deal_1():
    d = deal_from_tool_seed("pyramid", 1, "pysol")
    assert [names(r) for r in d.pyramid[:3]] == [["JD"], ["2D", "9H"], ["JC", "5D", "7H"]]
    assert names(d.pyramid[6]) == ["AS", "AH", "3C", "4C", "5C", "TS", "QH"]
    assert names(d.stock[:4]) == ["4H", "AC", "4D", "7S"] and len(d.stock) == 24


@pytest.mark.parametrize("number, column", [(123456, "3D 6C AS TS QC 8D 4D"),
                                            (300000000000, "4S KD 6H 2D QC 4D AH"),
                                            (800600, "3H TS QH TD 8D JC AS")])
def test_the_twister_range_gives_published_freecell_columns(number, column):
    assert " ".join(names(dealing_order(number)[0::8])) == column


def test_32000_is_the_first_twister_number():
    # pysol-cards' own shuffle() would give 32000 the FreeCell generator; PySolFC does not
    assert dealing_order(32000) != dealing_order(31999)
    d = deal_from_tool_seed("klondike", 32000, "pysol")
    assert [names(p) for p in d.tableau[:2]] == [["QS"], ["3H", "5H"]]
    assert names(d.stock[:3]) == ["AD", "QH", "TC"]


@pytest.mark.parametrize("bad", [0, -1, 10 ** 20])
def test_numbers_out_of_pysolfcs_range_are_refused(bad):
    with pytest.raises(DealError, match="PySolFC game number"):
        dealing_order(bad)


def test_the_command_line_deals_and_solves_pysol_numbers():
    out = CliRunner().invoke(main, ["solve", "golf", "--seed", "5", "--seed-type", "pysol", "--json"])
    assert out.exit_code == 0, out.stderr
    refused = CliRunner().invoke(main, ["deal", "twenty", "--seed", "5", "--seed-type", "pysol"])
    assert refused.exit_code == 2 and "does not number twenty deals" in refused.stderr
