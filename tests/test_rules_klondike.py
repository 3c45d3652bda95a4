"""Klondike reference rules on hand-built positions (RULES.md, "Klondike")."""

import pytest

from solver.cards import parse_card
from solver.deals import deal_from_seed, deal_to_json
from solver.games.klondike import rules as K
from solver.moves import Move
from solver.replay import IllegalMove
from tests.helpers import cards, deal, mv

ALL = [f"{r}{s}" for s in "CDHS" for r in "A23456789TJQK"]


def position(tableau, face_down=None, stock=(), waste=(), foundations=None, **options):
    """A position from piles of card names. When ``foundations`` is None each foundation
    holds its suit's cards below the lowest card named, and the cards named nowhere go to
    the end of the stock, so that the deck stays whole."""
    used = set(" ".join(tableau).split()) | set(stock) | set(waste)
    if foundations is None:
        foundations, stock = [], list(stock)
        for s in range(4):
            suit_cards = ALL[s * 13:(s + 1) * 13]
            low = min([i for i, c in enumerate(suit_cards) if c in used], default=13)
            foundations.append(suit_cards[:low])
            stock += [c for c in suit_cards[low:] if c not in used]
    obj = {"game": "klondike", "options": options,
           "tableau": [p.split() if p else [] for p in tableau],
           "face_down": face_down or [0] * 7, "stock": list(stock), "waste": list(waste),
           "foundations": foundations}
    return K.initial(deal(obj))


def test_tableau_builds_down_in_alternating_colour():
    pos = position(["KS QH", "JS", "JD", "", "", "", ""])
    assert mv("JS t2-t1") in K.legal_moves(pos)
    with pytest.raises(IllegalMove, match="does not fit"):
        K.play(pos, mv("JD t3-t1"))  # same colour as QH


def test_only_a_king_goes_onto_an_empty_pile():
    pos = position(["KS", "QH", "", "", "", "", ""])
    with pytest.raises(IllegalMove, match="only a King"):
        K.play(pos, mv("QH t2-t3"))
    after = K.play(pos, mv("QH t2-t1"))
    after = K.play(after, mv("KSx2 t1-t3"))
    assert after.tableau[2] == cards("KS QH")


def test_a_run_moves_with_everything_above_it_and_face_down_card_turns_up():
    pos = position(["5C KD QS JH", "", "", "", "", "", "KH"], face_down=[1, 0, 0, 0, 0, 0, 0])
    with pytest.raises(IllegalMove, match="carries 2"):
        K.play(pos, Move("move", card=parse_card("QS"), from_="t1", to="t2", count=1))
    with pytest.raises(IllegalMove, match="face down"):
        K.play(pos, Move("move", card=parse_card("5C"), from_="t1", to="t2", count=4))
    after = K.play(pos, mv("KDx3 t1-t2"))
    assert after.tableau[0] == cards("5C") and after.face_down[0] == 0
    assert after.tableau[1] == cards("KD QS JH")


def test_foundations_build_up_by_suit_from_the_ace():
    pos = position(["2C", "AD", "3C", "", "", "", ""])
    assert mv("2C t1-f1") in K.legal_moves(pos)
    with pytest.raises(IllegalMove, match="does not fit"):
        K.play(pos, mv("3C t3-f1"))
    with pytest.raises(IllegalMove, match="does not fit"):
        K.play(pos, Move("move", card=parse_card("AD"), from_="t2", to="f1"))  # wrong suit's foundation
    assert K.play(pos, mv("AD t2-f2")).foundations[1] == cards("AD")


def test_draw_one_and_three_and_only_the_waste_top_plays():
    pos = position(["", "", "", "", "", "", ""], stock=["KC", "KD", "KS", "KH"], draw=3,
                   foundations=[ALL[0:12], ALL[13:25], ALL[26:38], ALL[39:51]])
    after = K.play(pos, Move("draw"))
    assert after.waste == cards("KC KD KS") and after.stock == cards("KH")
    with pytest.raises(IllegalMove, match="not the waste's top"):
        K.play(after, mv("KC waste-f1"))
    after = K.play(after, Move("draw"))  # fewer than three remain
    assert after.waste == cards("KC KD KS KH") and after.stock == []
    with pytest.raises(IllegalMove, match="draw turns"):
        K.play(pos, Move("draw", cards=tuple(cards("KD"))))


def test_passes_limit_redeals():
    pos = position(["", "", "", "", "", "", ""], stock=["KC"], passes=2,
                   foundations=[ALL[0:12], ALL[13:26], ALL[26:39], ALL[39:52]])
    pos = K.play(pos, Move("draw"))
    assert Move("redeal") in K.legal_moves(pos)
    pos = K.play(pos, Move("redeal"))
    assert pos.stock == cards("KC") and pos.waste == [] and pos.passes_used == 1
    pos = K.play(pos, Move("draw"))
    assert Move("redeal") not in K.legal_moves(pos)
    with pytest.raises(IllegalMove, match="no pass left"):
        K.play(pos, Move("redeal"))


def test_one_pass_means_no_redeal_and_unlimited_means_always():
    one = position([""] * 7, waste=["KC"], foundations=[ALL[0:12], ALL[13:26], ALL[26:39], ALL[39:52]])
    assert Move("redeal") not in K.legal_moves(one)
    many = position([""] * 7, waste=["KC"], passes=None,
                    foundations=[ALL[0:12], ALL[13:26], ALL[26:39], ALL[39:52]])
    many.passes_used = 1000
    assert Move("redeal") in K.legal_moves(many)


def test_redeal_keeps_the_order_of_the_stock():
    pos = position([""] * 7, stock=["KC", "KD", "KH"], passes=None, draw=1,
                   foundations=[ALL[0:12], ALL[13:25], ALL[26:38], ALL[39:52]])
    for _ in range(3):
        pos = K.play(pos, Move("draw"))
    pos = K.play(pos, Move("redeal"))
    assert pos.stock == cards("KC KD KH")


def test_foundation_to_tableau_only_with_the_option():
    setup = dict(tableau=["KD QS", "QH", "KH", "", "", "", ""])
    off = position(**setup)
    on = position(**setup, foundation_to_tableau=True)
    jh = Move("move", card=parse_card("JH"), from_="f3", to="t1")
    assert jh not in K.legal_moves(off)
    with pytest.raises(IllegalMove, match="foundation_to_tableau is off"):
        K.play(off, jh)
    assert jh in K.legal_moves(on)
    after = K.play(on, jh)
    assert after.tableau[0][-1] == parse_card("JH") and len(after.foundations[2]) == 10


def test_win_and_play_does_not_mutate():
    pos = position(["KC", "", "", "", "", "", ""])
    assert not K.is_won(pos)
    before = deal_to_json(K.to_deal(pos))
    after = K.play(pos, mv("KC t1-f1"))
    assert K.is_won(after)
    assert deal_to_json(K.to_deal(pos)) == before


def test_fresh_deal_moves_and_round_trip():
    d = deal_from_seed("klondike", 5)
    pos = K.initial(d)
    assert deal_to_json(K.to_deal(pos)) == deal_to_json(d)
    assert Move("draw") in K.legal_moves(pos)
    assert "##" in K.render(pos)
