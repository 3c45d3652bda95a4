"""Small builders shared by the tests (and the reduction sweep): hand-built positions from card
names, random lines of the reference rules, brute force."""

from solver.cards import parse_card
from solver.deals import deal_from_json
from solver.moves import Move, parse_move


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def mv(text: str) -> Move:
    """A move in compact notation, e.g. ``mv("7S t3-t5")``, ``mv("draw")``."""
    return parse_move(text)


def deal(obj: dict):
    """A hand-built table: any table the rules can play, reached by play or not."""
    return deal_from_json(obj, reachable=False)


def rules(game: str):
    """The reference rules of ``game`` (through the registry, as the solver finds them)."""
    from solver.registry import game as lookup

    return lookup(game).rules


def playout(game, deal, rng, steps, up=0.6):
    """Positions along a random line of the reference rules, moves to a foundation (or
    removals) preferred ``up`` of the time so that the line gets somewhere."""
    r = game.rules
    pos = r.initial(deal)
    out = [pos]
    for _ in range(steps):
        legal = r.legal_moves(pos)
        if not legal:
            break
        ahead = [m for m in legal if m.type == "remove" or (m.type == "move" and m.to.startswith("f"))]
        pos = r.play(pos, rng.choice(ahead if ahead and rng.random() < up else legal))
        out.append(pos)
    return out


def with_solver(monkeypatch, game: str, **fields):
    """For the rest of the test, ``game``'s solver with ``fields`` replaced (say, its
    relaxed twin switched off with ``relaxed=None``), as ``solve`` and the rest find it."""
    from dataclasses import replace

    from solver import game as game_module
    from solver.registry import game as lookup

    solver = lookup(game).solver
    monkeypatch.setitem(game_module._SOLVERS, f"solver.games.{game}.solver", replace(solver, **fields))


class TooBig(Exception):
    """A brute force met more positions than it was allowed."""


def brute_force_wins(deal, key=None, skip=None, cap: int | None = None) -> bool:
    """Whether some line of reference moves wins from ``deal``: every reachable position is
    visited once, told apart by the rules' ``key`` (or by ``key(position)``, a canonical
    form a test may pass to visit fewer). ``skip(position, move)`` leaves moves out;
    more than ``cap`` positions raise :class:`TooBig`."""
    r = rules(deal.game)
    key = key or r.key
    start = r.initial(deal)
    seen = {key(start)}
    todo = [start]
    while todo:
        pos = todo.pop()
        if r.is_won(pos):
            return True
        for move in r.legal_moves(pos):
            if skip is not None and skip(pos, move):
                continue
            nxt = r.play(pos, move)
            k = key(nxt)
            if k not in seen:
                seen.add(k)
                if cap is not None and len(seen) > cap:
                    raise TooBig(len(seen))
                todo.append(nxt)
    return False


def kernel_moves(solver, state) -> list[int]:
    """The moves a game's ``moves`` kernel lists in ``state``."""
    import numpy as np

    out = np.zeros(solver.kernels.max_moves, dtype=np.int32)
    n = solver.kernels.moves(state, out)
    return [int(m) for m in out[:n]]


def same_move(move) -> str:
    """A move as a comparable value; draws compare by type only (the kernels name the cards
    drawn, the rules need not)."""
    obj = move.to_json()
    obj.pop("cards", None) if obj["type"] == "draw" else None
    return repr(obj)


def kill_9_once_written(cmd: list[str], journal, rows: int, cwd) -> int:
    """Start ``cmd`` (a batch run writing ``journal``), ``kill -9`` it once the journal holds
    ``rows`` lines, and return the lines it had written by then."""
    import os
    import signal
    import subprocess
    import time

    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if journal.exists() and journal.read_bytes().count(b"\n") >= rows:
            break
        time.sleep(0.02)
    assert proc.poll() is None, "the run ended before it could be killed"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    return journal.read_bytes().count(b"\n")


def byte_chain(cards) -> int:
    """The cards chained one by one from 0, as ``h * CHAIN + card + 1`` modulo 2**64 (the
    tests' own chain, to check the chains a game's state keeps)."""
    h = 0
    for c in cards:
        h = (h * 0x100000001B3 + int(c) + 1) % (1 << 64)
    return h


def kept_word(state, at: int) -> int:
    """The 8 bytes of ``state`` from ``at`` as a number, low byte first (a word a state keeps)."""
    return int.from_bytes(bytes(state[at:at + 8]), "little")
