"""Deals: the documented shuffle, pinned deals, whole decks, JSON round trips, validation.

The shuffle is re-implemented here from README.md ("How a seed becomes a deal"), not
imported, so that the module and its documentation are checked against each other.
"""

import itertools
import json
from collections import Counter

import pytest

from solver.cards import parse_card
from solver.deals import DealError, all_cards, deal_from_json, deal_from_seed, deal_to_json, load_deal, shuffled_deck
from tests.helpers import rules as rules_for

GAMES = ("klondike", "pyramid", "twenty", "ladder", "golf")


def test_these_tests_cover_every_registered_game():
    from solver.registry import names
    assert sorted(GAMES) == sorted(names()), "add the game to README's dealing and to this independent copy"
DECKS = {"klondike": 1, "pyramid": 1, "twenty": 2, "ladder": 2, "golf": 1}

# Every allowed options combination (RULES.md / FORMATS.md "Options"); passes None = unlimited.
OPTION_COMBOS = {
    "klondike": [{"draw": d, "passes": p, "foundation_to_tableau": f}
                 for d, p, f in itertools.product((1, 3), (1, 3, None), (False, True))],
    "pyramid": [{"piles": n, "passes": p, "stock_top": t}
                for n, p, t in itertools.product((1, 3), (1, 3, None), (False, True))
                if n == 1 or p == 1],  # piles=3 allows no redeal
    "twenty": [{}],
    "ladder": [{"passes": p} for p in (1, 3, None)],
    "golf": [{"queens_on_kings": q, "wrap": w} for q, w in itertools.product((False, True), (False, True))],
}
ALL_VARIANTS = [(g, o) for g in GAMES for o in OPTION_COMBOS[g]]


def variant_id(v):
    game, options = v
    return game + "-" + "-".join(f"{k}={val}" for k, val in options.items())


# ---------------------------------------------------------------------------
# An independent implementation of README.md "How a seed becomes a deal"
# ---------------------------------------------------------------------------
TWO_64 = 2 ** 64


class ReadmeSplitMix64:
    def __init__(self, seed):
        self.state = seed

    def output(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) % TWO_64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % TWO_64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % TWO_64
        return z ^ (z >> 31)

    def below(self, n):
        bound = TWO_64 - (TWO_64 % n)
        x = self.output()
        while x >= bound:
            x = self.output()
        return x % n


def readme_starting_deck(game):
    one = list(range(52))  # A..K of clubs, diamonds, hearts, spades
    if game in ("klondike", "pyramid", "golf"):
        return one
    two = one + one
    if game == "ladder":
        return two
    # twenty: the two-deck sequence without the first copy of each Ace and King
    seen, out = set(), []
    for c in two:
        if c % 13 in (0, 12) and c not in seen:
            seen.add(c)
            continue
        out.append(c)
    return out


def readme_shuffle(game, seed):
    deck = readme_starting_deck(game)
    rng = ReadmeSplitMix64(seed)
    for i in range(len(deck) - 1, 0, -1):
        j = rng.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def readme_deal(game, seed):
    """The zones README's step 5 describes, as card-number lists."""
    deck = readme_shuffle(game, seed)
    if game == "klondike":
        piles, k = [[] for _ in range(7)], 0
        for r in range(7):
            for p in range(r, 7):  # piles r+1..7, 1-based
                piles[p].append(deck[k])
                k += 1
        return {"tableau": piles, "stock": deck[28:]}
    if game == "pyramid":
        rows, k = [], 0
        for r in range(1, 8):
            rows.append(deck[k:k + r])
            k += r
        return {"pyramid": rows, "stock": deck[28:]}
    if game == "twenty":
        return {"tableau": [[c] for c in deck[:20]], "stock": deck[20:]}
    if game == "golf":
        piles = [[deck[row * 7 + p] for row in range(5)] for p in range(7)]
        return {"tableau": piles, "foundations": [[deck[35]]], "stock": deck[36:]}
    piles = [[deck[row * 8 + p] for row in range(4)] for p in range(8)]
    return {"tableau": piles, "ladder": deck[32:61], "stock": deck[61:]}


SEEDS = [0, 1, 2, 3, 7, 42, 1000, 123456789, 2 ** 32 + 5, 2 ** 63, 2 ** 64 - 1]


def test_splitmix64_reference_outputs():
    # The reference outputs of SplitMix64 (Vigna's splitmix64.c) for seed 1234567.
    rng = ReadmeSplitMix64(1234567)
    assert [rng.output() for _ in range(3)] == [6457827717110365317, 3203168211198807973,
                                                9817491932198370423]


def test_splitmix64_of_the_module_gives_the_reference_outputs():
    from solver.deals import SplitMix64
    rng = SplitMix64(1234567)
    assert [rng.next() for _ in range(3)] == [6457827717110365317, 3203168211198807973,
                                              9817491932198370423]


