"""Reference rules of Ladder ("Лестница", two decks): solver/rules/ladder.py.

Each test builds a small table by hand and isolates one rule of RULES.md
("Ladder") or of the original rule text (seeds/004_*.txt).
"""

from __future__ import annotations

import random

import pytest

from solver.cards import parse_card
from solver.deals import deal_from_json, deal_from_seed, deal_to_json, validate
from solver.games.ladder import rules as L
from solver.games.ladder.layout import LadderDeal
from solver.moves import Move
from solver.replay import IllegalMove, replay
from tests.helpers import rules as rules_for


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------
def c(token: str) -> int:
    return parse_card(token)


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def run(suit: str, top: int) -> list[int]:
    """A foundation of ``suit`` built from the Ace up to rank ``top``."""
    return [parse_card("A23456789TJQK"[r - 1] + suit) for r in range(1, top + 1)]


def table(tableau=(), ladder="", stock="", waste="", foundations=None, passes=None, passes_used=0, seed=None):
    """A Ladder position from card text; unnamed piles/foundations are empty (partial decks allowed)."""
    piles = [cards(p) for p in tableau]
    piles += [[] for _ in range(8 - len(piles))]
    fnds = [list(f) for f in (foundations or [])]
    fnds += [[] for _ in range(8 - len(fnds))]
    deal = LadderDeal(game="ladder", options={"passes": passes}, seed=seed, tableau=piles, ladder=cards(ladder),
                stock=cards(stock), waste=cards(waste), foundations=fnds, passes_used=passes_used)
    return L.initial(deal)


def mv(card: str, src: str, dst: str, count: int = 1) -> Move:
    return Move("move", card=c(card), from_=src, to=dst, count=count)


def pile(pos, k: int) -> list[int]:
    return list(pos.tableau[k - 1])


# ---------------------------------------------------------------------------
# The deal
# ---------------------------------------------------------------------------
def test_initial_from_seed_has_the_rule_text_zone_sizes():
    deal = deal_from_seed("ladder", 4)
    pos = L.initial(deal)
    assert [len(p) for p in pos.tableau] == [4] * 8          # 8 piles of 4 open cards
    assert len(pos.ladder) == 29                              # the ladder of 29 cards
    assert len(pos.stock) == 43 and pos.waste == ()           # 43 reserve cards, face down
    assert all(f == () for f in pos.foundations) and len(pos.foundations) == 8
    assert pos.passes is None and pos.passes_used == 0        # unlimited passes by default
    assert not L.is_won(pos)
    assert Move("draw") in L.legal_moves(pos)
    assert Move("redeal") not in L.legal_moves(pos)


def test_rules_for_and_replay_use_this_module():
    assert rules_for("ladder") is L
    deal = LadderDeal(game="ladder", options={"passes": None}, tableau=[cards("9S 8H")] + [[] for _ in range(7)],
                ladder=cards("7C"), stock=cards("AD"), foundations=[[] for _ in range(8)])
    final, err = replay(deal, [mv("7C", "ladder", "t1"), Move("draw"), mv("AD", "waste", "f1")])
    assert err is None
    assert pile(final, 1) == cards("9S 8H 7C") and final.foundations[0] == (c("AD"),)
    _, err = replay(deal, [mv("9S", "t1", "t2", 1)])      # 9S is covered by 8H
    assert err is not None and err[0] == 1


# ---------------------------------------------------------------------------
# Tableau: proper tails
# ---------------------------------------------------------------------------
def test_tail_not_alternating_cannot_move_as_a_unit_but_its_top_card_can():
    # 7D on 8H: one rank lower but the same colour -> the proper tail is only 7D.
    pos = table(["9S 8H 7D", "9C", "8C"])
    assert L.proper_tail_length(pos.tableau[0]) == 1
    with pytest.raises(IllegalMove, match="proper tail"):
        L.play(pos, mv("8H", "t1", "t2", 2))           # 8H would fit 9C, but 8H-7D is no proper tail
    new = L.play(pos, mv("7D", "t1", "t3"))            # the top card alone may go onto 8C
    assert pile(new, 1) == cards("9S 8H") and pile(new, 3) == cards("8C 7D")
    moves = L.legal_moves(pos)
    assert mv("7D", "t1", "t3") in moves
    assert not any(m.type == "move" and m.from_ == "t1" and m.count > 1 for m in moves)


