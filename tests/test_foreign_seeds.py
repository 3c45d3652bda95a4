"""Other tools' seed numbers (solver.seeds, solver.foreign): each mapping is pinned against values
published by the tool or by lonelybot, never against this project's own output."""

import json
import math

import pytest
from click.testing import CliRunner

from solver.cards import card_name, rank, suit
from solver.cli import main
from solver.deals import DealError, deal_from_seed
from solver.games.klondike.foreign import shootme, solvitaire
from solver.games.klondike.foreign.solvitaire import MT19937
from solver.options import OptionError
from solver.seeds import deal_from_tool_seed, seed_types


def names(cards):
    return [card_name(c) for c in cards]


# ---------------------------------------------------------------------------
# lonelybot (github vuonghy2442/lonelybot) pins decks by a number: its src/shuffler.rs
# `encode_shuffle` ranks the 52-card layout it plays from. Written here from its description:
# the layout holds pile j's cards bottom to top at j(j+1)/2 .. j(j+1)/2+j, then the stock in
# the order it is drawn; a card is rank0 * 4 + suit with lonelybot's suits H D C S (0..3);
# for i = 51..1, with p the position of card i among the first i+1, the code is
# code * (i + 1) + p, and cards p and i swap.
# ---------------------------------------------------------------------------
LONELYBOT_SUIT = {0: 2, 1: 1, 2: 0, 3: 3}   # ours (C D H S) -> lonelybot's number


