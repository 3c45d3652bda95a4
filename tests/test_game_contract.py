"""The contract test: what every registered game must satisfy (solver/game.py).

Each test is parametrised over the registry, so a new game is checked by it as soon as
its registry line exists; the per-game test files keep only what is particular to a
game (hand-built positions for its rules, its reductions' corner cases).

* with every reduction off, the kernels list exactly the reference rules' legal moves
  (less the moves the game declares ``omitted``), and ``apply`` reaches the table the
  rules reach, along random playouts;
* on small positions reached by playouts, the solver's verdict equals a brute force of
  every reachable position with the reference rules;
* each reduction switched off keeps the verdicts;
* every won line decodes into moves the reference rules replay to a win;
* the key is blind to the game's declared symmetries, and sees a move;
* deals and mid-game positions survive deal JSON;
* ``solve``, ``hint`` and ``batch`` run end to end from the command line;
* the information model (``Game.information``): along playouts at each level of hiding, an
  observation built move by move from what each move revealed lists the real table's legal
  moves, agrees with every card of the real table it knows, knows every card face up, and
  samples whole tables it admits.
"""

from __future__ import annotations

import functools
import json
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from solver.cli import main
from solver.deals import deal_from_json, deal_from_seed, deal_to_json
from solver.engine.search import search
from solver.moves import Move
from solver.registry import games
from solver.replay import replay
from solver.solve import solve
from tests.helpers import TooBig, brute_force_wins, kernel_moves, playout, same_move

GAMES = list(games().values())
VARIANTS = [(g, v) for g in GAMES for v in g.variants]
GOLDEN = Path(__file__).parent / "golden"


def ids(cases):
    return [c.name if hasattr(c, "name") else f"{c[0].name}-" + "-".join(f"{k}={v}" for k, v in c[1].items())
            for c in cases]


# --------------------------------------------------------------------------
# The registry and the contract's declarations
# --------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES, ids=ids(GAMES))
def test_the_game_declares_what_it_offers(game):
    solver = game.solver
    assert game.offers_shortest == (solver.fewest_moves is not None)
    assert set(game.layout.card_zones) <= set(game.layout.zones)
    assert solver.reductions and all(flag & (flag - 1) == 0 for flag in solver.reductions.values())
    assert game.variants and all(game.defaults().keys() == v.keys() or set(v) <= set(game.defaults())
                                 for v in game.variants)
    assert (GOLDEN / f"{game.name}.jsonl").exists(), "add the game to scripts/golden.py and write its golden runs"


@pytest.mark.parametrize("game", GAMES, ids=ids(GAMES))
def test_the_kernels_keep_no_reference_counts(game):
    # the engine calls them per node and owns their arrays (engine.contract.kernel): one
    # compiled with Numba's reference counting pays for it on every call
    kernels = game.solver.kernels
    for name in ("moves", "apply", "key", "is_won", "dominance_group", "dominance_vector", "progress", "transient",
                 "beam_score", "stage"):
        assert getattr(kernels, name).targetoptions.get("_nrt") is False, f"{game.name}: {name} counts references"