def test_tail_not_descending_by_one_cannot_move_as_a_unit_but_its_top_card_can():
    # 7S on 9H: other colour but two ranks lower.
    pos = table(["9H 7S", "TC", "8D"])
    assert L.proper_tail_length(pos.tableau[0]) == 1
    with pytest.raises(IllegalMove, match="proper tail"):
        L.play(pos, mv("9H", "t1", "t2", 2))           # 9H would fit TC
    new = L.play(pos, mv("7S", "t1", "t3"))
    assert pile(new, 3) == cards("8D 7S")
    assert not any(m.type == "move" and m.count > 1 for m in L.legal_moves(pos))


def test_proper_tail_of_five_moves_as_a_unit_onto_a_fitting_card():
    pos = table(["KC 9H 8S 7H 6S 5D", "TS"])
    assert L.proper_tail_length(pos.tableau[0]) == 5
    move = mv("9H", "t1", "t2", 5)
    assert move in L.legal_moves(pos)
    new = L.play(pos, move)
    assert pile(new, 1) == cards("KC")
    assert pile(new, 2) == cards("TS 9H 8S 7H 6S 5D")    # order kept, lowest card on the target
    # the 4-card tail (8S up) does not fit TS
    with pytest.raises(IllegalMove):
        L.play(pos, mv("8S", "t1", "t2", 4))


def test_a_long_proper_tail_has_no_free_cell_limit():
    pos = table(["KS QH JS TH 9S 8H 7S 6H 5S 4H 3S 2H", "KD"])
    assert L.proper_tail_length(pos.tableau[0]) == 12              # KS QH ... 2H all alternate
    # onto empty t3 every tail except the whole pile is listed; the whole pile is accepted by play
    listed = {m.count for m in L.legal_moves(pos) if m.type == "move" and m.to == "t3"}
    assert listed == set(range(1, 12))
    new = L.play(pos, mv("KS", "t1", "t3", 12))
    assert pile(new, 1) == [] and len(pile(new, 3)) == 12


def test_chosen_card_takes_all_cards_above_it():
    # "the selected card takes all the cards below it (on the screen) with it": no card from the middle
    pos = table(["9S 8H 7C", "9C"])
    with pytest.raises(IllegalMove, match="moves together with all the cards above it"):
        L.play(pos, mv("8H", "t1", "t2", 1))
    new = L.play(pos, mv("8H", "t1", "t2", 2))
    assert pile(new, 2) == cards("9C 8H 7C") and pile(new, 1) == cards("9S")


@pytest.mark.parametrize("card,target,why", [
    ("6H", "7D", "same colour, right rank (red 6 on red 7)"),
    ("6S", "7C", "same colour, right rank (black on black)"),
    ("7S", "7H", "equal rank"),
    ("6S", "5H", "lower rank"),
    ("6S", "8H", "too high a rank"),
])
def test_tableau_build_refuses_wrong_colour_or_rank(card, target, why):
    pos = table([card, target])
    with pytest.raises(IllegalMove, match="one rank lower and of the other colour"):
        L.play(pos, mv(card, "t1", "t2"))
    assert not any(m.to == "t2" for m in L.legal_moves(pos) if m.type == "move")


def test_tableau_build_takes_other_colour_one_rank_higher():
    for card, target in (("6S", "7H"), ("6C", "7D"), ("QS", "KD"), ("6H", "7C")):
        pos = table([card, target])
        assert mv(card, "t1", "t2") in L.legal_moves(pos)
        assert pile(L.play(pos, mv(card, "t1", "t2")), 2) == cards(f"{target} {card}")