def lonelybot_code(deal) -> int:
    layout = [None] * 52
    for j, pile in enumerate(deal.tableau):
        assert len(pile) == j + 1 and deal.face_down[j] == j
        for i, c in enumerate(pile):
            layout[j * (j + 1) // 2 + i] = c
    layout[28:] = deal.stock
    cards = [(rank(c) - 1) * 4 + LONELYBOT_SUIT[suit(c)] for c in layout]
    code = 0
    for i in range(51, 0, -1):
        p = cards[:i + 1].index(i)
        code = code * (i + 1) + p
        cards[p], cards[i] = cards[i], cards[p]
    return code


# (seed type, seed, code): src/shuffler.rs `test_exact`, and README.md's `lonecli exact solvitaire 22`
LONELYBOT_CODES = [
    ("solvitaire", 0, 12954810653509400169295621394006691876957783508183809583464865425989),
    ("solvitaire", 22, 75815935119064350470717521029623259780400326814603147288883495865917),
    ("klondike-solver", 0, 35511235380175238168226668580770214465574563740067205469369780560069),
    ("greenfelt", 0, 70781775317263119030027683441491840945148374294523658484644048341783),
    ("microsoft", 37529377358585594134454298882350599254635682470701937210952436445911,
     6555618124709432518914756628087920429793617258659043425228908599455),
]


@pytest.mark.parametrize("seed_type,seed,code", LONELYBOT_CODES)
def test_decoded_deals_match_lonelybots_published_codes(seed_type, seed, code):
    assert lonelybot_code(deal_from_tool_seed("klondike", seed, seed_type)) == code


def test_lonelybot_code_tells_deals_apart():
    # the pins above mean something only if a different deal gives a different code
    codes = {lonelybot_code(deal_from_tool_seed("klondike", s, "solvitaire")) for s in range(5)}
    assert len(codes) == 5


# ---------------------------------------------------------------------------
# Solvitaire
# ---------------------------------------------------------------------------
def test_mersenne_twister_gives_the_c_plus_plus_standards_check_value():
    # [rand.predef]: the 10000th output of a default-constructed std::mt19937 (seed 5489)
    rng = MT19937(5489)
    for _ in range(9999):
        rng.next()
    assert rng.next() == 4123659995


def test_solvitaire_seed_1_is_the_deal_in_solvitaires_readme():
    # Solvitaire README.md, `./solvitaire --type klondike --random 1`: the printed deal shows the
    # face-up tops 9D AS JC 6D JH AH JD and the stock from its bottom (last drawn): 6H KS 10C QH ...
    d = deal_from_tool_seed("klondike", 1, "solvitaire")
    assert names(p[-1] for p in d.tableau) == ["9D", "AS", "JC", "6D", "JH", "AH", "JD"]
    assert names(d.stock[::-1][:4]) == ["6H", "KS", "TC", "QH"]
    assert d.face_down == [0, 1, 2, 3, 4, 5, 6]


def test_boost_uniform_int_stays_in_range_and_reaches_both_ends():
    rng = MT19937(7)
    seen = {solvitaire.boost_uniform_int(rng, 2) for _ in range(200)}
    assert seen == {0, 1, 2}


# ---------------------------------------------------------------------------
# Klondike-Solver: lonelybot's lonecli/src/solvitaire.rs test prints ks_shuffle(0) (Klondike-Solver's
# /G 0) in Solvitaire's JSON; the deal read from that JSON must be our decoding of the same seed.
# ---------------------------------------------------------------------------
KS_0_AS_SOLVITAIRE_JSON = {
    "tableau piles": [
        ["3D"], ["Ad", "8H"], ["Qs", "9d", "8C"], ["Jh", "2c", "3c", "AC"], ["9c", "As", "10s", "Qc", "4S"],
        ["6d", "6h", "Qh", "4d", "6s", "8D"], ["2h", "Ks", "Js", "2s", "5d", "6c", "4H"]],
    "stock": ["QD", "10H", "3S", "5S", "8S", "7D", "KC", "JD", "9H", "JC", "4C", "5H", "10D", "AH", "7C", "9S",
              "3H", "7H", "5C", "7S", "10C", "2D", "KD", "KH"],
    "foundation": [[], [], [], []],
}


def test_klondike_solver_game_0_is_lonelybots_printed_deal():
    ours = deal_from_tool_seed("klondike", 0, "klondike-solver")
    printed = solvitaire.deal_from_json(KS_0_AS_SOLVITAIRE_JSON)
    assert (ours.tableau, ours.face_down, ours.stock) == (printed.tableau, printed.face_down, printed.stock)
    assert names(ours.stock[:2]) == ["KH", "KD"]  # Solvitaire's stock lists the first drawn last


def test_shootme_generator_keeps_cpp_int_semantics():
    # the state must stay 32-bit and the output 31-bit non-negative whatever the seed
    for seed in (0, 1, 12345, 2 ** 31 - 1):
        rng = shootme.ShootMeRandom(seed)
        for _ in range(100):
            x = rng.next1()
            assert 0 <= x < 2 ** 31
            assert 0 <= rng.value < 2 ** 32 and 0 <= rng.mix < 2 ** 32 and 0 <= rng.twist < 2 ** 32


# ---------------------------------------------------------------------------
# API and errors
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("seed_type", seed_types())
def test_every_seed_type_deals_a_whole_fresh_klondike_deal(seed_type):
    for seed in (1, 2, 3):
        d = deal_from_tool_seed("klondike", seed, seed_type, {"draw": 3})
        assert sorted([c for p in d.tableau for c in p] + d.stock) == list(range(52))
        assert d.face_down == list(range(7)) and d.options["draw"] == 3


def test_seed_types_number_different_deals_and_ours_is_the_default():
    assert deal_from_tool_seed("klondike", 5).tableau == deal_from_seed("klondike", 5).tableau
    stocks = {tuple(deal_from_tool_seed("klondike", 5, t).stock) for t in seed_types()}
    assert len(stocks) == len(seed_types())
    assert deal_from_tool_seed("klondike", 5, "solvitaire").seed is None  # a seed of ours only


@pytest.mark.parametrize("seed_type,bad", [("solvitaire", 2 ** 32), ("klondike-solver", 2 ** 31),
                                           ("greenfelt", -1), ("microsoft", math.factorial(52))])
def test_out_of_range_seeds_are_refused(seed_type, bad):
    with pytest.raises(DealError, match="integer from 0"):
        deal_from_tool_seed("klondike", bad, seed_type)


def test_other_games_take_only_our_seeds():
    with pytest.raises(OptionError, match="does not number pyramid deals"):
        deal_from_tool_seed("pyramid", 1, "solvitaire")
    with pytest.raises(OptionError, match="unknown seed type"):
        deal_from_tool_seed("klondike", 1, "pysolfc")
    assert deal_from_tool_seed("pyramid", 1, "ours").pyramid == deal_from_seed("pyramid", 1).pyramid


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def test_cli_deal_and_solve_take_a_seed_type():
    out = run("deal", "klondike", "--seed", 1, "--seed-type", "solvitaire", "--json")
    assert out.exit_code == 0
    obj = json.loads(out.stdout)
    assert [p[-1] for p in obj["tableau"]] == ["9D", "AS", "JC", "6D", "JH", "AH", "JD"] and "seed" not in obj
    text = run("deal", "klondike", "--seed", 1, "--seed-type", "solvitaire").stdout
    assert text.startswith("klondike seed 1 (solvitaire)")
    big = 37529377358585594134454298882350599254635682470701937210952436445911
    assert run("deal", "klondike", "--seed", big, "--seed-type", "microsoft").exit_code == 0
    solved = run("solve", "klondike", "--seed", 5, "--seed-type", "solvitaire", "--draw", 3, "--passes", "unlimited",
                 "--foundation-to-tableau", "--json")
    assert json.loads(solved.stdout)["verdict"] == "won"


@pytest.mark.parametrize("args,message", [
    (("deal", "pyramid", "--seed", 1, "--seed-type", "greenfelt"), "does not number pyramid deals"),
    (("solve", "twenty", "--seed", 1, "--seed-type", "microsoft"), "does not number twenty deals"),
    (("deal", "klondike", "--seed", 2 ** 40, "--seed-type", "solvitaire"), "Solvitaire seed"),
    (("deal", "klondike", "--seed", 2 ** 64), "2**64-1"),
])
def test_cli_seed_type_errors_are_one_line(args, message):
    result = run(*args)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.stderr.count("\n") == 1 and message in result.stderr
