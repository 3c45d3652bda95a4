"""Golf kernels against the reference rules: brute force, reductions, and the command line.

What every game must pass (kernel moves equal the rules' moves with reductions off,
won lines certified, the key, deal JSON, the CLI) is in ``tests/test_game_contract.py``;
this file holds what is particular to Golf's kernels.

* On small positions, the solver's verdict (all reductions, each switched off, none)
  equals a brute-force search of every reachable position with the reference rules.
* Every state a pruning reduction drops is lost (by the unreduced search).
"""

import json
import random

import numpy as np
import pytest

from solver.cards import parse_card
from solver.deals import Deal, deal_from_json, deal_from_seed, deal_to_json
from solver.engine.search import search
from solver.games.golf import kernels as K
from solver.games.golf import rules as R
from solver.games.golf.solver import SOLVER
from solver.moves import Move
from solver.registry import game
from solver.replay import certify, replay
from solver.solve import solve
from tests.helpers import brute_force_wins as brute_force
from tests.helpers import kernel_moves
from tests.test_cli import run, runner  # noqa: F401  (runner is a fixture)

REDUCTIONS = [K.REDUCE_RANK, K.REDUCE_MATCH]
ALL_OPTIONS = [{"queens_on_kings": q, "wrap": w} for q in (False, True) for w in (False, True)]   # FF first
SETTINGS = [K.REDUCE_ALL] + [K.REDUCE_ALL & ~r for r in REDUCTIONS] + [0]


def plain(move: Move) -> str:
    """A move as the reference rules list it (their draw names no card)."""
    return str(Move("draw") if move.type == "draw" else move)


def same_table(state, pos) -> bool:
    def pile(i):
        base = K.PILES + i * K.PILE_CAP
        return tuple(int(x) for x in state[base:base + int(state[K.LEN + i])])
    stock = tuple(int(x) for x in state[K.STOCK + int(state[K.STOCK_POS]):K.STOCK + int(state[K.STOCK_LEN])])
    return (tuple(pile(i) for i in range(7)) == pos.tableau and stock == pos.stock
            and int(state[K.TOP]) == pos.foundation[-1] and int(state[K.LEFT]) == sum(map(len, pos.tableau)))


def verdict(deal, reduce=K.REDUCE_ALL, **limits):
    return search(K.KERNELS, K.encode(deal, reduce), **limits)


# ---------------------------------------------------------------------------
# 1. kernel moves = reference moves (reductions off)
# ---------------------------------------------------------------------------


# ---------------------------------------------------------------------------
# 2. verdicts = brute force on small positions
# ---------------------------------------------------------------------------
def brute_force_wins(deal) -> bool:
    """Every reachable position (only the foundation's top card matters to the rules, so
    it stands for the foundation)."""
    return brute_force(deal, key=lambda p: (p.tableau, p.foundation[-1], p.stock))


def small_position(rng, options, tableau_cards, stock_n) -> Deal:
    """A random table: ``tableau_cards`` cards spread over the 7 piles (at most 5 a pile), a
    stock of ``stock_n``, one card on the foundation over the rest of the deck."""
    deck = list(range(52))
    rng.shuffle(deck)
    heights = [0] * 7
    for _ in range(tableau_cards):
        heights[rng.choice([i for i in range(7) if heights[i] < 5])] += 1
    tableau, k = [], 0
    for h in heights:
        tableau.append(deck[k:k + h])
        k += h
    stock = deck[k:k + stock_n]
    return Deal(game="golf", options=options, tableau=tableau, foundations=[deck[k + stock_n:]], stock=stock)


def planted_position(rng, options, tableau_cards, stock_n) -> Deal:
    """A table with a winning line planted in it, then shaken (two cards swapped) half the
    time: a random line (rank steps the rules allow, a draw now and then) is laid out in
    reverse on random piles, so that each card is on top when its turn comes."""
    qok, wrap = options["queens_on_kings"], options["wrap"]
    free = list(range(52))
    rng.shuffle(free)
    top = free.pop()
    line, stock, current = [], [], top
    while len(line) < tableau_cards and free:
        fitting = [x for x in free if R.fits(x, current, qok, wrap)]
        if len(stock) < stock_n and (not fitting or rng.random() < 0.15):
            current = free.pop()
            stock.append(current)
            line.append(None)
            continue
        if not fitting:
            break
        current = rng.choice(fitting)
        free.remove(current)
        line.append(current)
    tableau = [[] for _ in range(7)]
    for card in reversed([x for x in line if x is not None]):
        pile = rng.choice([p for p in tableau if len(p) < 5])
        pile.append(card)
    piles = [p for p in tableau if p]
    if piles and rng.random() < 0.5:
        a, b = rng.choice(piles), rng.choice(piles)
        i, j = rng.randrange(len(a)), rng.randrange(len(b))
        a[i], b[j] = b[j], a[i]
    return Deal(game="golf", options=options, tableau=tableau, foundations=[free + [top]], stock=stock)