def test_below_rejects_outputs_in_the_biased_tail():
    # With n = 2**63 + 1 the bound 2**64 - (2**64 mod n) is n itself: an output at or above
    # it must be rejected, not reduced. Take a seed whose first output is such an output.
    from solver.deals import SplitMix64
    n = 2 ** 63 + 1
    seed = next(s for s in range(100) if ReadmeSplitMix64(s).output() >= n)
    raw = ReadmeSplitMix64(seed)
    outs = [raw.output() for _ in range(60)]
    expected = next(x for x in outs if x < n)
    assert expected != outs[0] % n
    assert ReadmeSplitMix64(seed).below(n) == expected
    assert SplitMix64(seed).below(n) == expected


@pytest.mark.parametrize("game", GAMES)
def test_starting_deck_sizes(game):
    deck = readme_starting_deck(game)
    assert len(deck) == {"klondike": 52, "pyramid": 52, "twenty": 96, "ladder": 104, "golf": 52}[game]
    if game == "twenty":
        counts = Counter(deck)
        assert all(counts[c] == (1 if c % 13 in (0, 12) else 2) for c in range(52))


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", SEEDS)
def test_shuffle_matches_the_readme(game, seed):
    assert shuffled_deck(game, seed) == readme_shuffle(game, seed)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", SEEDS)
def test_dealing_matches_the_readme(game, seed):
    deal = deal_from_seed(game, seed)
    expected = readme_deal(game, seed)
    for zone, cards in expected.items():
        assert getattr(deal, zone) == cards, zone
    assert deal.seed == seed


def test_different_seeds_give_different_deals():
    decks = {tuple(shuffled_deck("klondike", s)) for s in range(50)}
    assert len(decks) == 50


@pytest.mark.parametrize("seed", [-1, 2 ** 64, 1.0, "1", True, None])
def test_seed_out_of_range_is_refused(seed):
    with pytest.raises(DealError):
        shuffled_deck("klondike", seed)


# ---------------------------------------------------------------------------
# Layouts (README step 5, RULES.md deals)
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [1, 2, 3, 99])
def test_klondike_layout(seed):
    d = deal_from_seed("klondike", seed)
    deck = shuffled_deck("klondike", seed)
    assert [len(p) for p in d.tableau] == [1, 2, 3, 4, 5, 6, 7]
    assert d.face_down == [0, 1, 2, 3, 4, 5, 6]
    assert len(d.stock) == 24 and d.stock[0] == deck[28]
    # row by row: the first row is deck[0..6], the top of pile 7 is the last tableau card
    assert [p[0] for p in d.tableau] == deck[0:7]
    assert d.tableau[6][-1] == deck[27]
    assert d.tableau[1][1] == deck[7]
    assert not d.waste and not any(d.foundations)


@pytest.mark.parametrize("seed", [1, 2, 3, 99])
def test_pyramid_layout(seed):
    d = deal_from_seed("pyramid", seed)
    deck = shuffled_deck("pyramid", seed)
    assert [len(r) for r in d.pyramid] == [1, 2, 3, 4, 5, 6, 7]
    assert d.pyramid[0] == [deck[0]] and d.pyramid[6] == deck[21:28]
    assert d.stock == deck[28:] and len(d.stock) == 24


@pytest.mark.parametrize("seed", [1, 2, 3, 99])
def test_twenty_layout(seed):
    d = deal_from_seed("twenty", seed)
    assert len(d.tableau) == 20 and all(len(p) == 1 for p in d.tableau)
    assert len(d.stock) == 76
    assert d.foundations == [[parse_card(n)] for n in ("AC", "AD", "AH", "AS", "KC", "KD", "KH", "KS")]


@pytest.mark.parametrize("seed", [1, 2, 3, 99])
def test_ladder_layout(seed):
    d = deal_from_seed("ladder", seed)
    deck = shuffled_deck("ladder", seed)
    assert len(d.tableau) == 8 and all(len(p) == 4 for p in d.tableau)
    assert [p[0] for p in d.tableau] == deck[0:8]  # row by row
    assert len(d.ladder) == 29 and d.ladder[0] == deck[32] and d.ladder[-1] == deck[60]
    assert len(d.stock) == 43 and d.stock[0] == deck[61]
    assert not any(d.foundations)


