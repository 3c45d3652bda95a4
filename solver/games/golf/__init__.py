"""Golf (one deck): seven face-up piles played onto one foundation a rank up or down."""

from ...engine.cache import keep_fresh, shared_kernel_sources
from ...game import Game, Option
from . import info, picture, pysolfc, rules
from .layout import LAYOUT

# before any of the package's compiled modules loads (they are imported on first use)
keep_fresh(__file__, *shared_kernel_sources())

GAME = Game(
    name="golf",
    title="Golf",
    options=(
        Option("queens_on_kings", False, "flag", "a Queen may be played on a King"),
        Option("wrap", False, "flag", "Ace and King are adjacent (an Ace on a King, a King on an Ace)"),
    ),
    layout=LAYOUT,
    information=info.INFORMATION,
    rules=rules,
    solver_module="solver.games.golf.solver",
    picture=picture.scene,
    seed_types={"pysol": pysolfc.deal_from_seed},
    variants=({"queens_on_kings": False, "wrap": False}, {"queens_on_kings": True, "wrap": False},
              {"queens_on_kings": False, "wrap": True}, {"queens_on_kings": True, "wrap": True}),
)
