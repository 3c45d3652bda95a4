"""Pyramid kernels against the reference rules: brute force, reductions, shortest lines.

What every game must pass (kernel moves equal the rules' moves with reductions off,
won lines certified, the key, deal JSON, the CLI) is in ``tests/test_game_contract.py``;
this file holds what is particular to Pyramid's kernels.

* On small positions (few cards left), the solver's verdict equals a
  brute-force search of every reachable position with the reference rules.
* Verdicts with all reductions agree with each reduction switched off.
* ``solve`` decides seeds 1..200 of each studied variant and certifies every
  won line with the reference rules.
"""

import random
from functools import lru_cache

import numpy as np
import pytest

from solver.cards import card_name
from solver.deals import deal_from_json, deal_from_seed, deal_to_json
from solver.engine.search import search
from solver.games.pyramid import kernels as G
from solver.moves import Move, remove
from solver.registry import game as _game
from solver.replay import certify
from solver.solve import solve
from tests.helpers import brute_force_wins as brute_force
from tests.helpers import kernel_moves

SOLVER = _game("pyramid").solver

ALL_OPTIONS = [{"piles": 1, "passes": p, "stock_top": t} for p in (1, 3, None) for t in (False, True)] + \
              [{"piles": 3, "passes": 1, "stock_top": t} for t in (False, True)]
VARIANTS = [
    {"piles": 1, "passes": 1},
    {"piles": 1, "passes": 3},
    {"piles": 1, "passes": None},
    {"piles": 3},
    {"piles": 1, "passes": 3, "stock_top": True},
]
REDUCTIONS = [G.REDUCE_MACRO, G.REDUCE_KING, G.REDUCE_PAIR, G.REDUCE_DEAD, G.REDUCE_BURY, G.REDUCE_RELAX]


def label(options) -> str:
    return " ".join(f"{k}={v}" for k, v in options.items())


# ---------------------------------------------------------------------------
# (1) unreduced kernels = reference rules
# ---------------------------------------------------------------------------


def test_three_pile_draw_expands_to_the_cards_drawn():
    deal = deal_from_seed("pyramid", 3, {"piles": 3})
    state = G.encode(deal, reduce=0)
    (draw,) = G.expand(state, G.DRAW_MOVE)
    assert draw == Move("draw", cards=tuple(deal.stock[:3]))


# ---------------------------------------------------------------------------
# (2) verdicts = brute force with the reference rules, on small positions
# ---------------------------------------------------------------------------
def small_position(rng, options):
    """A random legal mid-game position with a few pyramid cards and a short talon."""
    deck = list(range(52))
    rng.shuffle(deck)
    present = set()
    for _ in range(rng.randint(2, 7)):
        # a card on the table needs the cards it covers, (r-1, c-1) and (r-1, c)
        free = [(r, c) for r in range(1, 8) for c in range(1, r + 1) if (r, c) not in present and
                all(p in present for p in ((r - 1, c - 1), (r - 1, c)) if 1 <= p[1] <= p[0])]
        present.add(rng.choice(free))
    pyramid = [[card_name(deck.pop()) if (r, c) in present else None for c in range(1, r + 1)]
               for r in range(1, 8)]
    # most pyramid cards get a partner in the talon, so that both verdicts are common
    talon = []
    for row in pyramid:
        for name in row:
            if name is not None and name[0] != "K" and rng.random() < 0.8:
                want = 13 - "A23456789TJQK".index(name[0]) - 1
                partners = [c for c in deck if c % 13 + 1 == want]
                if partners:
                    deck.remove(partners[0])
                    talon.append(card_name(partners[0]))
    talon += [card_name(deck.pop()) for _ in range(rng.randint(0, 3))]
    rng.shuffle(talon)
    cut = rng.randint(0, len(talon))
    obj = {"game": "pyramid", "options": options, "pyramid": pyramid, "stock": talon[cut:],
           "foundations": [[card_name(c) for c in deck]]}
    if options["piles"] == 3:
        piles = [[], [], []]
        for c in talon[:cut]:
            piles[rng.randrange(3)].append(c)
        obj["waste"] = piles
    else:
        obj["waste"] = talon[:cut]
        if options["passes"] is not None:
            obj["passes_used"] = rng.randrange(options["passes"])
    return deal_from_json(obj, reachable=False)   # any table the kernels may meet


