"""Playing without peeking (solver/play, issue 20): observations, sampling, honesty, the commands.

Honesty is tested, not promised: an observation of two deals that differ only in cards the
player has not seen is the same bytes; the player's decisions on two such deals are the same
until a differing card comes face up; on a deal proved lost it never wins; every game it wins
replays with the reference rules.
"""

from __future__ import annotations

import dataclasses
import json
import pickle
import random
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from solver.deals import SplitMix64, deal_from_seed, validate
from solver.play import Player, Referee, Settings, first_observation, play_game
from solver.play.player import BULK_EXACT, RESIGN_SAMPLES
from solver.play.observation import _arrangement_count, card_at, slots
from solver.registry import game as game_named
from solver.replay import certify
from solver.solve import solve
from solver.studies import load_study, no_peek_player, run_batch
from tests.helpers import kill_9_once_written
from tests.test_cli import assert_one_line_error, run, runner  # noqa: F401 - fixture

LONELYBOT = {"draw": 3, "passes": None, "foundation_to_tableau": True}
SMALL = Settings.of(samples=4, max_nodes=3000)   # as `--samples 4 --player-nodes 3000`
ROOT = Path(__file__).resolve().parents[1]


def swapped(deal, a, b):
    """``deal`` with the cards of slots ``a`` and ``b`` exchanged."""
    other = deal.copy()
    x, y = card_at(deal, a), card_at(deal, b)
    _set(other, a, y)
    _set(other, b, x)
    validate(other)
    return other


def _set(deal, slot, card):
    value = getattr(deal, slot[0])
    for i in slot[1:-1]:
        value = value[i]
    value[slot[-1]] = card


# --------------------------------------------------------------------------
# Observations and samples
# --------------------------------------------------------------------------
def test_a_card_once_seen_stays_known_in_its_place_in_the_stock():
    deal = deal_from_seed("klondike", 3, {"draw": 1, "passes": None})
    referee = Referee(deal, "all")
    assert len(referee.observation.unseen) == 21 + 24
    from solver.moves import Move
    for _ in range(24):
        referee.play(Move("draw"))
    obs = referee.play(Move("redeal"))
    assert len(obs.unseen) == 21                       # the face-down tableau cards only
    assert obs.table.stock == deal.stock               # each card known where it lies now
    assert all(card_at(obs.table, s) < 0 for s in obs.unknown_slots())


def test_at_level_tableau_only_klondike_hides_cards():
    for name, options in [("klondike", {}), ("pyramid", {"passes": 3}), ("twenty", {}), ("ladder", {}),
                          ("golf", {})]:
        deal = deal_from_seed(name, 2, options)
        hidden = len(first_observation(deal, "tableau").unseen)
        assert hidden == (21 if name == "klondike" else 0), name
        assert len(first_observation(deal, "all").unseen) > hidden, name


def test_samples_are_uniform_over_the_arrangements_of_the_unseen_cards():
    from solver.moves import Move
    deal = deal_from_seed("golf", 4)
    referee = Referee(deal, "all")
    for _ in range(12):
        obs = referee.play(Move("draw"))
    assert len(obs.unseen) == 4
    every = obs.arrangements(24)
    assert len(every) == 24 and obs.arrangements(23) is None
    rng = SplitMix64(7)
    holes = obs.unknown_slots()
    counts = Counter(tuple(card_at(sample, s) for s in holes) for sample in (obs.sample(rng) for _ in range(4800)))
    assert set(counts) == set(every)
    assert all(140 <= n <= 260 for n in counts.values()), counts     # 200 expected, each within ~4 sd
    assert all(obs.admits(obs.fill(cards)) for cards in every)


def test_two_decks_count_each_arrangement_of_alike_cards_once():
    assert _arrangement_count([5, 5, 7]) == 3
    assert _arrangement_count([5, 5, 7, 7]) == 6
    assert _arrangement_count(list(range(5))) == 120