def test_games_and_their_rules_load_no_numba():
    code = ("import sys\nfrom solver.registry import games\nfrom solver.deals import deal_from_seed\n"
            "for g in games().values():\n    g.rules.legal_moves(g.rules.initial(deal_from_seed(g.name, 1)))\n"
            "assert 'numba' not in sys.modules, 'numba loaded'\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


# --------------------------------------------------------------------------
# Kernel moves = reference moves, reductions off
# --------------------------------------------------------------------------
@pytest.mark.parametrize("game,options", VARIANTS, ids=ids(VARIANTS))
def test_unreduced_kernel_moves_are_the_reference_moves(game, options):
    solver, r = game.solver, game.rules
    omitted = solver.omitted or (lambda pos, move: False)
    kinds = set()
    rng = random.Random(11)
    for seed in range(1, 5):
        line = playout(game, deal_from_seed(game.name, seed, options), rng, 120)
        for step, pos in enumerate(line):
            deal = r.to_deal(pos)
            state = solver.encode(deal, 0)
            assert bool(solver.kernels.is_won(state)) == r.is_won(pos)
            ours = {}
            for m in kernel_moves(solver, state):
                (move,) = solver.decode_line(deal, [m], 0)
                assert same_move(move) not in ours, f"seed {seed}: {move} listed twice"
                ours[same_move(move)] = m
            legal = [m for m in r.legal_moves(pos) if not omitted(pos, m)]
            assert set(ours) == {same_move(m) for m in legal}, \
                f"seed {seed}: kernel and rules disagree at {deal_to_json(deal)}"
            for move in legal:
                kinds.add((move.type, (move.from_ or "")[:1], (move.to or "")[:1]))
            played = next((m for m in legal if step + 1 < len(line) and r.play(pos, m) == line[step + 1]), None)
            if played is not None:
                # apply reaches the table the rules reach: the moves listed after the next
                # move of the playout are the rules' moves there
                nxt = line[step + 1]
                m = ours[same_move(played)]
                after = state.copy()
                solver.kernels.apply(after, np.int32(m))
                assert bool(solver.kernels.is_won(after)) == r.is_won(nxt)
                listed = {same_move(solver.decode_line(deal, [m, m2], 0)[-1]) for m2 in kernel_moves(solver, after)}
                assert listed == {same_move(x) for x in r.legal_moves(nxt) if not omitted(nxt, x)}, \
                    f"seed {seed}: after {played} the kernel and the rules disagree"
    assert len(kinds) > 1   # the playouts went through more than one kind of move


# --------------------------------------------------------------------------
# Verdicts = brute force with the reference rules, on small positions
# --------------------------------------------------------------------------
@functools.cache
def small_positions_of(name, options_json, count=12, seed=5):
    """:func:`small_positions`, once per variant for the whole test module."""
    return small_positions(games()[name], json.loads(options_json), count, random.Random(seed))


def small_positions(game, options, count, rng, cap=1500):
    """Small positions (whose whole reachable set has at most ``cap`` positions) and their
    brute-force verdicts: from the end of random playouts (mostly lost), and from the
    end of won lines with one random move off the line (won, or lost by that move)."""
    r = game.rules
    out = []

    def take(pos) -> bool:
        deal = r.to_deal(pos)
        try:
            won = brute_force_wins(deal, cap=cap)
        except TooBig:
            return False
        if r.legal_moves(pos):
            out.append((deal, won))
        return True

    for seed in range(1, 80):
        deal = deal_from_seed(game.name, seed, options)
        for pos in playout(game, deal, rng, 300, up=0.8)[::-1][:40:4]:   # the small ones first
            if not take(pos):
                break
        line = solve(deal, max_nodes=20_000, time_limit=None).moves
        if line:
            positions = [r.initial(deal)]
            for move in line:
                positions.append(r.play(positions[-1], move))
            for k in range(len(line) - 2, max(0, len(line) - 40), -3):
                others = [m for m in r.legal_moves(positions[k]) if m != line[k]]
                if not take(positions[k]) or (others and not take(r.play(positions[k], rng.choice(others)))):
                    break
        if len(out) >= count and len({won for _, won in out}) == 2:
            break
    return out


@pytest.mark.parametrize("game,options", VARIANTS, ids=ids(VARIANTS))
def test_verdicts_match_brute_force_on_small_positions(game, options):
    cases = small_positions_of(game.name, json.dumps(options))
    assert len(cases) >= 6, "too few small positions reached"
    solver = game.solver
    for deal, won in cases:
        assert (solve(deal, time_limit=None).verdict == "won") == won, deal_to_json(deal)
        plain = search(solver.kernels, solver.encode(deal, 0), max_nodes=2_000_000)
        assert plain.verdict == ("won" if won else "lost"), deal_to_json(deal)


@pytest.mark.parametrize("game", GAMES, ids=ids(GAMES))
def test_brute_force_positions_include_both_verdicts(game):
    verdicts = {won for options in game.variants for _, won in small_positions_of(game.name, json.dumps(options))}
    assert verdicts == {True, False}


# --------------------------------------------------------------------------
# Each reduction switched off keeps the verdicts
# --------------------------------------------------------------------------
REDUCTIONS = [(g, name) for g in GAMES for name in g.solver.reductions]


@pytest.mark.parametrize("game,reduction", REDUCTIONS, ids=[f"{g.name}-{n}" for g, n in REDUCTIONS])
def test_each_reduction_switched_off_keeps_the_verdicts(game, reduction):
    solver = game.solver
    without = solver.reduce_all & ~solver.reductions[reduction]
    compared = 0
    for options in game.variants:
        positions = [d for d, _ in small_positions_of(game.name, json.dumps(options))]
        positions += [deal_from_seed(game.name, seed, options) for seed in range(1, 6)]
        for deal in positions:
            a = search(solver.kernels, solver.encode(deal, solver.reduce_all), max_nodes=100_000)
            b = search(solver.kernels, solver.encode(deal, without), max_nodes=100_000)
            if "unknown" not in (a.verdict, b.verdict):
                assert a.verdict == b.verdict, deal_to_json(deal)
                compared += 1
    assert compared >= 10


# --------------------------------------------------------------------------
# Every decoded line certifies
# --------------------------------------------------------------------------
def check_won_lines(game, options, seeds, cap, enough=None):
    won = 0
    for seed in seeds:
        if enough is not None and won >= enough:
            break
        result = solve(deal_from_seed(game.name, seed, options), max_nodes=cap, time_limit=None)
        if result.verdict != "won":
            continue
        won += 1
        obj = json.loads(json.dumps(result.to_json()))   # through the JSON a user gets
        pos, illegal = replay(deal_from_json(obj["deal"]), [Move.from_json(m) for m in obj["moves"]])
        assert illegal is None, f"seed {seed}: {illegal}"
        assert game.rules.is_won(pos), f"seed {seed}: the line does not win"
    return won


@pytest.mark.parametrize("game,options", VARIANTS, ids=ids(VARIANTS))
def test_every_won_line_replays_to_a_win(game, options):
    assert check_won_lines(game, options, range(1, 300), 30_000, enough=8) > 0


@pytest.mark.slow
@pytest.mark.parametrize("game,options", VARIANTS, ids=ids(VARIANTS))
def test_every_won_line_of_200_seeds_replays_to_a_win(game, options):
    assert check_won_lines(game, options, range(1, 201), 60_000) > 0


# --------------------------------------------------------------------------
# The key
# --------------------------------------------------------------------------
@pytest.mark.parametrize("game,options", VARIANTS, ids=ids(VARIANTS))
def test_the_key_is_blind_to_symmetries_and_sees_a_move(game, options):
    solver, r = game.solver, game.rules
    rng = random.Random(3)
    for seed in range(1, 4):
        for pos in playout(game, deal_from_seed(game.name, seed, options), rng, 60)[::6]:
            deal = r.to_deal(pos)
            k = solver.kernels.key(solver.encode(deal, solver.reduce_all))
            if solver.symmetric is not None:
                other = solver.symmetric(deal, rng)
                assert solver.kernels.key(solver.encode(other, solver.reduce_all)) == k, deal_to_json(deal)
            for move in r.legal_moves(pos):
                if move.type in ("draw", "deal", "remove") or (move.type == "move" and move.to.startswith("f")):
                    # a move that changes which cards are where, not only the order of piles
                    k2 = solver.kernels.key(solver.encode(r.to_deal(r.play(pos, move)), 0))
                    assert k2 != solver.kernels.key(solver.encode(deal, 0)), f"{move} left the key unchanged"


# --------------------------------------------------------------------------
# Deal JSON
# --------------------------------------------------------------------------
@pytest.mark.parametrize("game,options", VARIANTS, ids=ids(VARIANTS))
def test_deals_and_positions_survive_deal_json(game, options):
    r = game.rules
    for seed in (1, 2):
        deal = deal_from_seed(game.name, seed, options)
        assert deal_from_json(json.loads(json.dumps(deal_to_json(deal)))) == deal
        for pos in playout(game, deal, random.Random(seed), 80)[::8]:
            text = json.dumps(deal_to_json(r.to_deal(pos)))
            assert r.initial(deal_from_json(json.loads(text))) == pos


# --------------------------------------------------------------------------
# The command line, end to end
# --------------------------------------------------------------------------
def cli(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


@pytest.mark.parametrize("game", GAMES, ids=ids(GAMES))
def test_solve_hint_and_batch_from_the_command_line(game, tmp_path):
    done = cli("solve", game.name, "--seed", 3, "--max-nodes", 50_000, "--json")
    assert done.exit_code == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["game"] == game.name and result["verdict"] in ("won", "lost", "unknown")
    path = tmp_path / "result.json"
    path.write_text(done.stdout)
    checked = cli("check", path)
    assert checked.exit_code == (0 if result["verdict"] == "won" else 1)

    done = cli("hint", game.name, "--seed", 3, "--max-nodes", 50_000, "--json")
    assert done.exit_code == 0, done.stderr
    assert json.loads(done.stdout)["played"] == 0

    out = tmp_path / "study.jsonl"
    done = cli("batch", game.name, "--seeds", "1-3", "--jobs", 1, "--max-nodes", 20_000, "--quiet", "--out", out)
    assert done.exit_code == 0, done.stderr
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(r["seed"] for r in rows) == [1, 2, 3] and out.with_suffix(".csv").exists()


# --------------------------------------------------------------------------
# A relaxed deal (Solver.relaxed) is won whenever the deal is
# --------------------------------------------------------------------------
RELAXED = [(g, v) for g in GAMES for v in list(g.variants) + [{**g.defaults(), "passes": 6}]
           if g.solver.relaxed is not None and (v.get("passes", 0) != 6 or "passes" in g.defaults())]
# Ladder with six passes: its twins of the small positions take half a minute, so it runs
# in the slow suite (CI runs both), keeping the README's test command under five minutes
SLOW_RELAXED = {("ladder", 6)}


@pytest.mark.parametrize("game,options", [
    pytest.param(g, v, marks=pytest.mark.slow) if (g.name, v.get("passes")) in SLOW_RELAXED else (g, v)
    for g, v in RELAXED], ids=ids(RELAXED))
def test_a_relaxed_deal_is_won_whenever_the_deal_is(game, options):
    checked = 0
    for deal, won in small_positions_of(game.name, json.dumps(options)):
        easier = game.solver.relaxed(deal)
        if easier is None or not won:
            continue
        assert solve(easier, time_limit=None, max_nodes=500_000).verdict == "won", deal_to_json(deal)
        checked += 1
    assert checked > 0 or not any(game.solver.relaxed(d) for d, _ in small_positions_of(game.name, json.dumps(options)))


# --------------------------------------------------------------------------
# The information model: what a player who does not peek sees
# --------------------------------------------------------------------------
LEVELS = [(g, v, level) for g, v in VARIANTS for level in ("tableau", "all")]


@pytest.mark.parametrize("game,options,level", LEVELS, ids=[f"{i}-{c[2]}" for i, c in zip(ids(VARIANTS * 2), LEVELS)])
def test_observations_follow_the_real_table(game, options, level):
    from solver.deals import SplitMix64, validate
    from solver.play import Referee
    from solver.play.observation import card_at, slots

    assert game.information is not None
    r, info = game.rules, game.information
    rng = random.Random(17)
    moves = 0
    for seed in range(1, 4):
        referee = Referee(deal_from_seed(game.name, seed, options), level)
        for step in range(100):
            obs = referee.observation
            real = r.to_deal(referee.position)
            legal = r.legal_moves(referee.position)
            assert [str(m) for m in obs.legal_moves()] == [str(m) for m in legal], f"seed {seed} move {step}"
            assert obs.admits(real) and obs.table.seed is None
            unknown = obs.unknown_slots()
            assert len(unknown) == len(obs.unseen)
            assert sorted(card_at(real, s) for s in unknown) == list(obs.unseen)
            assert all(card_at(obs.table, s) >= 0 for s in slots(obs.table) if info.seen(obs.table, level, s))
            if step % 10 == 0:
                sample = obs.sample(SplitMix64(step))
                validate(sample)
                assert obs.admits(sample)
            if not legal or r.is_won(referee.position):
                break
            referee.play(rng.choice(legal))
            moves += 1
    assert moves > 10