# ---------------------------------------------------------------------------
# Pinned deals: a regression pin (any change to the shuffle or dealing breaks it)
# ---------------------------------------------------------------------------
PINNED = {
    ("klondike", 1): {
        "game": "klondike",
        "options": {"draw": 1, "passes": 1, "foundation_to_tableau": False},
        "seed": 1,
        "tableau": [["7D"], ["9C", "6D"], ["4D", "9S", "2D"], ["8H", "JC", "JH", "2C"], ["8D", "5D",
            "5H", "AD", "KH"], ["5S", "KD", "7H", "6S", "TH", "JS"], ["JD", "3C", "4H", "KC", "TS",
            "TD", "8S"]],
        "face_down": [0, 1, 2, 3, 4, 5, 6],
        "stock": ["QC", "4S", "6C", "7C", "AS", "5C", "AH", "KS", "6H", "QS", "QH", "QD", "9D", "3D",
            "3S", "AC", "4C", "2H", "8C", "TC", "3H", "2S", "9H", "7S"],
    },
    ("klondike", 2): {
        "game": "klondike",
        "options": {"draw": 1, "passes": 1, "foundation_to_tableau": False},
        "seed": 2,
        "tableau": [["QH"], ["3S", "TD"], ["4C", "AC", "7D"], ["5H", "6C", "6H", "JD"], ["7H", "7S",
            "JH", "8C", "2S"], ["2D", "3C", "TC", "4D", "4H", "QD"], ["KH", "QC", "9S", "5S", "AD",
            "6S", "8H"]],
        "face_down": [0, 1, 2, 3, 4, 5, 6],
        "stock": ["3H", "9D", "6D", "JS", "AS", "5C", "JC", "AH", "KC", "2H", "7C", "4S", "9C", "TH",
            "5D", "TS", "QS", "KS", "8S", "KD", "3D", "2C", "8D", "9H"],
    },
    ("klondike", 3): {
        "game": "klondike",
        "options": {"draw": 1, "passes": 1, "foundation_to_tableau": False},
        "seed": 3,
        "tableau": [["AD"], ["3D", "AH"], ["7S", "3H", "6S"], ["QS", "JC", "5C", "JD"], ["9S", "KS",
            "QC", "4S", "4C"], ["2C", "QH", "KH", "AC", "2H", "6H"], ["5S", "6C", "KD", "8H", "8C",
            "8D", "8S"]],
        "face_down": [0, 1, 2, 3, 4, 5, 6],
        "stock": ["9C", "3S", "9D", "6D", "7D", "7H", "5D", "9H", "JS", "TD", "4D", "KC", "AS", "5H",
            "TH", "3C", "2S", "TS", "QD", "7C", "2D", "4H", "JH", "TC"],
    },
    ("pyramid", 1): {
        "game": "pyramid",
        "options": {"piles": 1, "passes": 1, "stock_top": False},
        "seed": 1,
        "pyramid": [["7D"], ["9C", "4D"], ["8H", "8D", "5S"], ["JD", "6D", "9S", "JC"], ["5D", "KD",
            "3C", "2D", "JH"], ["5H", "7H", "4H", "2C", "AD", "6S"], ["KC", "KH", "TH", "TS", "JS",
            "TD", "8S"]],
        "stock": ["QC", "4S", "6C", "7C", "AS", "5C", "AH", "KS", "6H", "QS", "QH", "QD", "9D", "3D",
            "3S", "AC", "4C", "2H", "8C", "TC", "3H", "2S", "9H", "7S"],
    },
    ("pyramid", 2): {
        "game": "pyramid",
        "options": {"piles": 1, "passes": 1, "stock_top": False},
        "seed": 2,
        "pyramid": [["QH"], ["3S", "4C"], ["5H", "7H", "2D"], ["KH", "TD", "AC", "6C"], ["7S", "3C",
            "QC", "7D", "6H"], ["JH", "TC", "9S", "JD", "8C", "4D"], ["5S", "2S", "4H", "AD", "QD",
            "6S", "8H"]],
        "stock": ["3H", "9D", "6D", "JS", "AS", "5C", "JC", "AH", "KC", "2H", "7C", "4S", "9C", "TH",
            "5D", "TS", "QS", "KS", "8S", "KD", "3D", "2C", "8D", "9H"],
    },
    ("pyramid", 3): {
        "game": "pyramid",
        "options": {"piles": 1, "passes": 1, "stock_top": False},
        "seed": 3,
        "pyramid": [["AD"], ["3D", "7S"], ["QS", "9S", "2C"], ["5S", "AH", "3H", "JC"], ["KS", "QH",
            "6C", "6S", "5C"], ["QC", "KH", "KD", "JD", "4S", "AC"], ["8H", "4C", "2H", "8C", "6H",
            "8D", "8S"]],
        "stock": ["9C", "3S", "9D", "6D", "7D", "7H", "5D", "9H", "JS", "TD", "4D", "KC", "AS", "5H",
            "TH", "3C", "2S", "TS", "QD", "7C", "2D", "4H", "JH", "TC"],
    },
    ("twenty", 1): {
        "game": "twenty",
        "options": {},
        "seed": 1,
        "foundations": [["AC"], ["AD"], ["AH"], ["AS"], ["KC"], ["KD"], ["KH"], ["KS"]],
        "tableau": [["8H"], ["6D"], ["TD"], ["6H"], ["9D"], ["JH"], ["KH"], ["JS"], ["7H"], ["7D"],
            ["4C"], ["AH"], ["6C"], ["QS"], ["QS"], ["TH"], ["5C"], ["QH"], ["JD"], ["3D"]],
        "stock": ["QC", "8C", "7H", "4D", "6S", "8S", "2D", "7C", "KS", "2D", "5H", "4D", "6H", "5D",
            "4H", "5S", "3C", "QC", "TS", "9C", "3D", "JH", "9H", "5S", "8D", "8C", "QD", "4S", "TC",
            "7S", "4H", "2S", "3H", "3H", "6C", "2H", "6S", "9H", "3S", "TC", "3C", "5H", "8D", "7S",
            "QH", "3S", "9C", "2H", "8S", "JC", "AS", "7D", "TD", "5D", "KD", "JS", "9S", "AC", "JC",
            "4S", "8H", "7C", "5C", "KC", "9S", "QD", "TH", "2C", "JD", "2C", "4C", "AD", "TS", "6D",
            "2S", "9D"],
    },
    ("twenty", 2): {
        "game": "twenty",
        "options": {},
        "seed": 2,
        "foundations": [["AC"], ["AD"], ["AH"], ["AS"], ["KC"], ["KD"], ["KH"], ["KS"]],
        "tableau": [["JS"], ["9H"], ["2S"], ["5D"], ["4H"], ["JH"], ["6C"], ["7S"], ["3D"], ["7C"],
            ["QD"], ["5D"], ["QS"], ["8D"], ["9C"], ["TH"], ["9D"], ["4C"], ["8S"], ["QH"]],
        "stock": ["7H", "QC", "6S", "6C", "3D", "TS", "JC", "8C", "7H", "3H", "6H", "KC", "JH", "QD",
            "2D", "AD", "8D", "9C", "TD", "4C", "AC", "KS", "AS", "9S", "TS", "KD", "JC", "6S", "7D",
            "5C", "QC", "TC", "4S", "9H", "TD", "2D", "5C", "2C", "2H", "5S", "JS", "TC", "7D", "JD",
            "4D", "5S", "QH", "9D", "AH", "7S", "2C", "8H", "9S", "6H", "KH", "5H", "8S", "5H", "4S",
            "3S", "2S", "2H", "JD", "8H", "4D", "QS", "7C", "6D", "TH", "6D", "3H", "3S", "8C", "4H",
            "3C", "3C"],
    },
    ("twenty", 3): {
        "game": "twenty",
        "options": {},
        "seed": 3,
        "foundations": [["AC"], ["AD"], ["AH"], ["AS"], ["KC"], ["KD"], ["KH"], ["KS"]],
        "tableau": [["AS"], ["5H"], ["7S"], ["8H"], ["TH"], ["JS"], ["3S"], ["2D"], ["4S"], ["2C"],
            ["2D"], ["QS"], ["4H"], ["2H"], ["JH"], ["5H"], ["QH"], ["TC"], ["9H"], ["3C"]],
        "stock": ["2H", "TD", "TD", "JH", "7S", "4D", "6H", "9S", "QC", "TS", "7D", "JC", "JD", "6C",
            "8C", "9C", "KC", "8S", "QC", "5S", "JC", "5D", "3D", "3C", "3H", "7H", "AD", "8H", "KH",
            "6D", "4D", "KD", "KS", "7H", "JS", "5C", "QD", "QD", "6H", "3H", "5S", "4C", "8D", "6S",
            "QH", "7D", "4S", "8S", "5D", "4H", "QS", "AC", "9D", "TS", "6S", "6D", "TC", "7C", "JD",
            "AH", "2S", "6C", "3S", "9C", "8C", "9H", "5C", "4C", "2S", "3D", "8D", "TH", "9D", "7C",
            "9S", "2C"],
    },
    ("ladder", 1): {
        "game": "ladder",
        "options": {"passes": None},
        "seed": 1,
        "tableau": [["6H", "6C", "TS", "5S"], ["7H", "9C", "4D", "3S"], ["JC", "5C", "3C", "7S"], ["8C",
            "TH", "4C", "AC"], ["KS", "KD", "JC", "8S"], ["7D", "JH", "9S", "9C"], ["6S", "AH", "JS",
            "8D"], ["8C", "QS", "KC", "9D"]],
        "ladder": ["QD", "3D", "6C", "7D", "AS", "AD", "AS", "6D", "6H", "KH", "3H", "KC", "JS", "TD",
            "5S", "5D", "2D", "3S", "2C", "8H", "7C", "4S", "8H", "2H", "JH", "2S", "9H", "2C", "5C"],
        "stock": ["9S", "5H", "7C", "3C", "6S", "2S", "AH", "TH", "4S", "9H", "QH", "4C", "4D", "QS",
            "QH", "2H", "9D", "4H", "QC", "KS", "TC", "7H", "6D", "5D", "5H", "AD", "TS", "2D", "KH",
            "QD", "3H", "8S", "QC", "3D", "8D", "TD", "KD", "JD", "TC", "JD", "AC", "4H", "7S"],
    },
    ("ladder", 2): {
        "game": "ladder",
        "options": {"passes": None},
        "seed": 2,
        "tableau": [["TD", "7C", "4C", "8S"], ["AH", "AC", "9C", "9H"], ["6H", "AS", "6D", "7S"], ["JS",
            "4S", "8D", "KC"], ["2D", "KH", "8C", "KS"], ["QS", "2C", "KS", "9S"], ["5H", "KC", "7C",
            "AS"], ["3D", "6D", "4D", "4C"]],
        "ladder": ["JH", "TS", "7H", "QD", "6S", "9D", "QH", "2S", "AC", "TH", "4D", "TS", "3C", "2C",
            "6C", "8S", "8C", "4H", "AH", "QC", "5D", "3S", "2H", "QS", "9D", "5D", "TH", "2S", "AD"],
        "stock": ["5S", "3C", "3H", "QH", "2H", "6S", "3H", "4H", "8D", "JH", "7D", "6H", "6C", "7H",
            "TC", "8H", "QD", "7S", "5C", "JC", "JD", "5H", "AD", "5S", "9C", "2D", "JC", "JD", "3S",
            "7D", "4S", "8H", "KD", "KD", "QC", "9S", "5C", "3D", "JS", "TD", "TC", "KH", "9H"],
    },
    ("ladder", 3): {
        "game": "ladder",
        "options": {"passes": None},
        "seed": 3,
        "tableau": [["8C", "JS", "3C", "2H"], ["QS", "9H", "7S", "3D"], ["4D", "AS", "8H", "8C"], ["JC",
            "3S", "8S", "QH"], ["7C", "AC", "TH", "QC"], ["TS", "5S", "5C", "KS"], ["4S", "TD", "6S",
            "AC"], ["AD", "4H", "QD", "3D"]],
        "ladder": ["6D", "KD", "5C", "5D", "2C", "5S", "KH", "9D", "KH", "9D", "6C", "7H", "9H", "AH",
            "4C", "3C", "8H", "5H", "2S", "6C", "QH", "9C", "2C", "8D", "3H", "4C", "6H", "3H", "AD"],
        "stock": ["JD", "KD", "TH", "6S", "6H", "4S", "8S", "2H", "AS", "TS", "5D", "7D", "KS", "JH",
            "QD", "JS", "6D", "3S", "4D", "7C", "7D", "KC", "2D", "8D", "9S", "QS", "JC", "7H", "TD",
            "4H", "JH", "QC", "9C", "9S", "AH", "TC", "2S", "7S", "2D", "KC", "JD", "5H", "TC"],
    },
}


