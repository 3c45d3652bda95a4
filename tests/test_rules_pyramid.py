"""Rule tests for the Pyramid reference rules (RULES.md, section Pyramid).

Most tests build a small table by hand with :func:`table`: only the pyramid
cards a test names are on the table, plus the cards they need above them so
that the table is legal ("filler", always covered, so never in play); every
other card is in the discard. That way each test sees only the cards of the
rule it checks.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from solver.cards import card_name, parse_card
from solver.deals import DealError, deal_from_json, deal_from_seed, deal_to_json
from solver.games.pyramid import rules as P
from solver.moves import Move, remove
from solver.options import resolve
from solver.replay import IllegalMove, replay
from tests.helpers import rules as rules_for


def C(name: str) -> int:
    return parse_card(name)


def rm(*pairs: tuple[str, str]) -> Move:
    """``rm(("KS", "p1.1"))``: a removal written with card names."""
    return remove(*[(C(card), zone) for card, zone in pairs])


def table(cells: dict[str, str] | None = None, stock=(), waste=(), options=None, passes_used=0):
    """A position with the named pyramid cells, stock and waste.

    ``cells`` maps zones like ``"p2.1"`` to card names. Cells the named ones
    cover (up to the apex) get filler cards; they are covered, so never exposed.
    With ``piles=3``, ``waste`` is three lists. Every other card is discarded.
    """
    cells = {k: C(v) for k, v in (cells or {}).items()}
    options = dict(options or {})
    used = set(cells.values()) | {C(c) for c in stock}
    if options.get("piles") == 3:
        waste_json = [list(p) for p in (waste or ([], [], []))]
        used |= {C(c) for p in waste_json for c in p}
    else:
        waste_json = list(waste)
        used |= {C(c) for c in waste_json}
    spare = [c for c in range(52) if c not in used]
    # Close the named cells upwards: a card on the table needs the cards it
    # covers, (r-1, c-1) and (r-1, c), to be on the table too.
    present = set()
    todo = [tuple(int(x) for x in z[1:].split(".")) for z in cells]
    while todo:
        r, c = todo.pop()
        if (r, c) in present or not (1 <= c <= r):
            continue
        present.add((r, c))
        if r > 1:
            todo += [(r - 1, c - 1), (r - 1, c)]
    rows = []
    for r in range(1, 8):
        row = []
        for c in range(1, r + 1):
            z = f"p{r}.{c}"
            if z in cells:
                row.append(card_name(cells[z]))
            elif (r, c) in present:
                row.append(card_name(spare.pop()))
            else:
                row.append(None)
        rows.append(row)
    # built as a Position, not read as a deal file: a deal file must be a table play can
    # reach (its removed cards Kings and pairs), and these tables test the rules, not that
    full = resolve("pyramid", options)
    waste_piles = tuple(tuple(C(c) for c in p) for p in waste_json) if full["piles"] == 3 else \
        (tuple(C(c) for c in waste_json),)
    return P.Position(pyramid=tuple(tuple(None if c is None else C(c) for c in row) for row in rows),
                      stock=tuple(C(c) for c in stock), waste=waste_piles, removed=tuple(spare),
                      passes_used=passes_used, piles=full["piles"], passes=full["passes"],
                      stock_top=full["stock_top"])


def names(cards) -> list[str]:
    return [card_name(c) for c in cards]


def snapshot(pos) -> dict:
    return deal_to_json(P.to_deal(pos))


# ---------------------------------------------------------------------------
# The deal
# ---------------------------------------------------------------------------
def test_module_is_registered():
    assert rules_for("pyramid") is P


def test_fresh_deal_only_bottom_row_exposed():
    deal = deal_from_seed("pyramid", 1)
    pos = P.initial(deal)
    assert [len([c for c in row if c is not None]) for row in pos.pyramid] == [1, 2, 3, 4, 5, 6, 7]
    assert len(pos.stock) == 24 and pos.waste == ((),) and pos.removed == ()
    assert [z for _, z in P.exposed(pos)] == [f"p7.{c}" for c in range(1, 8)]
    for move in P.legal_moves(pos):
        assert move.type in ("remove", "draw")
        assert all(z.startswith("p7.") for z in move.zones())
    assert P.legal_moves(pos)[-1] == Move("draw")
    assert not P.is_won(pos)


def test_initial_rejects_a_removed_card_that_is_still_covered():
    deal = P.to_deal(table({"p2.1": "5H", "p2.2": "8C"}))
    apex = deal.pyramid[0][0]
    deal.pyramid[0][0] = None  # the apex "removed" while p2.1 and p2.2 still cover it
    deal.foundations[0].append(apex)
    with pytest.raises(DealError):
        P.initial(deal)


# ---------------------------------------------------------------------------
# Exposure
# ---------------------------------------------------------------------------
def test_covered_card_becomes_removable_only_when_both_covers_are_gone():
    pos = table({"p1.1": "KC", "p2.1": "KD", "p2.2": "KH"})
    apex = rm(("KC", "p1.1"))
    assert apex not in P.legal_moves(pos)
    with pytest.raises(IllegalMove, match="covered"):
        P.play(pos, apex)
    pos = P.play(pos, rm(("KD", "p2.1")))
    # One cover gone is not enough.
    assert apex not in P.legal_moves(pos)
    with pytest.raises(IllegalMove):
        P.play(pos, apex)
    pos = P.play(pos, rm(("KH", "p2.2")))
    assert apex in P.legal_moves(pos)
    pos = P.play(pos, apex)
    assert P.is_won(pos)


def test_right_cover_alone_also_blocks():
    """(r, c) is covered by (r+1, c) *and* (r+1, c+1): check the right one too."""
    pos = table({"p2.1": "KC", "p3.1": "QS", "p3.2": "KD", "p3.3": "KH"})
    pos = P.play(pos, rm(("KD", "p3.2")))
    # p2.1 is covered by p3.1 (QS) only now; p2.2's covers are p3.2 (gone) and p3.3.
    assert rm(("KC", "p2.1")) not in P.legal_moves(pos)
    with pytest.raises(IllegalMove):
        P.play(pos, rm(("KC", "p2.1")))


def test_card_cannot_pair_with_the_card_covering_it():
    # 6H at the apex is covered by 7S (p2.1) alone: 6 + 7 = 13, but the 6 is
    # not exposed while the 7 lies on it, so the two cannot go together.
    pos = table({"p1.1": "6H", "p2.1": "7S"})
    pair = rm(("6H", "p1.1"), ("7S", "p2.1"))
    assert pair not in P.legal_moves(pos)
    with pytest.raises(IllegalMove, match="covered"):
        P.play(pos, pair)


# ---------------------------------------------------------------------------
# Removals
# ---------------------------------------------------------------------------
def test_king_alone_is_removed_to_the_discard():
    pos = table({"p2.1": "KS", "p2.2": "3D"})
    move = rm(("KS", "p2.1"))
    assert move in P.legal_moves(pos)
    after = P.play(pos, move)
    assert after.pyramid[1][0] is None
    assert after.removed[-1] == C("KS")
    assert P.to_deal(after).foundations[0][-1] == C("KS")


@pytest.mark.parametrize("card", ["QS", "JD", "TC", "5H", "AS"])
def test_other_cards_cannot_go_alone(card):
    pos = table({"p2.1": card, "p2.2": "KD"})
    assert rm((card, "p2.1")) not in P.legal_moves(pos)
    with pytest.raises(IllegalMove, match="alone"):
        P.play(pos, rm((card, "p2.1")))


@pytest.mark.parametrize("a,b", [("QH", "AC"), ("JS", "2D"), ("TD", "3S"),
                                 ("9C", "4H"), ("8S", "5C"), ("7H", "6D")])
def test_pyramid_pairs_adding_to_13(a, b):
    """The six pairs the rule text lists: Q+A, J+2, 10+3, 9+4, 8+5, 7+6."""
    pos = table({"p2.1": a, "p2.2": b})
    move = rm((a, "p2.1"), (b, "p2.2"))
    assert move in P.legal_moves(pos)
    after = P.play(pos, move)
    assert after.pyramid[1] == (None, None)
    assert set(after.removed[-2:]) == {C(a), C(b)}
    # The apex (filler) is now exposed.
    assert ("p1.1" in [z for _, z in P.exposed(after)])


def test_pyramid_and_waste_pair():
    """The rule text's example: a 5 exposed in the pyramid, an 8 just drawn."""
    pos = table({"p2.1": "5H", "p2.2": "QD"}, stock=["8C"])
    pos = P.play(pos, Move("draw"))
    move = rm(("5H", "p2.1"), ("8C", "waste"))
    assert move in P.legal_moves(pos)
    after = P.play(pos, move)
    assert after.waste == ((),) and after.pyramid[1][0] is None