def brute_force_wins(deal) -> bool:
    """Every reachable position (with unlimited passes, the redeals made a count only)."""
    unlimited = deal.options["passes"] is None
    return brute_force(deal, key=lambda p: (p.pyramid, p.stock, p.waste, 0 if unlimited else p.passes_used))


@pytest.mark.parametrize("reduce", [G.REDUCE_ALL, 0], ids=["all reductions", "none"])
@pytest.mark.parametrize("options", ALL_OPTIONS, ids=label)
def test_verdicts_match_brute_force_on_small_positions(options, reduce):
    rng = random.Random(17)
    verdicts = []
    for _ in range(40):
        deal = small_position(rng, options)
        result = search(G.KERNELS, G.encode(deal, reduce))
        truth = brute_force_wins(deal)
        assert result.verdict == ("won" if truth else "lost"), deal_to_json(deal)
        if truth:
            certify(deal, G.decode_line(deal, result.line, reduce))
        verdicts.append(result.verdict)
    assert {"won", "lost"} <= set(verdicts)   # the sample exercises both answers
    assert min(verdicts.count("won"), verdicts.count("lost")) >= 5


# ---------------------------------------------------------------------------
# (3) every reduction keeps the verdicts
# ---------------------------------------------------------------------------
@lru_cache(maxsize=None)
def full_verdicts(options_items) -> tuple:
    options = dict(options_items)
    return tuple(search(G.KERNELS, G.encode(deal_from_seed("pyramid", seed, options))).verdict
                 for seed in range(1, 51))


@pytest.mark.parametrize("options", VARIANTS, ids=label)
@pytest.mark.parametrize("switched_off", REDUCTIONS,
                         ids=["macro", "king", "pair", "dead", "bury", "relax"])
def test_each_reduction_keeps_the_verdicts(options, switched_off):
    full = full_verdicts(tuple(options.items()))
    assert "unknown" not in full
    decided = 0
    for seed in range(1, 51):
        deal = deal_from_seed("pyramid", seed, options)
        less = search(G.KERNELS, G.encode(deal, G.REDUCE_ALL & ~switched_off), max_nodes=30_000)
        if less.verdict != "unknown":
            assert less.verdict == full[seed - 1], f"seed {seed}"
            decided += 1
            if less.verdict == "won":
                certify(deal, G.decode_line(deal, less.line, G.REDUCE_ALL & ~switched_off))
    assert decided >= 30


# ---------------------------------------------------------------------------
# The key: exact where the docstring says so
# ---------------------------------------------------------------------------
def position_of(state) -> tuple:
    """What a kernel state means: pyramid cards, waste piles, stock, redeals left."""
    s = [int(x) for x in state]
    pyramid = tuple(c for c in s[G.PYR:G.PYR + 28])
    n, bound = s[G.TALON_N], s[G.BOUND]
    tal, st = s[G.TAL:G.TAL + n], s[G.ST:G.ST + n]
    if s[G.PILES] == 1:
        waste = (tuple(tal[t] for t in range(bound) if st[t] != G.GONE),)
        stock = tuple(tal[t] for t in range(bound, n) if st[t] != G.GONE)
    else:
        waste = tuple(tuple(tal[t] for t in range(n) if st[t] == k + 1) for k in range(3))
        stock = tuple(tal[bound:])
    return pyramid, waste, stock, s[G.REDEALS]


def reference_position(pos) -> tuple:
    """The same for a reference position (redeals left: 255 when unlimited)."""
    pyramid = tuple(G.EMPTY if c is None else c for row in pos.pyramid for c in row)
    left = 0 if pos.piles == 3 else 255 if pos.passes is None else pos.passes - 1 - pos.passes_used
    return pyramid, pos.waste, pos.stock, left


@pytest.mark.parametrize("options", [{"piles": 1, "passes": 3, "stock_top": True}, {"piles": 1, "passes": 1},
                                     {"piles": 3}], ids=label)
