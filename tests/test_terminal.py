"""What a person at a terminal is told: the compile notice, the progress line, the wall
time, and what Ctrl-C reached (solver/terminal.py and the commands that use it)."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from solver import terminal
from solver.cli import main

ROOT = Path(__file__).resolve().parents[1]
SOLITAIRE = [sys.executable, "-c", "from solver.cli import run; run()"]


def test_a_long_silence_before_the_search_runs_is_explained(monkeypatch, capsys):
    monkeypatch.setattr(terminal, "COMPILE_NOTICE_AFTER", 0.05)
    watch = terminal.Watch("golf", draw=False, cached=False)
    time.sleep(0.3)                      # as a first run compiles
    watch.progress(20_000, 1_000, 0.01)  # the compiled search reports its first turn
    watch.done()
    err = capsys.readouterr().err
    assert "compiling the golf solver" in err and "compiled in" in err


def test_a_solver_in_the_cache_is_not_said_to_compile(monkeypatch, capsys):
    """A warm start slower than the compile notice's second (a slow machine) says nothing;
    a very slow one says it is loading, not compiling."""
    monkeypatch.setattr(terminal, "COMPILE_NOTICE_AFTER", 0.05)
    monkeypatch.setattr(terminal, "LOAD_NOTICE_AFTER", 0.6)
    watch = terminal.Watch("golf", draw=False, cached=True)
    time.sleep(0.3)
    watch.progress(20_000, 1_000, 0.01)
    watch.done()
    assert capsys.readouterr().err == ""
    monkeypatch.setattr(terminal, "LOAD_NOTICE_AFTER", 0.05)
    watch = terminal.Watch("golf", draw=False, cached=True)
    time.sleep(0.3)
    watch.progress(20_000, 1_000, 0.01)
    watch.done()
    err = capsys.readouterr().err
    assert "loading the golf solver" in err and "loaded in" in err and "compil" not in err


def test_whether_a_solver_is_cached_follows_numbas_cache_folder(monkeypatch, tmp_path):
    """With an empty NUMBA_CACHE_DIR nothing is cached; this checkout's own cache (the tests
    have loaded golf's solver by now, or load it here) is."""
    from solver.solve import solve
    from solver.deals import deal_from_seed

    solve(deal_from_seed("golf", 1), max_nodes=10)
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    assert terminal._solver_cached("golf")
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert not terminal._solver_cached("golf")
    assert not terminal._solver_cached("no-such-game")


def test_a_warm_start_says_nothing(monkeypatch, capsys):
    monkeypatch.setattr(terminal, "COMPILE_NOTICE_AFTER", 0.3)
    watch = terminal.Watch("golf", draw=False)
    watch.progress(20_000, 1_000, 0.01)
    time.sleep(0.5)
    watch.done()
    assert capsys.readouterr().err == ""


def test_the_progress_line_shows_nodes_states_and_time_and_is_cleared(capsys):
    watch = terminal.Watch("ladder", draw=True)
    watch.progress(12_345_678, 4_100_000, 12.0)
    shown = capsys.readouterr().err
    assert "12M nodes" in shown and "4.1M states stored" in shown and "12 s" in shown
    watch.done()
    assert capsys.readouterr().err.startswith("\r")   # the line is wiped


def test_solve_says_its_options_and_the_wall_time_beside_the_search_time():
    out = CliRunner().invoke(main, ["solve", "klondike", "--seed", "2", "--draw", "3", "--passes", "unlimited"])
    first = out.stdout.splitlines()[0]
    assert first.startswith("klondike seed 2 (draw=3, passes=unlimited, foundation_to_tableau=false): lost")
    assert " time=" in first and " wall=" in first
    obj = json.loads(CliRunner().invoke(main, ["solve", "golf", "--seed", "2", "--json"]).stdout)
    assert obj["wall_seconds"] >= obj["seconds"]


def _as_a_terminal_starts_it():
    """A child that takes Ctrl-C as a terminal's foreground command does: a shell runs
    a command in the background (``cmd &``) with SIGINT ignored, every process under it
    inherits that, and Python keeps an ignored SIGINT ignored (no KeyboardInterrupt)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_ends_a_long_solve_with_what_it_reached():
    proc = subprocess.Popen(SOLITAIRE + ["solve", "ladder", "--seed", "12", "--time-limit", "60"], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=_as_a_terminal_starts_it)
    time.sleep(4)
    os.killpg(proc.pid, signal.SIGINT)   # as a terminal's Ctrl-C reaches the whole process group
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "unknown (interrupted)" in out and "nodes=" in out and "Traceback" not in err


def test_ctrl_c_ends_a_batch_in_one_line_with_the_finished_deals_kept(tmp_path):
    journal = tmp_path / "k.jsonl"
    proc = subprocess.Popen(SOLITAIRE + ["batch", "klondike", "--seeds", "1-3000", "--out", str(journal), "--jobs",
                                         "2", "--quiet"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True, preexec_fn=_as_a_terminal_starts_it)
    deadline = time.monotonic() + 120      # until a first row is written (a loaded machine is slow)
    while time.monotonic() < deadline and proc.poll() is None and not (
            journal.exists() and journal.read_bytes().count(b"\n") > 0):
        time.sleep(0.1)
    time.sleep(0.5)
    assert proc.poll() is None, "the batch ended before it could be interrupted"
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert err.strip().splitlines() == [f"solitaire: interrupted; the finished deals are in {journal}: "
                                        "run the same command to resume"]   # no leaked-semaphore warning
    assert journal.read_text().count("\n") > 0


@pytest.mark.slow
def test_a_first_run_on_a_new_machine_says_it_is_compiling(tmp_path):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))   # nothing compiled yet
    done = subprocess.run(SOLITAIRE + ["solve", "golf", "--seed", "2"], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "compiling the golf solver for this machine" in done.stderr and "compiled in" in done.stderr
    # the engine's child (engine/warm.py) ends with the command, although its exit skips atexit
    if Path("/proc").is_dir():
        assert not _processes_with(f"NUMBA_CACHE_DIR={tmp_path}")


def _processes_with(variable: str) -> list[int]:
    """The processes whose environment holds ``variable`` (Linux's /proc)."""
    found = []
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and variable.encode() in (proc / "environ").read_bytes().split(b"\0"):
                found.append(int(proc.name))
        except OSError:
            pass
    return found