@pytest.mark.parametrize("a,b", [("5H", "7C"), ("QD", "2S"), ("KS", "AC"), ("6H", "6D")])
def test_pairs_not_adding_to_13_are_refused(a, b):
    pos = table({"p2.1": a, "p2.2": b})
    move = rm((a, "p2.1"), (b, "p2.2"))
    assert move not in P.legal_moves(pos)
    with pytest.raises(IllegalMove, match="not 13"):
        P.play(pos, move)


def test_remove_must_name_the_card_that_is_there():
    pos = table({"p2.1": "KS", "p2.2": "3D"})
    with pytest.raises(IllegalMove, match="not KH"):
        P.play(pos, rm(("KH", "p2.1")))
    with pytest.raises(IllegalMove, match="already removed"):
        P.play(P.play(pos, rm(("KS", "p2.1"))), rm(("KS", "p2.1")))


def test_removal_is_optional():
    pos = table({"p2.1": "KS", "p2.2": "3D"}, stock=["4C"])
    assert Move("draw") in P.legal_moves(pos)
    assert P.play(pos, Move("draw")).pyramid[1][0] == C("KS")


# ---------------------------------------------------------------------------
# Waste
# ---------------------------------------------------------------------------
def test_waste_card_below_top_is_not_usable_until_uncovered():
    pos = table({"p2.1": "5H", "p2.2": "JH"}, waste=["8C", "2D"])
    below = rm(("5H", "p2.1"), ("8C", "waste"))
    assert below not in P.legal_moves(pos)
    with pytest.raises(IllegalMove, match="2D"):
        P.play(pos, below)
    pos = P.play(pos, rm(("JH", "p2.2"), ("2D", "waste")))
    assert below in P.legal_moves(pos)
    P.play(pos, below)


