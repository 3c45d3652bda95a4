"""Golf reference rules (solver/games/golf/rules.py) and layout against RULES.md and FORMATS.md.

Positions are built by hand with :func:`table`: the foundation given by its top
card, the piles that matter by card names, the others empty (a Golf pile is
never refilled, so an empty pile is an ordinary sight).
"""

import json
import random

import pytest

from solver.cards import card_name, parse_card
from solver.deals import Deal, DealError, deal_from_json, deal_from_seed, deal_to_json, shuffled_deck
from solver.games.golf import rules as G
from solver.moves import Move
from solver.registry import game
from solver.replay import IllegalMove, replay
from tests.helpers import rules as rules_for

from .helpers import cards, mv

DEFAULT = {"queens_on_kings": False, "wrap": False}
ALL_OPTIONS = [{"queens_on_kings": q, "wrap": w} for q in (False, True) for w in (False, True)]


def table(piles: dict | None = None, top: str = "5S", stock: str = "", under: str = "", **options) -> G.Position:
    """A position: ``piles`` maps pile number -> cards (bottom to top); the foundation holds
    ``under`` then ``top``; the options default to off."""
    tableau = [[] for _ in range(7)]
    for i, text in (piles or {}).items():
        tableau[i - 1] = cards(text)
    return G.initial(Deal(game="golf", options={**DEFAULT, **options}, tableau=tableau,
                          foundations=[cards(under) + [parse_card(top)]], stock=cards(stock)))


def c(name: str) -> int:
    return parse_card(name)


def onto(card: str, top: str, **options) -> bool:
    """Whether the rules let ``card`` (top of pile 1) go onto the foundation top ``top``."""
    pos = table({1: card}, top=top, **options)
    legal = mv(f"{card} t1-f1") in G.legal_moves(pos)
    try:
        G.play(pos, mv(f"{card} t1-f1"))
        played = True
    except IllegalMove:
        played = False
    assert legal == played == G.fits(c(card), c(top), options.get("queens_on_kings", False),
                                     options.get("wrap", False))
    return legal


# ---------------------------------------------------------------------------
# The deal (layout)
# ---------------------------------------------------------------------------
def test_the_deal_follows_the_documented_order():
    deck = shuffled_deck("golf", 7)
    d = deal_from_seed("golf", 7)
    for row in range(5):
        for pile in range(7):
            assert d.tableau[pile][row] == deck[row * 7 + pile]   # deck[0..6] are the bottoms
    assert d.foundations == [[deck[35]]]
    assert d.stock == deck[36:]                                   # deck[36] comes out first
    assert [len(p) for p in d.tableau] == [5] * 7 and len(d.stock) == 16
    assert d.options == DEFAULT


def test_game_declares_its_options_and_the_four_variants():
    g = game("golf")
    assert [(o.name, o.default, o.kind) for o in g.options] == [("queens_on_kings", False, "flag"),
                                                               ("wrap", False, "flag")]
    assert g.variants[0] == DEFAULT
    assert sorted(map(json.dumps, g.variants)) == sorted(map(json.dumps, ALL_OPTIONS))
    assert g.decks == 1 and rules_for("golf") is G


@pytest.mark.parametrize("options", ALL_OPTIONS)
def test_deal_json_round_trips(options):
    d = deal_from_seed("golf", 3, options)
    obj = deal_to_json(d)
    assert set(obj) == {"game", "options", "seed", "tableau", "foundations", "stock"}
    assert obj["options"] == options and len(obj["foundations"]) == 1 and len(obj["foundations"][0]) == 1
    text = json.dumps(obj)
    back = deal_from_json(json.loads(text))
    assert back == d and deal_to_json(back) == obj


def _fresh(seed=5) -> dict:
    return deal_to_json(deal_from_seed("golf", seed))


def test_a_pile_of_six_is_refused():
    obj = _fresh()
    obj["tableau"][0].append(obj["stock"].pop())
    with pytest.raises(DealError, match="tableau pile 1: 6 cards, at most 5"):
        deal_from_json(obj)