# ---------------------------------------------------------------------------
# Empty piles
# ---------------------------------------------------------------------------
def test_empty_pile_takes_any_single_card_not_only_a_king():
    pos = table(["9S 5D"], ladder="KH 3C", waste="JD 8S")
    for move in (mv("5D", "t1", "t2"), mv("3C", "ladder", "t2"), mv("8S", "waste", "t2")):
        assert move in L.legal_moves(pos)
        assert pile(L.play(pos, move), 2) == [move.card]


def test_empty_pile_takes_any_proper_tail_each_length_a_distinct_move():
    pos = table(["2C 8D 7S 6H 5C", "9H"])   # proper tail of 4: 8D 7S 6H 5C
    to_empty = [m for m in L.legal_moves(pos) if m.type == "move" and m.from_ == "t1" and m.to == "t3"]
    assert [(m.count, m.card) for m in to_empty] == [(1, c("5C")), (2, c("6H")), (3, c("7S")), (4, c("8D"))]
    new = L.play(pos, mv("8D", "t1", "t3", 4))
    assert pile(new, 3) == cards("8D 7S 6H 5C") and pile(new, 1) == cards("2C")


def test_empty_pile_refuses_an_improper_tail():
    pos = table(["8D 7H 6H"])                # each card on one of the same colour
    with pytest.raises(IllegalMove, match="proper tail"):
        L.play(pos, mv("8D", "t1", "t2", 3))
    with pytest.raises(IllegalMove, match="proper tail"):
        L.play(pos, mv("7H", "t1", "t2", 2))
    assert [m.count for m in L.legal_moves(pos) if m.type == "move" and m.to == "t2"] == [1]
    assert pile(L.play(pos, mv("6H", "t1", "t2")), 2) == cards("6H")


def test_whole_pile_onto_empty_pile_is_legal_but_not_listed():
    pos = table(["7S 6H"])
    move = mv("7S", "t1", "t2", 2)
    assert move not in L.legal_moves(pos)
    assert mv("6H", "t1", "t2") in L.legal_moves(pos)
    new = L.play(pos, move)
    assert pile(new, 1) == [] and pile(new, 2) == cards("7S 6H")


# ---------------------------------------------------------------------------
# The ladder
# ---------------------------------------------------------------------------
def test_only_the_ladder_top_is_available():
    pos = table(["8C", "8H"], ladder="5S 7D 7H")    # top is 7H, 7D below it also fits 8C
    moves = L.legal_moves(pos)
    assert mv("7H", "ladder", "t1") in moves
    assert not any(m.type == "move" and m.card in (c("7D"), c("5S")) for m in moves)
    with pytest.raises(IllegalMove, match="only the top card of the ladder"):
        L.play(pos, mv("7D", "ladder", "t1"))
    with pytest.raises(IllegalMove, match="one card at a time"):
        L.play(pos, mv("7D", "ladder", "t3", 2))     # not even as a block onto an empty pile
    # after the top leaves, the next card is available
    new = L.play(pos, mv("7H", "ladder", "t1"))
    assert new.ladder == tuple(cards("5S 7D"))
    assert mv("7D", "ladder", "t1") not in L.legal_moves(new)   # 8C is now covered by 7H
    assert mv("7D", "ladder", "t3") in L.legal_moves(new)


def test_ladder_top_goes_to_tableau_and_to_foundation():
    pos = table(["3S"], ladder="9C 2H", foundations=[run("H", 1)])
    moves = L.legal_moves(pos)
    assert mv("2H", "ladder", "t1") in moves and mv("2H", "ladder", "f1") in moves
    new = L.play(pos, mv("2H", "ladder", "f1"))
    assert new.foundations[0] == tuple(cards("AH 2H")) and new.ladder == (c("9C"),)
    new = L.play(pos, mv("2H", "ladder", "t1"))
    assert pile(new, 1) == cards("3S 2H") and new.ladder == (c("9C"),)