def test_two_cards_of_one_waste_pile_cannot_pair():
    pos = table({"p2.1": "QS", "p2.2": "QH"}, waste=["6C", "7D"])
    move = Move("remove", cards=(C("6C"), C("7D")), from_="waste,waste")
    assert all(m.zones() != ("waste", "waste") for m in P.legal_moves(pos))
    with pytest.raises(IllegalMove, match="top card"):
        P.play(pos, move)


def test_draw_puts_card_on_waste_top():
    pos = table({"p2.1": "QS", "p2.2": "QH"}, stock=["3C", "9D"], waste=["4S"])
    pos = P.play(pos, Move("draw"))
    assert pos.stock == (C("9D"),) and pos.waste == ((C("4S"), C("3C")),)
    assert ("3C", "waste") in [(card_name(c), z) for c, z in P.exposed(pos)]
    assert ("4S", "waste") not in [(card_name(c), z) for c, z in P.exposed(pos)]


def test_draw_cards_must_match_the_cards_drawn():
    pos = table({"p2.1": "QS", "p2.2": "QH"}, stock=["3C", "9D"])
    assert P.play(pos, Move("draw", cards=(C("3C"),))) == P.play(pos, Move("draw"))
    with pytest.raises(IllegalMove, match="3C"):
        P.play(pos, Move("draw", cards=(C("9D"),)))


def test_no_draw_from_an_empty_stock():
    pos = table({"p2.1": "QS", "p2.2": "QH"}, waste=["3C"], options={"passes": None})
    assert Move("draw") not in P.legal_moves(pos)
    with pytest.raises(IllegalMove, match="empty"):
        P.play(pos, Move("draw"))


# ---------------------------------------------------------------------------
# Passes
# ---------------------------------------------------------------------------
def test_one_pass_no_redeal_but_play_goes_on():
    """passes=1 (default): no redeal; after the stock is out, removals remain."""
    pos = table({"p2.1": "5H", "p2.2": "QD"}, stock=["8C"], waste=["AS"])
    pos = P.play(pos, Move("draw"))
    moves = P.legal_moves(pos)
    assert Move("redeal") not in moves and Move("draw") not in moves
    assert rm(("5H", "p2.1"), ("8C", "waste")) in moves
    with pytest.raises(IllegalMove, match="redeal"):
        P.play(pos, Move("redeal"))


