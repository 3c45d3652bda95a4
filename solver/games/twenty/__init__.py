"""Twenty (two decks): twenty single-card piles onto ascending and descending foundations."""

from ...game import Game
from . import rules
from .layout import LAYOUT

GAME = Game(
    name="twenty",
    title="Twenty",
    options=(),
    layout=LAYOUT,
    rules=rules,
    solver_module="solver.games.twenty.solver",
)