def test_an_observation_admits_no_table_that_contradicts_a_card_seen():
    deal = deal_from_seed("klondike", 8, LONELYBOT)
    obs = first_observation(deal, "tableau")
    assert obs.admits(deal)
    other = swapped(deal, ("tableau", 6, 6), ("tableau", 5, 0))     # a face-up card with a face-down one
    assert not obs.admits(other)
    assert obs.admits(swapped(deal, ("tableau", 6, 0), ("tableau", 5, 0)))   # two face-down cards


# --------------------------------------------------------------------------
# Honesty
# --------------------------------------------------------------------------
@pytest.mark.parametrize("level, a, b", [("tableau", ("tableau", 6, 0), ("tableau", 5, 1)),
                                         ("all", ("stock", 20), ("stock", 23))])
def test_an_observation_is_the_same_bytes_for_deals_that_differ_only_in_unseen_cards(level, a, b):
    deal = deal_from_seed("klondike", 11, LONELYBOT)
    other = swapped(deal, a, b)
    one, two = Referee(deal, level), Referee(other, level)
    assert one.observation.table.seed is None
    rng = random.Random(3)
    for _ in range(30):
        assert pickle.dumps(one.observation) == pickle.dumps(two.observation)
        hidden = [card_at(deal, a), card_at(deal, b)]
        assert not set(hidden) & {card_at(one.observation.table, s) for s in slots(one.observation.table)}
        legal = one.observation.legal_moves()
        # moves that turn no card up: the swapped cards stay unseen
        quiet = [m for m in legal if not one.observation.needs(m)]
        if not quiet:
            break
        m = rng.choice(quiet)
        one.play(m)
        two.play(m)


@pytest.mark.parametrize("level, a, b", [("tableau", ("tableau", 6, 0), ("tableau", 5, 0)),
                                         ("all", ("stock", 21), ("stock", 22))])   # under a draw's top card
def test_decisions_are_the_same_until_a_card_that_differs_is_revealed(level, a, b):
    deal = deal_from_seed("klondike", 5, LONELYBOT)
    other = swapped(deal, a, b)
    refs = [Referee(deal, level), Referee(other, level)]
    players = [Player("klondike", SMALL), Player("klondike", SMALL)]
    same = 0
    for _ in range(80):
        obs = [r.observation for r in refs]
        if obs[0] != obs[1]:
            break
        decisions = [p.decide(o) for p, o in zip(players, obs)]
        assert decisions[0].to_json() == decisions[1].to_json(), f"after {same} moves"
        same += 1
        if decisions[0].move is None:
            break
        for r, d in zip(refs, decisions):
            r.play(d.move)
    assert same >= 20
    if obs[0] != obs[1]:    # what told them apart is a swapped card, now face up
        seen = {card_at(obs[0].table, s) for s in slots(obs[0].table)}
        assert card_at(deal, a) in seen or card_at(deal, b) in seen


def test_the_player_never_wins_a_deal_proved_lost_and_its_wins_replay():
    lost = won = 0
    for seed in range(1, 40):
        deal = deal_from_seed("pyramid", seed, {"passes": 3})
        verdict = solve(deal, max_nodes=200_000, time_limit=None).verdict
        if verdict == "unknown" or (verdict == "lost" and lost >= 3) or (verdict == "won" and won >= 3):
            continue
        record = play_game(deal, "all", SMALL)
        if verdict == "lost":
            lost += 1
            assert not record.won, seed
        if record.won:
            won += 1
            certify(deal, record.moves)
    assert lost == 3 and won == 3


def test_the_same_deal_options_and_player_seed_give_the_same_game():
    deal = deal_from_seed("klondike", 4, LONELYBOT)
    one, two = (play_game(deal, "tableau", SMALL, max_moves=60).to_json() for _ in range(2))
    for game in (one, two):
        game.pop("seconds")
    assert one == two
    other = play_game(deal, "tableau", Settings.of(4, 3000, seed=9), max_moves=60).to_json()
    assert other["player_seed"] == 9


