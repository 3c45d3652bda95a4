"""Golf, reference rules (RULES.md, "Golf"). Plain Python, for clarity.

One deck, 52 cards. Seven tableau piles of five cards each, all face up (35
cards); the next card starts the single foundation; the other 16 are the stock.

Zones: ``t1``..``t7`` the tableau piles, ``f1`` the foundation, and the ``stock``
(``stock[0]`` comes out first).

The moves, as :class:`solver.moves.Move` values:

* ``Move("move", card=c, from_="t<i>", to="f1", count=1)``: the top card of
  pile i onto the foundation, when its rank is one above or one below the rank
  of the foundation's top card, whatever the suits (see the King and the Ace
  below).
* ``Move("draw")``: the next stock card onto the foundation, at any time while
  the stock has cards (there is no redeal). A draw may name the card it turns
  (``cards=(c,)``, as the solver's lines do); it must then be the next stock card.

Nothing else moves: no card goes onto the tableau, none leaves the foundation.

**The King and the Ace.** RULES.md: "Nothing may be played on a King, unless
option ``queens_on_kings``: then a Queen may" and "Ace and King are not adjacent,
unless option ``wrap``: then an Ace may go on a King and a King on an Ace". Read
here as two clauses that each *allow* something, both of them exceptions to the
King's block:

* on a King: nothing by default; a Queen with ``queens_on_kings``; an Ace with
  ``wrap`` (the wrap clause names "an Ace on a King" explicitly, so it is allowed
  with ``wrap`` whether or not ``queens_on_kings`` is on; a Queen on a King is
  not, without ``queens_on_kings``); so with both options a Queen or an Ace;
* on a Queen: a Jack or a King (always: the block is only about what goes *on*
  a King);
* on an Ace: a Two; and a King too with ``wrap``;
* on any other rank r: r - 1 or r + 1.

The foundation's first card (dealt) and the drawn cards go on whatever the top
is: the rank rule is for cards from the tableau only.

**Winning.** All 35 tableau cards on the foundation, that is every pile empty;
cards may remain in the stock.

:func:`initial` checks the table's shape (7 piles of at most 5 cards, one
non-empty foundation, at most 16 stock cards, no card twice) but not that all 52
cards are present, so that tests and tools can pose small positions;
:func:`solver.deals.validate` checks complete deals.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ...cards import card_name, pretty
from ...deals import Deal, DealError
from ...moves import Move
from ...options import OptionError, resolve
from ...replay import IllegalMove

N_PILES = 7
PILE_HEIGHT = 5
STOCK_SIZE = 16
ACE, QUEEN, KING = 1, 12, 13


# ---------------------------------------------------------------------------
# The position
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Position:
    """A Golf table. Immutable (tuples throughout), hashable, comparable.

    ``tableau``: 7 tuples, bottom to top (the last card is the one that may move);
    ``foundation``: bottom to top (the last card is the one to build on);
    ``stock``: ``stock[0]`` is the next card out. The two options are part of the
    position. ``seed`` is carried along for :func:`to_deal` only and takes no part
    in comparisons.
    """

    tableau: tuple
    foundation: tuple
    stock: tuple
    queens_on_kings: bool = False
    wrap: bool = False
    seed: int | None = field(default=None, compare=False)

    @property
    def options(self) -> dict:
        return {"queens_on_kings": self.queens_on_kings, "wrap": self.wrap}


def rank_of(card: int) -> int:
    """1 (Ace) .. 13 (King)."""
    return card % 13 + 1


def refusal(card: int, top: int, queens_on_kings: bool, wrap: bool) -> str | None:
    """Why the foundation with ``top`` refuses ``card`` from the tableau, or None when it
    takes it (the rank rule of the module docstring)."""
    r, t = rank_of(card), rank_of(top)
    if t == KING:
        if r == QUEEN and queens_on_kings:
            return None
        if r == ACE and wrap:
            return None
        allowed = [word for word, on in (("a Queen", queens_on_kings), ("an Ace", wrap)) if on]
        if allowed:
            return f"only {' or '.join(allowed)} may be played on a King ({card_name(top)}), not {card_name(card)}"
        return (f"nothing may be played on a King ({card_name(top)}): "
                "option queens_on_kings lets a Queen, option wrap an Ace")
    if abs(r - t) == 1:
        return None
    if {r, t} == {ACE, KING}:
        if wrap:
            return None
        return f"{card_name(card)} does not go on {card_name(top)}: Ace and King are adjacent only with option wrap"
    return f"{card_name(card)} does not go on {card_name(top)}: its rank is not one above or one below"


def fits(card: int, top: int, queens_on_kings: bool, wrap: bool) -> bool:
    """Whether ``card`` may be played from the tableau onto the foundation top ``top``."""
    return refusal(card, top, queens_on_kings, wrap) is None


def _options(deal: Deal) -> dict:
    try:
        return resolve("golf", deal.options)
    except OptionError as err:
        raise DealError(str(err)) from None


def _check_table(tableau, foundation, stock) -> None:
    """Raise :class:`DealError` unless the zones form a possible Golf table."""
    if len(tableau) != N_PILES:
        raise DealError(f"golf: expected {N_PILES} tableau piles, got {len(tableau)}")
    everything = list(stock) + [c for p in tableau for c in p] + list(foundation)
    for c in everything:
        if not isinstance(c, int) or isinstance(c, bool) or not 0 <= c < 52:
            raise DealError(f"golf: not a card number: {c!r}")
    for i, pile in enumerate(tableau, 1):
        if len(pile) > PILE_HEIGHT:
            raise DealError(f"golf: pile t{i} holds {len(pile)} cards (at most {PILE_HEIGHT})")
    if not foundation:
        raise DealError("golf: the foundation is empty (a card starts it)")
    if len(stock) > STOCK_SIZE:
        raise DealError(f"golf: the stock holds {len(stock)} cards (at most {STOCK_SIZE})")
    for c, n in sorted(Counter(everything).items()):
        if n > 1:
            raise DealError(f"golf: card {card_name(c)} appears {n} times (one deck)")


def initial(deal: Deal) -> Position:
    """The position ``deal`` describes (a fresh deal or a mid-game table)."""
    if deal.game != "golf":
        raise DealError(f"not a Golf deal (game {deal.game!r})")
    options = _options(deal)
    if len(deal.foundations) != 1:
        raise DealError(f"golf: expected 1 foundation, got {len(deal.foundations)}")
    tableau = tuple(tuple(p) for p in deal.tableau)
    foundation = tuple(deal.foundations[0])
    stock = tuple(deal.stock)
    _check_table(tableau, foundation, stock)
    return Position(tableau, foundation, stock, options["queens_on_kings"], options["wrap"], deal.seed)


def to_deal(pos: Position) -> Deal:
    """The position written as a (mid-game) deal; ``initial(to_deal(p)) == p``."""
    return Deal(game="golf", options=pos.options, seed=pos.seed, tableau=[list(p) for p in pos.tableau],
                foundations=[list(pos.foundation)], stock=list(pos.stock))


def key(pos: Position, *, passes: bool = True) -> Position:
    """The table as a value (see :class:`solver.game.Rules`): the position itself (the seed
    takes no part in comparisons; Golf has no redeals)."""
    return pos


# ---------------------------------------------------------------------------
# Moves
# ---------------------------------------------------------------------------
def legal_moves(pos: Position) -> list[Move]:
    """Every legal move, in a fixed order: the piles' top cards that fit the foundation,
    pile 1..7, then the draw (while the stock has cards)."""
    top = pos.foundation[-1]
    moves = [Move("move", card=pile[-1], from_=f"t{i}", to="f1", count=1)
             for i, pile in enumerate(pos.tableau, 1)
             if pile and fits(pile[-1], top, pos.queens_on_kings, pos.wrap)]
    if pos.stock:
        moves.append(Move("draw"))
    return moves


def is_won(pos: Position) -> bool:
    """All the tableau's cards on the foundation: every pile empty (the stock may hold cards)."""
    return not any(pos.tableau)