def test_nothing_can_be_moved_onto_the_ladder_the_stock_or_the_waste():
    pos = table(["6S", "QD 6H"], ladder="7H", stock="7C", waste="7D")   # 6S would "fit" each 7 red
    for target in ("ladder", "stock", "waste"):
        with pytest.raises(IllegalMove, match=f"nothing can be moved onto the {target}"):
            L.play(pos, mv("6S", "t1", target))
    with pytest.raises(IllegalMove):
        L.play(pos, mv("6H", "t2", "ladder"))
    assert all(m.to not in ("ladder", "stock", "waste") for m in L.legal_moves(pos) if m.type == "move")


# ---------------------------------------------------------------------------
# Stock and waste
# ---------------------------------------------------------------------------
def test_waste_top_goes_to_tableau_and_foundation_but_not_the_card_below():
    pos = table(["4C"], waste="3D 3H", foundations=[run("H", 2)])
    moves = L.legal_moves(pos)
    assert mv("3H", "waste", "t1") in moves and mv("3H", "waste", "f1") in moves
    assert not any(m.type == "move" and m.card == c("3D") for m in moves)
    with pytest.raises(IllegalMove, match="only the top card of the waste"):
        L.play(pos, mv("3D", "waste", "t1"))
    new = L.play(pos, mv("3H", "waste", "f1"))
    assert new.waste == (c("3D"),) and new.foundations[0][-1] == c("3H")
    new = L.play(pos, mv("3H", "waste", "t1"))
    assert new.waste == (c("3D"),) and pile(new, 1) == cards("4C 3H")


def test_stock_cards_cannot_be_moved_directly():
    pos = table(["8C"], stock="7H 7D")
    with pytest.raises(IllegalMove, match="face-down"):
        L.play(pos, mv("7H", "stock", "t1"))
    assert [m for m in L.legal_moves(pos) if m.type == "move"] == []


def test_draw_turns_the_first_stock_card_onto_the_waste():
    pos = table(stock="5C 9D KS", waste="2H")
    new = L.play(pos, Move("draw"))
    assert new.stock == tuple(cards("9D KS")) and new.waste == tuple(cards("2H 5C"))
    assert L.play(pos, Move("draw", cards=(c("5C"),))) == new
    with pytest.raises(IllegalMove, match="turns up 5C"):
        L.play(pos, Move("draw", cards=(c("9D"),)))
    with pytest.raises(IllegalMove, match="stock is empty"):
        L.play(table(waste="2H"), Move("draw"))


def test_redeal_unshuffled_and_unlimited_by_default():
    pos = table(stock="5C 9D KS")
    for n in range(1, 5):
        for _ in range(3):
            pos = L.play(pos, Move("draw"))
        assert pos.waste == tuple(cards("5C 9D KS"))
        assert Move("redeal") in L.legal_moves(pos) and Move("draw") not in L.legal_moves(pos)
        pos = L.play(pos, Move("redeal"))
        assert pos.stock == tuple(cards("5C 9D KS")) and pos.waste == ()   # first drawn comes out first
        assert pos.passes_used == n


def test_redeal_needs_an_empty_stock_and_a_non_empty_waste():
    with pytest.raises(IllegalMove, match="stock still has"):
        L.play(table(stock="5C", waste="9D"), Move("redeal"))
    assert Move("redeal") not in L.legal_moves(table(stock="5C", waste="9D"))
    with pytest.raises(IllegalMove, match="waste is empty"):
        L.play(table(), Move("redeal"))
    assert Move("redeal") not in L.legal_moves(table())


def test_passes_one_refuses_redeal():
    pos = table(waste="5C 9D", passes=1)
    assert Move("redeal") not in L.legal_moves(pos)
    with pytest.raises(IllegalMove, match="no passes left"):
        L.play(pos, Move("redeal"))


