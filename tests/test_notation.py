"""Readable notation: every legal move of every game reads back to itself, on random playouts."""

import random

import pytest

from solver.deals import deal_from_seed
from solver.moves import Move, MoveFormatError, parse_move
from solver.notation import parse_any, parse_readable, readable
from tests.helpers import rules

VARIANTS = [
    ("klondike", {}),
    ("klondike", {"draw": 3, "passes": None, "foundation_to_tableau": True}),
    ("pyramid", {}),
    ("pyramid", {"piles": 3}),
    ("pyramid", {"passes": None, "stock_top": True}),
    ("twenty", {}),
    ("ladder", {}),
]


def playout_tables(game, options, seed, length=150):
    """The tables of a random playout (seeded), preferring non-draw moves so that cards move about."""
    r = rules(game)
    rng = random.Random(seed)
    pos = r.initial(deal_from_seed(game, seed, options))
    for _ in range(length):
        legal = r.legal_moves(pos)
        if not legal:
            return
        yield pos, legal
        plays = [m for m in legal if m.type in ("move", "remove")]
        pos = r.play(pos, rng.choice(plays if plays and rng.random() < 0.7 else legal))


@pytest.mark.parametrize("game,options", VARIANTS)
def test_every_legal_move_reads_back(game, options):
    r = rules(game)
    seen_types = set()
    for seed in range(1, 9):
        for pos, legal in playout_tables(game, options, seed):
            deal = r.to_deal(pos)
            for m in legal:
                text = readable(m, deal)
                assert parse_readable(text, deal) == m, text
                assert parse_any(text, deal) == m, text
                assert parse_move(str(m)) == m
                assert parse_any(str(m), deal) == m
                seen_types.add((m.type, m.from_[0] if m.from_ else "", m.to[0] if m.to else "", m.count > 1))
    # the playouts met the move kinds the game has
    kinds = {t for t, *_ in seen_types}
    expected = {"klondike": {"move", "draw"}, "pyramid": {"remove", "draw"},
                "twenty": {"move", "deal"}, "ladder": {"move", "draw"}}[game]
    assert expected <= kinds


def test_readable_forms_match_the_issue():
    d = deal_from_seed("klondike", 2)
    r = rules("klondike")
    pos = r.initial(d)
    # find a tableau-to-tableau move and check the wording against the table
    for seed in range(1, 40):
        for pos, legal in playout_tables("klondike", {}, seed, 60):
            for m in legal:
                if m.type == "move" and m.from_[0] == "t" and m.to[0] == "t" and pos.tableau[int(m.to[1:]) - 1]:
                    text = readable(m, r.to_deal(pos))
                    under = pos.tableau[int(m.to[1:]) - 1][-1]
                    from solver.cards import pretty
                    expected = f"from pile {m.from_[1:]} onto {pretty(under)} in pile {m.to[1:]}"
                    assert text.startswith(pretty(m.card)) and text.endswith(expected)
                    return
    pytest.fail("no tableau move met")


def test_pyramid_removal_wording():
    d = deal_from_seed("pyramid", 1)
    from solver.moves import remove
    from tests.helpers import cards
    kc, = cards("KC")
    assert readable(remove((kc, "p7.1")), d) == "remove K♣ (row 7)"
    q, a = cards("QH AC")
    assert readable(Move("remove", cards=(q, a), from_="p4.2,waste"), d) == "remove Q♥ (row 4) with A♣ (waste)"
    # the word form names no column: reading it back finds the card in its row
    text = "remove K♣ (row 7)"
    assert parse_readable(text, d) == remove((kc, "p7.1"))


@pytest.mark.parametrize("text,fragment", [
    ("7♠ from pile 3 onto 8♥ in pile 5", "is not in pile 3"),
    ("remove K♣ (row 6)", "not in row 6"),
    ("jump", "cannot read move"),
    ("Z♠ from pile 3 onto 8♥ in pile 5", "cannot read move"),
])
def test_bad_readable_moves_say_why(text, fragment):
    game = "pyramid" if "remove" in text else "klondike"
    d = deal_from_seed(game, 1)
    with pytest.raises(MoveFormatError, match=fragment):
        parse_readable(text, d)


def test_a_wrong_target_card_is_named():
    d = deal_from_seed("klondike", 1)
    r = rules("klondike")
    top5 = d.tableau[4][-1]
    # claim some other card lies on pile 5
    from solver.cards import card_name, pretty
    other = (top5 + 1) % 52
    mover = d.tableau[2][-1]
    text = f"{pretty(mover)} from pile 3 onto {pretty(other)} in pile 5"
    with pytest.raises(MoveFormatError, match=f"the top of pile 5 is {card_name(top5)}"):
        parse_readable(text, d)
    assert r  # rules module exists for the game
