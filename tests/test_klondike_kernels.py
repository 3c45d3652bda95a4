"""Klondike kernels against the reference rules: brute force, and the reductions one by one.

What every game must pass (kernel moves equal the rules' moves with reductions off,
won lines certified, the key, deal JSON, the CLI) is in ``tests/test_game_contract.py``;
this file holds what is particular to Klondike's kernels.

* On small positions (few cards left), the solver's verdict equals a brute-force
  search of every reachable position with the reference rules.
* Verdicts with all reductions agree with each reduction switched off.
"""

import random
from dataclasses import replace

import numpy as np
import pytest

from solver.cards import parse_card
from solver.deals import deal_from_seed, deal_to_json
from solver.engine.search import search
from solver.games import twins
from solver.games.klondike import encoding, generate, kernels, lines, reductions, rules
from solver.games.klondike import state as S
from solver.games.klondike.layout import KlondikeDeal
from solver.moves import Move
from solver.registry import game as _game
from solver.replay import certify
from solver.solve import PROBE_NODES, solve
from tests.helpers import brute_force_wins as brute_force
from tests.helpers import kernel_moves
from tests.helpers import byte_chain, kept_word, with_solver

SOLVER = _game("klondike").solver

VARIANTS = [
    {"draw": 1, "passes": 1},
    {"draw": 3, "passes": 3},
    {"draw": 1, "passes": None},
    {"draw": 3, "passes": None},
    {"draw": 3, "passes": None, "foundation_to_tableau": True},
]