def test_key_is_injective(options):
    """Different positions reached in a search never share a key (no hashing involved)."""
    out = np.zeros(G.MAX_MOVES, dtype=np.int32)
    for seed in range(1, 4):
        root = G.encode(deal_from_seed("pyramid", seed, options), G.REDUCE_ALL & ~G.REDUCE_RELAX)
        meaning = {}
        todo = [root]
        while todo and len(meaning) < 5_000:
            s = todo.pop()
            k = int(G.key(s))
            pos = position_of(s)
            if k in meaning:
                assert meaning[k] == pos
                continue
            meaning[k] = pos
            for m in out[:G.moves(s, out)]:
                child = s.copy()
                G.apply(child, np.int32(m))
                todo.append(child)


# ---------------------------------------------------------------------------
# Hand-built positions for single reductions
# ---------------------------------------------------------------------------
def pyramid_deal(cells: dict, stock=(), waste=(), options=None):
    """A deal with the named cells (zone -> card name) and talon; the rest removed.

    ``waste`` is one list of cards, or three with ``piles=3``."""
    rows = [[None] * r for r in range(1, 8)]
    for zone, name in cells.items():
        r, c = (int(x) for x in zone[1:].split("."))
        rows[r - 1][c - 1] = name
    flat = [c for pile in waste for c in pile] if waste and isinstance(waste[0], list) else list(waste)
    used = set(cells.values()) | set(stock) | set(flat)
    rest = [card_name(c) for c in range(52) if card_name(c) not in used]
    return deal_from_json({"game": "pyramid", "options": options or {}, "pyramid": rows, "stock": list(stock),
                           "waste": list(waste), "foundations": [rest]}, reachable=False)


def test_an_exposed_king_is_the_only_move():
    deal = pyramid_deal({"p1.1": "5C", "p2.1": "KS", "p2.2": "8D"}, stock=["8H"])
    state = G.encode(deal, G.REDUCE_KING)
    (only,) = kernel_moves(SOLVER, state)
    assert G.expand(state, only) == [remove((deal.pyramid[1][0], "p2.1"))]


def test_a_king_on_top_of_a_three_pile_stock_is_not_forced():
    # Taking KS from the stock would put 5C (no 8 left) onto AD, the apex's only
    # partner; drawing KS onto waste1 and then removing it keeps AD free.
    deal = pyramid_deal({"p1.1": "QC", "p2.1": "9S", "p2.2": "6H"}, stock=["KS", "5C", "4C", "7D"],
                        waste=[["AD"], [], []], options={"piles": 3, "stock_top": True})
    assert brute_force_wins(deal)
    state = G.encode(deal)
    assert len(kernel_moves(SOLVER, state)) == 2   # the King from the stock, or a draw
    result = search(G.KERNELS, state)
    assert result.verdict == "won"
    certify(deal, G.decode_line(deal, result.line))


def test_a_pyramid_card_with_one_possible_partner_takes_it():
    # 5H needs an 8; 8D on the waste is the only one left: forced. (AS has one
    # possible partner too, QS, but it is not exposed.)
    deal = pyramid_deal({"p1.1": "KC", "p2.1": "AS", "p2.2": "5H"}, waste=["8D"], stock=["QS"])
    state = G.encode(deal, G.REDUCE_PAIR)
    (only,) = kernel_moves(SOLVER, state)
    assert G.expand(state, only)[0].zones() == ("p2.2", "waste")
    # with 8C still in the stock, 5H may wait for it: no forced move
    deal = pyramid_deal({"p1.1": "KC", "p2.1": "AS", "p2.2": "5H"}, waste=["8D"], stock=["8C", "QS"])
    assert len(kernel_moves(SOLVER, G.encode(deal, G.REDUCE_PAIR))) == 2
    # 8S has a single possible partner, 5H (5C lies under it): forced among pyramid cards
    deal = pyramid_deal({"p1.1": "5C", "p2.1": "8S", "p2.2": "5H"}, waste=["8D"], stock=["QS"])
    state = G.encode(deal, G.REDUCE_PAIR)
    (only,) = kernel_moves(SOLVER, state)
    assert G.expand(state, only)[0].zones() == ("p2.1", "p2.2")


def test_a_card_whose_partners_are_all_beneath_it_is_dead():
    # 9C at the apex: the only 4s left are in its cone, so it can never go
    deal = pyramid_deal({"p1.1": "9C", "p2.1": "4D", "p2.2": "4H"}, stock=["9D", "9S"])
    assert kernel_moves(SOLVER, G.encode(deal, G.REDUCE_DEAD)) == []
    assert kernel_moves(SOLVER, G.encode(deal, 0)) != []
    assert search(G.KERNELS, G.encode(deal, 0)).verdict == "lost"


