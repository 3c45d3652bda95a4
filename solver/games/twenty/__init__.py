"""Twenty (two decks): twenty single-card piles onto ascending and descending foundations."""

from ...engine.cache import keep_fresh, shared_kernel_sources
from ...game import Game
from . import info, picture, rules
from .layout import LAYOUT

# before any of the package's compiled modules loads (they are imported on first use)
keep_fresh(__file__, *shared_kernel_sources())

GAME = Game(
    name="twenty",
    title="Twenty",
    options=(),
    layout=LAYOUT,
    information=info.INFORMATION,
    rules=rules,
    picture=picture.scene,
    solver_module="solver.games.twenty.solver",
)
