"""Reference rules of Pyramid (RULES.md, section Pyramid): the plain-Python oracle.

Written for clarity, not speed. A :class:`Position` is an immutable value;
:func:`play` returns a new one and never changes its input.

The table
    * ``pyramid``: 7 rows, row ``r`` (1..7) holding ``r`` cards, ``None`` where a
      card was removed. Card ``(r, c)`` is covered by ``(r+1, c)`` and
      ``(r+1, c+1)``; it is *exposed* once both are gone. Row 7 is exposed from
      the start.
    * ``stock``: the face-down cards, in the order they come out (index 0 next).
    * ``waste``: one pile (``piles=1``, zone ``waste``) or three piles
      (``piles=3``, zones ``waste1``..``waste3``), each bottom to top. Only the
      top card of each pile is exposed.
    * ``removed``: the discard (``foundations[0]`` of a deal), in removal order.

Moves (FORMATS.md), exactly these values:
    * ``Move("draw")``: one card from the stock onto the waste; with ``piles=3``
      up to three cards, the first onto ``waste1``, the second onto ``waste2``,
      the third onto ``waste3`` (fewer when the stock runs short).
    * ``Move("redeal")``: only with ``piles=1``, when the stock is empty, the
      waste is not, and ``passes`` allows another pass. The waste is turned over
      unshuffled, so the card drawn first comes out first again.
    * ``remove((card, zone), ...)`` from :func:`solver.moves.remove`: one exposed
      King, or two exposed cards whose ranks add to 13. Zones are ``p<r>.<c>``,
      ``waste``/``waste1``..``waste3`` (top card) and, with the option
      ``stock_top``, ``stock`` (the next stock card).

Decisions this module makes where the texts leave room:
    * The game ends when the pyramid is cleared (the rule text: "the game ends
      when all cards have been removed from the pyramid"), so a won position has
      no legal moves and :func:`play` refuses any move there.
    * ``passes`` counts passes through the stock, so ``passes=n`` allows ``n-1``
      redeals; ``passes_used`` counts the redeals made (as in a deal).
    * Removing is always optional, so ``draw`` is legal whenever the stock has
      cards, even if a removal is possible.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ...cards import card_name, pretty, rank
from ...deals import Deal, DealError, validate
from .layout import PyramidDeal
from ...moves import Move, remove
from ...options import OptionError, resolve
from ...replay import IllegalMove

GAME = "pyramid"
ROWS = 7
KING = 13


@dataclass(frozen=True)
class Position:
    """One Pyramid table and the options it is played under.

    ``seed`` is carried along for :func:`to_deal` only and is not part of the
    position's identity (it does not take part in ``==``).
    """

    pyramid: tuple[tuple[int | None, ...], ...]
    stock: tuple[int, ...]
    waste: tuple[tuple[int, ...], ...]  # one pile (piles=1) or three (piles=3)
    removed: tuple[int, ...]
    passes_used: int
    piles: int
    passes: int | None
    stock_top: bool
    seed: int | None = field(default=None, compare=False)

    def options(self) -> dict:
        return {"piles": self.piles, "passes": self.passes, "stock_top": self.stock_top}


# --------------------------------------------------------------------------
# Deal <-> position
# --------------------------------------------------------------------------
def initial(deal: Deal) -> Position:
    """The position ``deal`` describes (a fresh deal or a mid-game table).

    The deal is checked first (whole deck, row sizes, no removed card still
    covered, ``passes_used`` within ``passes``); a bad one raises
    :class:`solver.deals.DealError`.
    """
    if deal.game != GAME:
        raise DealError(f"not a pyramid deal: game is {deal.game!r}")
    try:
        options = resolve(GAME, deal.options)
    except OptionError as err:
        raise DealError(str(err)) from None
    deal = replace(deal, options=options)
    if len(deal.pyramid) != ROWS or any(len(row) != r for r, row in enumerate(deal.pyramid, 1)):
        raise DealError("pyramid: expected 7 rows of 1..7 cards")
    if options["piles"] == 3:
        if deal.waste and len(deal.waste) != 3:
            raise DealError("waste: piles=3 needs a list of three piles")
        waste = tuple(tuple(p) for p in deal.waste) if deal.waste else ((), (), ())
    else:
        waste = (tuple(deal.waste),)
    foundations = deal.foundations or [[]]
    if len(foundations) != 1:
        raise DealError("foundations: pyramid has one discard pile")
    validate(replace(deal, waste=[list(p) for p in waste] if options["piles"] == 3 else list(waste[0]),
                     foundations=[list(foundations[0])]))
    return Position(
        pyramid=tuple(tuple(row) for row in deal.pyramid),
        stock=tuple(deal.stock),
        waste=waste,
        removed=tuple(foundations[0]),
        passes_used=deal.passes_used,
        piles=options["piles"],
        passes=options["passes"],
        stock_top=options["stock_top"],
        seed=deal.seed,
    )


def to_deal(pos: Position) -> Deal:
    """The position written as a (mid-game) deal; ``initial(to_deal(p)) == p``."""
    if pos.piles == 3:
        waste = [list(p) for p in pos.waste]
    else:
        waste = list(pos.waste[0])
    return PyramidDeal(
        game=GAME,
        options=pos.options(),
        seed=pos.seed,
        pyramid=[list(row) for row in pos.pyramid],
        stock=list(pos.stock),
        waste=waste,
        foundations=[list(pos.removed)],
        passes_used=pos.passes_used,
    )


def key(pos: Position, *, passes: bool = True) -> Position:
    """The table as a value (see :class:`solver.game.Rules`): the position itself (the seed
    takes no part in comparisons), with no redeals made unless they count."""
    if passes and pos.passes is not None:
        return pos
    return replace(pos, passes_used=0)


# --------------------------------------------------------------------------
# What is exposed
# --------------------------------------------------------------------------
def cell_zone(row: int, col: int) -> str:
    """Zone name of pyramid card (row, col), both 1-based: ``p7.1`` is bottom left."""
    return f"p{row}.{col}"


def waste_zones(pos: Position) -> tuple[str, ...]:
    return ("waste",) if pos.piles == 1 else ("waste1", "waste2", "waste3")


def is_exposed_cell(pos: Position, row: int, col: int) -> bool:
    """A pyramid card is exposed when it is there and both cards covering it are gone."""
    if pos.pyramid[row - 1][col - 1] is None:
        return False
    if row == ROWS:
        return True
    below = pos.pyramid[row]  # row + 1, 0-based
    return below[col - 1] is None and below[col] is None


def exposed(pos: Position) -> list[tuple[int, str]]:
    """Every exposed card as ``(card, zone)``, in a fixed order.

    Order: pyramid cards row by row (top first), left to right; then the top
    of each waste pile; then, with ``stock_top``, the next stock card.
    """
    out = []
    for r in range(1, ROWS + 1):
        for c in range(1, r + 1):
            if is_exposed_cell(pos, r, c):
                out.append((pos.pyramid[r - 1][c - 1], cell_zone(r, c)))
    for zone, pile in zip(waste_zones(pos), pos.waste):
        if pile:
            out.append((pile[-1], zone))
    if pos.stock_top and pos.stock:
        out.append((pos.stock[0], "stock"))
    return out


def _card_at(pos: Position, zone: str) -> int:
    """The exposed card in ``zone``; raise :class:`IllegalMove` if there is none.

    A waste pile offers only its top card and the stock only its next card, so
    a card lower in a pile is never found here: that is what keeps two cards of
    the same waste pile from being removed together.
    """
    if zone.startswith("p"):
        try:
            r, c = (int(x) for x in zone[1:].split("."))
        except ValueError:
            raise IllegalMove(f"unknown zone {zone!r}") from None
        if not (1 <= r <= ROWS and 1 <= c <= r):
            raise IllegalMove(f"no pyramid position {zone} (row r has columns 1..r)")
        card = pos.pyramid[r - 1][c - 1]
        if card is None:
            raise IllegalMove(f"{zone} is empty: its card was already removed")
        if not is_exposed_cell(pos, r, c):
            raise IllegalMove(f"{card_name(card)} at {zone} is covered by "
                              f"{cell_zone(r + 1, c)} or {cell_zone(r + 1, c + 1)}")
        return card
    if zone in ("waste", "waste1", "waste2", "waste3"):
        if zone not in waste_zones(pos):
            raise IllegalMove(f"no zone {zone} with piles={pos.piles}")
        pile = pos.waste[waste_zones(pos).index(zone)]
        if not pile:
            raise IllegalMove(f"{zone} is empty")
        return pile[-1]
    if zone == "stock":
        if not pos.stock_top:
            raise IllegalMove("stock cards cannot be removed without the option stock_top")
        if not pos.stock:
            raise IllegalMove("the stock is empty")
        return pos.stock[0]
    raise IllegalMove(f"no zone {zone!r} in pyramid")


# --------------------------------------------------------------------------
# Moves
# --------------------------------------------------------------------------
def is_won(pos: Position) -> bool:
    """Won when all 28 pyramid cards are removed (stock and waste may remain)."""
    return all(card is None for row in pos.pyramid for card in row)


def can_redeal(pos: Position) -> bool:
    """Stock empty, waste not, ``piles=1``, and another pass allowed.

    ``passes`` is the number of passes through the stock in all, the first one
    included, so the redeals allowed are ``passes - 1``.
    """
    if pos.piles != 1 or pos.stock or not pos.waste[0]:
        return False
    return pos.passes is None or pos.passes_used + 1 < pos.passes


def legal_moves(pos: Position) -> list[Move]:
    """Every legal move: removals (in :func:`exposed` order), then draw, then redeal.

    A won position has none: the game ends when the pyramid is cleared.
    """
    if is_won(pos):
        return []
    moves = []
    cards = exposed(pos)
    for i, (card, zone) in enumerate(cards):
        if rank(card) == KING:
            moves.append(remove((card, zone)))
        for other, other_zone in cards[i + 1:]:
            if rank(card) + rank(other) == 13:
                moves.append(remove((card, zone), (other, other_zone)))
    if pos.stock:
        moves.append(Move("draw"))
    if can_redeal(pos):
        moves.append(Move("redeal"))
    return moves


def play(pos: Position, move: Move) -> Position:
    """The position after ``move``; ``pos`` is unchanged. Illegal: :class:`IllegalMove`."""
    if is_won(pos):
        raise IllegalMove("the game is over: the pyramid is cleared")
    if move.type == "draw":
        return _draw(pos, move)
    if move.type == "redeal":
        return _redeal(pos)
    if move.type == "remove":
        return _remove(pos, move)
    raise IllegalMove(f"pyramid has no {move.type!r} move (only remove, draw, redeal)")


def _draw(pos: Position, move: Move) -> Position:
    if not pos.stock:
        raise IllegalMove("cannot draw: the stock is empty")
    drawn = pos.stock[:pos.piles]  # one card, or up to three with piles=3
    if move.cards and tuple(move.cards) != drawn:
        raise IllegalMove(f"draw would turn {' '.join(map(card_name, drawn))}, "
                          f"not {' '.join(map(card_name, move.cards))}")
    waste = list(pos.waste)
    # piles=1: the single pile gets the card. piles=3: card k goes onto pile k,
    # the same order on every draw, as the rule text demands.
    for k, card in enumerate(drawn):
        waste[k] = waste[k] + (card,)
    return replace(pos, stock=pos.stock[len(drawn):], waste=tuple(waste))


def _redeal(pos: Position) -> Position:
    if pos.piles != 1:
        raise IllegalMove("cannot redeal: with three waste piles there is no redeal")
    if pos.stock:
        raise IllegalMove("cannot redeal: the stock is not empty yet")
    if not pos.waste[0]:
        raise IllegalMove("cannot redeal: the waste is empty")
    if not can_redeal(pos):
        raise IllegalMove(f"cannot redeal: passes={pos.passes} allows {pos.passes - 1} redeal(s), "
                          f"{pos.passes_used} made")
    # Turning the waste over, unshuffled: its bottom card (the first drawn)
    # becomes the next stock card again.
    return replace(pos, stock=pos.waste[0], waste=((),), passes_used=pos.passes_used + 1)


def _remove(pos: Position, move: Move) -> Position:
    zones = move.zones()
    cards = tuple(move.cards)
    if not 1 <= len(cards) <= 2 or len(cards) != len(zones):
        raise IllegalMove("a removal names one or two cards, each with its zone")
    if len(zones) == 2 and zones[0] == zones[1]:
        raise IllegalMove(f"both cards are named from {zones[0]}: only its top card is exposed")
    for card, zone in zip(cards, zones):
        there = _card_at(pos, zone)  # raises when nothing exposed is there
        if there != card:
            raise IllegalMove(f"the exposed card at {zone} is {card_name(there)}, not {card_name(card)}")
    if len(cards) == 1 and rank(cards[0]) != KING:
        raise IllegalMove(f"{card_name(cards[0])} alone cannot be removed: only a King goes alone")
    if len(cards) == 2 and rank(cards[0]) + rank(cards[1]) != 13:
        raise IllegalMove(f"{card_name(cards[0])} and {card_name(cards[1])} add to "
                          f"{rank(cards[0]) + rank(cards[1])}, not 13")
    # Both cards were checked exposed in the position before the move. A card
    # and the card covering it can never both pass that check, so removing
    # them together is refused above.
    pyramid = [list(row) for row in pos.pyramid]
    stock = pos.stock
    waste = list(pos.waste)
    for zone in zones:
        if zone.startswith("p"):
            r, c = (int(x) for x in zone[1:].split("."))
            pyramid[r - 1][c - 1] = None
        elif zone == "stock":
            stock = stock[1:]
        else:
            k = waste_zones(pos).index(zone)
            waste[k] = waste[k][:-1]
    return replace(pos, pyramid=tuple(tuple(row) for row in pyramid), stock=stock,
                   waste=tuple(waste), removed=pos.removed + cards)


# --------------------------------------------------------------------------
# Picture
# --------------------------------------------------------------------------
def render(pos: Position) -> str:
    """A text picture: the pyramid as a triangle (removed cards blank), the stock
    count, the waste top(s) and the discard count. Example (seed 1, one draw)::

        pass 1 of 1
        1               7♦
        2             9♣  4♦
        3           8♥  8♦  5♠
        4         J♦  6♦  9♠  J♣
        5       5♦  K♦  3♣  2♦  J♥
        6     5♥  7♥  4♥  2♣  A♦  6♠
        7   K♣  K♥ 10♥ 10♠  J♠ 10♦  8♠
        stock: 23 cards   waste: Q♣ (1)   removed: 0
    """
    passes = "unlimited" if pos.passes is None else str(pos.passes)
    lines = [f"pass {pos.passes_used + 1} of {passes}"]
    for r, row in enumerate(pos.pyramid, 1):
        cells = ["   " if card is None else f"{pretty(card):>3}" for card in row]
        lines.append((f"{r} " + "  " * (ROWS - r) + " " + " ".join(cells)).rstrip())
    stock = f"stock: {len(pos.stock)} card{'s' if len(pos.stock) != 1 else ''}"
    if pos.stock_top and pos.stock:
        stock += f" (next {pretty(pos.stock[0])})"
    tops = []
    for zone, pile in zip(waste_zones(pos), pos.waste):
        top = f"{pretty(pile[-1])} ({len(pile)})" if pile else "empty"
        tops.append(f"{zone}: {top}")
    lines.append(f"{stock}   {'   '.join(tops)}   removed: {len(pos.removed)}")
    if is_won(pos):
        lines.append("won: the pyramid is cleared")
    return "\n".join(lines)