@pytest.mark.parametrize("key", list(PINNED), ids=lambda k: f"{k[0]}-{k[1]}")
def test_pinned_deals(key):
    game, seed = key
    assert deal_to_json(deal_from_seed(game, seed)) == PINNED[key]


@pytest.mark.parametrize("key", list(PINNED), ids=lambda k: f"{k[0]}-{k[1]}")
def test_pinned_deals_agree_with_the_readme_implementation(key):
    game, seed = key
    expected = readme_deal(game, seed)
    pinned = PINNED[key]
    for zone, cards in expected.items():
        if zone in ("tableau", "pyramid"):
            assert [[parse_card(c) for c in p] for p in pinned[zone]] == cards
        else:
            assert [parse_card(c) for c in pinned[zone]] == cards


@pytest.mark.parametrize("key", list(PINNED), ids=lambda k: f"{k[0]}-{k[1]}")
def test_pinned_deals_read_back(key):
    assert deal_to_json(deal_from_json(PINNED[key])) == PINNED[key]


# ---------------------------------------------------------------------------
# Whole decks
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("variant", ALL_VARIANTS, ids=variant_id)
def test_every_card_once_or_twice(variant):
    game, options = variant
    decks = DECKS[game]
    for seed in range(0, 400, 13):
        d = deal_from_seed(game, seed, options)
        counts = Counter(all_cards(d))
        assert sum(counts.values()) == 52 * decks
        assert all(counts[c] == decks for c in range(52))
        assert d.options == options


