"""What a person at a terminal is told while a command works: that the solver is being
compiled (once per machine: Numba's cache keeps it), how far a long search has come,
and how long the command took in all.

Nothing here is printed on stdout, which stays the command's answer (``--json``
output is pure JSON); the progress line is drawn only when stderr is a terminal.
"""

from __future__ import annotations

import sys
import threading
import time

COMPILE_NOTICE_AFTER = 1.0   # seconds: a warm start loads everything well within this
LOAD_NOTICE_AFTER = 5.0      # seconds, when the cache holds the solver: a slow disk, or a slow machine
PROGRESS_EVERY = 0.5         # seconds between redraws of the progress line


def _say(text: str) -> None:
    print(f"solitaire: {text}", file=sys.stderr, flush=True)


class Watch:
    """Watch one command: the compile notice, the progress line, the wall time.

    ``watch.progress`` is the callback to hand to :func:`solver.solve.solve`; a search
    reports after each turn, so the first report means the compiled code is running.
    Until then, past :data:`COMPILE_NOTICE_AFTER`, the watch says that the game's
    solver is being compiled; when Numba's cache already holds it, past
    :data:`LOAD_NOTICE_AFTER`, that it is being loaded (a slow disk or machine). Either
    way the person is not left in silence."""

    def __init__(self, game: str, *, draw: bool | None = None, cached: bool | None = None):
        self.game = game
        self.start = time.perf_counter()
        # a solver in Numba's cache loads in about a second, more on a slow machine: it is
        # not said to compile (the next runs would seem to compile again)
        self.cached = _solver_cached(game) if cached is None else cached
        self.notice_after = LOAD_NOTICE_AFTER if self.cached else COMPILE_NOTICE_AFTER
        self.draw = sys.stderr.isatty() if draw is None else draw
        self._running = threading.Event()
        self._noticed = False
        self._noticed_at = 0.0
        self._drawn = 0.0
        self._lock = threading.Lock()
        self._timer = threading.Timer(self.notice_after, self._notice)
        self._timer.daemon = True
        self._timer.start()

    def _notice(self):
        with self._lock:
            if self._running.is_set():
                return
            self._noticed, self._noticed_at = True, time.perf_counter()
            if self.cached:
                _say(f"loading the {self.game} solver from its cache...")
            else:
                _say(f"compiling the {self.game} solver for this machine; this happens once (the next runs "
                     "load it from the cache)...")

    def _compiled(self):
        """The compiled code runs: say how long the compiling took, if it was noticed."""
        with self._lock:
            if self._running.is_set():
                return
            self._running.set()
            self._timer.cancel()
            if self._noticed:
                took = time.perf_counter() - self._noticed_at + self.notice_after
                _say(f"{'loaded' if self.cached else 'compiled'} in {took:.0f} s")

    def progress(self, nodes: int, stored: int, seconds: float) -> None:
        self._compiled()
        now = time.perf_counter()
        if self.draw and now - self._drawn >= PROGRESS_EVERY:
            self._drawn = now
            print(f"\r  searching: {_count(nodes)} nodes, {_count(stored)} states stored, {seconds:.0f} s  ",
                  end="", file=sys.stderr, flush=True)

    def done(self) -> float:
        """The command's work is over: clear the progress line; the wall time so far."""
        self._compiled()
        if self.draw and self._drawn:
            print("\r" + " " * 72 + "\r", end="", file=sys.stderr, flush=True)
            self._drawn = 0.0
        return self.wall()

    def wall(self) -> float:
        return time.perf_counter() - self.start


def _solver_cached(game: str) -> bool:
    """The game's solver and the engine are in Numba's cache (False for a name that is no game)."""
    from .engine.warm import solver_compiled
    from .registry import games

    g = games().get(game)
    return g is not None and solver_compiled(g.solver_module)


def _count(n: int) -> str:
    if n >= 10_000_000:
        return f"{n / 1e6:.0f}M"
    if n >= 1_000_000:
        return f"{n / 1e6:.1f}M"
    if n >= 10_000:
        return f"{n / 1e3:.0f}k"
    return str(n)