def test_more_than_sixteen_stock_cards_are_refused():
    obj = _fresh()
    obj["stock"].append(obj["tableau"][2].pop())
    with pytest.raises(DealError, match="stock: 17 cards, at most 16"):
        deal_from_json(obj)


def test_an_empty_foundation_is_refused():
    d = deal_from_seed("golf", 5)
    empty = Deal(game="golf", options=DEFAULT, tableau=d.tableau, foundations=[[]], stock=d.stock)
    with pytest.raises(DealError, match="never empty"):
        game("golf").layout.validate(empty)
    with pytest.raises(DealError, match="empty"):
        G.initial(empty)


def test_wrong_numbers_of_piles_and_foundations_are_refused():
    obj = _fresh()
    obj["tableau"].append([])
    with pytest.raises(DealError, match="expected 7 piles"):
        deal_from_json(obj)
    obj = _fresh()
    obj["foundations"].append([])
    with pytest.raises(DealError, match="expected 1 piles"):
        deal_from_json(obj)


def _misfit_deal():
    """A fresh deal (seed and pile found by search) whose next stock card S does not fit the
    foundation's card F and whose pile 1 top X fits neither F nor S."""
    for seed in range(1, 200):
        d = deal_from_seed("golf", seed)
        f, s, x = d.foundations[0][0], d.stock[0], d.tableau[0][-1]
        if not G.fits(s, f, False, False) and not G.fits(x, f, False, False) and not G.fits(x, s, False, False):
            return d
    raise AssertionError("no such deal")


def test_a_foundation_no_play_could_build_is_refused():
    """Each foundation card after the first fits the one under it (a tableau card) or came
    from the stock: no more cards that do not fit than cards drawn."""
    d = _misfit_deal()
    f, s, x = d.foundations[0][0], d.stock[0], d.tableau[0][-1]
    # X played on F with nothing drawn: no play does that
    obj = deal_to_json(d)
    obj["tableau"][0].pop()
    obj["foundations"] = [[card_name(f), card_name(x)]]
    with pytest.raises(DealError, match=f"card 2: {card_name(x)} does not fit on {card_name(f)}: 1 .* only 0 can"):
        deal_from_json(obj)
    # S drawn onto F: one misfit, one card drawn
    obj = deal_to_json(d)
    obj["stock"].pop(0)
    obj["foundations"] = [[card_name(f), card_name(s)]]
    assert deal_from_json(obj).foundations == [[f, s]]
    # then X onto S: two misfits, one card drawn
    obj["tableau"][0].pop()
    obj["foundations"][0].append(card_name(x))
    with pytest.raises(DealError, match="2 foundation cards do not fit the card under them, but only 1 can"):
        deal_from_json(obj)


def test_zones_of_moves():
    d = deal_from_seed("golf", 2)
    lay = game("golf").layout
    assert lay.zone_cards(d, "t3") == d.tableau[2] and lay.zone_cards(d, "f1") == d.foundations[0]
    assert lay.zone_cards(d, "stock")[-1] == d.stock[0]
    assert lay.zone_cards(d, "t8") is None and lay.zone_cards(d, "f2") is None
    assert game("golf").zone_pattern().match("t7") and not game("golf").zone_pattern().match("f2")


# ---------------------------------------------------------------------------
# What goes on what
# ---------------------------------------------------------------------------
def test_one_rank_above_or_below_whatever_the_suits():
    assert onto("4H", "5S") and onto("6D", "5S") and onto("6S", "5S")
    assert not onto("5H", "5S") and not onto("7S", "5S") and not onto("3S", "5S")


def test_nothing_on_a_king_by_default():
    assert not onto("QH", "KS") and not onto("AH", "KS") and not onto("JH", "KS")
    pos = table({1: "QH", 2: "AC", 3: "QD"}, top="KS", stock="9D")
    assert G.legal_moves(pos) == [Move("draw")]          # only the draw goes on
    with pytest.raises(IllegalMove, match="nothing may be played on a King"):
        G.play(pos, mv("QH t1-f1"))