@pytest.mark.parametrize("variant", ALL_VARIANTS, ids=variant_id)
def test_options_do_not_change_the_cards(variant):
    game, options = variant
    for seed in (5, 6):
        plain, with_options = deal_from_seed(game, seed), deal_from_seed(game, seed, options)
        assert deal_to_json(plain)["stock"] == deal_to_json(with_options)["stock"]
        zones = {k: v for k, v in deal_to_json(plain).items() if k not in ("options", "waste")}
        assert zones == {k: v for k, v in deal_to_json(with_options).items() if k not in ("options", "waste")}


# ---------------------------------------------------------------------------
# JSON round trips
# ---------------------------------------------------------------------------
def round_trip(deal):
    first = deal_to_json(deal)
    again = deal_to_json(deal_from_json(json.loads(json.dumps(first))))
    return first, again


@pytest.mark.parametrize("variant", ALL_VARIANTS, ids=variant_id)
def test_fresh_deal_round_trips(variant):
    game, options = variant
    for seed in (0, 11, 2 ** 64 - 1):
        first, again = round_trip(deal_from_seed(game, seed, options))
        assert first == again
        assert first["options"] == options and first["seed"] == seed


def _scripted_playout(game, options, seed, steps):
    """Positions along a deterministic line of legal moves (a varied, not random, choice)."""
    rules = rules_for(game)
    pos = rules.initial(deal_from_seed(game, seed, options))
    out = []
    for step in range(steps):
        moves = rules.legal_moves(pos)
        if not moves:
            break
        # prefer card moves (so that foundations fill), but draw/redeal often enough
        pick = moves[(step * 7 + seed) % len(moves)] if step % 3 else moves[0]
        pos = rules.play(pos, pick)
        out.append(pos)
    return out


