"""The tables along a line, as scenes: every position comes from the game's reference rules
(``rules.initial``, ``rules.play``, ``rules.to_deal``), never from the solver's kernels."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..moves import Move
from ..notation import readable
from ..registry import game
from .scene import Change, Scene, changes


@dataclass(frozen=True)
class Step:
    """The table after a move (step 0: before the first), what the move changed, and the
    move in readable notation as it reads on the table before it."""

    scene: Scene
    changes: dict[str, Change] = field(default_factory=dict)
    move: Move | None = None
    text: str = ""


def line_steps(deal, moves: list[Move]) -> list[Step]:
    """One step per table of the line from ``deal``: ``len(moves) + 1`` of them. A move the
    rules refuse raises :class:`solver.replay.IllegalMove` (callers pass replayed lines)."""
    g = game(deal.game)
    rules, picture = g.rules, g.picture
    pos = rules.initial(deal)
    scene = picture(rules.to_deal(pos))
    out = [Step(scene)]
    for move in moves:
        text = readable(move, rules.to_deal(pos))
        pos = rules.play(pos, move)
        after = picture(rules.to_deal(pos))
        out.append(Step(after, changes(scene, after), move, text))
        scene = after
    return out