def test_a_player_handed_an_observation_that_is_not_the_next_one_starts_afresh():
    deal = deal_from_seed("klondike", 4, LONELYBOT)
    referee = Referee(deal, "tableau")
    player = Player("klondike", SMALL)
    first = player.decide(referee.observation)
    fresh = Player("klondike", SMALL).decide(referee.observation)
    assert first.to_json() == fresh.to_json()
    again = player.decide(referee.observation)     # the same observation again: nothing carried over
    assert again.move is not None
    rules = game_named("klondike").rules
    assert player.pool and all(referee.observation.admits(rules.to_deal(t.position)) for t in player.pool)


@pytest.mark.parametrize("name, options, level", [("klondike", LONELYBOT, "tableau"), ("klondike", {}, "all"),
                                                  ("ladder", {}, "all"), ("pyramid", {"passes": 3}, "all")])
def test_the_tables_kept_from_move_to_move_are_the_ones_the_observation_admits(name, options, level):
    """The player carries its tables over each move, comparing only the slots the move
    revealed: every table it holds is one the whole observation admits, and every fresh
    table it drew (one not carried) after a reveal agrees with the card revealed."""
    deal = deal_from_seed(name, 6, options)
    referee = Referee(deal, level)
    player = Player(name, SMALL)
    rules = game_named(name).rules
    carried = []
    follow = player._follow

    def checked_follow(obs):
        follow(obs)
        assert all(obs.admits(rules.to_deal(t.position)) for t in player.pool)
        carried.append(len(player.pool))

    player._follow = checked_follow
    for _ in range(40):
        decision = player.decide(referee.observation)
        assert all(referee.observation.admits(rules.to_deal(t.position)) for t in player.pool)
        if decision.move is None or referee.is_won():
            break
        referee.play(decision.move)
    assert sum(carried) > 0


def test_a_commitment_reached_only_through_safe_moves_is_chosen_with_the_way_to_it():
    """Every card face up but four hearts: the King on the tableau, and the stock (draw 3,
    unlimited passes) holding Q J T, the Ten on top once drawn. Moving the King from pile
    to pile and drawing can be undone; the first move that commits (Ten to its
    foundation) is there only after a draw. The player plays the draw with the Ten's move
    as its plan, and wins."""
    from solver.deals import deal_from_json

    ranks = "A23456789TJQK"
    foundations = [[r + s for r in ranks] for s in "CD"] + [[r + "H" for r in ranks[:9]]] + [[r + "S" for r in ranks]]
    deal = deal_from_json({"game": "klondike", "options": {"draw": 3, "passes": None, "foundation_to_tableau": False},
                           "tableau": [["KH"], [], [], [], [], [], []], "face_down": [0] * 7,
                           "stock": ["QH", "JH", "TH"], "waste": [], "foundations": foundations})
    decision = Player("klondike", SMALL).decide(first_observation(deal, "tableau"))
    assert decision.move.type == "draw" and decision.chance == 1.0
    assert [m.to_json() for m in decision.plan] == [{"type": "move", "card": "TH", "from": "waste", "to": "f3",
                                                     "count": 1}]
    record = play_game(deal, "tableau", SMALL)
    assert record.won and record.moves[:2] == [decision.move] + decision.plan


@pytest.mark.parametrize("name, options, level, seed", [("klondike", LONELYBOT, "tableau", 3),
                                                        ("klondike", LONELYBOT, "tableau", 7),
                                                        ("ladder", {}, "all", 4)])
def test_a_plan_is_safe_moves_that_reveal_nothing_then_the_move_chosen_and_it_is_played(name, options, level, seed):
    """A decision that chooses a commitment reached through safe moves says so (``plan``),
    and the player then plays exactly those moves, none of them revealing a card or
    committing before the last (each could be undone: the table after it leads back)."""
    deal = deal_from_seed(name, seed, options)
    seen = []
    record = play_game(deal, level, SMALL, max_moves=150, on_decision=lambda d, obs: seen.append((d, obs)))
    player = Player(name, SMALL)
    plans = 0
    for k, (decision, obs) in enumerate(seen):
        if not decision.plan:
            continue
        plans += 1
        assert [d.move for d, _ in seen[k + 1:k + 1 + len(decision.plan)]] == decision.plan
        for step, (move, (_, at)) in enumerate(zip([decision.move] + decision.plan[:-1], seen[k:])):
            assert not at.needs(move) and player._reversible(at, move), (k, step, move)
    assert record.moves and plans


