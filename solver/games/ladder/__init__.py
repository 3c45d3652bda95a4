"""Ladder (two decks): eight piles built down in alternating colours, a 29-card ladder."""

from ...game import Game, Option
from . import picture, rules
from .layout import LAYOUT

GAME = Game(
    name="ladder",
    title="Ladder",
    options=(
        Option("passes", None, "passes", "passes through the stock (a number or 'unlimited')"),
    ),
    layout=LAYOUT,
    rules=rules,
    picture=picture.scene,
    solver_module="solver.games.ladder.solver",
    variants=({"passes": None},),
)
