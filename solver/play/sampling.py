"""Sampled tables in bulk: hundreds of tables consistent with an observation, encoded and
decided at numpy's and the compiled search's speed instead of one Python table at a time.

A game that declares :attr:`solver.game.Solver.open_state` says which byte of its
kernel state holds the card of each slot. The tables an observation admits differ only
in which unseen card lies in which unknown slot, and a move played on the observed table
carries each unknown with its slot (:class:`solver.game.Information`), so the tables
after a candidate line of moves are one *template* state (the observed table after the
line, the unknowns filled in any way) with the sampled cards written into the bytes of
the unknowns' slots. One arrangement of the unseen cards, drawn once, is written into
every candidate's template: the candidates are compared on the same tables (common
random numbers), as the player's Python tables compare them.

:func:`arrangements` draws the arrangements exactly as :meth:`Observation.sample` does
(Fisher-Yates with the project's SplitMix64, one generator per arrangement, seeded by
the caller), with the generators advanced side by side in numpy's unsigned 64-bit
arithmetic, which wraps as the generator's arithmetic does.
"""

from __future__ import annotations

import numpy as np

from ..deals import MASK64, SPLITMIX_GAMMA, SPLITMIX_MIX1, SPLITMIX_MIX2
from .observation import Observation, _copy, _put, card_at, slots

GAMMA, MIX1, MIX2 = np.uint64(SPLITMIX_GAMMA), np.uint64(SPLITMIX_MIX1), np.uint64(SPLITMIX_MIX2)


def _next(state: np.ndarray) -> np.ndarray:
    """SplitMix64's next output of each generator in ``state`` (advanced in place)."""
    state += GAMMA
    z = state.copy()
    z = (z ^ (z >> np.uint64(30))) * MIX1
    z = (z ^ (z >> np.uint64(27))) * MIX2
    return z ^ (z >> np.uint64(31))


def _below(state: np.ndarray, n: int) -> np.ndarray:
    """``SplitMix64.below(n)`` of each generator: a draw at or above the last whole multiple
    of ``n`` is drawn again (by that generator alone), so each value is exactly uniform."""
    limit = np.uint64((1 << 64) - (1 << 64) % n) if (1 << 64) % n else None
    x = _next(state)
    if limit is not None:
        again = x >= limit
        while again.any():
            sub = state[again]
            x[again] = _next(sub)
            state[again] = sub
            again = x >= limit
    return x % np.uint64(n)


def arrangements(seeds: list[int], cards: tuple[int, ...]) -> np.ndarray:
    """One row per seed: ``cards`` shuffled as :meth:`Observation.sample` shuffles the
    unseen cards with ``SplitMix64(seed)`` (so row k fills the unknown slots, in slot
    order, as that sample would)."""
    n = len(seeds)
    out = np.tile(np.asarray(cards, dtype=np.int64), (n, 1))
    state = np.array([s & MASK64 for s in seeds], dtype=np.uint64)
    rows = np.arange(n)
    with np.errstate(over="ignore"):
        for i in range(len(cards) - 1, 0, -1):
            j = _below(state, i + 1).astype(np.int64)
            a = out[rows, i].copy()
            out[rows, i] = out[rows, j]
            out[rows, j] = a
    return out


class Templates:
    """The kernel states of the tables ``obs`` admits, after candidate lines of moves.

    ``unknowns`` are the unknown slots' names at ``obs`` in slot order (the order of
    :meth:`Observation.sample`'s filling), so an arrangement's k-th card belongs to the
    unknown named ``unknowns[k]`` wherever a move has carried it."""

    def __init__(self, solver, obs: Observation):
        self.solver = solver
        self.obs = obs
        self.unknowns = [card_at(obs.table, s) for s in obs.unknown_slots()]

    def of(self, table) -> tuple[np.ndarray, np.ndarray]:
        """The template of ``table`` (a table after moves from ``obs``, its unknowns
        negative) and the byte of each unknown, in :attr:`unknowns` order."""
        where = {card_at(table, s): s for s in slots(table) if card_at(table, s) < 0}
        filled = _copy(table)
        for name, card in zip(self.unknowns, self.obs.unseen):
            _put(filled, where[name], card)
        state, places = self.solver.open_state(filled, [where[name] for name in self.unknowns])
        return np.asarray(state, dtype=np.uint8), np.asarray(places, dtype=np.int64)

    def states(self, template: tuple[np.ndarray, np.ndarray], cards: np.ndarray) -> np.ndarray:
        """One state per row of ``cards`` (arrangements of the unseen cards)."""
        state, places = template
        out = np.repeat(state[None, :], cards.shape[0], axis=0)
        if places.size:
            out[:, places] = cards
            if self.solver.settle is not None:
                self.solver.settle(out)
        return out
