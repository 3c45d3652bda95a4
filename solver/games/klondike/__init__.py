"""Klondike (one deck): RULES.md's main game, with draw 1 or 3 and any number of passes."""

from ...engine.cache import keep_fresh, shared_kernel_sources
from ...game import DealFormats, Game, Option
from . import info, picture, rules
from .foreign import formats, greenfelt, microsoft, pysolfc, shootme, solvitaire
from .layout import LAYOUT

# before any of the package's compiled modules loads (they are imported on first use)
keep_fresh(__file__, *shared_kernel_sources())

GAME = Game(
    name="klondike",
    title="Klondike",
    options=(
        Option("draw", 1, "choices", "cards per draw (1 or 3)", choices=(1, 3)),
        Option("passes", 1, "passes", "passes through the stock (a number or 'unlimited')"),
        Option("foundation_to_tableau", False, "flag", "foundation cards may go back to the tableau"),
    ),
    layout=LAYOUT,
    information=info.INFORMATION,
    rules=rules,
    picture=picture.scene,
    solver_module="solver.games.klondike.solver",
    compiled_aside=("solver.games.klondike.position_kernels",),
    variants=({"draw": 1, "passes": 1}, {"draw": 3, "passes": 3},
              {"draw": 1, "passes": None}, {"draw": 3, "passes": None}),
    seed_types={
        "solvitaire": solvitaire.deal_from_seed,
        "klondike-solver": shootme.deal_from_seed,
        "greenfelt": greenfelt.deal_from_seed,
        "microsoft": microsoft.deal_from_seed,
        "pysol": pysolfc.deal_from_seed,
    },
    deal_formats=DealFormats(formats.FORMATS, formats.DESCRIPTION, formats.read_foreign, formats.format_deal),
)