def playout_position(rng, options, seed, tableau_left) -> Deal:
    """A seeded deal played at random (reference rules) until at most ``tableau_left`` cards
    are on the tableau, or no move is left."""
    pos = R.initial(deal_from_seed("golf", seed, options))
    while sum(map(len, pos.tableau)) > tableau_left:
        moves = [m for m in R.legal_moves(pos) if m.type == "move"] or R.legal_moves(pos)
        if not moves:
            break
        pos = R.play(pos, rng.choice(moves))
    return R.to_deal(pos)


@pytest.mark.parametrize("options", ALL_OPTIONS)
def test_verdicts_match_brute_force_on_small_positions(options):
    rng = random.Random(17 + 2 * options["queens_on_kings"] + options["wrap"])
    counts = {"won": 0, "lost": 0}
    deals = [small_position(rng, options, rng.randint(4, 13), rng.randint(0, 7)) for _ in range(30)]
    deals += [planted_position(rng, options, rng.randint(6, 16), rng.randint(0, 8)) for _ in range(60)]
    deals += [playout_position(rng, options, seed, 13) for seed in range(1, 41)]
    for deal in deals:
        truth = brute_force_wins(deal)
        for reduce in SETTINGS:
            result = verdict(deal, reduce)
            assert result.verdict == ("won" if truth else "lost"), (reduce, deal_to_json(deal))
            if truth:
                certify(deal, K.decode_line(deal, result.line, reduce))
        counts["won" if truth else "lost"] += 1
    assert min(counts.values()) >= 10, counts   # the sample exercises both answers


def _table(piles: dict, top: str, stock: str = "", options=None) -> Deal:
    tableau = [[parse_card(x) for x in piles.get(i, "").split()] for i in range(1, 8)]
    return Deal(game="golf", options=options or dict(ALL_OPTIONS[0]), tableau=tableau,
                foundations=[[parse_card(top)]], stock=[parse_card(x) for x in stock.split()])


# Positions where a plausible but wrong reduction loses a won game (why no move is forced),
# or where the matching is only just met.
TRAPS = {
    # the draw is not safe: 6H wins at once, the draw (a King) blocks it for good
    "draw_first_loses": _table({1: "6H"}, top="5S", stock="KD"),
    # a fitting card is not safe: 4C first leaves 6H with nothing to go on; 6H, 5D, 4C wins
    "fitting_card_first_loses": _table({1: "4C", 2: "5D 6H"}, top="5S"),
    # every card has exactly one card to go on: 4D on 3S, 5D on 4D; QD on JC (drawn), KH on QD
    "matched_exactly": _table({1: "5D 4D", 2: "KH QD"}, top="3S", stock="JC"),
    # wrap: an Ace on a King, a King on an Ace (the edges that join the two paths): AH KD AC
    "wrap_edges": _table({1: "AC KD AH"}, top="KS", options={"queens_on_kings": False, "wrap": True}),
    # both options: the cycle's King-on-Ace edge must carry a King (KD on AS)
    "cycle_edge": _table({1: "QH KD"}, top="AS", options={"queens_on_kings": True, "wrap": True}),
    # queens_on_kings: QD on KS, then JD on QD
    "queen_on_king": _table({1: "JD QD"}, top="KS", options={"queens_on_kings": True, "wrap": False}),
}


@pytest.mark.parametrize("name", TRAPS)
def test_positions_that_trap_a_careless_reduction(name):
    deal = TRAPS[name]
    assert brute_force_wins(deal)
    for reduce in SETTINGS:
        result = verdict(deal, reduce)
        assert result.verdict == "won", reduce
        certify(deal, K.decode_line(deal, result.line, reduce))