def test_three_passes_allow_exactly_two_redeals_unshuffled():
    pos = table({"p2.1": "QS", "p2.2": "QH"}, stock=["3C", "9D"], options={"passes": 3})
    for done in range(2):
        pos = P.play(P.play(pos, Move("draw")), Move("draw"))
        assert P.legal_moves(pos)[-1] == Move("redeal")
        pos = P.play(pos, Move("redeal"))
        # Turned over unshuffled: the card drawn first comes out first again.
        assert names(pos.stock) == ["3C", "9D"] and pos.waste == ((),)
        assert pos.passes_used == done + 1
    pos = P.play(P.play(pos, Move("draw")), Move("draw"))
    assert Move("redeal") not in P.legal_moves(pos)
    with pytest.raises(IllegalMove, match="passes=3"):
        P.play(pos, Move("redeal"))


def test_unlimited_passes():
    pos = table({"p2.1": "QS", "p2.2": "QH"}, stock=["3C"], options={"passes": None})
    for _ in range(20):
        pos = P.play(P.play(pos, Move("draw")), Move("redeal"))
    assert pos.passes_used == 20 and names(pos.stock) == ["3C"]


def test_no_redeal_while_stock_has_cards_or_waste_is_empty():
    pos = table({"p2.1": "QS", "p2.2": "QH"}, stock=["3C", "9D"], options={"passes": None})
    pos = P.play(pos, Move("draw"))
    assert Move("redeal") not in P.legal_moves(pos)
    with pytest.raises(IllegalMove, match="not empty"):
        P.play(pos, Move("redeal"))
    empty = table({"p2.1": "QS", "p2.2": "QH"}, options={"passes": None})
    assert P.legal_moves(empty) == []
    with pytest.raises(IllegalMove, match="waste is empty"):
        P.play(empty, Move("redeal"))


def test_redeal_after_waste_cards_were_removed():
    """Only the cards still on the waste go back into the stock."""
    pos = table({"p2.1": "5H", "p2.2": "QD"}, stock=["2C", "8C"], options={"passes": 2})
    pos = P.play(P.play(pos, Move("draw")), Move("draw"))
    pos = P.play(pos, rm(("5H", "p2.1"), ("8C", "waste")))
    pos = P.play(pos, Move("redeal"))
    assert names(pos.stock) == ["2C"]


# ---------------------------------------------------------------------------
# Three waste piles
# ---------------------------------------------------------------------------
THREE = {"piles": 3}


def test_three_piles_draw_distributes_and_keeps_the_order():
    stock = ["AC", "2C", "3C", "4C", "5C"]
    pos = table({"p2.1": "QS", "p2.2": "QH"}, stock=stock, options=THREE)
    pos = P.play(pos, Move("draw"))
    assert [names(p) for p in pos.waste] == [["AC"], ["2C"], ["3C"]]
    # Fewer than three at the end: the first goes on pile 1 again, the second on pile 2.
    pos = P.play(pos, Move("draw", cards=(C("4C"), C("5C"))))
    assert [names(p) for p in pos.waste] == [["AC", "4C"], ["2C", "5C"], ["3C"]]
    assert pos.stock == ()
    assert Move("draw") not in P.legal_moves(pos) and Move("redeal") not in P.legal_moves(pos)
    assert [(card_name(c), z) for c, z in P.exposed(pos) if z.startswith("waste")] == \
        [("4C", "waste1"), ("5C", "waste2"), ("3C", "waste3")]


def test_three_piles_draw_cards_must_match():
    pos = table({"p2.1": "QS", "p2.2": "QH"}, stock=["AC", "2C", "3C", "4C"], options=THREE)
    with pytest.raises(IllegalMove):
        P.play(pos, Move("draw", cards=(C("AC"),)))


def test_three_piles_tops_pair_with_each_other_and_the_pyramid():
    pos = table({"p2.1": "5H", "p2.2": "QS"}, options=THREE,
                waste=[["KC", "6C"], ["7D"], ["8S"]])
    moves = P.legal_moves(pos)
    assert rm(("6C", "waste1"), ("7D", "waste2")) in moves
    assert rm(("5H", "p2.1"), ("8S", "waste3")) in moves
    assert rm(("KC", "waste1")) not in moves  # under the 6C
    pos = P.play(pos, rm(("6C", "waste1"), ("7D", "waste2")))
    assert rm(("KC", "waste1")) in P.legal_moves(pos)
    assert [names(p) for p in pos.waste] == [["KC"], [], ["8S"]]