@pytest.mark.parametrize("draw, seed", [(1, 4), (3, 5), (3, 11)])
def test_going_round_a_known_stock_offers_every_card_it_brings_up(draw, seed):
    """The commitments behind stock moves are exactly the moves that going round the
    stock (known at level tableau) makes legal and that are not legal now: worked out
    here on the real table with the reference rules, one draw or redeal at a time."""
    from solver.moves import Move

    deal = deal_from_seed("klondike", seed, {"draw": draw, "passes": None, "foundation_to_tableau": True})
    rules = game_named("klondike").rules
    obs = first_observation(deal, "tableau")
    legal = obs.legal_moves()
    player = Player("klondike", SMALL)
    candidates, reveals, safe, times = [(m,) for m in legal], [0] * len(legal), [False] * len(legal), [0] * len(legal)
    player._stock_commitments(obs, legal, candidates, reveals, safe, times)
    found = set(candidates[len(legal):])
    position, path, want = rules.initial(deal), (), set()
    start = rules.key(position)
    while True:
        step = Move("draw") if Move("draw") in rules.legal_moves(position) else Move("redeal")
        position, path = rules.play(position, step), path + (step,)
        if rules.key(position) == start:
            break
        for move in rules.legal_moves(position):
            if move.type not in ("draw", "redeal") and move not in legal and move.from_ == "waste":
                want.add(path + (move,))
    assert found == want and want
    assert len(safe) == len(candidates) and not any(safe[len(legal):])


def test_weighed_in_bulk_a_decision_commits_or_starts_the_way_to_a_commitment():
    """In bulk (Klondike) the player never plays a safe move on its own: each decision
    weighed on more tables than its Python ones either commits or has a plan."""
    deal = deal_from_seed("klondike", 8, LONELYBOT)
    seen = []
    play_game(deal, "tableau", SMALL, max_moves=80, on_decision=lambda d, obs: seen.append((d, obs)))
    player = Player("klondike", SMALL)
    bulk = [(d, obs) for d, obs in seen if d.move is not None and d.samples > SMALL.max_samples]
    assert len(bulk) >= 10
    for d, obs in bulk:
        assert d.plan or not player._reversible(obs, d.move), d.to_json()
        assert 0 <= d.chance <= 1 and d.samples <= SMALL.bulk_samples


def test_with_few_arrangements_left_bulk_weighing_is_exact_whatever_the_player_seed():
    """With few unseen cards every arrangement is weighed once (the shares are exact): the
    decision counts them all, and a player drawing other samples gives the same shares."""
    seen = []
    for seed in (30, 43):    # (each has such a decision whose shares are neither 0 nor 1)
        play_game(deal_from_seed("klondike", seed, LONELYBOT), "tableau", SMALL,
                  on_decision=lambda d, obs: seen.append((d, obs)))
    few = [(d, obs) for d, obs in seen if d.estimates and d.move is not None
           and SMALL.samples < _arrangement_count(obs.unseen) <= BULK_EXACT * SMALL.bulk_samples]
    assert len(few) >= 2 and any(0 < c < 1 for d, _ in few for _, c, _ in d.estimates)
    for d, obs in few:
        assert d.samples == _arrangement_count(obs.unseen) and d.exact
        other = Player("klondike", dataclasses.replace(SMALL, seed=99)).decide(obs)
        assert {m: c for m, c, _ in other.estimates} == {m: c for m, c, _ in d.estimates}


