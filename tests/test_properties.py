"""Random legal playouts with the reference rules: no card is ever lost or doubled, and every
position survives being written as a deal (FORMATS.md) and read back."""

import json
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.deals import all_cards, deal_from_json, deal_from_seed, deal_to_json
from solver.registry import game as lookup
from solver.registry import names
from tests.helpers import rules as rules_for

PASSES = st.sampled_from([1, 2, 3, None])


def options_of(name):
    """Every options dict the game allows, drawn from its option list (and its conflicts)."""
    g = lookup(name)
    values = {"flag": st.booleans(), "passes": PASSES}
    return st.fixed_dictionaries({o.name: values[o.kind] if o.kind in values else st.sampled_from(o.choices)
                                  for o in g.options}) \
        .filter(lambda options: g.options_conflict(options) is None)
SEEDS = st.integers(min_value=0, max_value=2 ** 64 - 1)
MAX_MOVES = 150


def check_position(rules, game, pos):
    deal = rules.to_deal(pos)
    counts = Counter(all_cards(deal))
    decks = lookup(game).decks
    assert sum(counts.values()) == 52 * decks
    assert all(counts[c] == decks for c in range(52)), {c: n for c, n in counts.items() if n != decks}
    text = json.dumps(deal_to_json(deal))
    again = deal_from_json(json.loads(text))
    assert deal_to_json(again) == json.loads(text)
    back = rules.initial(again)
    assert back == pos
    assert rules.legal_moves(back) == rules.legal_moves(pos)


@pytest.mark.parametrize("game", names())
@settings(deadline=None, max_examples=40, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=SEEDS)
def test_random_playout_keeps_the_deck_and_round_trips(game, data, seed):
    options = data.draw(options_of(game), label="options")
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