def test_three_piles_never_redeal_whatever_passes_says():
    """RULES.md: with three piles there is no redeal. Options refuse piles=3 with
    passes != 1; the rules refuse it on their own too."""
    from dataclasses import replace
    pos = table({"p2.1": "5H", "p2.2": "QS"}, options=THREE, waste=[["8C"], [], []])
    pos = replace(pos, passes=None)
    assert Move("redeal") not in P.legal_moves(pos)
    with pytest.raises(IllegalMove, match="no redeal"):
        P.play(pos, Move("redeal"))


def test_three_piles_no_redeal_and_zone_names():
    pos = table({"p2.1": "5H", "p2.2": "QS"}, options=THREE, waste=[["8C"], [], []])
    with pytest.raises(IllegalMove, match="no redeal"):
        P.play(pos, Move("redeal"))
    with pytest.raises(IllegalMove, match="waste"):
        P.play(pos, rm(("5H", "p2.1"), ("8C", "waste")))  # piles=3 has waste1..3
    one = table({"p2.1": "5H", "p2.2": "QS"}, waste=["8C"])
    with pytest.raises(IllegalMove, match="waste1"):
        P.play(one, rm(("5H", "p2.1"), ("8C", "waste1")))


# ---------------------------------------------------------------------------
# stock_top
# ---------------------------------------------------------------------------
def test_stock_top_card_is_removable_only_with_the_option():
    cells = {"p2.1": "5H", "p2.2": "QS"}
    move = rm(("5H", "p2.1"), ("8C", "stock"))
    plain = table(cells, stock=["8C", "KD"])
    assert move not in P.legal_moves(plain)
    with pytest.raises(IllegalMove, match="stock_top"):
        P.play(plain, move)
    top = table(cells, stock=["8C", "KD"], options={"stock_top": True})
    assert move in P.legal_moves(top)
    after = P.play(top, move)
    assert names(after.stock) == ["KD"] and after.waste == ((),)
    # The King is now the next stock card and goes alone.
    assert rm(("KD", "stock")) in P.legal_moves(after)


def test_stock_top_exposes_only_the_next_card():
    pos = table({"p2.1": "5H", "p2.2": "QS"}, stock=["2D", "8C"], options={"stock_top": True})
    move = rm(("5H", "p2.1"), ("8C", "stock"))
    assert move not in P.legal_moves(pos)
    with pytest.raises(IllegalMove, match="2D"):
        P.play(pos, move)


def test_stock_top_pairs_with_waste_top():
    pos = table({"p2.1": "5H", "p2.2": "QS"}, stock=["9C", "4D"], options={"stock_top": True})
    pos = P.play(pos, Move("draw"))  # 9C onto the waste, 4D is next in the stock
    assert rm(("9C", "waste"), ("4D", "stock")) in P.legal_moves(pos)


# ---------------------------------------------------------------------------
# Winning and the end of the game
# ---------------------------------------------------------------------------
def test_win_when_pyramid_cleared_even_with_stock_left():
    pos = table({"p1.1": "KS"}, stock=["AC", "QD"], waste=["2C"])
    assert not P.is_won(pos)
    pos = P.play(pos, rm(("KS", "p1.1")))
    assert P.is_won(pos)
    assert pos.stock and pos.waste[0]
    # The game ends when the pyramid is cleared: no further moves.
    assert P.legal_moves(pos) == []
    with pytest.raises(IllegalMove, match="over"):
        P.play(pos, Move("draw"))


def test_not_won_while_one_card_remains():
    pos = table({"p2.1": "KS", "p2.2": "KH"})
    pos = P.play(P.play(pos, rm(("KS", "p2.1"))), rm(("KH", "p2.2")))
    assert not P.is_won(pos)  # the apex filler is still there


def test_other_move_types_are_refused():
    pos = table({"p2.1": "KS", "p2.2": "KH"}, stock=["AC"])
    for move in (Move("deal"), Move("move", card=C("KS"), from_="p2.1", to="p2.2")):
        with pytest.raises(IllegalMove, match="no"):
            P.play(pos, move)


