"""What a worker process does: solve a chunk of seeds into journal rows."""

from __future__ import annotations

import json
import os
import signal
import threading
import time


_WARM: set = set()


def _warm(game: str, options: dict) -> None:
    """Load (or compile) the game's kernels before the first timed deal of this process,
    so that compile time never eats a deal's time limit."""
    key = (game, json.dumps(options, sort_keys=True))
    if key in _WARM:
        return
    from ..deals import deal_from_seed
    from ..solve import solve

    solve(deal_from_seed(game, 1, options), max_nodes=500, time_limit=None)
    _WARM.add(key)


def make_row(result, limits: dict, lines: bool, seed: int | None = None, seed_type: str = "ours",
             **extra) -> dict:
    """The journal row of a deal: its FORMATS.md result object, plus ``line_length`` and
    ``limits`` (and ``seed_type`` with the seed number when the deal is another program's),
    then ``extra``; without ``lines``, no ``moves`` and no ``deal``."""
    return result.to_json(lines=lines, seed=seed, seed_type=seed_type, line_length=len(result.moves),
                          limits=dict(limits), **extra)


def player_fields(deal, player: dict, lines: bool) -> dict:
    """A no-peek player's game of ``deal`` as a row's fields (docs/formats.md, "Study rows")."""
    from ..play import Settings, play_game

    settings = Settings(player["samples"], player["max_samples"], player["max_nodes"], player["player_seed"],
                        player["stall"], player["patience"])
    record = play_game(deal, player["hidden"], settings)
    out = {"player": dict(player), "player_result": record.result, "player_end": record.end,
           "player_length": len(record.moves), "player_solves": record.solves, "player_nodes": record.nodes,
           "player_seconds": round(record.seconds, 6)}
    if lines:
        out["player_moves"] = [m.to_json() for m in record.moves]
    return out


def solve_chunk(game: str, options: dict, limits: dict, seeds: list[int], lines: bool,
                seed_type: str = "ours", player: dict | None = None) -> tuple[str, list]:
    """Solve ``seeds`` (and with ``player``, play each without peeking); return the journal
    text of their rows and (verdict, seconds) per deal."""
    from ..seeds import deal_from_tool_seed
    from ..solve import solve

    _warm(game, options)
    text, summary = [], []
    for seed in seeds:
        deal = deal_from_tool_seed(game, seed, seed_type, options)
        result = solve(deal, **limits)
        extra = player_fields(deal, player, lines) if player else {}
        text.append(json.dumps(make_row(result, limits, lines, seed, seed_type, **extra), separators=(",", ":")))
        summary.append((result.verdict, result.seconds + extra.get("player_seconds", 0.0)))
    return "\n".join(text) + "\n", summary


def _worker_init(main_pid: int) -> None:
    # Ctrl-C reaches the whole process group; the main process handles it
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_exit_with, args=(main_pid,), daemon=True).start()


def _exit_with(main_pid: int) -> None:
    """End this worker once the main process is gone (``kill -9`` leaves no one to stop it)."""
    while True:
        time.sleep(0.5)
        try:
            os.kill(main_pid, 0)
        except ProcessLookupError:
            os._exit(1)
        except PermissionError:  # pragma: no cover - the pid was reused by another user's process
            os._exit(1)
