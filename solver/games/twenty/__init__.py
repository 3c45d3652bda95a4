"""Twenty (two decks): twenty single-card piles onto ascending and descending foundations."""

from ...game import Game
from . import picture, rules
from .layout import LAYOUT

GAME = Game(
    name="twenty",
    title="Twenty",
    options=(),
    layout=LAYOUT,
    rules=rules,
    picture=picture.scene,
    solver_module="solver.games.twenty.solver",
)