# ---------------------------------------------------------------------------
# Values, round trips, picture
# ---------------------------------------------------------------------------
def test_play_does_not_change_its_input():
    pos = table({"p2.1": "5H", "p2.2": "KS"}, stock=["8C", "AD"], waste=["QC"],
                options={"passes": 2, "stock_top": True})
    before = snapshot(pos)
    copy = replace(pos)
    for move in P.legal_moves(pos):
        P.play(pos, move)
    P.play(P.play(pos, Move("draw")), Move("draw"))
    assert snapshot(pos) == before and pos == copy


def _random_line(seed: int, options: dict, steps: int):
    rng = random.Random(seed)
    pos = P.initial(deal_from_seed("pyramid", seed, options))
    seen = [pos]
    for _ in range(steps):
        moves = P.legal_moves(pos)
        if not moves:
            break
        pos = P.play(pos, rng.choice(moves))
        seen.append(pos)
    return seen


VARIANTS = [{}, {"passes": 3}, {"passes": None, "stock_top": True}, {"piles": 3},
            {"piles": 3, "stock_top": True}]


@pytest.mark.parametrize("options", VARIANTS)
def test_to_deal_round_trip(options):
    for pos in _random_line(5, options, 60):
        deal = P.to_deal(pos)
        assert P.initial(deal) == pos
        again = P.initial(deal_from_json(deal_to_json(deal)))
        assert again == pos
        assert P.legal_moves(again) == P.legal_moves(pos)
        assert deal_to_json(P.to_deal(again)) == deal_to_json(deal)


@pytest.mark.parametrize("options", VARIANTS)
def test_legal_moves_agree_with_play_and_keep_the_deck(options):
    """On random lines: every listed move plays; every unlisted removal is refused;
    all 52 cards stay on the table; the order is removes, then draw, then redeal."""
    for seed in range(3):
        for pos in _random_line(seed, options, 80):
            moves = P.legal_moves(pos)
            assert moves == P.legal_moves(pos)
            kinds = [m.type for m in moves]
            assert kinds == sorted(kinds, key=["remove", "draw", "redeal"].index)
            for move in moves:
                after = P.play(pos, move)
                cards = [c for row in after.pyramid for c in row if c is not None]
                cards += list(after.stock) + [c for p in after.waste for c in p] + list(after.removed)
                assert sorted(cards) == list(range(52))
            exposed = P.exposed(pos)
            candidates = [remove(e) for e in exposed] + \
                [remove(a, b) for i, a in enumerate(exposed) for b in exposed[i + 1:]]
            for move in candidates:
                if move in moves:
                    continue
                with pytest.raises(IllegalMove):
                    P.play(pos, move)


def test_replay_uses_these_rules():
    deal = deal_from_seed("pyramid", 2)
    line = [Move("draw"), Move("draw")]
    pos, error = replay(deal, line)
    assert error is None and len(pos.stock) == 22
    pos, error = replay(deal, [Move("redeal")])
    assert error is not None and error[0] == 1


def test_render_shows_cards_blanks_stock_and_waste():
    pos = table({"p2.1": "KS", "p2.2": "7H"}, stock=["8C", "AD"], waste=["QC", "4D"])
    text = P.render(pos)
    assert "K♠" in text and "7♥" in text
    assert "4♦" in text and "Q♣" not in text  # only the waste top shows
    assert "stock: 2 cards" in text
    after = P.play(pos, rm(("KS", "p2.1")))
    text = P.render(after)
    assert "K♠" not in text and "7♥" in text
    # The removed card leaves a blank in its place: 7H keeps its column.
    row2 = [line for line in text.splitlines() if line.startswith("2 ")][0]
    assert row2.index("7♥") == [line for line in P.render(pos).splitlines()
                                if line.startswith("2 ")][0].index("7♥")


def test_render_fresh_deal_is_a_triangle():
    pos = P.initial(deal_from_seed("pyramid", 1))
    rows = P.render(pos).splitlines()[1:8]
    for r, line in enumerate(rows, 1):
        assert len(line.split()) == r + 1  # row label + r cards
    # Each row starts two columns further left than the one above.
    starts = [len(line) - len(line[1:].lstrip()) for line in rows]
    assert [a - b for a, b in zip(starts, starts[1:])] == [2] * 6