def _fixed_bulk_verdicts(monkeypatch, lost, undecided=()):
    """Make the bulk searches answer by rule: candidate k (its block of rows, in the order
    weighed; the first batch has a block for the table as it stands too) loses table t when
    (k, t) is in ``lost``, leaves it undecided when it is in ``undecided``, and wins every
    other table."""
    import solver.play.player as player_module
    from solver.engine.batch import LOST, UNKNOWN, WON_ROOT
    offset = [0]

    def fake(kernels, roots, max_nodes, **kw):
        blocks = 3 if offset[0] == 0 else 2
        batch = len(roots) // blocks
        won = np.array([LOST if (k, offset[0] + t) in lost else UNKNOWN if (k, offset[0] + t) in undecided
                        else WON_ROOT for k in range(blocks) for t in range(batch)], dtype=np.int8)
        offset[0] += batch
        return won, np.zeros(len(roots), dtype=np.int32), np.ones(len(roots), dtype=np.int64)

    monkeypatch.setattr(player_module, "solve_each", fake)


def _two_candidates():
    obs = Referee(deal_from_seed("klondike", 3, LONELYBOT), "tableau").observation
    return obs, [(m,) for m in obs.legal_moves()[:2]]


def test_in_bulk_a_share_within_noise_of_the_best_leaves_the_choice_to_the_prior_order(monkeypatch):
    import solver.play.player as player_module
    obs, candidates = _two_candidates()
    # the first loses table 2, the second tables 5 and 9: within a standard error of each other
    _fixed_bulk_verdicts(monkeypatch, {(0, 2), (1, 5), (1, 9)})
    values, _, seen, best, _ = Player("klondike", SMALL)._bulk_shares(obs, candidates, [(0, 0), (0, -1)])
    assert seen == SMALL.bulk_samples and best == 1      # the prior prefers the second (e.g. more cards face up)
    monkeypatch.setattr(player_module, "BULK_CLOSE", 0.0)
    _fixed_bulk_verdicts(monkeypatch, {(0, 2), (1, 5), (1, 9)})
    assert Player("klondike", SMALL)._bulk_shares(obs, candidates, [(0, 0), (0, -1)])[3] == 0   # the share decides


def test_in_bulk_an_undecided_table_counts_nearly_lost_but_is_not_resigned(monkeypatch):
    """A short search that cannot finish a table mostly meets one that cannot be won: a
    move that wins a quarter of its tables and loses the rest goes before one whose tables
    are all undecided, and a move with only undecided tables is still played, not resigned."""
    obs, candidates = _two_candidates()
    tables = range(RESIGN_SAMPLES)
    first_wins_a_quarter = {(0, t) for t in tables if t % 4}
    second_undecided = {(1, t) for t in tables}
    _fixed_bulk_verdicts(monkeypatch, first_wins_a_quarter, second_undecided)
    values, _, _, best, _ = Player("klondike", SMALL)._bulk_shares(obs, candidates, [(0, 1), (0, 0)])
    assert best == 0 and 0 < np.concatenate(values[1]).mean() < 0.25
    _fixed_bulk_verdicts(monkeypatch, {(0, t) for t in tables}, second_undecided)
    values, _, _, best, _ = Player("klondike", SMALL)._bulk_shares(obs, candidates, [(0, 0), (0, 1)])
    assert best == 1 and np.concatenate(values[1]).mean() > 0


def test_in_bulk_a_move_that_wins_no_table_is_never_preferred_to_one_that_wins_some(monkeypatch):
    import solver.play.player as player_module
    obs, candidates = _two_candidates()
    monkeypatch.setattr(player_module, "BULK_CLOSE", 3.0)   # close by the noise rule alone
    _fixed_bulk_verdicts(monkeypatch, {(0, t) for t in range(1, 200)} | {(1, t) for t in range(200)})
    assert Player("klondike", SMALL)._bulk_shares(obs, candidates, [(0, 0), (0, -1)])[3] == 0


