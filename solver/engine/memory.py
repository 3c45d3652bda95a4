"""What ``memory_mb`` bounds: the search memory of one search, all its arrays at once.

A search (:func:`~solver.engine.search.search`, :func:`~solver.engine.shortest.fewest_moves`)
keeps everything that grows with it in numpy arrays, and ``memory_mb`` (``--memory-mb``)
is one budget of ``memory_mb * 2**20`` bytes for all of them together:

* the per-run stacks: the states, the children kept, move lists, keys and cursors of
  every depth-first run and restart run, one row per depth reached (they start with a
  few rows and double, up to ``max_depth + 1``);
* the restart runs' private tables and lookahead rows;
* a beam's two levels, candidates, seen set and history (:mod:`engine.beam`): charged at
  its first turn and at each growth of its seen set; where they do not fit, the beam
  leaves the search (which goes on without it) and its arrays are let go, as they are
  when it runs out of states;
* the transposition table (keys and flags) and the dominance multimap;
* the A* store of the shortest-line search (its states, parents, costs, queue and table).

The driver charges the parts it holds before each growth, and a growth goes ahead only
if the old array and its bigger copy fit beside everything else held (the rehash needs
both): so at no moment do the search's arrays take more than the budget. The fixed
parts (a run's first rows, a restart run's private table) are charged first; the table
and the multimap grow into what is left. When the budget cannot hold even the first
arrays, or the next growth, the search ends ``unknown`` with reason ``memory``, at once
and with 0 nodes if nothing fits: never a crash, and never a wrong verdict (the table
never evicts, so what it proves stays proved).

Not search memory, and not bounded by the flag: the Python process itself (the
interpreter, numpy, Numba and the compiled code of the engine and the game), which is
there before a search starts and after it ends. The baseline is the resident set of a
process that has loaded the solver and the game's compiled code and decided a deal at
once (its root won, or a search of a few hundred nodes); the flag bounds what a search
adds on top of it. Also outside it: what is done with a line after the search
(decoding, certifying and cleaning it with the reference rules, small next to the
search), and a batch study's journal. Searches run one after another (the probe, the
relaxed twin and the search of :func:`solver.solve.solve`; the solve and the shortest
line of a hint; the solves of a review): each gets the whole budget and frees its arrays
when it returns, so the process's peak is one search's. A batch of ``jobs`` workers holds
up to ``jobs`` budgets, one per worker process.

Arrays are charged at their full size, also where the operating system backs only the
pages written (``np.empty``, a fresh ``np.zeros``): the bound holds whatever it backs.
"""

from __future__ import annotations

MB = 2 ** 20
# The default budget of every command: room for the tens of millions of states a search
# of the default time limits stores on the hardest deals, on a machine with a few GB.
DEFAULT_MEMORY_MB = 2048


def budget_bytes(memory_mb: float) -> int:
    """The bytes a search with ``memory_mb`` may hold in its arrays at once."""
    return int(memory_mb * MB)
