"""Twenty reference rules (solver/rules/twenty.py) against RULES.md and the rule text.

Positions are built by hand with :func:`table`: foundations given by their top
cards, the piles that matter given by card names, every other pile filled with a
card that fits no foundation (so that only the cards a test names can move).
"""

import json
import random

import pytest

from solver.cards import card_name, parse_card
from solver.deals import Deal, DealError, deal_from_json, deal_from_seed, deal_to_json
from solver.games.twenty import rules as tw
from solver.moves import Move
from solver.replay import IllegalMove, replay
from tests.helpers import rules as rules_for

from .helpers import cards, mv

UP = "AC AD AH AS"     # the ascending foundations at the start
DOWN = "KC KD KH KS"   # the descending foundations at the start


def run(top: str, ascending: bool) -> list[int]:
    """A foundation from its base (A going up, K going down) to ``top``."""
    t = parse_card(top)
    base = (t // 13) * 13 + (0 if ascending else 12)
    step = 1 if ascending else -1
    return list(range(base, t + step, step))


def table(piles: dict | None = None, stock: str = "", up: str = UP, down: str = DOWN,
          fill: bool = True) -> tw.Position:
    """A position: ``piles`` maps pile number -> cards (bottom to top, "" = empty).

    With ``fill``, every pile not named gets one card of its own that fits no
    foundation and is not otherwise used twice.
    """
    foundations = [run(t, True) for t in up.split()] + [run(t, False) for t in down.split()]
    tableau = [[] for _ in range(20)]
    for i, text in (piles or {}).items():
        tableau[i - 1] = cards(text)
    stock_cards = cards(stock)
    if fill:
        used = [c for f in foundations for c in f] + stock_cards + [c for p in tableau for c in p]
        pos0 = tw.Position(tuple(map(tuple, foundations)), tuple(tuple(p) for p in tableau), ())
        # middle ranks first (far from both foundation bases), each copy not yet used
        order = sorted(range(52), key=lambda x: (abs(x % 13 - 6), x))
        pool = [x for x in order for _ in range(2 - used.count(x))
                if not any(tw.foundation_takes(pos0, k, x) for k in range(1, 9))]
        for i in range(1, 21):
            if piles is None or i not in piles:
                tableau[i - 1] = [pool.pop(0)]
    return tw.initial(Deal(game="twenty", options={}, foundations=foundations, tableau=tableau,
                           stock=stock_cards))


def c(name: str) -> int:
    return parse_card(name)


def names(pile) -> str:
    return " ".join(card_name(x) for x in pile)


# ---------------------------------------------------------------------------
# Foundations
# ---------------------------------------------------------------------------
def test_ascending_foundation_takes_the_next_rank_up():
    pos = table({1: "2C", 2: "3C"})
    assert Move("move", card=c("2C"), from_="t1", to="f1", count=1) in tw.legal_moves(pos)
    after = tw.play(pos, mv("2C t1-f1"))
    assert names(after.foundations[0]) == "AC 2C"
    with pytest.raises(IllegalMove, match="takes only 2C"):
        tw.play(pos, mv("3C t2-f1"))
    assert not any(m.card == c("3C") for m in tw.legal_moves(pos))


def test_descending_foundation_takes_the_next_rank_down():
    pos = table({1: "QH", 2: "JH"})
    after = tw.play(pos, mv("QH t1-f7"))
    assert names(after.foundations[6]) == "KH QH"
    with pytest.raises(IllegalMove):
        tw.play(pos, mv("JH t2-f7"))
    # going up is not allowed on a descending foundation, nor down on an ascending one
    with pytest.raises(IllegalMove):
        tw.play(pos, mv("QH t1-f3"))


def test_ascending_foundation_refuses_a_card_one_below_its_top():
    pos = table({1: "4D"}, up="AC 5D AH AS")
    with pytest.raises(IllegalMove):
        tw.play(pos, mv("4D t1-f2"))


def test_wrong_suit_refused_even_when_the_rank_fits():
    pos = table({1: "2D", 2: "QS"})
    with pytest.raises(IllegalMove, match="not a club"):
        tw.play(pos, mv("2D t1-f1"))           # 2 on an Ace, but the clubs' foundation
    with pytest.raises(IllegalMove):
        tw.play(pos, mv("QS t2-f7"))           # Q on a King, but the hearts' foundation
    assert {(m.from_, m.to) for m in tw.legal_moves(pos)} == {("t1", "f2"), ("t2", "f8")}


def test_a_card_fitting_both_foundations_gives_two_moves():
    pos = table({4: "7H"}, up="AC AD 6H AS", down="KC KD 8H KS")
    moves = [m for m in tw.legal_moves(pos) if m.card == c("7H")]
    assert moves == [Move("move", card=c("7H"), from_="t4", to="f3", count=1),
                     Move("move", card=c("7H"), from_="t4", to="f7", count=1)]
    assert names(tw.play(pos, moves[0]).foundations[2]).endswith("6H 7H")
    assert names(tw.play(pos, moves[1]).foundations[6]).endswith("8H 7H")


def test_full_foundation_takes_nothing_more():
    # f1 holds A..K of clubs, f5 holds K..2 of clubs: the one club left is an Ace.
    pos = table({1: "AC"}, up="KC AD AH AS", down="2C KD KH KS")
    with pytest.raises(IllegalMove, match="full"):
        tw.play(pos, mv("AC t1-f1"))          # no wrapping from King to Ace
    assert [m.to for m in tw.legal_moves(pos) if m.card == c("AC")] == ["f5"]
    # and a full descending foundation takes no King after its Ace
    pos = table({1: "KD"}, up="AC QD AH AS", down="KC AD KH KS")
    with pytest.raises(IllegalMove, match="full"):
        tw.play(pos, mv("KD t1-f6"))
    assert [m.to for m in tw.legal_moves(pos) if m.card == c("KD")] == ["f2"]


def test_cards_on_a_foundation_never_leave_it():
    pos = table({1: ""}, up="3C AD AH AS")
    with pytest.raises(IllegalMove, match="never leave"):
        tw.play(pos, mv("3C f1-t1"))


# ---------------------------------------------------------------------------
# Only the top card, one at a time, nothing from the stock
# ---------------------------------------------------------------------------
def test_only_the_top_card_of_a_pile_may_move():
    pos = table({1: "2C 9H"})
    with pytest.raises(IllegalMove, match="covered"):
        tw.play(pos, mv("2C t1-f1"))
    assert not any(m.card == c("2C") for m in tw.legal_moves(pos))
    assert not any(m.from_ == "t1" for m in tw.legal_moves(pos))


def test_several_cards_at_once_refused():
    pos = table({1: "3C 2C"}, stock="")
    with pytest.raises(IllegalMove, match="one card"):
        tw.play(pos, Move("move", card=c("3C"), from_="t1", to="f1", count=2))


def test_a_card_not_in_the_named_pile_is_refused():
    pos = table({1: "9H", 2: "2C"})
    with pytest.raises(IllegalMove, match="holds no 2C"):
        tw.play(pos, mv("2C t1-f1"))


def test_stock_cards_cannot_be_played_directly():
    pos = table(stock="2C 9D")
    with pytest.raises(IllegalMove, match="stock"):
        tw.play(pos, mv("2C stock-f1"))


def test_other_move_types_refused():
    pos = table(stock="2C")
    for m in (Move("draw"), Move("redeal")):
        with pytest.raises(IllegalMove):
            tw.play(pos, m)


# ---------------------------------------------------------------------------
# The deal
# ---------------------------------------------------------------------------
STOCK_36 = " ".join(f"{r}{s}" for s in "CDHS" for r in "3456789TJ")   # 36 cards, fit no A or K


def test_deal_refused_while_a_foundation_move_exists():
    pos = table({7: "QD"}, stock=STOCK_36)
    with pytest.raises(IllegalMove, match="foundation move"):
        tw.play(pos, Move("deal"))
    assert Move("deal") not in tw.legal_moves(pos)


def test_deal_allowed_when_no_foundation_move_exists():
    stock = cards(STOCK_36)[:22]
    pos = table(stock=" ".join(card_name(x) for x in stock))
    assert tw.legal_moves(pos) == [Move("deal")]
    after = tw.play(pos, Move("deal"))
    for i in range(20):
        assert after.tableau[i] == pos.tableau[i] + (stock[i],)   # pile 1 gets the first card, ...
    assert after.stock == tuple(stock[20:])


def test_a_short_deal_covers_only_the_first_piles():
    stock = cards(STOCK_36)[:16]
    pos = table(stock=" ".join(card_name(x) for x in stock))
    after = tw.play(pos, Move("deal"))
    for i in range(16):
        assert after.tableau[i] == pos.tableau[i] + (stock[i],)
    for i in range(16, 20):
        assert after.tableau[i] == pos.tableau[i]
    assert after.stock == ()


def test_no_deal_when_the_stock_is_exhausted():
    pos = table(stock="")
    assert Move("deal") not in tw.legal_moves(pos)
    with pytest.raises(IllegalMove, match="no redeal"):
        tw.play(pos, Move("deal"))


# ---------------------------------------------------------------------------
# The refill
# ---------------------------------------------------------------------------
def test_a_pile_emptied_while_the_stock_has_cards_is_refilled_at_once():
    pos = table({3: "2S"}, stock="9C 8D")
    after = tw.play(pos, mv("2S t3-f4"))
    assert names(after.tableau[2]) == "9C"          # the next stock card, within the same move
    assert names(after.stock) == "8D"
    assert names(after.foundations[3]) == "AS 2S"


def test_refill_with_the_last_stock_card():
    pos = table({3: "2S"}, stock="9C")
    after = tw.play(pos, mv("2S t3-f4"))
    assert names(after.tableau[2]) == "9C" and after.stock == ()


def test_a_pile_that_does_not_become_empty_is_not_refilled():
    pos = table({3: "9H 2S"}, stock="9C")
    after = tw.play(pos, mv("2S t3-f4"))
    assert names(after.tableau[2]) == "9H" and names(after.stock) == "9C"


def test_no_refill_once_the_stock_is_exhausted():
    pos = table({3: "2S"}, stock="")
    after = tw.play(pos, mv("2S t3-f4"))
    assert after.tableau[2] == ()


def test_initial_refuses_an_empty_pile_while_the_stock_has_cards():
    with pytest.raises(DealError, match="refilled"):
        table({5: ""}, stock="9C")


# ---------------------------------------------------------------------------
# Empty piles
# ---------------------------------------------------------------------------
def test_move_onto_an_empty_pile_allowed_after_the_stock_is_exhausted():
    pos = table({1: "9H 5D", 2: ""}, stock="")
    m = mv("5D t1-t2")
    assert m in tw.legal_moves(pos)
    after = tw.play(pos, m)
    assert names(after.tableau[0]) == "9H" and names(after.tableau[1]) == "5D"


def test_move_onto_an_empty_pile_refused_before_the_stock_is_exhausted():
    # Refills keep every pile covered while the stock has cards, so such a table
    # never arises in play and initial() refuses it; the rule text still forbids
    # using empty piles then, so the guard is checked on a hand-made Position.
    legal = table({1: "9H 5D", 2: ""}, stock="")
    pos = tw.Position(legal.foundations, legal.tableau, tuple(cards("9C")))
    assert not any(m.to == "t2" for m in tw.legal_moves(pos))
    with pytest.raises(IllegalMove, match="stock is exhausted"):
        tw.play(pos, mv("5D t1-t2"))


def test_moves_between_piles_refused_while_the_stock_has_cards():
    pos = table({1: "9H 5D", 2: "6D"}, stock="9C")
    with pytest.raises(IllegalMove):
        tw.play(pos, mv("5D t1-t2"))
    assert all(m.type == "deal" or m.to.startswith("f") for m in tw.legal_moves(pos))


def test_move_onto_a_non_empty_pile_always_refused():
    # no building, even on what would be a legal Klondike or same-suit build
    pos = table({1: "9H 5D", 2: "6D", 3: "6C", 4: ""}, stock="")
    for text in ("5D t1-t2", "5D t1-t3"):
        with pytest.raises(IllegalMove, match="not empty"):
            tw.play(pos, mv(text))
    assert {m.to for m in tw.legal_moves(pos) if m.to.startswith("t")} == {"t4"}


def test_every_top_card_may_go_to_every_empty_pile_including_a_lone_card():
    # Documented choice: moving a pile's only card onto another empty pile is legal
    # and listed (the rules allow "a top card onto an empty pile" without exception).
    pos = table({1: "9H 5D", 2: "", 3: "6C", 4: ""}, stock="")
    moves = [m for m in tw.legal_moves(pos) if m.to.startswith("t")]
    tops = [(i, p[-1]) for i, p in enumerate(pos.tableau, 1) if p]
    assert moves == [Move("move", card=top, from_=f"t{i}", to=f"t{j}", count=1)
                     for i, top in tops for j in (2, 4)]
    after = tw.play(pos, mv("6C t3-t2"))
    assert after.tableau[2] == () and names(after.tableau[1]) == "6C"


# ---------------------------------------------------------------------------
# Winning, order, purity, round trips, picture
# ---------------------------------------------------------------------------
def test_win_detection():
    pos = table({1: "KC"}, up="QC KD KH KS", down="AC AD AH AS", fill=False)
    assert not tw.is_won(pos)
    assert [m for m in tw.legal_moves(pos) if m.to.startswith("f")] == [mv("KC t1-f1")]
    won = tw.play(pos, mv("KC t1-f1"))
    assert tw.is_won(won)
    assert tw.legal_moves(won) == []
    assert sum(len(f) for f in won.foundations) == 104


def test_not_won_with_one_card_left():
    pos = table({1: "AC"}, up="KC KD KH KS", down="2C AD AH AS", fill=False)
    assert not tw.is_won(pos)
    assert tw.is_won(tw.play(pos, mv("AC t1-f5")))


def test_won_means_full_foundations_not_an_empty_table():
    # a hand-made partial table: nothing left to play, yet 8 cards short of 104
    pos = table({}, up="KC KD KH QS", down="AC AD AH 6S", fill=False)
    assert not any(pos.tableau) and not pos.stock
    assert not tw.is_won(pos)


def test_legal_moves_order_is_fixed():
    pos = table({2: "7H", 1: "2S", 9: "QC"}, up="AC AD 6H AS", down="KC KD 8H KS", stock="9D")
    assert [str(m) for m in tw.legal_moves(pos)] == ["2S t1-f4", "7H t2-f3", "7H t2-f7", "QC t9-f5"]
    assert tw.legal_moves(pos) == tw.legal_moves(pos)


def test_play_does_not_mutate_its_input():
    pos = table({3: "2S"}, stock="9C 8D")
    before = json.dumps(deal_to_json(tw.to_deal(pos)))
    after = tw.play(pos, mv("2S t3-f4"))
    assert after is not pos
    assert json.dumps(deal_to_json(tw.to_deal(pos))) == before
    no_moves = table(stock="9C 8D")
    before = json.dumps(deal_to_json(tw.to_deal(no_moves)))
    tw.play(no_moves, Move("deal"))
    assert json.dumps(deal_to_json(tw.to_deal(no_moves))) == before


def test_to_deal_round_trip_fresh_and_mid_game():
    d = deal_from_seed("twenty", 11)
    pos = tw.initial(d)
    assert deal_to_json(tw.to_deal(pos)) == deal_to_json(d)
    rng = random.Random(11)
    for _ in range(60):
        moves = tw.legal_moves(pos)
        if not moves:
            break
        pos = tw.play(pos, rng.choice(moves))
    back = deal_from_json(deal_to_json(tw.to_deal(pos)))   # a valid mid-game deal
    assert tw.initial(back) == pos


def test_render_mentions_cards_and_the_stock():
    pos = table({1: "9H 5D", 2: "2S"}, up="AC AD 6H AS", stock="9C 8D")
    text = tw.render(pos)
    assert "9♥ 5♦" in text and "2♠" in text and "6♥" in text and "K♠" in text
    assert "stock: 2 cards" in text
    assert "(empty)" in tw.render(table({1: ""}))


def test_rules_for_finds_the_module_and_replay_reports_the_bad_move():
    assert rules_for("twenty") is tw
    d = tw.to_deal(table({3: "2S", 4: "3S"}, stock="9C 8D"))
    pos, bad = replay(d, [mv("2S t3-f4"), mv("deal")])      # 3S t4-f4 is still possible
    assert bad is not None and bad[0] == 2 and "foundation move" in bad[2]
    assert names(pos.tableau[2]) == "9C"


def test_random_playouts_keep_the_invariants():
    """From seeded deals, every listed move plays and the table stays consistent."""
    for seed in range(6):
        pos = tw.initial(deal_from_seed("twenty", seed))
        rng = random.Random(seed)
        while True:
            moves = tw.legal_moves(pos)
            f_moves = [m for m in moves if m.to and m.to.startswith("f")]
            # a deal is listed exactly when the stock has cards and no foundation move exists
            assert (Move("deal") in moves) == (bool(pos.stock) and not f_moves)
            if not moves:
                break
            nxt = tw.play(pos, rng.choice(moves))
            total = len(nxt.stock) + sum(map(len, nxt.tableau)) + sum(map(len, nxt.foundations))
            assert total == 104
            if nxt.stock:
                assert all(nxt.tableau)
            pos = nxt
        assert not pos.stock          # play never stops with cards left in the stock