def small_position(rng, options, cards_left):
    """A random mid-game position with only ``cards_left`` cards off the foundations."""
    heights = [13] * 4
    for _ in range(cards_left):
        s = rng.choice([i for i in range(4) if heights[i] > 0])
        heights[s] -= 1
    loose = [s * 13 + r for s in range(4) for r in range(heights[s], 13)]
    rng.shuffle(loose)
    tableau = [[] for _ in range(7)]
    face_down = [0] * 7
    stock_n = rng.randint(0, len(loose) // 2)
    stock, rest = loose[:stock_n], loose[stock_n:]
    for c in rest:
        tableau[rng.randrange(3)].append(c)  # deep piles bury cards: some positions are lost
    for i, pile in enumerate(tableau):
        face_down[i] = max(0, len(pile) - 1)
    return KlondikeDeal(game="klondike", options=dict(options), tableau=tableau, face_down=face_down, stock=stock,
                foundations=foundations_of(heights))


def foundations_of(heights):
    """Foundations (clubs, diamonds, hearts, spades) holding the first ``heights[s]`` cards of each suit."""
    return [[s * 13 + r for r in range(n)] for s, n in enumerate(heights)]


def one_pile_position(pile, stock, heights, passes):
    """A draw-1 deal of ``pile`` (its lowest two cards face down) in the first pile, ``stock``
    and foundations of ``heights``; its encoded root, checked not stuck and with moves; and a
    move list to fill."""
    deal = KlondikeDeal(game="klondike", options={"draw": 1, "passes": passes, "foundation_to_tableau": False},
                        tableau=[pile, [], [], [], [], [], []], face_down=[2, 0, 0, 0, 0, 0, 0], stock=stock,
                        foundations=foundations_of(heights))
    root = encoding.encode(deal)
    out = np.zeros(S.MAX_MOVES, dtype=np.int32)
    assert root[S.DOOMED] == 0 and generate.moves(root.copy(), out) > 0
    return deal, root, out


def brute_force_wins(deal) -> bool:
    """Every reachable position, piles in any order being one (and, with unlimited
    passes, the redeals made a count only)."""
    unlimited = deal.options["passes"] is None
    return brute_force(deal, key=lambda p: (tuple(sorted((tuple(t), d) for t, d in zip(p.tableau, p.face_down))),
                                            tuple(p.stock), tuple(p.waste), 0 if unlimited else p.passes_used))


def run_position(rng, options, cards_left):
    """A small position whose piles end in face-up runs, with twins (same rank and
    colour) often both in sight: the layouts REDUCE_LAYOUT treats as one."""
    deal = small_position(rng, options, cards_left)
    loose = [c for p in deal.tableau for c in p] + list(deal.stock)
    rng.shuffle(loose)
    tableau, face_down = [], []
    for _ in range(4):
        hidden = [loose.pop() for _ in range(min(len(loose), rng.randint(0, 2)))]
        run = [loose.pop()] if loose and rng.random() < 0.85 else []
        while run:
            top = run[-1]
            under = [c for c in loose if c % 13 == top % 13 - 1 and (c // 13 in (1, 2)) != (top // 13 in (1, 2))]
            if not under or rng.random() < 0.25:
                break
            run.append(under[rng.randrange(len(under))])
            loose.remove(run[-1])
        if not run and hidden:
            run.append(hidden.pop())
        tableau.append(hidden + run)
        face_down.append(len(hidden))
    tableau += [[], [], []]
    face_down += [0, 0, 0]
    return KlondikeDeal(game="klondike", options=dict(options), tableau=tableau, face_down=face_down, stock=loose,
                foundations=deal.foundations)


# draw 1 with three passes: both parts of the talon's dominance field (passes used, boundary) at work
BRUTE_FORCE_VARIANTS = [v for v in VARIANTS if not v.get("foundation_to_tableau")] + [{"draw": 1, "passes": 3}]


@pytest.mark.parametrize("options", BRUTE_FORCE_VARIANTS)
def test_verdicts_match_brute_force_on_positions_with_runs(options):
    rng = random.Random(23)
    verdicts = set()
    for _ in range(25):
        deal = run_position(rng, {"foundation_to_tableau": False, **options}, cards_left=rng.randint(8, 12))
        result = search(kernels.KERNELS, encoding.encode(deal))
        truth = brute_force_wins(deal)
        assert result.verdict == ("won" if truth else "lost"), deal_to_json(deal)
        roots = np.repeat(encoding.encode(deal)[None, :], 2, axis=0)
        roots[:, S.ORDER] = [0, 1]   # two move orders sharing one table, as solve() runs them
        assert search(kernels.KERNELS, roots, chunk=7).verdict == result.verdict, deal_to_json(deal)
        if truth:
            certify(deal, lines.decode_line(deal, result.line))
        verdicts.add(result.verdict)
    assert verdicts == {"won", "lost"}


# foundation_to_tableau lets every foundation card come back: no small state space to enumerate
@pytest.mark.parametrize("options", BRUTE_FORCE_VARIANTS)
def test_verdicts_match_brute_force_on_small_positions(options):
    rng = random.Random(11)
    verdicts = set()
    for _ in range(20):
        deal = small_position(rng, {"foundation_to_tableau": False, **options}, cards_left=rng.randint(5, 9))
        result = search(kernels.KERNELS, encoding.encode(deal))
        truth = brute_force_wins(deal)
        assert result.verdict == ("won" if truth else "lost"), deal_to_json(deal)
        if truth:
            certify(deal, lines.decode_line(deal, result.line))
        verdicts.add(result.verdict)
    assert verdicts == {"won", "lost"}  # the sample exercises both answers


@pytest.mark.parametrize("options", VARIANTS + [{"draw": 1, "passes": 3}])
@pytest.mark.parametrize("switched_off", [S.REDUCE_MACRO, S.REDUCE_SAFE, S.REDUCE_LAYOUT, S.REDUCE_DEADLOCK,
                                          S.REDUCE_STONE, S.REDUCE_LAZY, S.REDUCE_EMPTY,
                                          S.REDUCE_SAFE_TALON, S.REDUCE_TALON_DOMINANCE])
def test_each_reduction_keeps_the_verdicts(options, switched_off):
    decided = 0
    for seed in range(1, 31):
        deal = deal_from_seed("klondike", seed, options)
        full = search(kernels.KERNELS, encoding.encode(deal, S.REDUCE_ALL), max_nodes=300_000)
        less = search(kernels.KERNELS, encoding.encode(deal, S.REDUCE_ALL & ~switched_off), max_nodes=300_000)
        if "unknown" not in (full.verdict, less.verdict):
            assert full.verdict == less.verdict, f"seed {seed}"
            decided += 1
    assert decided >= 5


def test_layout_reduction_still_uncovers_a_card_under_a_run_whose_twin_is_free():
    """5♥ lies on 6♠ and hides 4♥ below it; 6♣ is a free pile top. The only win moves
    5♥ onto 6♣ (a move inside the face-up cards, which REDUCE_LAYOUT drops) so that
    6♠ can go up and turn 4♥. The kernels must offer that as one combined move."""
    rest = [f"{r}{s}" for s in "CS" for r in "789TJQK"] + [f"{r}H" for r in "6789TJQK"]
    deal = KlondikeDeal(game="klondike", options={"draw": 1, "passes": 1, "foundation_to_tableau": False},
                tableau=[[parse_card("4H"), parse_card("6S"), parse_card("5H")], [parse_card("6C")], [], [], [], [], []],
                face_down=[1, 0, 0, 0, 0, 0, 0], stock=[parse_card(t) for t in rest],
                foundations=[[s * 13 + r for r in range(n)] for s, n in enumerate([5, 13, 3, 5])])
    assert brute_force_wins(deal)
    result = search(kernels.KERNELS, encoding.encode(deal))
    assert result.verdict == "won"
    line = lines.decode_line(deal, result.line)
    certify(deal, line)
    assert line[0].card == parse_card("5H") and line[0].to == "t2" and line[1].card == parse_card("6S")
    # without the combined move the reduced search would call this deal lost
    state = encoding.encode(deal)
    out = np.zeros(S.MAX_MOVES, dtype=np.int32)
    n = generate.moves(state, out)
    assert any(int(m) & S.UNCOVER_FLAG for m in out[:n])


@pytest.mark.parametrize("draw", [1, 3])
def test_with_unlimited_passes_the_deadlock_test_prunes_inside_the_search(draw):
    """Not only the root: a deal the root check lets through is decided alike with far
    fewer nodes, because positions deeper down are found stuck (seeds 101-160)."""
    for seed in range(101, 161):
        deal = deal_from_seed("klondike", seed, {"draw": draw, "passes": None})
        root = encoding.encode(deal)
        if root[S.DOOMED]:
            continue
        full = search(kernels.KERNELS, root, max_nodes=400_000)
        slow = search(kernels.KERNELS, encoding.encode(deal, S.REDUCE_ALL & ~S.REDUCE_DEADLOCK), max_nodes=400_000)
        if full.verdict != "unknown" and slow.verdict == full.verdict and slow.nodes >= 5 * max(full.nodes, 1000):
            return
    pytest.fail("no deal where the deadlock test inside the search cut the nodes 5x")


@pytest.mark.parametrize("passes", [None, 3, 1])
def test_a_move_that_deadlocks_is_caught_at_once_whatever_the_passes(passes):
    """7♥ and 4♥ lie face down under 6♠, which is next on its foundation: not stuck (6♠
    goes up, then 4♥ and 7♥ in turn). 5♥ from the stock onto 6♠ buries them: 5♥ can go
    neither up (4♥ is under it) nor onto a black 6 (6♣ is up, 6♠ under it), and 6♠ with
    5♥ has no red 7 to go onto (7♦ is up, 7♥ under them). The position after that move
    has no moves, with unlimited passes, with redeals left and in the last pass alike."""
    heights = [6, 13, 3, 5]   # C D H S
    pile = [parse_card(t) for t in ["7H", "4H", "6S"]]
    stock = [c for c in range(52) if c % 13 >= heights[c // 13] and c not in pile]
    deal, root, out = one_pile_position(pile, stock, heights, passes)

    def after_the_move(reduce):
        child = encoding.encode(deal, reduce)
        kernels.apply(child, S.SRC_TALON | (0 << 4) | (stock.index(parse_card("5H")) << 8))
        assert child[S.LEN + 0] == 4 and child[S.PILES + 3] == parse_card("5H")
        return child

    assert generate.moves(after_the_move(S.REDUCE_ALL), out) == 0
    lost = search(kernels.KERNELS, after_the_move(S.REDUCE_ALL))
    assert lost.verdict == "lost" and lost.nodes == 0
    # the same move with the test switched off leaves moves to search (and without stepping
    # stones, which with unlimited passes would ask for a black 4 on 5♥ next: none is left)
    assert generate.moves(after_the_move(S.REDUCE_ALL & ~S.REDUCE_DEADLOCK & ~S.REDUCE_STONE), out) > 0


@pytest.mark.parametrize("options", [v for v in VARIANTS if not v.get("foundation_to_tableau")])
def test_a_deadlocked_position_is_lost_by_brute_force(options):
    """The deadlock test only ever calls lost what brute force finds lost, on small
    positions where it fires often (deep piles of face-down cards)."""
    rng = random.Random(5)
    doomed = 0
    for _ in range(600):
        deal = small_position(rng, {"foundation_to_tableau": False, **options}, cards_left=rng.randint(6, 11))
        cut = rng.randint(0, len(deal.stock))   # part of the stock turned: a waste to dig through
        deal.waste, deal.stock = deal.stock[:cut], deal.stock[cut:]
        if encoding.encode(deal)[S.DOOMED]:
            doomed += 1
            assert not brute_force_wins(deal), deal_to_json(deal)
    assert doomed >= 20


def test_five_of_hearts_buried_above_its_foundation_card_and_both_parents_is_doomed():
    """5♥ lies face down on 6♠, 6♣ and 4♥: it cannot go up before 4♥, and both
    cards it could go onto are under it. No line wins, whatever else is free."""
    cards = [parse_card(t) for t in ["4H", "6C", "6S", "5H", "KD"]]
    heights = [5, 12, 3, 5]   # C D H S: the next clubs and spades are the 6s, hearts the 4
    rest = [c for c in range(52) if c not in cards and c % 13 >= heights[c // 13]]
    deal = KlondikeDeal(game="klondike", options={"draw": 1, "passes": None, "foundation_to_tableau": True},
                tableau=[cards, [], [], [], [], [], []], face_down=[4, 0, 0, 0, 0, 0, 0], stock=rest,
                foundations=foundations_of(heights))
    state = encoding.encode(deal)
    assert state[S.DOOMED] == 1
    assert search(kernels.KERNELS, state).verdict == "lost"
    assert search(kernels.KERNELS, state).nodes <= 1
    # the search without the test proves the same the long way
    slow = search(kernels.KERNELS, encoding.encode(deal, S.REDUCE_ALL & ~S.REDUCE_DEADLOCK))
    assert slow.verdict == "lost" and slow.nodes > 1
    # with 6♣ on top instead, it goes up and comes down again to take 5♥: won
    cards[1], cards[4] = cards[4], cards[1]
    assert encoding.encode(deal)[S.DOOMED] == 0
    won = search(kernels.KERNELS, encoding.encode(deal))
    assert won.verdict == "won"
    certify(deal, lines.decode_line(deal, won.line))


@pytest.mark.parametrize("options", VARIANTS)
def test_no_won_deal_is_doomed(options):
    """Over dealt seeds: whatever the deadlock test calls lost, a search without it
    never wins; and the test fires on some seeds of every variant."""
    doomed = 0
    for seed in range(1, 151):
        deal = deal_from_seed("klondike", seed, options)
        if encoding.encode(deal)[S.DOOMED]:
            doomed += 1
            slow = search(kernels.KERNELS, encoding.encode(deal, S.REDUCE_ALL & ~S.REDUCE_DEADLOCK), max_nodes=200_000)
            assert slow.verdict != "won", f"seed {seed}"
    assert doomed >= 2


def test_in_the_last_pass_a_card_buried_in_the_waste_is_doomed():
    """Waste 2♥ under 9♠, one pass: 9♠ can neither go up (8♠ is buried) nor onto a red
    10 (10♦ is up, 10♥ lies under 3♥, which waits for 2♥). So 2♥ never comes out.
    With a redeal the waste becomes the stock again and the deal is won."""
    def c(*names):
        return [parse_card(t) for t in names]
    heights = [13, 10, 1, 7]   # C D H S
    pile = c("8S", "TH", "3H")
    waste = c("2H", "9S")
    stock = [x for x in range(52) if x % 13 >= heights[x // 13] and x not in pile + waste]
    deal = KlondikeDeal(game="klondike", options={"draw": 1, "passes": 1, "foundation_to_tableau": False},
                tableau=[pile, [], [], [], [], [], []], face_down=[2, 0, 0, 0, 0, 0, 0], stock=stock,
                waste=waste, foundations=foundations_of(heights))
    assert encoding.encode(deal)[S.DOOMED] == 1
    assert not brute_force_wins(deal)
    assert search(kernels.KERNELS, encoding.encode(deal, S.REDUCE_ALL & ~S.REDUCE_DEADLOCK)).verdict == "lost"
    deal.options["passes"] = None
    assert encoding.encode(deal)[S.DOOMED] == 0
    won = search(kernels.KERNELS, encoding.encode(deal))
    assert won.verdict == "won"
    certify(deal, lines.decode_line(deal, won.line))


@pytest.mark.parametrize("passes", [1, 2])
def test_a_talon_card_played_up_past_cards_it_buries_for_good_is_followed_by_the_deadlock_test(passes):
    """The position above, reached by a move: 2♥ and 9♠ in the stock before J♦, which
    is next on its foundation. Played up from there, J♦ leaves them in the waste, 9♠ on
    2♥; in the last pass that is the deadlock above, and the position after the move has
    no moves. With a redeal left the waste is turned again, and nothing is stuck."""
    def c(*names):
        return [parse_card(t) for t in names]
    heights = [13, 10, 1, 7]   # C D H S
    pile = c("8S", "TH", "3H")
    first = c("2H", "9S", "JD")
    stock = first + [x for x in range(52) if x % 13 >= heights[x // 13] and x not in pile + first]
    deal, root, out = one_pile_position(pile, stock, heights, passes)
    child = root.copy()
    kernels.apply(child, S.SRC_TALON | (S.DST_FOUND << 4) | (2 << 8))
    assert child[S.FOUND + parse_card("JD") // 13] == 11 and child[S.WASTE_LEN] == 2
    if passes == 1:
        assert generate.moves(child, out) == 0
        assert not brute_force_wins(replace(deal, stock=stock[3:], waste=first[:2],
                                            foundations=foundations_of([13, 11, 1, 7])))   # J♦ up
    else:
        assert generate.moves(child, out) > 0


def waste_tops_by_brute_force(talon, boundary, draw, left, redeal) -> set:
    """Every card that comes to the waste top in some sequence of the reference rules' draws
    and redeals (as many as wanted, if ``redeal``; else none) and plays of a waste top that
    is in ``left`` (the card leaves the waste), from the waste ``talon[:boundary]`` and the
    stock ``talon[boundary:]``."""
    start = rules.Position(options={"draw": draw, "passes": None if redeal else 1, "foundation_to_tableau": False},
                           tableau=[[] for _ in range(7)], face_down=[0] * 7, stock=list(talon[boundary:]),
                           waste=list(talon[:boundary]), foundations=[[] for _ in range(4)])
    tops, seen, todo = set(), set(), [start]
    while todo:
        pos = todo.pop()
        if (tuple(pos.stock), tuple(pos.waste)) in seen:
            continue
        seen.add((tuple(pos.stock), tuple(pos.waste)))
        if pos.waste:
            tops.add(pos.waste[-1])
            if pos.waste[-1] in left:
                played = pos.copy()
                played.waste.pop()
                todo.append(played)
        if pos.stock:
            todo.append(rules.play(pos, Move("draw")))
        elif rules.redeal_allowed(pos):
            todo.append(rules.play(pos, Move("redeal")))
    return tops


@pytest.mark.parametrize("draw", [2, 3])
@pytest.mark.parametrize("redeal", [True, False])
def test_the_talon_cards_the_deadlock_test_calls_out_of_reach_never_come_to_hand(draw, redeal):
    """With more than one card a draw, the deadlock test lets a stock card go up or onto a
    pile only once it may come to the waste top (``_in_phase``, ``_reachable``; in the last
    pass the waste is a pile, and only the stock is asked for). Against the talon's own mechanics, over
    random talons, boundaries and sets of cards that may be played: every card that can
    come to hand is within its reach; and some are not."""
    rng = random.Random(3)
    state = encoding.encode(deal_from_seed("klondike", 1, {"draw": 3, "passes": None if redeal else 3}))
    state[S.DRAW] = draw   # (the kernel reads the count; the game offers 1 and 3)
    state[S.PASSES_USED] = 0 if redeal else 2
    narrower = 0
    for _ in range(3000):
        n = rng.randint(1, 10)
        talon = rng.sample(range(52), n)
        boundary = rng.randint(0, n)
        left = {c for c in talon if rng.random() < 0.3}
        state[S.TALON:S.TALON + n] = talon
        state[S.TALON_LEN], state[S.WASTE_LEN] = n, boundary
        left_bits, talon_bits = (np.uint64(sum(1 << c for c in cards)) for cards in (left, talon))
        reach = int(reductions._in_phase(state, redeal) | reductions._reachable(state, left_bits, talon_bits))
        asked = talon if redeal else talon[boundary:]
        in_reach = {c for c in asked if reach >> c & 1}
        assert waste_tops_by_brute_force(talon, boundary, draw, left, redeal) & set(asked) <= in_reach, \
            (talon, boundary, left)
        assert in_reach == talon_in_reach([int(x) for x in state], talon, left) & set(asked)
        narrower += len(in_reach) < len(asked)
    assert narrower > 500


def test_an_ace_behind_cards_that_never_leave_the_talon_is_doomed_with_three_cards_a_draw():
    """Spades are the only cards left, A♠ 2♠ 3♠ in the talon in that order and the rest
    face down in a pile under 4♠. Three cards a draw bring only 3♠ to hand, and it cannot
    go up or onto a pile: A♠ and 2♠ never come out, with redeals or in the last pass. The
    deadlock test says so at the root, and brute force agrees. With one card a draw, or
    with foundation cards allowed back (3♠ onto a red 4, then 2♠ onto a red 3, then A♠
    up), the same position is won."""
    pile = [parse_card(t) for t in ["KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S", "5S", "4S"]]
    talon = [parse_card(t) for t in ["AS", "2S", "3S"]]

    def position(draw, back, passes=None):
        return KlondikeDeal(game="klondike", options={"draw": draw, "passes": passes, "foundation_to_tableau": back},
                            tableau=[pile, [], [], [], [], [], []], face_down=[9, 0, 0, 0, 0, 0, 0], stock=talon,
                            foundations=[list(range(13)), list(range(13, 26)), list(range(26, 39)), []])

    for passes in (None, 2, 1):   # a redeal left or not
        doomed = position(3, False, passes)
        assert encoding.encode(doomed)[S.DOOMED] == 1
        assert not brute_force_wins(doomed)
    for draw, back in [(1, False), (3, True)]:
        deal = position(draw, back)
        assert encoding.encode(deal)[S.DOOMED] == 0
        won = search(kernels.KERNELS, encoding.encode(deal))
        assert won.verdict == "won"
        certify(deal, lines.decode_line(deal, won.line))


def test_a_talon_card_put_on_a_pile_must_be_covered_next():
    """Draw 1, unlimited passes: after 7♥ goes from the talon onto 8♠, the only moves
    put a card onto it (6♠ from the talon, or 6♣ from a pile), nothing else. With
    three cards a draw the rule does not apply."""
    def c(*names):
        return [parse_card(t) for t in names]
    heights = [4, 13, 4, 4]   # C D H S: 5C, 5H and 5S are next, none of them the waste top
    # (they are safe, so REDUCE_SAFE_TALON, off here, would play them first)
    tableau = [c("8S"), c("6C"), c("KH"), [], [], [], []]
    talon = [x for x in range(52) if x % 13 >= heights[x // 13] and x not in sum(tableau, []) + c("7H")]
    talon[2:2] = c("7H")   # the third card: the first draw of three shows it
    for draw, stones in ((1, True), (3, False)):
        deal = KlondikeDeal(game="klondike", options={"draw": draw, "passes": None, "foundation_to_tableau": False},
                    tableau=tableau, face_down=[0] * 7, stock=talon,
                    foundations=foundations_of(heights))
        state = encoding.encode(deal, S.REDUCE_ALL & ~S.REDUCE_SAFE_TALON)
        seven = next(m for m in kernel_moves(SOLVER, state)
                     if m & 15 == S.SRC_TALON and (m >> 4) & 15 == 0 and lines.expand(state, m)[-1].card == parse_card("7H"))
        kernels.apply(state, seven)
        assert (state[S.STONE] == parse_card("7H")) == stones
        after = {lines.expand(state, m)[-1].card for m in kernel_moves(SOLVER, state)}
        if stones:
            assert after == set(c("6S", "6C"))
        else:
            assert len(after) > 2


def test_a_talon_card_that_is_not_safe_goes_up_only_before_its_successor():
    """Draw 1, unlimited passes: 5♦ (not safe: the black foundations are low) goes
    up from the talon only as a chain; after it, the one move is 6♦ up."""
    heights = [9, 4, 13, 1]   # C D H S
    king = parse_card("KS")
    talon = [x for x in range(52) if x % 13 >= heights[x // 13] and x != king]
    deal = KlondikeDeal(game="klondike", options={"draw": 1, "passes": None, "foundation_to_tableau": False},
                tableau=[[king], [], [], [], [], [], []], face_down=[0] * 7, stock=talon,
                foundations=foundations_of(heights))
    # the safe 2♠ in the talon would otherwise be played first (REDUCE_SAFE_TALON)
    state = encoding.encode(deal, S.REDUCE_ALL & ~S.REDUCE_SAFE_TALON)
    five = next(m for m in kernel_moves(SOLVER, state)
                if m & 15 == S.SRC_TALON and (m >> 4) & 15 == S.DST_FOUND
                and lines.expand(state, m)[-1].card == parse_card("5D"))
    kernels.apply(state, five)
    assert state[S.LIFT] == parse_card("5D")
    assert [lines.expand(state, m)[-1].card for m in kernel_moves(SOLVER, state)] == [parse_card("6D")]
    # with the reduction off, other moves follow as well
    state = encoding.encode(deal, S.REDUCE_ALL & ~S.REDUCE_LAZY & ~S.REDUCE_SAFE_TALON)
    kernels.apply(state, five)
    assert len(kernel_moves(SOLVER, state)) > 1


def test_a_pile_emptied_by_a_run_move_takes_a_king_next():
    """7♥ (with 6♠ on it) is the whole of t1; moving it onto 8♣ empties t1, which is
    only worth it for a King: every move after it puts a King into t1 (K♦ from t3,
    the others from the talon). With every King buried, nothing follows at all."""
    def c(*names):
        return [parse_card(t) for t in names]
    heights = [7, 8, 6, 4]    # C D H S: 8♣ and 7♥ could go up, neither is safe
    for kings, face_down, moves_after in ((c("9D", "KD"), 1, "kings"), (c("KC", "KH", "KS", "KD", "9D"), 4, "none")):
        tableau = [c("7H", "6S"), c("8C"), kings, c("9H"), [], [], []]
        stock = [x for x in range(52) if x % 13 >= heights[x // 13] and x not in sum(tableau, [])]
        deal = KlondikeDeal(game="klondike", options={"draw": 1, "passes": None, "foundation_to_tableau": False},
                    tableau=tableau, face_down=[0, 0, face_down, 0, 0, 0, 0], stock=stock,
                    foundations=foundations_of(heights))
        state = encoding.encode(deal, S.REDUCE_ALL & ~S.REDUCE_SAFE_TALON)
        seven = next(m for m in kernel_moves(SOLVER, state) if m & 15 == 0 and (m >> 4) & 15 == 1)
        kernels.apply(state, seven)
        assert state[S.EMPTIED] == 1 and state[S.LEN + 0] == 0
        after = [lines.expand(state, m)[-1] for m in kernel_moves(SOLVER, state)]
        if moves_after == "kings":
            assert {(m.card, m.to) for m in after} >= {(parse_card("KD"), "t1")}
            assert all(m.card % 13 == 12 and m.to == "t1" for m in after)
        else:
            assert after == []
        # the same position without the rule has other moves (the talon, 8♣ up...)
        loose = encoding.encode(deal, S.REDUCE_ALL & ~S.REDUCE_EMPTY)
        kernels.apply(loose, seven)
        assert any(m.card % 13 != 12 for m in (lines.expand(loose, x)[-1] for x in kernel_moves(SOLVER, loose)))


def test_the_relaxed_deal_has_every_talon_card_in_reach():
    deal = deal_from_seed("klondike", 5, {"draw": 3, "passes": None, "foundation_to_tableau": True})
    easier = reductions.relaxed(deal)
    assert easier.options == {"draw": 1, "passes": None, "foundation_to_tableau": True}
    assert (easier.tableau, easier.stock, easier.face_down) == (deal.tableau, deal.stock, deal.face_down)
    assert deal.options["draw"] == 3   # the deal itself is left alone
    assert reductions.relaxed(easier) is None
    # draw 3, fewer passes than MANY_PASSES: one card a draw and unlimited passes; draw 1, one pass: none
    limited = deal_from_seed("klondike", 5, {"draw": 3, "passes": 3})
    assert reductions.relaxed(limited).options == {"draw": 1, "passes": None, "foundation_to_tableau": False}
    twin = reductions.relaxed(limited)
    assert twins.relaxed_share(limited, twin) is None
    assert not twins.by_passes(limited, twin)   # its lines are never the deal's
    assert reductions.relaxed(deal_from_seed("klondike", 5, {"draw": 1, "passes": 1})) is None
    for passes in (2, 3):   # draw 1 from two passes on: unlimited passes, a twin whose fitting lines win
        few = deal_from_seed("klondike", 5, {"draw": 1, "passes": passes})
        assert reductions.relaxed(few).options == {"draw": 1, "passes": None, "foundation_to_tableau": False}
        assert twins.by_passes(few, reductions.relaxed(few))
    many = deal_from_seed("klondike", 5, {"draw": 3, "passes": 5})
    assert reductions.relaxed(many).options == {"draw": 3, "passes": None, "foundation_to_tableau": False}


def test_a_twin_by_passes_takes_nearly_all_of_the_limits(monkeypatch):
    """Seed 7066 with 20 passes is lost; its twin with unlimited passes proves it in about
    25,000 nodes. Within 40,000 nodes the twin's share (games/twins.py) holds that proof;
    with half of them neither the twin nor the deal's own search decides it."""
    deal = deal_from_seed("klondike", 7066, {"draw": 1, "passes": 20})
    assert solve(deal, max_nodes=40_000, time_limit=None).verdict == "lost"
    monkeypatch.setattr(twins, "PASSES_TWIN_SHARE", 0.5)
    assert solve(deal, max_nodes=40_000, time_limit=None).verdict == "unknown"


def test_draw_3_with_three_passes_is_proved_lost_by_its_one_card_a_draw_twin(monkeypatch):
    """Seed 61349, draw 3, three passes: lost, and its twin (one card a draw, unlimited
    passes) proves it in about 20,000 nodes, where its own search runs past 10 s (17M
    nodes; one of the 13 deals of 10^5 left unknown before the twin)."""
    deal = deal_from_seed("klondike", 61349, {"draw": 3, "passes": 3})
    assert solve(deal, max_nodes=1_000_000, time_limit=None).verdict == "lost"
    with_solver(monkeypatch, "klondike", relaxed=None)
    assert solve(deal, max_nodes=1_000_000, time_limit=None).verdict == "unknown"


def test_draw_1_with_three_passes_is_proved_lost_by_its_unlimited_twin(monkeypatch):
    """Seed 2038, draw 1, three passes: lost, and its twin with unlimited passes proves it in
    about 22,000 nodes; its own search ran past 10 s (one of 67 such deals of 10^4 left
    unknown before draw 1 had the twin from two passes on)."""
    deal = deal_from_seed("klondike", 2038, {"draw": 1, "passes": 3})
    assert solve(deal, max_nodes=200_000, time_limit=None).verdict == "lost"
    with_solver(monkeypatch, "klondike", relaxed=None)
    assert solve(deal, max_nodes=200_000, time_limit=None).verdict == "unknown"


def won_with_five_passes_and_unknown_without(monkeypatch, seed, max_nodes, **switched_off):
    """Draw 1, five passes, ``seed``: won within ``max_nodes`` by a line of at most four
    redeals that the reference rules replay, and unknown there with the Klondike solver's
    fields ``switched_off`` (replaced by the values given)."""
    deal = deal_from_seed("klondike", seed, {"draw": 1, "passes": 5})
    result = solve(deal, max_nodes=max_nodes, time_limit=None)
    assert result.verdict == "won" and sum(m.type == "redeal" for m in result.moves) <= 4
    certify(deal, result.moves)
    with_solver(monkeypatch, "klondike", **switched_off)
    assert solve(deal, max_nodes=max_nodes, time_limit=None).verdict == "unknown"


def test_only_the_own_search_of_a_deal_whose_twin_redeals_too_often_gets_restart_runs(monkeypatch):
    """Seed 9687, draw 1, five passes: its twin with unlimited passes is won only by lines
    that redeal too often, so the deal's own search (the last) gets the game's settings for
    a likely won deal; the probe and the twin do not. A deal whose twin's line fits (seed 3), and a draw-3 deal whose
    twin has other rules of play (seed 5, three passes), get none."""
    import solver.solve as solve_module

    calls = []

    def recording(kernels, root, **settings):
        calls.append(settings)
        return search(kernels, root, **settings)

    monkeypatch.setattr(solve_module, "search", recording)
    from solver.games.klondike.solver import LIKELY_WON_SEARCH

    assert LIKELY_WON_SEARCH["restarts"] >= 1
    deal = deal_from_seed("klondike", 9687, {"draw": 1, "passes": 5})
    assert solve(deal, max_nodes=400_000, time_limit=None).verdict == "unknown"
    assert len(calls) >= 3
    assert all(c.get("restarts", 0) == 0 for c in calls[:-1])
    assert {k: calls[-1][k] for k in LIKELY_WON_SEARCH} == LIKELY_WON_SEARCH
    assert SOLVER.likely_won_settings({"draw": 1, "passes": 3}) == {}   # there the twin's lines all redeal too often
    for seed, options in [(3, {"draw": 1, "passes": 5}), (5, {"draw": 3, "passes": 3})]:
        calls.clear()
        solve(deal_from_seed("klondike", seed, options), max_nodes=400_000, time_limit=None)
        assert calls and all(c.get("restarts", 0) == 0 for c in calls)


@pytest.mark.slow
def test_a_deal_whose_twin_redeals_too_often_is_won_by_the_restart_run(monkeypatch):
    """Seed 4159, draw 1, five passes: won within 8M nodes with the restart run in its own
    search (a line the reference rules replay), unknown there without it (the beam and the
    best-first search of a likely won deal left in)."""
    from solver.games.klondike.solver import LIKELY_WON_SEARCH

    others = {k: v for k, v in LIKELY_WON_SEARCH.items() if not k.startswith("restart")}
    won_with_five_passes_and_unknown_without(monkeypatch, 4159, 8_000_000, likely_won_settings=lambda options: others)


@pytest.mark.slow
def test_a_likely_won_deal_that_is_lost_is_proved_lost_once_the_restart_run_leaves(monkeypatch):
    """Seed 2195, draw 1, four passes: its twin is won only by lines that redeal too often,
    yet it is lost. With the restart run leaving after ``restart_nodes`` the depth-first
    orders prove it within 20M nodes; a restart run that stays takes five of every six
    nodes, and the search is still unknown there."""
    from solver.games.klondike.solver import LIKELY_WON_SEARCH

    deal = deal_from_seed("klondike", 2195, {"draw": 1, "passes": 4})
    assert solve(deal, max_nodes=20_000_000, time_limit=None).verdict == "lost"
    staying = {k: v for k, v in LIKELY_WON_SEARCH.items() if k != "restart_nodes"}
    with_solver(monkeypatch, "klondike", likely_won_settings=lambda options: staying)
    assert solve(deal, max_nodes=20_000_000, time_limit=None).verdict == "unknown"


@pytest.mark.parametrize("seed", [66, 343])
def test_a_draw_3_deal_lost_with_one_card_a_draw_is_lost_at_once(seed):
    """Seeds 66 and 343 (draw 3, unlimited passes) are lost, and so are they with one
    card a draw, in a far smaller search: solve() proves them lost there, after its
    short look at the deal itself. The draw-3 search on its own agrees, with more nodes."""
    from solver.solve import PROBE_NODES, solve

    deal = deal_from_seed("klondike", seed, {"draw": 3, "passes": None})
    result = solve(deal, time_limit=None)
    direct = search(kernels.KERNELS, np.stack(encoding.encode_roots(deal)))
    twin = search(kernels.KERNELS, np.stack(encoding.encode_roots(reductions.relaxed(deal))))
    assert result.verdict == direct.verdict == twin.verdict == "lost"
    assert direct.nodes > PROBE_NODES and result.nodes == PROBE_NODES + twin.nodes
    assert twin.nodes * 3 < direct.nodes


@pytest.mark.parametrize("seed", [66, 343])
def test_a_draw_3_deal_of_many_passes_is_proved_lost_by_its_twins_own_twin(seed):
    """Seeds 66 and 343 with draw 3 and 20 passes: the twin with unlimited passes is solved
    as any deal is, so its own twin, one card a draw, proves them lost. The nodes are the two
    short looks and that proof, fewer than the draw-3 search with unlimited passes takes."""
    from solver.solve import PROBE_NODES, solve

    deal = deal_from_seed("klondike", seed, {"draw": 3, "passes": 20})
    result = solve(deal, time_limit=None)
    unlimited = reductions.relaxed(deal)
    assert unlimited.options["passes"] is None and unlimited.options["draw"] == 3
    twin = search(kernels.KERNELS, np.stack(encoding.encode_roots(reductions.relaxed(unlimited))))
    direct = search(kernels.KERNELS, np.stack(encoding.encode_roots(unlimited)))
    assert result.verdict == twin.verdict == direct.verdict == "lost"
    assert result.nodes == 2 * PROBE_NODES + twin.nodes < direct.nodes


def test_the_deal_itself_gets_a_short_look_before_its_twin():
    """Solvitaire's seed 7211 (draw 3, unlimited passes, foundation_to_tableau) is lost
    within a few nodes of its own search, while its draw-1 twin is not decided in
    50,000: solve() looks at the deal itself first and is done at once."""
    from solver.seeds import deal_from_tool_seed
    from solver.solve import PROBE_NODES, solve

    deal = deal_from_tool_seed("klondike", 7211, "solvitaire",
                               {"draw": 3, "passes": None, "foundation_to_tableau": True})
    result = solve(deal, time_limit=None)
    assert result.verdict == "lost" and result.nodes <= PROBE_NODES
    twin = search(kernels.KERNELS, np.stack(encoding.encode_roots(reductions.relaxed(deal))), max_nodes=50_000)
    assert twin.verdict != "lost"


def test_the_relaxed_search_shares_the_node_limit():
    """A won deal: the relaxed deal is searched first (and won, which proves nothing),
    then the deal itself, within what is left of the limit."""
    from solver.solve import solve

    deal = deal_from_seed("klondike", 4, {"draw": 3, "passes": None})
    full = solve(deal, max_nodes=None, time_limit=None)
    assert full.verdict == "won"
    for limit in (10, 100, full.nodes // 2):
        capped = solve(deal, max_nodes=limit, time_limit=None)
        assert capped.nodes <= limit and capped.verdict in ("won", "unknown")
    assert solve(deal, max_nodes=10 * full.nodes, time_limit=None).verdict == "won"


def test_verdicts_respect_which_variant_allows_more():
    """foundation_to_tableau only adds moves, and with one card a draw and unlimited
    passes every talon card is in reach: a deal won under a stricter rule set is never
    lost under a looser one. Checked across variants on dealt seeds (each search has
    its own reductions, and draw 3 its relaxed twin)."""
    from solver.solve import solve

    def verdict(seed, draw, f2t):
        deal = deal_from_seed("klondike", seed, {"draw": draw, "passes": None, "foundation_to_tableau": f2t})
        return solve(deal, max_nodes=100_000, time_limit=None).verdict

    checked = 0
    for seed in range(1, 41):
        v = {(d, f): verdict(seed, d, f) for d in (1, 3) for f in (False, True)}
        for strict, loose in (((3, False), (1, False)), ((3, True), (1, True)), ((1, False), (1, True)),
                              ((3, False), (3, True))):
            assert not (v[strict] == "won" and v[loose] == "lost"), (seed, strict, loose)
            checked += v[strict] == "won" and v[loose] == "won"
        assert "lost" in v.values() or "won" in v.values()
    assert checked >= 100


def test_a_safe_talon_card_is_played_at_once_from_anywhere_with_draw_1_and_unlimited_passes():
    """2♥ (safe: its Ace is up) lies in the waste under other cards, so only a redeal
    reaches it. With one card a draw and unlimited passes it is the only move; with
    three a draw, limited passes or the reduction off, other moves remain."""
    def c(*names):
        return [parse_card(t) for t in names]
    heights = [7, 9, 1, 7]    # C D H S: A♥ up; 8♣, T♦ and 8♠ are not safe
    tableau = [c("KS"), c("QH"), c("9C"), c("JD"), [], [], []]
    stock = [x for x in range(52) if x % 13 >= heights[x // 13] and x not in sum(tableau, [])]
    stock.remove(parse_card("2H"))
    stock[5:5] = c("2H")      # deep in the talon, not its top
    for draw, passes, reduce, forced in ((1, None, S.REDUCE_ALL, True), (3, None, S.REDUCE_ALL, False),
                                         (1, 3, S.REDUCE_ALL, False),
                                         (1, None, S.REDUCE_ALL & ~S.REDUCE_SAFE_TALON, False)):
        deal = KlondikeDeal(game="klondike", options={"draw": draw, "passes": passes, "foundation_to_tableau": False},
                    tableau=tableau, face_down=[0] * 7, stock=stock,
                    foundations=foundations_of(heights))
        state = encoding.encode(deal, reduce)
        state[S.WASTE_LEN] = 10   # 2♥ is under the waste top: a redeal is needed to play it
        moves = kernel_moves(SOLVER, state)
        played = [lines.expand(state, m)[-1].card for m in moves]
        if forced:
            assert played == c("2H") and lines.expand(state, moves[0])[-1].to.startswith("f")
        else:
            assert len(moves) > 1, (draw, passes)


def test_safe_talon_cards_played_at_once_prove_a_loss_with_fewer_nodes():
    """Seed 25, draw 1, unlimited passes, is lost; the search that waits with safe talon
    cards explores each subtree twice (card waiting, card up) and needs over 3x the nodes."""
    deal = deal_from_seed("klondike", 25, {"draw": 1, "passes": None})
    fast = search(kernels.KERNELS, encoding.encode(deal, S.REDUCE_ALL))
    slow = search(kernels.KERNELS, encoding.encode(deal, S.REDUCE_ALL & ~S.REDUCE_SAFE_TALON))
    assert fast.verdict == slow.verdict == "lost"
    assert 3 * fast.nodes < slow.nodes


def test_safe_talon_cards_keep_the_verdicts_with_foundation_to_tableau():
    """The agreement test above, for draw 1, unlimited passes and cards coming back down:
    a safe card played from the talon is never needed back (REDUCE_SAFE)."""
    decided = 0
    for seed in range(1, 41):
        deal = deal_from_seed("klondike", seed, {"draw": 1, "passes": None, "foundation_to_tableau": True})
        full = search(kernels.KERNELS, encoding.encode(deal, S.REDUCE_ALL), max_nodes=300_000)
        less = search(kernels.KERNELS, encoding.encode(deal, S.REDUCE_ALL & ~S.REDUCE_SAFE_TALON), max_nodes=300_000)
        if full.verdict == "won":
            certify(deal, lines.decode_line(deal, full.line))
        if "unknown" not in (full.verdict, less.verdict):
            assert full.verdict == less.verdict, f"seed {seed}"
            decided += 1
    assert decided >= 30


def test_every_move_order_lists_the_same_moves():
    """Orders 1-5 (reversed, scrambled) permute the list of order 0, along a won line."""
    deal = deal_from_seed("klondike", 3, {"draw": 3, "passes": None})
    roots = encoding.encode_roots(deal)
    assert [int(r[S.ORDER]) for r in roots] == list(range(encoding.ORDERS_UNLIMITED_PASSES))
    line = search(kernels.KERNELS, roots[0]).line
    state, seen = roots[0].copy(), 0
    for m in line:
        lists = []
        for order in range(encoding.ORDERS_UNLIMITED_PASSES):
            state[S.ORDER] = order
            lists.append(kernel_moves(SOLVER, state))
        assert all(sorted(x) == sorted(lists[0]) for x in lists)
        seen += len(lists[0]) > 2 and len({tuple(x) for x in lists}) == len(lists)
        state[S.ORDER] = 0
        kernels.apply(state, m)
    assert seen > 0   # some positions really are listed in six different orders


def test_scrambled_orders_find_a_win_the_first_two_miss():
    """Solvitaire's seed 2939 (draw 3, unlimited passes, foundation_to_tableau): the
    generated and reversed orders need 8.1M nodes to win it; the six orders of
    encode_roots win it within 200,000, and the line replays."""
    from solver.seeds import deal_from_tool_seed
    deal = deal_from_tool_seed("klondike", 2939, "solvitaire",
                               {"draw": 3, "passes": None, "foundation_to_tableau": True})
    roots = np.stack(encoding.encode_roots(deal))
    assert search(kernels.KERNELS, roots[:2], max_nodes=200_000).verdict == "unknown"
    result = search(kernels.KERNELS, roots, max_nodes=200_000)
    assert result.verdict == "won"
    certify(deal, lines.decode_line(deal, result.line))


def talon_in_reach(s, talon, left) -> set:
    """The talon cards that may ever come to the waste top (by the same optimistic facts),
    given the talon cards ``left`` that may be played from it. One card a draw: every card.
    Else a card in the draws' phase, from the waste top now or, with a redeal left, after a
    redeal; the last card; a card whose next card is played; and any card after a card
    played (which moves it down one place)."""
    last_pass = s[S.PASSES] != 0 and s[S.PASSES_USED] + 1 >= s[S.PASSES]
    draw, boundary = s[S.DRAW], s[S.WASTE_LEN]
    if draw == 1:
        return set(talon)
    reach = set()
    for q, c in enumerate(talon):
        by_draws = ((q + 1) % draw == 0 and not last_pass) or (q >= boundary - 1 and (q - boundary + 1) % draw == 0)
        if by_draws or q == len(talon) - 1 or talon[q + 1] in left or any(d in left for d in talon[:q]):
            reach.add(c)
    return reach


def doomed_card_by_card(s) -> bool:
    """The deadlock test as a plain fixed point, one card at a time and in Python sets
    (the kernel works on whole suits in 64-bit masks): whether some card can never
    reach its foundation, by the optimistic facts of REDUCE_DEADLOCK."""
    s = [int(x) for x in s]
    piles = [s[S.PILES + i * S.PILE_CAP:S.PILES + i * S.PILE_CAP + s[S.LEN + i]] for i in range(7)]
    down = [s[S.DOWN + i] for i in range(7)]
    talon = s[S.TALON:S.TALON + s[S.TALON_LEN]]
    last_pass = s[S.PASSES] != 0 and s[S.PASSES_USED] + 1 >= s[S.PASSES]
    waste = talon[:s[S.WASTE_LEN]] if last_pass else []
    heights = [s[S.FOUND + f] for f in range(4)]

    def fits_onto(c, d):   # c one rank below d, other colour
        return d % 13 == c % 13 + 1 and (c // 13 in (1, 2)) != (d // 13 in (1, 2))

    tops = {f * 13 + r for f in range(4) for r in range(heights[f])} if s[S.F2T] else set()
    free, placed = set(), set()
    exposed = {p[-1] for p in piles if p}
    tops |= exposed
    emptiable = {i for i in range(7) if not piles[i]}
    while True:
        before = (len(free), len(placed), len(exposed), len(tops), len(emptiable), sum(heights))
        for i, pile in enumerate(piles):
            for q in range(len(pile) - 1, -1, -1):
                c = pile[q]
                reached = q == len(pile) - 1 or pile[q + 1] in free
                if reached:
                    exposed.add(c)
                    tops.add(c)
                elif q < down[i]:
                    break
                if c % 13 == 12:
                    ok = bool(emptiable - {i})
                else:
                    ok = any(fits_onto(c, d) for d in tops)
                if ok:
                    free.add(c)
            if pile and pile[0] in free:
                emptiable.add(i)
        for q in range(len(waste) - 1, -1, -1):
            if q == len(waste) - 1 or waste[q + 1] in free:
                exposed.add(waste[q])
        played = placed | (set(waste) & free) | {f * 13 + r for f in range(4) for r in range(heights[f])}
        reachable = talon_in_reach(s, talon, played) | set(waste)   # (the waste: as a pile, below)
        for c in talon:
            if c in waste and c not in exposed or c not in reachable:
                continue
            ok = bool(emptiable) if c % 13 == 12 else any(fits_onto(c, d) for d in tops)
            if ok:
                placed.add(c)
                tops.add(c)
                if c in waste:
                    free.add(c)
        buried = {c for p in piles for c in p} | set(waste) | (set(talon) - reachable)
        for f in range(4):
            while heights[f] < 13 and (f * 13 + heights[f] not in buried or f * 13 + heights[f] in exposed):
                free.add(f * 13 + heights[f])
                heights[f] += 1
        if heights == [13] * 4:
            return False
        if (len(free), len(placed), len(exposed), len(tops), len(emptiable), sum(heights)) == before:
            return True


@pytest.mark.parametrize("options", VARIANTS)
def test_the_deadlock_kernel_agrees_with_a_card_by_card_fixed_point(options):
    """Along random playouts (the waste of a last pass included), the compiled deadlock
    test and a plain card-by-card one give the same answer, and both answers occur."""
    rng = random.Random(11)
    answers = {True: 0, False: 0}
    for seed in range(1, 41):
        state = encoding.encode(deal_from_seed("klondike", seed, options), reduce=S.REDUCE_ALL & ~S.REDUCE_DEADLOCK)
        for _ in range(80):
            expected = doomed_card_by_card(state)
            # scratch room holding junk: the kernel must not read what it has not written
            assert bool(reductions._doomed(state, np.full(S.MAX_MOVES, 51, np.int32))) == expected, \
                (seed, state.tolist())
            answers[expected] += 1
            ms = kernel_moves(SOLVER, state)
            if not ms:
                break
            kernels.apply(state, ms[rng.randrange(len(ms))])
    assert answers[True] >= 10 and answers[False] >= 100, answers


def test_a_pile_found_emptiable_late_in_a_sweep_frees_a_king_before_it():
    """The 5th pile can empty only once A♥ goes up, which the foundation step of a sweep
    finds after the piles were visited; K♠ on the 2nd pile (over face-down 2♠) can then
    go into it. The fixed point must sweep again for that: stopping there called this
    position doomed (2♠ buried for ever), which a full fixed point does not."""
    def c(*names):
        return [parse_card(t) for t in names]
    tableau = [c("KC", "QD"), c("2S", "KS", "QH", "JS", "TH", "9S", "8D"),
               c("KD", "QC", "JD", "TC", "9H", "8C", "7H"), c("KH", "4H", "9D", "TD", "9C"),
               c("AH", "2D", "TS"), c("JH", "7C", "5C", "5S", "6H", "6D"), c("5D", "JC", "8H", "2C", "8S", "4C")]
    talon = c("AS", "QS", "5H", "6S", "6C", "7S", "2H", "4D", "3C", "3S", "3D", "3H", "4S", "7D")
    # one card a draw: with three, A♠ is out of reach behind Q♠ (which waits for a red King
    # that never comes up), and the position is doomed for that reason at once
    deal = KlondikeDeal(game="klondike", options={"draw": 1, "passes": None, "foundation_to_tableau": True},
                tableau=tableau, face_down=[0, 1, 0, 3, 2, 5, 5], stock=talon[5:], waste=talon[:5],
                foundations=[c("AC"), c("AD"), [], []])
    state = encoding.encode(deal)
    assert doomed_card_by_card(state) is False
    assert state[S.DOOMED] == 0 and not reductions._doomed(state, np.empty(52, np.int32))


def test_many_passes_cost_no_more_than_unlimited_passes():
    """Seed 1 is won at once with unlimited passes; with 20 passes its twin's line, which
    redeals fewer than 19 times, is a line of the deal itself (replayed by its rules)."""
    deal = deal_from_seed("klondike", 1, {"draw": 1, "passes": 20})
    unlimited = solve(deal_from_seed("klondike", 1, {"draw": 1, "passes": None}), time_limit=None)
    result = solve(deal, time_limit=None, max_nodes=200_000)
    assert result.verdict == "won" and result.nodes <= unlimited.nodes + PROBE_NODES
    assert sum(m.type == "redeal" for m in result.moves) < 20
    certify(deal, result.moves)


def test_a_deal_whose_unlimited_twin_is_lost_is_lost_with_many_passes():
    lost = next(s for s in range(1, 200)
                if solve(deal_from_seed("klondike", s, {"draw": 1, "passes": None}), time_limit=None).verdict == "lost")
    result = solve(deal_from_seed("klondike", lost, {"draw": 1, "passes": 7}), time_limit=None)
    assert result.verdict == "lost"


def _canonical(s):
    """What the key must tell apart, read off the state in plain Python: with REDUCE_LAYOUT
    each pile's face-down cards and lowest face-up card (piles in any order), the set of
    the other face-up cards, the foundations, the talon in order with its boundary (every
    boundary a fresh pass reaches is one, with unlimited passes), and the constraints."""
    piles, face_up = [], set()
    for i in range(7):
        down, ln = int(s[S.DOWN + i]), int(s[S.LEN + i])
        cards = [int(c) for c in s[S.PILES + i * S.PILE_CAP:S.PILES + i * S.PILE_CAP + ln]]
        piles.append((down, tuple(cards[:down + 1])))
        face_up |= set(cards[down + 1:])
    talon = tuple(int(c) for c in s[S.TALON:S.TALON + s[S.TALON_LEN]])
    waste = int(s[S.WASTE_LEN])
    if s[S.PASSES] == 0 and (waste % s[S.DRAW] == 0 or waste == len(talon)):
        waste = 0
    return (tuple(sorted(piles)), frozenset(face_up), tuple(int(x) for x in s[S.FOUND:S.FOUND + 4]), talon, waste,
            int(s[S.PASSES_USED]), int(s[S.STONE]), int(s[S.LIFT]), int(s[S.EMPTIED]))


@pytest.mark.parametrize("options", [{"draw": 3, "passes": None}, {"draw": 1, "passes": 3},
                                     {"draw": 3, "passes": None, "foundation_to_tableau": True}])
def test_the_key_tells_apart_exactly_what_the_layout_reduction_keeps(options):
    """Positions along random kernel playouts (with rearranged face-up runs among them):
    two have the same key exactly when their canonical forms agree. The key packs each
    pile's hashed cards into a word and stands for the other face-up cards by the
    foundation heights; this checks both against the plain reading."""
    rng = random.Random(5)
    out = np.empty(2 * S.MAX_MOVES, dtype=np.int32)
    by_key, by_form = {}, {}
    for seed in range(1, 101):   # (playouts end where the deadlock test finds no moves)
        s = encoding.encode(deal_from_seed("klondike", seed, options), S.REDUCE_ALL)
        for _ in range(120):
            n = generate.moves(s, out)
            if n == 0:
                break
            kernels.apply(s, out[rng.randrange(n)])
            k, form = int(kernels.key(s)), _canonical(s)
            assert by_key.setdefault(k, form) == form
            assert by_form.setdefault(form, k) == k
    assert len(by_form) > 800


def test_the_beam_score_weighs_cards_up_face_down_cards_passes_used_and_the_buried_waste():
    """By hand on a built position: 3 cards up (A♣ 2♣ A♥), 2 + 3 face-down cards, 4 cards
    in the waste: 10 * 3 - 2 * 5, less 20 a pass used and, for each waste card, 8 in the
    last pass and 3 while a redeal is left; with unlimited passes neither costs anything.
    Klondike has one weighing."""
    up = [[0, 1], [], [26], []]
    piles = [[parse_card(t) for t in names.split()] for names in ("5D 9S 8H", "KC", "4S 7D JC QH", "", "", "", "")]
    face_down = [2, 0, 3, 0, 0, 0, 0]
    placed = {c for p in up for c in p} | {c for p in piles for c in p}
    loose = [c for c in range(52) if c not in placed]
    for passes, used, waste_cost in ((1, 0, 8), (3, 0, 3), (3, 1, 3), (3, 2, 8), (None, 0, 0)):
        deal = KlondikeDeal(game="klondike", options={"draw": 1, "passes": passes, "foundation_to_tableau": False},
                            tableau=[list(p) for p in piles], face_down=list(face_down), waste=loose[:4],
                            stock=loose[4:20], foundations=[list(p) for p in up], passes_used=used)
        expected = 10 * 3 - 2 * 5 - (0 if passes is None else 20 * used + waste_cost * 4)
        state = encoding.encode(deal)
        assert kernels.beam_score(state, 0) == kernels.beam_score(state, 1) == expected, (passes, used)


def test_the_beam_wins_a_five_pass_deal_the_other_runs_leave_undecided():
    """Seed 6796, draw 1, five passes (unknown at 10 s before the beam): its two move
    orders with the restart run of a likely won deal find nothing in 3.5M nodes; with the
    beam of solve()'s settings beside them (in one long turn, to keep the test short) a win
    comes within that, and its line replays with the reference rules."""
    deal = deal_from_seed("klondike", 6796, {"draw": 1, "passes": 5})
    roots = np.stack(encoding.encode_roots(deal))
    settings = SOLVER.likely_won_settings(deal.options)
    without = {k: v for k, v in settings.items() if not k.startswith(("beam_", "best_first_"))}
    assert search(kernels.KERNELS, roots, max_nodes=3_500_000, **without).verdict == "unknown"
    beam = {k: v for k, v in settings.items() if not k.startswith("best_first_")}
    result = search(kernels.KERNELS, roots, max_nodes=3_500_000, beam_turn=3_000_000, **beam)
    assert result.verdict == "won"
    certify(deal, lines.decode_line(deal, result.line))


def test_the_best_first_search_wins_a_five_pass_deal_the_beam_leaves_undecided():
    """Seed 3398, draw 1, five passes (unknown at 10 s with the beam; won by the depth-first
    orders after 20M nodes): the orders, the restart run and the beam of a likely won deal
    find nothing in 2M nodes; with the best-first search of solve()'s settings beside them
    a win comes within that, and its line replays with the reference rules."""
    deal = deal_from_seed("klondike", 3398, {"draw": 1, "passes": 5})
    roots = np.stack(encoding.encode_roots(deal))
    settings = SOLVER.likely_won_settings(deal.options)
    without = {k: v for k, v in settings.items() if not k.startswith("best_first_")}
    assert search(kernels.KERNELS, roots, max_nodes=2_000_000, **without).verdict == "unknown"
    result = search(kernels.KERNELS, roots, max_nodes=2_000_000, best_first_turn=1_000_000, **settings)
    assert result.verdict == "won"
    certify(deal, lines.decode_line(deal, result.line))


def _talon_keys(options, reduce=S.REDUCE_ALL, used=range(3), waste=range(0, 10, 3)):
    """Seed 3's key with each number of passes used and each boundary, and its field bits."""
    s = encoding.encode(deal_from_seed("klondike", 3, options), reduce)
    bits = kernels.key_dominance(s)
    out = {}
    for p in used:
        for w in waste:
            s[S.PASSES_USED], s[S.WASTE_LEN] = p, w
            out[p, w] = int(kernels.key(s))
    return out, bits


def test_the_key_keeps_the_passes_used_and_the_boundary_in_its_dominance_field():
    """REDUCE_TALON_DOMINANCE: with one card a draw and limited passes, a position's keys with
    other passes used and boundaries are equal above the field, and the field orders them
    by passes used, then boundary (the order in which one reaches the other); with three
    cards a draw only the passes used are in the field (a later boundary is not reached by
    drawing), and with one pass or unlimited passes, or the flag off, there is no field."""
    keys, bits = _talon_keys({"draw": 1, "passes": 3})
    assert bits == 2 + S.BOUNDARY_BITS
    assert len({k >> bits for k in keys.values()}) == 1
    assert all(k & ((1 << bits) - 1) == (p << S.BOUNDARY_BITS) | w for (p, w), k in keys.items())
    keys, bits = _talon_keys({"draw": 3, "passes": 3})
    assert bits == 2
    assert len({k >> bits for k in keys.values()}) == 4    # one per boundary
    assert all(k & 3 == p for (p, w), k in keys.items())
    for options in ({"draw": 3, "passes": 1}, {"draw": 1, "passes": None}):
        assert _talon_keys(options, used=[0])[1] == 0
    keys, bits = _talon_keys({"draw": 1, "passes": 3}, S.REDUCE_ALL & ~S.REDUCE_TALON_DOMINANCE)
    assert bits == 0 and len({k >> 7 for k in keys.values()}) == len(keys)


def test_passes_used_past_the_field_stay_in_the_hash():
    """40 passes: the field holds passes used up to 15; from 15 on each count is a position
    of its own (above the field), so no count past the field's top is taken for another."""
    keys, bits = _talon_keys({"draw": 1, "passes": 40}, used=range(12, 19), waste=[0])
    assert bits == 4 + S.BOUNDARY_BITS
    high = {p: k >> bits for (p, _), k in keys.items()}
    assert high[12] == high[13] == high[14] and len({high[p] for p in range(14, 19)}) == 5
    assert all(k & ((1 << bits) - 1) == min(p, 15) << S.BOUNDARY_BITS for (p, _), k in keys.items())


def _draws_reach(position) -> set:
    """The boundaries (waste lengths) the reference rules reach from ``position`` by
    drawing and redealing alone."""
    seen, todo = set(), [position]
    while todo:
        pos = todo.pop()
        if len(pos.waste) in seen:
            continue
        seen.add(len(pos.waste))
        todo += [rules.play(pos, m) for m in rules.legal_moves(pos) if m.type in ("draw", "redeal")]
    return seen


@pytest.mark.parametrize("talon_len", [24, 23, 22])
def test_with_unlimited_passes_and_three_a_draw_the_field_orders_the_boundaries_as_drawing_reaches_them(talon_len):
    """REDUCE_TALON_DOMINANCE, draw 3, unlimited passes: a position at each boundary of a
    talon of 24, 23 and 22 cards. Two keys equal above the field with the first's field
    at most the second's: the reference rules reach the second's boundary from the
    first's by drawing and redealing (the order the engine relies on). The boundaries on
    the cycle share one key; the others fall into two chains, one per remainder."""
    deal = deal_from_seed("klondike", 3, {"draw": 3, "passes": None})
    talon = list(deal.stock)[:talon_len]
    bits = kernels.key_dominance(encoding.encode(deal))
    assert bits == 4
    keys, reach = {}, {}
    for w in range(talon_len + 1):
        at = replace(deal, waste=talon[:w], stock=talon[w:])
        keys[w] = int(kernels.key(encoding.encode(at)))
        reach[w] = _draws_reach(rules.initial(at))
    compared = 0
    for a in keys:
        for b in keys:
            if keys[a] >> bits == keys[b] >> bits and keys[a] & 15 <= keys[b] & 15:
                assert b in reach[a], (a, b)
                compared += a != b
    cycle = [w for w in keys if w % 3 == 0 or w == talon_len]
    assert len({keys[w] for w in cycle}) == 1
    assert len({keys[w] >> bits for w in keys}) == 2 and compared > 50
    off = encoding.encode(deal, S.REDUCE_ALL & ~S.REDUCE_TALON_DOMINANCE)
    assert kernels.key_dominance(off) == 0
    assert kernels.key_dominance(encoding.encode(deal_from_seed("klondike", 3, {"draw": 1, "passes": None}))) == 0


@pytest.mark.parametrize("options", [{"draw": 1, "passes": 3}, {"draw": 3, "passes": 3}, {"draw": 3, "passes": None}])
def test_the_talon_dominance_decides_the_same_deals_in_fewer_nodes(options):
    """Seeds 1-12, both move orders over one table as solve() runs them: every deal decided
    with and without REDUCE_TALON_DOMINANCE gets the same verdict, and the searches with it
    take fewer nodes in all."""
    with_it = without = 0
    for seed in range(1, 13):
        deal = deal_from_seed("klondike", seed, options)
        roots = np.stack(encoding.encode_roots(deal))
        less = roots.copy()
        less[:, S.REDUCE_MORE] = 0
        a = search(kernels.KERNELS, roots, max_nodes=400_000)
        b = search(kernels.KERNELS, less, max_nodes=400_000)
        if "unknown" not in (a.verdict, b.verdict):
            assert a.verdict == b.verdict, seed
            with_it += a.nodes
            without += b.nodes
    assert 0 < with_it < without


@pytest.mark.parametrize("reduce", [S.REDUCE_ALL, 0])
def test_the_key_terms_the_state_keeps_are_those_of_its_cards(reduce):
    """``PILE_TERMS`` and ``TALON_CHAIN`` (kept by apply so that the key need not read the
    cards) equal, after every move of random playouts over every option, the terms worked
    out in Python from the piles and the talon (``encoding.pile_term``, ``byte_chain``); and
    ``settle`` works them out again from the cards alone. The playouts must turn cards,
    empty piles, fill empty ones and play talon cards, the moves that change a term."""
    rng = random.Random(11)
    seen = {"turned": 0, "emptied": 0, "filled": 0, "talon": 0}
    for seed in range(1, 61):
        options = {"draw": rng.choice([1, 3]), "passes": rng.choice([None, 1, 3]),
                   "foundation_to_tableau": rng.random() < 0.5}
        state = encoding.encode(deal_from_seed("klondike", seed, options), reduce)
        for _ in range(200):
            ms = kernel_moves(SOLVER, state)
            if not ms:
                break
            before = state.copy()
            kernels.apply(state, ms[rng.randrange(len(ms))])
            for i in range(7):
                pile = [int(c) for c in state[S.PILES + i * S.PILE_CAP:S.PILES + i * S.PILE_CAP + state[S.LEN + i]]]
                assert kept_word(state, S.PILE_TERMS + 8 * i) == encoding.pile_term(pile, state[S.DOWN + i]), \
                    (seed, i)
                seen["turned"] += int(state[S.DOWN + i] < before[S.DOWN + i])
                seen["emptied"] += int(state[S.LEN + i] == 0 < before[S.LEN + i])
                seen["filled"] += int(before[S.LEN + i] == 0 < state[S.LEN + i])
            talon = state[S.TALON:S.TALON + state[S.TALON_LEN]]
            assert kept_word(state, S.TALON_CHAIN) == byte_chain(talon), seed
            seen["talon"] += int(state[S.TALON_LEN] < before[S.TALON_LEN])
            cleared = state.copy()[None, :]
            cleared[0, S.PILE_TERMS:S.TALON_CHAIN + 8] = 0
            kernels.settle(cleared)
            assert (cleared[0] == state).all(), seed
    assert min(seen.values()) >= 20, seen