def test_passes_two_allows_exactly_one_redeal():
    pos = table(stock="5C", passes=2)
    pos = L.play(pos, Move("draw"))
    assert Move("redeal") in L.legal_moves(pos)
    pos = L.play(pos, Move("redeal"))
    assert pos.passes_used == 1 and pos.stock == (c("5C"),)
    pos = L.play(pos, Move("draw"))
    assert Move("redeal") not in L.legal_moves(pos)
    with pytest.raises(IllegalMove, match="no passes left"):
        L.play(pos, Move("redeal"))
    # a mid-game table that already used its redeal
    assert Move("redeal") not in L.legal_moves(table(waste="5C", passes=2, passes_used=1))
    assert Move("redeal") in L.legal_moves(table(waste="5C", passes=3, passes_used=1))


# ---------------------------------------------------------------------------
# Foundations
# ---------------------------------------------------------------------------
def test_foundation_needs_an_ace_first():
    pos = table(["2H", "AH"])
    with pytest.raises(IllegalMove, match="takes only an Ace"):
        L.play(pos, mv("2H", "t1", "f1"))
    assert not any(m.card == c("2H") and m.to.startswith("f") for m in L.legal_moves(pos) if m.type == "move")
    new = L.play(pos, mv("AH", "t2", "f1"))
    assert new.foundations[0] == (c("AH"),)
    assert mv("2H", "t1", "f1") in L.legal_moves(new)


def test_foundation_builds_up_by_same_suit_one_rank_at_a_time():
    pos = table(["2D", "3H", "2H", "2C"], foundations=[run("H", 1)])
    with pytest.raises(IllegalMove, match="builds up by suit"):
        L.play(pos, mv("2D", "t1", "f1"))          # same colour, wrong suit
    with pytest.raises(IllegalMove, match="builds up by suit"):
        L.play(pos, mv("2C", "t4", "f1"))          # other suit
    with pytest.raises(IllegalMove, match="builds up by suit"):
        L.play(pos, mv("3H", "t2", "f1"))          # skips a rank
    foundation_moves = [m for m in L.legal_moves(pos) if m.type == "move" and m.to.startswith("f")]
    assert foundation_moves == [mv("2H", "t3", "f1")]
    assert L.play(pos, mv("2H", "t3", "f1")).foundations[0] == tuple(cards("AH 2H"))


def test_an_ace_goes_to_any_empty_foundation_listed_on_the_first_only():
    pos = table(["AS"], foundations=[run("C", 3)])
    assert [m for m in L.legal_moves(pos) if m.type == "move" and m.to.startswith("f")] == [mv("AS", "t1", "f2")]
    for f in range(2, 9):
        assert L.play(pos, mv("AS", "t1", f"f{f}")).foundations[f - 1] == (c("AS"),)
    with pytest.raises(IllegalMove):
        L.play(pos, mv("AS", "t1", "f1"))           # f1 is a clubs foundation, not empty


def test_two_foundations_of_the_same_suit():
    # both copies of the hearts: f1 at AH, f2 at 2H; the second AH starts a third one
    pos = table(["2H", "3H", "AH"], foundations=[run("H", 1), run("H", 2)])
    moves = [m for m in L.legal_moves(pos) if m.type == "move" and m.to.startswith("f")]
    assert moves == [mv("2H", "t1", "f1"), mv("3H", "t2", "f2"), mv("AH", "t3", "f3")]
    pos = L.play(pos, mv("2H", "t1", "f1"))
    pos = L.play(pos, mv("3H", "t2", "f2"))
    pos = L.play(pos, mv("AH", "t3", "f3"))
    assert pos.foundations[:3] == (tuple(cards("AH 2H")), tuple(cards("AH 2H 3H")), (c("AH"),))


def test_card_fitting_two_equal_foundations_is_accepted_on_either():
    pos = table(["2H"], foundations=[run("H", 1), run("D", 1), run("H", 1)])
    assert [m for m in L.legal_moves(pos) if m.type == "move" and m.to.startswith("f")] == [mv("2H", "t1", "f1")]
    assert L.play(pos, mv("2H", "t1", "f3")).foundations[2] == tuple(cards("AH 2H"))
    with pytest.raises(IllegalMove):
        L.play(pos, mv("2H", "t1", "f2"))