LOST = {
    # two 6s and one card (the top 5S) they can go on: the second 6 has none
    "two_cards_one_top": _table({1: "6H", 2: "6D"}, top="5S"),
    # a King and nothing it can go on (no Queen anywhere; nothing goes on a King)
    "king_without_queen": _table({1: "KH 4C", 2: "3D"}, top="5S", stock="2H"),
    # wrap without queens_on_kings: on a King only an Ace, and the only Ace is under the Queen
    "wrap_queen_not_on_king": _table({1: "AD QH"}, top="KS", stock="9C",
                                     options={"queens_on_kings": False, "wrap": True}),
}


@pytest.mark.parametrize("name", LOST)
def test_the_matching_cuts_lost_positions_at_once(name):
    deal = LOST[name]
    assert not brute_force_wins(deal)
    assert kernel_moves(SOLVER, K.encode(deal, K.REDUCE_MATCH)) == []     # the matching sees it at the root
    assert kernel_moves(SOLVER, K.encode(deal, 0)) != []
    for reduce in SETTINGS:
        assert verdict(deal, reduce).verdict == "lost"


@pytest.mark.parametrize("options", ALL_OPTIONS)
def test_every_state_the_matching_cuts_is_lost(options):
    """Along random playouts, each state where the matching ends the search (no move listed
    though the rules have some) is lost for the search with no reductions; and the states
    it keeps include lost ones only (it is a necessary condition, not more)."""
    rng = random.Random(3 + len(json.dumps(options)))
    cut = 0
    for seed in range(1, 41):
        pos = R.initial(deal_from_seed("golf", seed, options))
        while R.legal_moves(pos):
            deal = R.to_deal(pos)
            if not kernel_moves(SOLVER, K.encode(deal, K.REDUCE_MATCH)):
                cut += 1
                assert verdict(deal, 0).verdict == "lost", deal_to_json(deal)
            pos = R.play(pos, rng.choice(R.legal_moves(pos)))
    assert cut >= 10, cut


# ---------------------------------------------------------------------------
# 3. each reduction keeps the verdicts; solve() certifies every won line
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("switched_off", REDUCTIONS + [K.REDUCE_ALL])
def test_each_reduction_keeps_the_verdicts(switched_off):
    decided = {"won": 0, "lost": 0}
    for options in ALL_OPTIONS:
        for seed in range(1, 9):
            deal = deal_from_seed("golf", seed, options)
            full = verdict(deal, K.REDUCE_ALL)
            less = verdict(deal, K.REDUCE_ALL & ~switched_off)
            assert full.verdict == less.verdict != "unknown", (options, seed)
            decided[full.verdict] += 1
    assert decided["won"] >= 5 and decided["lost"] >= 5, decided


# ---------------------------------------------------------------------------
# The state: the key, the sizes
# ---------------------------------------------------------------------------
def test_key_ignores_pile_order_and_with_rank_reduction_the_top_suit():
    rng = random.Random(3)
    deal = deal_from_seed("golf", 4)
    other = SOLVER.symmetric(deal, rng)
    assert other.tableau != deal.tableau and sorted(other.tableau) == sorted(deal.tableau)
    for reduce in (0, K.REDUCE_ALL):
        assert K.key(K.encode(deal, reduce)) == K.key(K.encode(other, reduce))
    top = deal.foundations[0][0]
    same_rank = next(x for x in deal.stock + [y for p in deal.tableau for y in p] if x % 13 == top % 13)
    swapped = Deal(game="golf", options=deal.options, tableau=[[same_rank if x == same_rank else x for x in p]
                                                               for p in deal.tableau],
                   foundations=[[same_rank]], stock=deal.stock)
    assert (K.key(K.encode(deal, K.REDUCE_RANK)) == K.key(K.encode(swapped, K.REDUCE_RANK)))
    assert K.key(K.encode(deal, 0)) != K.key(K.encode(swapped, 0))
    # the stock position and heights count
    state = K.encode(deal)
    drawn = state.copy()
    K.apply(drawn, np.int32(K.DRAW_MOVE))
    assert K.key(drawn) != K.key(state)