def test_in_bulk_the_player_resigns_only_after_every_candidate_lost_many_tables(monkeypatch):
    """Every candidate losing the first tables is no reason to resign: they are weighed on
    up to RESIGN_SAMPLES tables, and one that wins a table there is played."""
    obs, candidates = _two_candidates()
    assert RESIGN_SAMPLES > SMALL.bulk_samples
    _fixed_bulk_verdicts(monkeypatch, {(k, t) for k in range(2) for t in range(2 * RESIGN_SAMPLES)})
    values, _, seen, _, _ = Player("klondike", SMALL)._bulk_shares(obs, candidates, [(0, 0), (0, -1)])
    assert seen == RESIGN_SAMPLES and not any(v.any() for vs in values for v in vs)
    late = RESIGN_SAMPLES - 5     # the second candidate wins one late table, the first none
    _fixed_bulk_verdicts(monkeypatch, {(k, t) for k in range(2) for t in range(2 * RESIGN_SAMPLES)} - {(1, late)})
    values, _, seen, best, _ = Player("klondike", SMALL)._bulk_shares(obs, candidates, [(0, 0), (0, -1)])
    assert seen > late and best == 1


# --------------------------------------------------------------------------
# Commands
# --------------------------------------------------------------------------
def test_play_prints_each_decision_and_its_json_replays_with_check(runner, tmp_path):  # noqa: F811
    args = ["play", "pyramid", "--seed", 1, "--passes", 3, "--samples", 4, "--player-nodes", 3000]
    text = run(runner, *args)
    assert text.exit_code == 0, text.stderr
    assert "played without peeking: hidden tableau, 4 samples" in text.stdout
    assert text.stdout.strip().splitlines()[-1].startswith(("won in", "lost after"))
    result = run(runner, *args, "--json")
    obj = json.loads(result.stdout)
    for name in ("player", "hidden", "samples", "player_seed", "result", "end", "moves", "chances", "decisions",
                 "deal"):
        assert name in obj
    assert len(obj["chances"]) == len(obj["moves"])
    path = tmp_path / "game.json"
    path.write_text(result.stdout)
    check = run(runner, "check", path)
    assert check.exit_code == (0 if obj["result"] == "won" else 1)


@pytest.mark.parametrize("args, message", [
    (["play", "klondike", "--seed", 1, "--hidden", "some"], "Invalid value for '--hidden'"),
    (["play", "klondike", "--seed", 1, "--samples", 0], "Invalid value for '--samples'"),
    (["play", "klondike"], "give exactly one of --seed N or --deal FILE"),
    (["hint", "klondike", "--seed", 1, "--no-peek", "--all"], "--all: not with --no-peek"),
    (["hint", "klondike", "--seed", 1, "--samples", 3], "--samples: apply with --no-peek only"),
    (["hint", "klondike", "--seed", 1, "--no-peek", "--played", "KS t1-t2"], "is illegal"),
])
def test_bad_input_is_a_one_line_error(runner, args, message):  # noqa: F811
    assert message in assert_one_line_error(run(runner, *args))


def test_hint_no_peek_uses_only_what_is_seen(runner):  # noqa: F811
    args = ["hint", "klondike", "--seed", 5, "--draw", 3, "--passes", "unlimited", "--foundation-to-tableau",
            "--no-peek", "--played", "draw", "--samples", 4, "--player-nodes", 3000]
    text = run(runner, *args)
    assert text.exit_code == 0, text.stderr
    assert "without peeking (hidden tableau)" in text.stdout and "next:" in text.stdout
    obj = json.loads(run(runner, *args, "--json").stdout)
    assert obj["played"] == 1 and obj["next"]["type"] in ("move", "draw") and 0 <= obj["chance"] <= 1
    deal = deal_from_seed("klondike", 5, LONELYBOT)
    face_down = {c for pile, n in zip(deal.tableau, deal.face_down) for c in pile[:n]}
    shown = json.dumps(obj["observation"])
    from solver.cards import card_name
    assert not any(f'"{card_name(c)}"' in shown for c in face_down)
    assert shown.count('"??"') == 21


def no_peek_study(tmp_path, name, seeds, **kw):
    out = tmp_path / f"{name}.jsonl"
    run_batch("pyramid", seeds, {"passes": 3}, out=out, progress=False, jobs=1, max_nodes=100_000,
              player=no_peek_player("all", kw.pop("settings", SMALL)), **kw)
    return out


