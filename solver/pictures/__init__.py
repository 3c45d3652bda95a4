"""Pictures of play: a table as SVG, and a line as a self-contained HTML replay page.

* :mod:`.scene`: what a picture shows (piles placed on a plane); each game's
  ``picture`` (:attr:`solver.game.Game.picture`) makes one from a deal;
* :mod:`.svg`: a scene drawn as SVG (the card faces, shared by every game);
* :mod:`.steps`: the tables along a line, from the reference rules;
* :mod:`.html`: the replay page of one or more lines;
* :mod:`.pages`: what ``solve``, ``hint`` and ``review`` put on their pages.

Nothing here loads Numba.
"""

from __future__ import annotations

from .scene import Scene


def scene_of(deal, title: str = "") -> Scene:
    """The scene of ``deal`` as its game draws it, ``title`` before the game's caption."""
    from dataclasses import replace

    from ..registry import game

    picture = game(deal.game).picture
    if picture is None:
        raise ValueError(f"{deal.game} has no picture")
    scene = picture(deal)
    return replace(scene, caption=" · ".join(t for t in (title, scene.caption) if t))


def deal_svg(deal, title: str = "") -> str:
    """``deal`` (a fresh or mid-game table) as SVG."""
    from .svg import render

    return render(scene_of(deal, title))
