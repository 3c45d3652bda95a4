"""Ladder (two decks): eight piles built down in alternating colours, a 29-card ladder."""

from ...engine.cache import keep_fresh, shared_kernel_sources
from ...game import Game, Option
from . import info, picture, rules
from .layout import LAYOUT

# before any of the package's compiled modules loads (they are imported on first use)
keep_fresh(__file__, *shared_kernel_sources())

GAME = Game(
    name="ladder",
    title="Ladder",
    options=(
        Option("passes", None, "passes", "passes through the stock (a number or 'unlimited')"),
    ),
    layout=LAYOUT,
    information=info.INFORMATION,
    rules=rules,
    picture=picture.scene,
    solver_module="solver.games.ladder.solver",
    compiled_aside=("solver.games.ladder.position_kernels",),
    variants=({"passes": None}, {"passes": 2}, {"passes": 1}),
)