@pytest.mark.parametrize("variant", ALL_VARIANTS, ids=variant_id)
def test_mid_game_positions_round_trip(variant):
    game, options = variant
    rules = rules_for(game)
    seen_foundations = seen_waste = seen_redeal = False
    for seed in (1, 4):
        for pos in _scripted_playout(game, options, seed, 120):
            first, again = round_trip(rules.to_deal(pos))
            assert first == again
            assert rules.initial(deal_from_json(first)) == pos
            seen_foundations |= sum(map(len, first.get("foundations", []))) > {"twenty": 8, "golf": 1}.get(game, 0)
            seen_waste |= bool(first.get("waste"))
            seen_redeal |= first.get("passes_used", 0) > 0
    # the line really reached mid-game positions
    assert seen_foundations
    assert seen_waste or game in ("twenty", "golf")   # (Golf's draws go onto its foundation)
    assert seen_redeal or game in ("twenty", "ladder", "golf") or options["passes"] == 1


def test_hand_built_klondike_mid_game_round_trips():
    obj = deal_to_json(deal_from_seed("klondike", 1, {"draw": 3, "passes": 3}))
    # take AD out of pile 5 (it lies under KH), and put it and two stock cards elsewhere
    stock = obj["stock"]
    obj["tableau"][4] = ["8D", "5D", "5H", "KH"]
    obj["face_down"][4] = 3
    obj["foundations"] = [[], ["AD"], [], []]
    obj["waste"], obj["stock"] = stock[:5], stock[5:]
    obj["passes_used"] = 2
    first, again = round_trip(deal_from_json(obj))
    assert first == again
    assert first["waste"] == stock[:5] and first["passes_used"] == 2
    assert first["foundations"] == [[], ["AD"], [], []]


def test_hand_built_pyramid_three_piles_mid_game_round_trips():
    obj = deal_to_json(deal_from_seed("pyramid", 1, {"piles": 3}))
    # remove KC (p7.1) to the discard; three draws onto the three waste piles
    obj["pyramid"][6][0] = None
    obj["foundations"] = [["KC"]]
    s = obj["stock"]
    obj["waste"], obj["stock"] = [[s[0], s[3]], [s[1], s[4]], [s[2]]], s[5:]
    d = deal_from_json(obj)
    assert d.waste == [[parse_card(s[0]), parse_card(s[3])], [parse_card(s[1]), parse_card(s[4])],
                       [parse_card(s[2])]]
    first, again = round_trip(d)
    assert first == again and first["pyramid"][6][0] is None


def test_hand_built_ladder_mid_game_round_trips():
    d = deal_from_seed("ladder", 3, {"passes": 3})
    d.waste, d.stock = d.stock[:10], d.stock[10:]
    d.passes_used = 1
    first, again = round_trip(d)
    assert first == again and len(first["waste"]) == 10 and first["passes_used"] == 1


# ---------------------------------------------------------------------------
# Validation errors
# ---------------------------------------------------------------------------
def seed_json(game, seed=1, options=None):
    return json.loads(json.dumps(deal_to_json(deal_from_seed(game, seed, options))))


def refused(obj):
    with pytest.raises(DealError) as info:
        deal_from_json(obj)
    return str(info.value)


def test_missing_card():
    obj = seed_json("klondike")
    gone = obj["stock"].pop()
    message = refused(obj)
    assert gone in message and "missing" in message


def test_missing_card_two_decks():
    obj = seed_json("ladder")
    gone = obj["stock"].pop(0)
    message = refused(obj)
    assert gone in message and "missing" in message


def test_duplicate_card():
    obj = seed_json("klondike")
    obj["stock"][0] = obj["tableau"][0][0]
    message = refused(obj)
    assert obj["tableau"][0][0] in message and "2 times" in message


def test_third_copy_in_two_decks():
    obj = seed_json("twenty")
    third = next(c for c in obj["stock"][1:] if c != obj["stock"][0] and c[0] not in "AK")
    obj["stock"][0] = third  # a card both decks already hold, a third time
    message = refused(obj)
    assert third in message and "3 times" in message


@pytest.mark.parametrize("game, zone, count", [
    ("klondike", "tableau", 7), ("twenty", "tableau", 20), ("ladder", "tableau", 8),
    ("twenty", "foundations", 8), ("pyramid", "pyramid", 7)])
def test_wrong_pile_count(game, zone, count):
    obj = seed_json(game)
    extra = obj[zone].pop()
    obj["stock"] += [c for c in extra if c]
    message = refused(obj)
    assert zone in message and str(count) in message and str(count - 1) in message


def test_pyramid_row_of_the_wrong_length():
    obj = seed_json("pyramid")
    obj["stock"].append(obj["pyramid"][3].pop())
    message = refused(obj)
    assert "pyramid row 4" in message


