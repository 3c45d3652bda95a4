"""Sampled tables in bulk (solver/play/sampling.py): the arrangements are the samples the
observation draws one by one, and a template with an arrangement written in is the
encoding of that sample, after any line of moves, for every game that declares
``open_state``."""

from __future__ import annotations

import random

import numpy as np
import pytest

from solver.deals import SplitMix64, deal_from_seed
from solver.play import Referee
from solver.play.observation import first_observation
from solver.play.sampling import Templates, arrangements
from solver.registry import game as game_named
from solver.registry import names

BULK = [name for name in names() if game_named(name).solver.open_state is not None]


def test_arrangements_are_the_samples_drawn_one_by_one():
    cards = tuple(sorted(random.Random(3).sample(range(52), 30)))
    seeds = [0, 1, 2**64 - 1, 12345678901234567, *range(40, 60)]
    rows = arrangements(seeds, cards)
    for seed, row in zip(seeds, rows):
        rng, want = SplitMix64(seed), list(cards)
        for i in range(len(want) - 1, 0, -1):
            j = rng.below(i + 1)
            want[i], want[j] = want[j], want[i]
        assert row.tolist() == want


def test_arrangements_of_one_card_or_none():
    assert arrangements([5, 6], (7,)).tolist() == [[7], [7]]
    assert arrangements([5], ()).shape == (1, 0)


def test_a_game_with_a_hidden_card_offers_bulk_sampling():
    assert "klondike" in BULK


def _opened(solver, deal):
    """The state open_state gives a whole table (the bytes it clears cleared alike)."""
    return np.asarray(solver.open_state(deal, [])[0], dtype=np.uint8)


@pytest.mark.parametrize("name", BULK)
@pytest.mark.parametrize("level", ["tableau", "all"])
def test_a_template_with_an_arrangement_written_in_is_that_sample_encoded(name, level):
    g = game_named(name)
    solver, rules = g.solver, g.rules
    rng = random.Random(7)
    checked = 0
    for seed in range(1, 9):
        options = {o.name: rng.choice([o.default, *o.choices]) if o.kind == "choices" else o.default
                   for o in g.options}
        referee = Referee(deal_from_seed(name, seed, options), level)
        for _ in range(rng.randrange(0, 40)):          # a mid-game observation
            legal = referee.observation.legal_moves()
            if not legal or referee.is_won():
                break
            referee.play(rng.choice(legal))
        obs = referee.observation
        legal = obs.legal_moves()
        if not legal or not obs.unseen:
            continue
        templates = Templates(solver, obs)
        seeds = [rng.getrandbits(64) for _ in range(5)]
        cards = arrangements(seeds, obs.unseen)
        for move in [None, *rng.sample(legal, min(3, len(legal)))]:
            states = templates.states(templates.of(obs.table if move is None else obs.pending(move)), cards)
            for k, s in enumerate(seeds):
                position = rules.initial(obs.sample(SplitMix64(s)))
                if move is not None:
                    position = rules.play(position, move)
                assert (states[k] == _opened(solver, rules.to_deal(position))).all(), (seed, move, k)
                checked += 1
    assert checked >= 40


def test_open_state_clears_only_the_bytes_worked_out_from_the_cards():
    """Klondike's template differs from the encoding in the root verdict byte alone."""
    from solver.games.klondike.state import DOOMED

    solver = game_named("klondike").solver
    for seed in range(1, 200):
        deal = deal_from_seed("klondike", seed, {"draw": 1, "passes": 1})
        state, places = solver.open_state(deal, [("stock", 0), ("tableau", 6, 0)])
        encoded = solver.encode(deal, solver.reduce_all)
        assert [i for i in np.flatnonzero(state != encoded)] in ([], [DOOMED])
        assert state[places[0]] == deal.stock[0] and state[places[1]] == deal.tableau[6][0]


def test_first_observation_templates_cover_every_unknown():
    deal = deal_from_seed("klondike", 9, {"draw": 3, "passes": None})
    obs = first_observation(deal, "all")
    template = Templates(game_named("klondike").solver, obs).of(obs.table)
    assert len(template[1]) == len(obs.unseen) == 45 and len(set(template[1].tolist())) == 45