def test_waste_cards_under_a_card_that_never_leaves_are_taken_out():
    # last pass; 7C has no 6 left anywhere, so QD under it is gone for good
    deal = pyramid_deal({"p1.1": "AH", "p2.1": "KS", "p2.2": "KD"}, waste=["QD"], stock=["7C", "5S"])
    state = G.encode(deal, G.REDUCE_BURY)
    G.apply(state, np.int32(G.DRAW_MOVE))
    assert position_of(state)[1] == ((deal.stock[0],),)
    assert state[G.TCNT + 11] == 0        # no Queen left to count


def test_relaxation_decides_a_lost_deal_in_encode():
    # the apex 7H needs a 6 and every 6 is in the pyramid, beneath it
    deal = pyramid_deal({"p1.1": "7H", "p2.1": "6C", "p2.2": "6D", "p3.1": "KC", "p3.2": "6S",
                         "p3.3": "6H"}, stock=["7C", "7D", "7S"], options={"passes": None})
    assert G.encode(deal)[G.LOST] == 1
    assert G.encode(deal, G.REDUCE_ALL & ~G.REDUCE_RELAX)[G.LOST] == 0
    assert search(G.KERNELS, G.encode(deal)).verdict == "lost"


def test_macro_move_expands_to_draws_redeal_and_removal():
    deal = pyramid_deal({"p1.1": "QC"}, waste=["AD", "5S"], stock=["9H"], options={"passes": 2})
    state = G.encode(deal, G.REDUCE_MACRO)
    moves = kernel_moves(SOLVER, state)
    (m,) = [m for m in moves if m & G.REDEAL_BIT]
    expanded = G.expand(state, m)
    assert [x.type for x in expanded] == ["draw", "redeal", "draw", "remove"]
    certify(deal, expanded)


@pytest.mark.parametrize("options", ALL_OPTIONS, ids=label)
def test_move_cost_counts_the_moves_a_kernel_move_expands_to(options):
    """The shortest-line search adds up move_cost; expand writes the moves: they must agree,
    for macro moves (draws, a redeal, the removal) and plain ones, along random walks."""
    rng = random.Random(11)
    checked = 0
    for seed in range(1, 40):
        for reduce in (G.FEWEST_MOVES_REDUCE, G.REDUCE_FEWEST):
            state = G.encode(deal_from_seed("pyramid", seed, options), reduce)
            for _ in range(60):
                moves = kernel_moves(SOLVER, state)
                if not moves:
                    break
                for m in moves:
                    assert G.move_cost(state, np.int32(m)) == len(G.expand(state, m)), (seed, m)
                    checked += 1
                G.apply(state, np.int32(rng.choice(moves)))
    assert checked > 1000


@pytest.mark.parametrize("options", VARIANTS, ids=label)
def test_shortest_line_and_its_bound_match_breadth_first_search_on_small_positions(options):
    """On small random positions, the fewest moves found by a plain breadth-first search over
    the reference rules (None: lost) equal the shortest line's length, and moves_left never
    exceeds them."""
    from solver.lines import shortest_line
    from tests.test_hints import bfs_length

    rng = random.Random(23)
    checked = {"won": 0, "lost": 0}
    for _ in range(40):
        deal = small_position(rng, options)
        need = bfs_length(deal)
        verdict, line, _, _ = shortest_line(deal)
        assert verdict == ("lost" if need is None else "won")
        checked[verdict] += 1
        if need is None:
            continue
        certify(deal, line)
        assert len(line) == need
        assert G.moves_left(G.encode(deal, G.FEWEST_MOVES_REDUCE)) <= need
    assert checked["won"] >= 5


# ---------------------------------------------------------------------------
# (4) certification through solve()
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("options", VARIANTS, ids=label)
def test_solve_decides_and_certifies_seeds_1_to_200(options):
    verdicts = []
    for seed in range(1, 201):
        result = solve(deal_from_seed("pyramid", seed, options))   # certifies every won line
        assert result.verdict != "unknown", f"seed {seed}: {result.reason}"
        verdicts.append(result.verdict)
    assert "won" in verdicts and "lost" in verdicts