def test_only_single_cards_go_to_a_foundation():
    pos = table(["3S 2H"], foundations=[run("H", 1)])
    with pytest.raises(IllegalMove, match="only single cards"):
        L.play(pos, mv("3S", "t1", "f1", 2))
    assert L.play(pos, mv("2H", "t1", "f1")).foundations[0] == tuple(cards("AH 2H"))


def test_foundation_cards_never_leave():
    pos = table(["", "4C"], foundations=[run("H", 3)])
    for dst in ("t1", "t2", "f2"):
        with pytest.raises(IllegalMove, match="never leave"):
            L.play(pos, mv("3H", "f1", dst))
    assert not any(m.type == "move" and m.from_.startswith("f") for m in L.legal_moves(pos))


def test_no_automatic_moves_after_a_move():
    # an Ace exposed by a move stays on the tableau until moved (no auto-collect in the rules)
    pos = table(["AD 5C", "6H"])
    new = L.play(pos, mv("5C", "t1", "t2"))
    assert pile(new, 1) == cards("AD") and all(f == () for f in new.foundations)


# ---------------------------------------------------------------------------
# Win
# ---------------------------------------------------------------------------
def test_win_when_all_104_cards_are_on_the_foundations():
    foundations = [run(s, 13) for s in "CDHS"] + [run(s, 13) for s in "CDH"] + [run("S", 12)]
    pos = table(waste="KS", foundations=foundations)
    assert not L.is_won(pos)
    assert L.legal_moves(pos)[0] == mv("KS", "waste", "f8")       # then KS onto the empty piles
    won = L.play(pos, mv("KS", "waste", "f8"))
    assert L.is_won(won)
    assert L.legal_moves(won) == []
    # 103 cards home is not a win even with nothing else on the table
    assert not L.is_won(table(foundations=foundations))


# ---------------------------------------------------------------------------
# Contract: immutability, round trip, render, bad input
# ---------------------------------------------------------------------------
def test_play_does_not_mutate_the_input():
    pos = table(["KC 9H 8S 7H 6S 5D", "TS", "AH"], ladder="2C 3D", stock="4S 5S", waste="9C")
    snapshot = deal_to_json(L.to_deal(pos))
    for move in L.legal_moves(pos):
        new = L.play(pos, move)
        assert new is not pos and new != pos
    L.play(pos, Move("draw"))
    assert deal_to_json(L.to_deal(pos)) == snapshot


def test_to_deal_round_trip_mid_game():
    deal = deal_from_seed("ladder", 12345, {"passes": 3})
    pos = L.initial(deal)
    rng = random.Random(1)
    for _ in range(80):
        moves = L.legal_moves(pos)
        pos = L.play(pos, rng.choice(moves))
    back = L.to_deal(pos)
    validate(back)                                          # still a legal 104-card table
    assert L.initial(back) == pos
    again = L.initial(deal_from_json(deal_to_json(back)))   # through the JSON format
    assert again == pos and again.seed == 12345 and again.passes == 3
    assert again.passes_used == pos.passes_used


def test_to_deal_keeps_passes_used_and_waste():
    pos = table(["5H"], ladder="KD", waste="2C 3C", foundations=[run("S", 2)], passes=4, passes_used=2)
    back = L.to_deal(pos)
    assert back.game == "ladder" and back.options == {"passes": 4} and back.passes_used == 2
    assert back.waste == cards("2C 3C") and back.foundations[0] == run("S", 2)
    assert L.initial(back) == pos


def test_render_mentions_the_cards():
    pos = table(["KC 9H", "5D"], ladder="3C QS", stock="4S 5S", waste="7D 8C", foundations=[run("H", 3)])
    text = L.render(pos)
    for token in ("3♥", "Q♠", "K♣ 9♥", "5♦", "8♣", "t1", "f1"):
        assert token in text
    assert "2 cards" in text                      # ladder size / stock count
    assert "Stock: 2" in text
    assert "7♦" not in text                       # only the waste top is shown