def _pile_number(zone) -> int | None:
    """``"t3"`` -> 3; None if ``zone`` names no tableau pile."""
    if isinstance(zone, str) and zone[:1] == "t" and zone[1:].isdigit():
        n = int(zone[1:])
        if 1 <= n <= N_PILES and zone[1:] == str(n):
            return n
    return None


def play(pos: Position, move: Move) -> Position:
    """The position after ``move``; ``pos`` is unchanged. Raises :class:`IllegalMove`."""
    if not isinstance(move, Move):
        raise IllegalMove(f"not a move: {move!r}")
    if move.type == "draw":
        if not pos.stock:
            raise IllegalMove("the stock is empty (there is no redeal)")
        card = pos.stock[0]
        if move.cards and tuple(move.cards) != (card,):
            raise IllegalMove(f"the draw turns {card_name(card)}, not {' '.join(map(card_name, move.cards))}")
        return Position(pos.tableau, pos.foundation + (card,), pos.stock[1:], pos.queens_on_kings, pos.wrap,
                        pos.seed)
    if move.type != "move":
        raise IllegalMove(f"Golf has no {move.type!r} moves (only card moves and draws)")
    if move.count != 1:
        raise IllegalMove(f"only one card moves at a time, not {move.count}")
    if move.card is None:
        raise IllegalMove("the move names no card")
    src = _pile_number(move.from_)
    if src is None:
        if move.from_ == "f1":
            raise IllegalMove("cards on the foundation never leave it")
        if move.from_ == "stock":
            raise IllegalMove("stock cards come out only by a draw")
        raise IllegalMove(f"no zone {move.from_!r} to take a card from in Golf")
    if move.to != "f1":
        if _pile_number(move.to) is not None:
            raise IllegalMove("nothing is ever put on a tableau pile in Golf: cards go to the foundation f1")
        raise IllegalMove(f"no zone {move.to!r} to put a card on in Golf")
    pile = pos.tableau[src - 1]
    card = move.card
    if not pile:
        raise IllegalMove(f"t{src} is empty")
    if pile[-1] != card:
        if card in pile:
            raise IllegalMove(f"only a pile's top card may move: {card_name(card)} in t{src} "
                              f"is covered (top card {card_name(pile[-1])})")
        raise IllegalMove(f"t{src} holds no {card_name(card)} (its top card is {card_name(pile[-1])})")
    why = refusal(card, pos.foundation[-1], pos.queens_on_kings, pos.wrap)
    if why:
        raise IllegalMove(why)
    tableau = tuple(p[:-1] if i == src else p for i, p in enumerate(pos.tableau, 1))
    return Position(tableau, pos.foundation + (card,), pos.stock, pos.queens_on_kings, pos.wrap, pos.seed)


# ---------------------------------------------------------------------------
# A picture for people
# ---------------------------------------------------------------------------
def render(pos: Position) -> str:
    """The foundation's top, the stock, then the seven piles in columns (top card lowest)."""
    n = len(pos.foundation)
    lines = [f"Foundation: {pretty(pos.foundation[-1])} ({n} card{'s' if n != 1 else ''})   "
             f"Stock: {len(pos.stock)} cards" + (f", next {pretty(pos.stock[0])}" if pos.stock else "")
             + ("   -- won" if is_won(pos) else "")]
    lines.append("  ".join(f"{'t' + str(i + 1):>4}" for i in range(N_PILES)))
    height = max((len(p) for p in pos.tableau), default=0)
    for row in range(height):
        cells = [f"{pretty(pile[row]):>4}" if row < len(pile) else "    " for pile in pos.tableau]
        lines.append("  ".join(cells).rstrip())
    if not height:
        lines.append("(every pile empty)")
    return "\n".join(lines)