def test_a_no_peek_study_has_both_results_per_row_and_resumes(tmp_path):
    out = no_peek_study(tmp_path, "s", "1-4")
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert all(r["player"]["name"] == "no-peek" and r["player_result"] in ("won", "lost") for r in rows)
    assert all(r["verdict"] == "won" for r in rows if r["player_result"] == "won")
    # the thoughtful solve of the deal before the game leaves nothing behind that the player could use:
    # the row's game is the game played alone
    for r in rows:
        alone = play_game(deal_from_seed("pyramid", r["seed"], {"passes": 3}), "all", SMALL)
        assert [m.to_json() for m in alone.moves] == r["player_moves"] and alone.end == r["player_end"]
    summary = run_batch("pyramid", "1-6", {"passes": 3}, out=out, progress=False, jobs=1, max_nodes=100_000,
                        player=no_peek_player("all", SMALL))
    assert summary.new == 2 and summary.deals == 6
    with pytest.raises(Exception, match="the journal holds"):
        no_peek_study(tmp_path, "s", "1-7", settings=Settings.of(5, 3000))
    b = SMALL.bulk_samples
    with pytest.raises(Exception, match=f"the journal holds .*bulk={b}@{SMALL.bulk_nodes} .* not .*bulk={b}@999 "):
        no_peek_study(tmp_path, "s", "1-7", settings=dataclasses.replace(SMALL, bulk_nodes=999))


def test_a_killed_no_peek_study_resumes_to_the_uninterrupted_table(tmp_path):
    seeds = "1-40"
    reference = no_peek_study(tmp_path, "reference", seeds)
    out = tmp_path / "killed.jsonl"
    cmd = [sys.executable, "-c", "from solver.cli import main; main()", "batch", "pyramid", "--passes", "3",
           "--seeds", seeds, "--max-nodes", "100000", "--jobs", "1", "--chunk", "1", "--quiet", "--out", str(out),
           "--player", "no-peek", "--hidden", "all", "--samples", "4", "--player-nodes", "3000"]
    written = kill_9_once_written(cmd, out, 5, ROOT)
    assert 5 <= written < 40
    summary = run_batch("pyramid", seeds, {"passes": 3}, out=out, progress=False, jobs=1, max_nodes=100_000,
                        player=no_peek_player("all", SMALL))
    assert summary.complete and summary.new == 40 - written
    columns = ["seed", "verdict", "player_result", "player_end", "player_length"]
    pd.testing.assert_frame_equal(load_study(out)[columns], load_study(reference)[columns])


def test_report_shows_both_rates_and_the_winnable_deals_lost(runner, tmp_path):  # noqa: F811
    out = no_peek_study(tmp_path, "s", "1-8")
    result = run(runner, "report", out, "--format", "json", "--plot", tmp_path / "p")
    assert result.exit_code == 0, result.stderr
    (row,) = json.loads(result.stdout)
    frame = load_study(out)
    assert row["player_won"] == int((frame["player_result"] == "won").sum())
    assert row["player_rate"] == pytest.approx(row["player_won"] / 8)
    assert row["player_ci95_low"] <= row["player_rate"] <= row["player_ci95_high"]
    winnable = frame[frame["verdict"] == "won"]
    assert row["winnable_lost"] == pytest.approx((winnable["player_result"] != "won").mean())
    assert "no-peek hidden=all" in row["variant"]
    assert (tmp_path / "p-winrate.png").read_bytes()[:4] == b"\x89PNG"
    plain = run(runner, "report", out.with_suffix(".csv"))
    assert "player_rate" in plain.stdout and "winnable_lost" in plain.stdout


def test_a_study_without_a_player_reports_no_player_columns(tmp_path):
    from solver.report import summarize
    out = tmp_path / "t.jsonl"
    run_batch("pyramid", "1-3", {"passes": 3}, out=out, progress=False, jobs=1, max_nodes=100_000)
    assert "player_rate" not in summarize(out).columns
    assert game_named("pyramid").information is not None