def test_bad_moves_are_refused_with_reasons():
    pos = table(["5H"], ladder="KD")
    with pytest.raises(IllegalMove, match="no 'deal' move"):
        L.play(pos, Move("deal"))
    with pytest.raises(IllegalMove, match="no such source zone"):
        L.play(pos, mv("5H", "t9", "t2"))
    with pytest.raises(IllegalMove, match="no such target zone"):
        L.play(pos, mv("5H", "t1", "p1.1"))
    with pytest.raises(IllegalMove, match="same zone"):
        L.play(pos, mv("5H", "t1", "t1"))
    with pytest.raises(IllegalMove, match="is empty"):
        L.play(pos, mv("5H", "t2", "t3"))
    with pytest.raises(IllegalMove, match="only 1 cards"):
        L.play(pos, mv("5H", "t1", "t3", 2))
    with pytest.raises(IllegalMove, match="waste is empty"):
        L.play(pos, mv("5H", "waste", "t3"))


# ---------------------------------------------------------------------------
# legal_moves against play(): listed moves are exactly the accepted ones, less the documented trims
# ---------------------------------------------------------------------------
def _candidates(pos):
    """Every move that names an existing card in an existing zone (legal or not)."""
    targets = [f"t{j}" for j in range(1, 9)] + [f"f{j}" for j in range(1, 9)] + ["ladder", "stock", "waste"]
    sources = [(f"t{i + 1}", p) for i, p in enumerate(pos.tableau)] + [("ladder", pos.ladder), ("waste", pos.waste),
                                                                        ("stock", pos.stock[::-1])]
    sources += [(f"f{i + 1}", f) for i, f in enumerate(pos.foundations)]
    out = [Move("draw"), Move("redeal")]
    for src, p in sources:
        for n in range(1, len(p) + 1):
            for dst in targets:
                out.append(Move("move", card=p[-n], from_=src, to=dst, count=n))
    return out


def _accepted(pos, move):
    try:
        L.play(pos, move)
        return True
    except IllegalMove:
        return False


@pytest.mark.parametrize("seed", [1, 2, 3, 7])
def test_legal_moves_match_play_on_random_games(seed):
    rng = random.Random(seed)
    pos = L.initial(deal_from_seed("ladder", seed, {"passes": 2}))
    for _step in range(60):
        listed = L.legal_moves(pos)
        assert listed == L.legal_moves(pos)                   # deterministic
        assert len(set(listed)) == len(listed)
        accepted = [m for m in _candidates(pos) if _accepted(pos, m)]
        assert set(listed) <= set(accepted)
        for m in set(accepted) - set(listed):
            if m.to.startswith("f"):   # a duplicate onto an equal foundation: the listed twin exists
                twin = [x for x in listed if x.type == "move" and x.from_ == m.from_ and x.to.startswith("f")]
                assert len(twin) == 1
                f_listed, f_m = int(twin[0].to[1:]) - 1, int(m.to[1:]) - 1
                assert pos.foundations[f_listed] == pos.foundations[f_m] and f_listed < f_m
            else:              # the whole pile onto an empty pile
                src = pos.tableau[int(m.from_[1:]) - 1]
                assert m.from_.startswith("t") and m.count == len(src) and not pos.tableau[int(m.to[1:]) - 1]
        if not listed:
            break
        # prefer moves that change the table so the walk reaches interesting positions
        moving = [m for m in listed if m.type == "move"]
        pos = L.play(pos, rng.choice(moving) if moving and rng.random() < 0.7 else rng.choice(listed))
        assert sum(len(p) for p in pos.tableau) + len(pos.ladder) + len(pos.stock) + len(pos.waste) + \
            sum(len(f) for f in pos.foundations) == 104