@pytest.mark.parametrize("zone, pile, position", [("tableau", 3, 2), ("tableau", 7, 7), ("tableau", 1, 1)])
def test_unknown_card_in_a_pile_names_zone_pile_and_position(zone, pile, position):
    obj = seed_json("klondike")
    obj[zone][pile - 1][position - 1] = "XQ"
    message = refused(obj)
    assert f"{zone} pile {pile} card {position}" in message
    assert "'XQ'" in message


def test_unknown_card_in_the_stock_names_its_position():
    obj = seed_json("ladder")
    obj["stock"][4] = "1H"
    message = refused(obj)
    assert "stock card 5" in message and "'1H'" in message


def test_unknown_card_in_the_ladder_names_its_position():
    obj = seed_json("ladder")
    obj["ladder"][28] = "ZZ"
    message = refused(obj)
    assert "ladder card 29" in message and "'ZZ'" in message


def test_unknown_card_in_twenty_foundations():
    obj = seed_json("twenty")
    obj["foundations"][5] = ["K?"]
    message = refused(obj)
    assert "foundations pile 6 card 1" in message and "'K?'" in message


@pytest.mark.parametrize("game", ["chess", "Klondike", None, 5, ["klondike"]])
def test_unknown_game(game):
    obj = seed_json("klondike")
    obj["game"] = game
    message = refused(obj)
    assert "unknown game" in message and repr(game) in message


@pytest.mark.parametrize("game, option", [("klondike", "piles"), ("twenty", "passes"), ("pyramid", "draw"),
                                          ("ladder", "stock_top"), ("klondike", "colour")])
def test_unknown_option(game, option):
    obj = seed_json(game)
    obj["options"][option] = 1
    message = refused(obj)
    assert "unknown option" in message and repr(option) in message


@pytest.mark.parametrize("game, option, value", [
    ("klondike", "draw", 2), ("klondike", "draw", True), ("klondike", "passes", 0),
    ("klondike", "passes", "unlimited"), ("klondike", "foundation_to_tableau", 1),
    ("pyramid", "piles", 2), ("pyramid", "stock_top", "yes"), ("ladder", "passes", -1),
    ("ladder", "passes", 1.5)])
def test_bad_option_value(game, option, value):
    obj = seed_json(game)
    obj["options"][option] = value
    message = refused(obj)
    assert "bad value" in message and repr(option) in message and repr(value) in message
    assert "expected" in message  # and says what would do


def test_pyramid_three_piles_with_redeals_is_refused():
    obj = seed_json("pyramid")
    obj["options"] = {"piles": 3, "passes": 3}
    assert "piles=3" in refused(obj)


@pytest.mark.parametrize("face_down", [[0, 1, 2, 3, 4, 5], [0, 1, 2, 3, 4, 5, 6, 7], [0, -1, 2, 3, 4, 5, 6],
                                       "0123456", [0, 1, 2, 3, 4, 5, 6.0], [0, True, 2, 3, 4, 5, 6]])
def test_bad_face_down_list(face_down):
    obj = seed_json("klondike")
    obj["face_down"] = face_down
    assert "face_down" in refused(obj)


def test_face_down_covering_the_whole_pile():
    obj = seed_json("klondike")
    obj["face_down"][3] = 4  # pile 4 has 4 cards: its top would be face-down
    message = refused(obj)
    assert "face_down pile 4" in message


def test_a_pile_never_holds_more_face_down_cards_than_it_is_dealt():
    obj = seed_json("klondike")
    obj["face_down"][0] = 1                                  # pile 1 is dealt one card, face up
    obj["tableau"][0].insert(0, obj["stock"].pop())          # (the card counts stay whole)
    assert "pile 1 is dealt 0 face down" in refused(obj)
    obj = seed_json("klondike")
    obj["tableau"][3].insert(0, obj["stock"].pop())          # pile 4: four face down, three dealt
    obj["face_down"][3] = 4
    assert "pile 4 is dealt 3 face down" in refused(obj)


def test_a_pyramid_card_removed_without_a_partner_is_refused():
    obj = seed_json("pyramid")
    ace = next(c for c in obj["stock"] if c[0] == "A")
    obj["stock"].remove(ace)
    obj["foundations"] = [[ace]]                             # a lone Ace gone: no rule removes it
    assert "removed Ace without a partner" in refused(obj)
    queen = next(c for c in obj["stock"] if c[0] == "Q")
    obj["stock"].remove(queen)
    obj["foundations"] = [[ace, queen]]                      # with a Queen it is a pair
    assert deal_from_json(obj).foundations == [[parse_card(ace), parse_card(queen)]]


def test_face_down_on_an_empty_pile():
    obj = seed_json("klondike")
    # pile 1's only card fits pile 7's top (seed 1): played there, pile 1 is empty
    obj["tableau"][6].append(obj["tableau"][0].pop())
    obj["face_down"][0] = 0
    assert deal_from_json(obj).tableau[0] == []
    obj["face_down"][0] = 1
    message = refused(obj)
    assert "face_down pile 1" in message


def test_face_up_cards_must_form_a_run_in_klondike():
    obj = seed_json("klondike")
    obj["face_down"] = [0] * 7
    message = refused(obj)
    # seed 1: pile 2 is 9C under 6D, which cannot lie face-up on 9C
    assert "tableau pile 2 card 2" in message and "6D" in message and "9C" in message


