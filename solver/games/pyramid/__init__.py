"""Pyramid (one deck): remove Kings and pairs adding to 13; one or three waste piles."""

from ...engine.cache import keep_fresh, shared_kernel_sources
from ...game import Game, Option
from . import info, picture, pysolfc, rules
from .layout import LAYOUT

# before any of the package's compiled modules loads (they are imported on first use)
keep_fresh(__file__, *shared_kernel_sources())


def _conflict(options: dict) -> str | None:
    if options["piles"] == 3 and options["passes"] != 1:
        return "piles=3 allows no redeal (passes must be 1)"
    return None


GAME = Game(
    name="pyramid",
    title="Pyramid",
    options=(
        Option("piles", 1, "choices", "waste piles (1 or 3)", choices=(1, 3)),
        Option("passes", 1, "passes", "passes through the stock (a number or 'unlimited')"),
        Option("stock_top", False, "flag", "the next stock card is exposed too"),
    ),
    layout=LAYOUT,
    information=info.INFORMATION,
    rules=rules,
    picture=picture.scene,
    solver_module="solver.games.pyramid.solver",
    options_conflict=_conflict,
    offers_shortest=True,
    seed_types={"pysol": pysolfc.deal_from_seed},
    # the last: one pass with the stock's top card exposed, the rules of the largest published study
    variants=({"piles": 1, "passes": 1}, {"piles": 1, "passes": 3}, {"piles": 1, "passes": None},
              {"piles": 3, "passes": 1}, {"piles": 1, "passes": 3, "stock_top": True},
              {"piles": 1, "passes": 1, "stock_top": True}),
)