def test_queens_on_kings_lets_a_queen_and_only_a_queen_on_a_king():
    assert onto("QH", "KS", queens_on_kings=True)
    assert not onto("AH", "KS", queens_on_kings=True)
    with pytest.raises(IllegalMove, match="only a Queen may be played on a King"):
        G.play(table({1: "AH"}, top="KS", queens_on_kings=True), mv("AH t1-f1"))


def test_wrap_lets_an_ace_on_a_king_and_a_king_on_an_ace():
    assert onto("AH", "KS", wrap=True) and onto("KH", "AS", wrap=True)
    assert not onto("QH", "KS", wrap=True)      # wrap alone: on a King only an Ace
    with pytest.raises(IllegalMove, match="only an Ace may be played on a King"):
        G.play(table({1: "QH"}, top="KS", wrap=True), mv("QH t1-f1"))


def test_ace_and_king_are_not_adjacent_without_wrap():
    assert not onto("KH", "AS") and not onto("KH", "AS", queens_on_kings=True)
    with pytest.raises(IllegalMove, match="only with option wrap"):
        G.play(table({1: "KH"}, top="AS"), mv("KH t1-f1"))
    assert onto("2H", "AS") and onto("2H", "AS", wrap=True)


def test_both_options_a_queen_or_an_ace_on_a_king():
    assert onto("QH", "KS", queens_on_kings=True, wrap=True)
    assert onto("AH", "KS", queens_on_kings=True, wrap=True)
    assert not onto("JH", "KS", queens_on_kings=True, wrap=True)
    assert not onto("2H", "KS", queens_on_kings=True, wrap=True)


@pytest.mark.parametrize("options", ALL_OPTIONS)
def test_a_king_always_goes_on_a_queen(options):
    # the block is about what goes *on* a King; a King goes on a Queen in every variant
    assert onto("KH", "QS", **options) and onto("JH", "QS", **options)


@pytest.mark.parametrize("options", ALL_OPTIONS)
def test_the_whole_rank_rule(options):
    qok, wrap = options["queens_on_kings"], options["wrap"]
    for t in range(1, 14):
        for r in range(1, 14):
            want = abs(r - t) == 1
            if t == 13:
                want = (r == 12 and qok) or (r == 1 and wrap)
            elif t == 1 and r == 13:
                want = wrap
            assert G.fits(c("A23456789TJQK"[r - 1] + "H"), c("A23456789TJQK"[t - 1] + "C"), qok, wrap) == want


# ---------------------------------------------------------------------------
# Moves
# ---------------------------------------------------------------------------
def test_only_a_pile_top_moves_one_card_at_a_time():
    pos = table({1: "4H 9C"})
    with pytest.raises(IllegalMove, match="covered"):
        G.play(pos, mv("4H t1-f1"))
    with pytest.raises(IllegalMove, match="one card"):
        G.play(table({1: "4H"}), Move("move", card=c("4H"), from_="t1", to="f1", count=2))
    with pytest.raises(IllegalMove, match="holds no 6H"):
        G.play(pos, mv("6H t1-f1"))
    with pytest.raises(IllegalMove, match="empty"):
        G.play(pos, mv("6H t2-f1"))


def test_nothing_goes_onto_the_tableau_or_leaves_the_foundation():
    pos = table({1: "4H", 2: "9C"})
    with pytest.raises(IllegalMove, match="nothing is ever put on a tableau pile"):
        G.play(pos, mv("4H t1-t2"))
    with pytest.raises(IllegalMove, match="never leave"):
        G.play(pos, mv("5S f1-t3"))
    with pytest.raises(IllegalMove, match="by a draw"):
        G.play(table(stock="4D"), mv("4D stock-f1"))
    for m in (Move("deal"), Move("redeal")):
        with pytest.raises(IllegalMove):
            G.play(pos, m)


def test_the_draw_at_any_time_until_the_stock_is_out():
    pos = table({1: "4H"}, stock="KD 2C")
    assert G.legal_moves(pos) == [mv("4H t1-f1"), Move("draw")]   # a draw while a pile move fits
    after = G.play(pos, Move("draw"))
    assert after.foundation[-1] == c("KD") and after.stock == (c("2C"),)
    # a drawn card goes on anything, even on a King, and whatever the rank
    after = G.play(after, Move("draw", cards=(c("2C"),)))
    assert after.foundation[-1] == c("2C") and after.stock == ()
    assert G.legal_moves(after) == []
    with pytest.raises(IllegalMove, match="no redeal"):
        G.play(after, Move("draw"))