def test_a_real_run_is_accepted_face_up():
    obj = seed_json("klondike")
    # seed 1: pile 5 ends with KH face up; QS (black) from the stock may lie on it, QH may not
    obj["stock"].remove("QS")
    obj["tableau"][4].append("QS")
    d = deal_from_json(obj)
    assert d.tableau[4][-2:] == [parse_card("KH"), parse_card("QS")]
    obj = seed_json("klondike")
    obj["stock"].remove("QH")
    obj["tableau"][4].append("QH")
    message = refused(obj)
    assert "tableau pile 5 card 6" in message and "QH" in message and "KH" in message


def test_twenty_empty_pile_while_the_stock_has_cards():
    obj = seed_json("twenty")
    obj["tableau"][5].append(obj["tableau"][4].pop())
    message = refused(obj)
    assert "tableau pile 5" in message and "empty" in message


def test_twenty_empty_pile_is_fine_once_the_stock_is_gone():
    obj = seed_json("twenty")
    obj["tableau"][0] += obj["stock"]
    obj["stock"] = []
    obj["tableau"][1].append(obj["tableau"][2].pop())
    d = deal_from_json(obj)
    assert d.tableau[2] == [] and not d.stock


def test_pyramid_removed_card_still_covered():
    obj = seed_json("pyramid")
    top = obj["pyramid"][0][0]
    obj["pyramid"][0][0] = None
    obj["foundations"] = [[top]]
    message = refused(obj)
    assert "pyramid row 1 card 1" in message and "covered" in message


def test_pyramid_removed_bottom_card_is_fine():
    obj = seed_json("pyramid")
    card = obj["pyramid"][6][3]
    obj["pyramid"][6][3] = None
    removed = [card]
    if card[0] != "K":   # removed with a partner from the stock, adding up to 13
        value = "A23456789TJQK".index(card[0]) + 1
        partner = next(c for c in obj["stock"] if "A23456789TJQK".index(c[0]) + 1 == 13 - value)
        obj["stock"].remove(partner)
        removed.append(partner)
    obj["foundations"] = [removed]
    assert deal_from_json(obj).pyramid[6][3] is None


def test_foundation_out_of_order():
    obj = seed_json("klondike")
    obj["stock"].remove("AS")
    obj["stock"].remove("QS")
    obj["foundations"] = [[], [], [], ["AS", "QS"]]
    obj["waste"] = []
    message = refused(obj)
    assert "foundations pile 4 card 2" in message and "QS" in message


def test_foundation_of_the_wrong_suit():
    obj = seed_json("klondike")
    obj["stock"].remove("AS")
    obj["foundations"] = [["AS"], [], [], []]
    message = refused(obj)
    assert "foundations pile 1 card 1" in message and "AS" in message


def test_passes_used_beyond_the_passes_allowed():
    obj = seed_json("klondike", options={"passes": 3})
    obj["passes_used"] = 3
    message = refused(obj)
    assert "passes_used=3" in message
    obj["passes_used"] = 2
    assert deal_from_json(obj).passes_used == 2


def test_unknown_field():
    obj = seed_json("ladder")
    obj["laddr"] = []
    assert "'laddr'" in refused(obj)


def test_not_an_object():
    with pytest.raises(DealError):
        deal_from_json([1, 2, 3])


# ---------------------------------------------------------------------------
# Files
# ---------------------------------------------------------------------------
def test_load_deal_reads_a_deal_file(tmp_path):
    path = tmp_path / "deal.json"
    obj = seed_json("pyramid", 2)
    path.write_text(json.dumps(obj), encoding="utf-8")
    assert deal_to_json(load_deal(path)) == obj


def test_load_deal_takes_the_deal_of_a_result_object(tmp_path):
    path = tmp_path / "result.json"
    obj = seed_json("twenty", 2)
    path.write_text(json.dumps({"verdict": "lost", "moves": [], "deal": obj}), encoding="utf-8")
    assert deal_to_json(load_deal(path)) == obj


def test_malformed_json_file_names_file_and_line(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{"game": "klondike",\n "seed": 1,\n "stock": ["AS" "KD"]\n}\n', encoding="utf-8")
    with pytest.raises(DealError) as info:
        load_deal(path)
    message = str(info.value)
    assert str(path) in message and "line 3" in message


def test_nonexistent_file(tmp_path):
    path = tmp_path / "nothing-here.json"
    with pytest.raises(DealError) as info:
        load_deal(path)
    message = str(info.value)
    assert str(path) in message and "cannot read" in message


def test_invalid_deal_in_a_file_names_the_file(tmp_path):
    path = tmp_path / "bad.json"
    obj = seed_json("klondike")
    obj["tableau"][2][1] = "QQ"
    path.write_text(json.dumps(obj), encoding="utf-8")
    with pytest.raises(DealError) as info:
        load_deal(path)
    message = str(info.value)
    assert str(path) in message and "tableau pile 3 card 2" in message and "'QQ'" in message