def test_encode_refuses_what_the_state_cannot_hold():
    deal = deal_from_seed("golf", 1)
    K.encode(deal)
    for bad in (Deal(game="golf", options={}, tableau=[deal.tableau[0] + [deal.stock[0]]] + deal.tableau[1:],
                     foundations=deal.foundations, stock=deal.stock[1:]),
                Deal(game="golf", options={}, tableau=deal.tableau[:6], foundations=deal.foundations,
                     stock=deal.stock),
                Deal(game="golf", options={}, tableau=deal.tableau, foundations=[[]], stock=deal.stock),
                Deal(game="golf", options={}, tableau=[[]] + deal.tableau[1:], foundations=deal.foundations,
                     stock=deal.stock + deal.tableau[0][:1])):
        with pytest.raises(ValueError):
            K.encode(bad)


def test_the_options_reach_the_state():
    for options in ALL_OPTIONS:
        s = K.encode(deal_from_seed("golf", 1, options))
        assert s[K.OPTS] == (K.OPT_QUEENS_ON_KINGS * options["queens_on_kings"] + K.OPT_WRAP * options["wrap"])
    assert game("golf").solver is SOLVER and SOLVER.reduce_all == K.REDUCE_ALL


# ---------------------------------------------------------------------------
# The command line
# ---------------------------------------------------------------------------
def test_solve_command_seed_1(runner):  # noqa: F811
    text = run(runner, "solve", "golf", "--seed", 1)
    assert text.exit_code == 0, text.stderr
    result = solve(deal_from_seed("golf", 1))
    assert text.stdout.startswith(f"golf seed 1 (queens_on_kings=false, wrap=false): {result.verdict}")
    obj = json.loads(run(runner, "solve", "golf", "--seed", 1, "--json").stdout)
    assert obj["game"] == "golf" and obj["options"] == ALL_OPTIONS[0] and obj["verdict"] == result.verdict
    assert obj["deal"] == deal_to_json(deal_from_seed("golf", 1))


def _first_won_seed(options):
    return next(s for s in range(1, 100) if solve(deal_from_seed("golf", s, options)).verdict == "won")


@pytest.mark.parametrize("args, options", [([], ALL_OPTIONS[0]),
                                           (["--queens-on-kings", "--wrap"], ALL_OPTIONS[3])])
def test_solve_command_gives_a_line_the_rules_replay(runner, tmp_path, args, options):  # noqa: F811
    seed = _first_won_seed(options)
    result = run(runner, "solve", "golf", "--seed", seed, *args, "--json")
    assert result.exit_code == 0, result.stderr
    obj = json.loads(result.stdout)
    assert obj["verdict"] == "won" and obj["options"] == options
    pos, bad = replay(deal_from_json(obj["deal"]), [Move.from_json(m) for m in obj["moves"]])
    assert bad is None and R.is_won(pos)
    assert all(m["to"] == "f1" for m in obj["moves"] if m["type"] == "move")
    assert all(len(m["cards"]) == 1 for m in obj["moves"] if m["type"] == "draw")
    path = tmp_path / "won.json"
    path.write_text(result.stdout)
    assert run(runner, "check", path).stdout.startswith("wins")


def test_hint_command(runner):  # noqa: F811
    seed = _first_won_seed(ALL_OPTIONS[0])
    line = solve(deal_from_seed("golf", seed)).moves
    played = " ".join(str(m) for m in line[:3])
    out = run(runner, "hint", "golf", "--seed", seed, "--played", played)
    assert out.exit_code == 0, out.stderr
    assert "after 3 moves played" in out.stdout and "winnable" in out.stdout and "next:" in out.stdout
    obj = json.loads(run(runner, "hint", "golf", "--seed", seed, "--played", played, "--json").stdout)
    assert obj["played"] == 3 and obj["verdict"] == "won" and obj["next"] == obj["moves"][0]
    pos, bad = replay(deal_from_json(obj["deal"]), [Move.from_json(m) for m in obj["moves"]])
    assert bad is None and R.is_won(pos)
    every = run(runner, "hint", "golf", "--seed", seed, "--all")
    assert every.exit_code == 0 and "1. " in every.stdout
    lost = next(s for s in range(1, 100) if solve(deal_from_seed("golf", s)).verdict == "lost")
    out = run(runner, "hint", "golf", "--seed", lost)
    assert "no winning line exists from here" in out.stdout


