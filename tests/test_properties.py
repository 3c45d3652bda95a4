"""Random legal playouts with the reference rules: no card is ever lost or doubled, and every
position survives being written as a deal (FORMATS.md) and read back."""

import json
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.deals import all_cards, deal_from_json, deal_from_seed, deal_to_json
from tests.helpers import rules as rules_for

DECKS = {"klondike": 1, "pyramid": 1, "twenty": 2, "ladder": 2}
PASSES = st.sampled_from([1, 2, 3, None])

OPTIONS = {
    "klondike": st.fixed_dictionaries({"draw": st.sampled_from([1, 3]), "passes": PASSES,
                                       "foundation_to_tableau": st.booleans()}),
    "pyramid": st.one_of(
        st.fixed_dictionaries({"piles": st.just(1), "passes": PASSES, "stock_top": st.booleans()}),
        st.fixed_dictionaries({"piles": st.just(3), "passes": st.just(1), "stock_top": st.booleans()})),
    "twenty": st.just({}),
    "ladder": st.fixed_dictionaries({"passes": PASSES}),
}
SEEDS = st.integers(min_value=0, max_value=2 ** 64 - 1)
MAX_MOVES = 150


def check_position(rules, game, pos):
    deal = rules.to_deal(pos)
    counts = Counter(all_cards(deal))
    decks = DECKS[game]
    assert sum(counts.values()) == 52 * decks
    assert all(counts[c] == decks for c in range(52)), {c: n for c, n in counts.items() if n != decks}
    text = json.dumps(deal_to_json(deal))
    again = deal_from_json(json.loads(text))
    assert deal_to_json(again) == json.loads(text)
    back = rules.initial(again)
    assert back == pos
    assert rules.legal_moves(back) == rules.legal_moves(pos)


@pytest.mark.parametrize("game", list(DECKS))
@settings(deadline=None, max_examples=40, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=SEEDS)
def test_random_playout_keeps_the_deck_and_round_trips(game, data, seed):
    options = data.draw(OPTIONS[game], label="options")
    rules = rules_for(game)
    pos = rules.initial(deal_from_seed(game, seed, options))
    check_position(rules, game, pos)
    for _ in range(MAX_MOVES):
        moves = rules.legal_moves(pos)
        if not moves:
            break
        assert len(set(moves)) == len(moves)  # a fixed list of distinct moves
        move = moves[data.draw(st.integers(0, len(moves) - 1), label="move")]
        pos = rules.play(pos, move)
        check_position(rules, game, pos)