def test_a_draw_naming_cards_must_name_the_next_card():
    pos = table(stock="KD 2C")
    with pytest.raises(IllegalMove, match="the draw turns KD, not 2C"):
        G.play(pos, Move("draw", cards=(c("2C"),)))


def test_legal_moves_order_is_fixed():
    pos = table({5: "6H", 2: "4C", 3: "9D", 7: "2S 6C"}, stock="TD")
    assert [str(m) for m in G.legal_moves(pos)] == ["4C t2-f1", "6H t5-f1", "6C t7-f1", "draw"]


# ---------------------------------------------------------------------------
# Winning, purity, round trips, picture
# ---------------------------------------------------------------------------
def test_won_when_the_tableau_is_empty_even_with_stock_left():
    pos = table({4: "6H"}, stock="9D 8D")
    assert not G.is_won(pos)
    won = G.play(pos, mv("6H t4-f1"))
    assert G.is_won(won) and len(won.stock) == 2


def test_play_does_not_mutate_its_input():
    pos = table({3: "4S 6D"}, stock="9C 8D")
    before = json.dumps(deal_to_json(G.to_deal(pos)))
    G.play(pos, mv("6D t3-f1"))
    G.play(pos, Move("draw"))
    assert json.dumps(deal_to_json(G.to_deal(pos))) == before


@pytest.mark.parametrize("options", ALL_OPTIONS)
def test_random_playouts_keep_the_deck_and_round_trip(options):
    rng = random.Random(json.dumps(options))
    for seed in range(1, 31):
        d = deal_from_seed("golf", seed, options)
        pos = G.initial(d)
        assert deal_to_json(G.to_deal(pos)) == deal_to_json(d)
        while True:
            back = deal_from_json(json.loads(json.dumps(deal_to_json(G.to_deal(pos)))))   # validated
            assert G.initial(back) == pos and back.options == options
            assert sum(map(len, pos.tableau)) + len(pos.foundation) + len(pos.stock) == 52
            moves = G.legal_moves(pos)
            assert len(set(moves)) == len(moves)
            if not moves:
                break
            pos = G.play(pos, rng.choice(moves))
        assert not pos.stock or G.is_won(pos)    # a game ends with the stock out, or won


def test_initial_refuses_tables_golf_cannot_have():
    with pytest.raises(DealError, match="at most 5"):
        table({1: "AC 2C 3C 4C 5C 6C"})
    with pytest.raises(DealError, match="appears 2 times"):
        table({1: "AC"}, stock="AC")
    with pytest.raises(DealError, match="at most 16"):
        table(stock=" ".join(card_name(x) for x in range(17)), top="KS")
    with pytest.raises(DealError, match="not a Golf deal"):
        G.initial(Deal(game="twenty", options={}, tableau=[[]] * 7, foundations=[[1]]))
    with pytest.raises(DealError, match="unknown option"):
        G.initial(Deal(game="golf", options={"draw": 3}, tableau=[[]] * 7, foundations=[[1]]))


def test_render_shows_the_cards():
    pos = table({1: "9H 4D", 2: "QS"}, top="5C", stock="9C 8D", wrap=True)
    text = G.render(pos)
    assert "9♥" in text and "4♦" in text and "Q♠" in text and "5♣" in text
    assert "Stock: 2 cards, next 9♣" in text
    assert "every pile empty" in G.render(table({}))


def test_replay_reports_the_bad_move():
    d = G.to_deal(table({3: "4S", 4: "KS"}, stock="9C"))
    pos, bad = replay(d, [mv("4S t3-f1"), mv("KS t4-f1")])
    assert bad is not None and bad[0] == 2 and "does not go on 4S" in bad[2]
    assert pos.foundation[-1] == c("4S")
