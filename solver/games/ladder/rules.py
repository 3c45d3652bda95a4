"""Ladder ("Лестница"), two decks: reference rules (RULES.md, "Ladder"). Plain Python, for clarity.

Zones: ``t1``..``t8`` tableau piles (bottom to top, all cards face up),
``ladder`` (one pile; only its last card, the top, is available), ``stock``
(``stock[0]`` is the next card drawn), ``waste`` (``waste[-1]`` is available)
and ``f1``..``f8`` foundations (any numbering; each takes any Ace, then builds
up by suit to the King, so two foundations of one suit may exist).

Moves (:class:`solver.moves.Move`)::

    Move("move", card=c, from_="t3", to="t5", count=n)   # proper tail of n cards; c is its lowest card
    Move("move", card=c, from_="t3" | "ladder" | "waste", to="f2")  # count 1
    Move("move", card=c, from_="ladder" | "waste", to="t4")          # count 1
    Move("draw")      # one stock card onto the waste
    Move("redeal")    # empty stock: waste turned over, unshuffled

A *proper tail* is a run at the top of a pile descending by one rank in
alternating colours; the top card alone always is one. A proper tail of any
length moves as a unit onto a top card of the other colour one rank higher
than its lowest card, or onto an empty pile. Nothing moves onto the ladder,
the stock or the waste; foundation cards never leave.

Decisions this module takes where the rules leave room (``play`` accepts every
legal move; only the listing in ``legal_moves`` is trimmed):

* Foundations with the same contents are interchangeable (empty ones; two
  of one suit built to the same rank). ``legal_moves`` lists a card onto the
  *first* foundation it fits only (so an Ace goes to the first empty one);
  ``play`` accepts it onto any foundation it fits.
* Onto an empty pile ``legal_moves`` lists every proper tail length of the
  source pile, each a distinct move, *except* the whole source pile: moving a
  whole pile onto an empty pile only renumbers the piles. ``play`` accepts it.
* Onto a non-empty pile at most one tail length fits (the ranks in a tail
  differ), and that one is listed.
* ``draw`` is listed while the stock has cards, whatever the passes; ``redeal``
  when the stock is empty, the waste is not, and ``passes`` is ``None``
  (unlimited) or ``passes_used + 1 < passes``.
* Win: all 104 cards on the foundations.

``legal_moves`` order (fixed): foundation moves (tableau tops t1..t8, then the
ladder top, then the waste top); tableau moves (sources t1..t8 with shorter
tails first, then ladder, then waste; targets t1..t8); ``draw``; ``redeal``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ...cards import card_name, is_red, pretty, rank, suit
from ...deals import Deal
from ...moves import Move
from ...replay import IllegalMove
from .layout import LadderDeal

N_PILES = 8
N_FOUNDATIONS = 8
N_CARDS = 104


@dataclass(frozen=True)
class Position:
    """An immutable Ladder table. All zones are tuples; piles are bottom to top."""

    tableau: tuple          # 8 tuples, bottom to top
    ladder: tuple           # ladder[-1] is the available card
    stock: tuple            # stock[0] comes out first
    waste: tuple            # waste[-1] is the available card
    foundations: tuple      # 8 tuples, Ace upwards, one suit each
    passes: int | None = None   # total passes through the stock allowed; None = unlimited
    passes_used: int = 0        # redeals made so far
    seed: int | None = field(default=None, compare=False)


# ---------------------------------------------------------------------------
# Deal <-> Position
# ---------------------------------------------------------------------------
def initial(deal: Deal) -> Position:
    """The position ``deal`` describes (a fresh deal or a mid-game table)."""
    if deal.game != "ladder":
        raise ValueError(f"not a Ladder deal: game {deal.game!r}")
    if len(deal.tableau) != N_PILES:
        raise ValueError(f"Ladder has {N_PILES} tableau piles, the deal has {len(deal.tableau)}")
    foundations = [tuple(f) for f in deal.foundations] or [() for _ in range(N_FOUNDATIONS)]
    if len(foundations) != N_FOUNDATIONS:
        raise ValueError(f"Ladder has {N_FOUNDATIONS} foundations, the deal has {len(foundations)}")
    return Position(
        tableau=tuple(tuple(p) for p in deal.tableau),
        ladder=tuple(deal.ladder),
        stock=tuple(deal.stock),
        waste=tuple(deal.waste),
        foundations=tuple(foundations),
        passes=(deal.options or {}).get("passes"),
        passes_used=deal.passes_used,
        seed=deal.seed,
    )


def to_deal(pos: Position) -> Deal:
    """The position written as a (mid-game) deal; ``initial(to_deal(p)) == p``."""
    return LadderDeal(game="ladder", options={"passes": pos.passes}, seed=pos.seed,
                tableau=[list(p) for p in pos.tableau], ladder=list(pos.ladder),
                stock=list(pos.stock), waste=list(pos.waste),
                foundations=[list(f) for f in pos.foundations], passes_used=pos.passes_used)


def key(pos: Position, *, passes: bool = True) -> Position:
    """The table as a value (see :class:`solver.game.Rules`): the position itself (the seed
    takes no part in comparisons), with no redeals made unless they count."""
    if passes and pos.passes is not None:
        return pos
    return replace(pos, passes_used=0)


# ---------------------------------------------------------------------------
# What may go where
# ---------------------------------------------------------------------------
def builds_on(card: int, below: int) -> bool:
    """``card`` may lie on ``below`` in the tableau: one rank lower, other colour."""
    return rank(below) == rank(card) + 1 and is_red(below) != is_red(card)


def proper_tail_length(pile) -> int:
    """Length of the longest proper tail at the top of ``pile`` (0 if empty)."""
    if not pile:
        return 0
    n = 1
    while n < len(pile) and builds_on(pile[-n], pile[-n - 1]):
        n += 1
    return n


def fits_foundation(card: int, foundation) -> bool:
    """An empty foundation takes an Ace; otherwise the same suit, one rank higher."""
    if not foundation:
        return rank(card) == 1
    top = foundation[-1]
    return suit(card) == suit(top) and rank(card) == rank(top) + 1


def fits_tableau(card: int, pile) -> bool:
    """An empty pile takes any card; otherwise a top card of the other colour one rank higher."""
    return not pile or builds_on(card, pile[-1])


def redeal_allowed(pos: Position) -> bool:
    return not pos.stock and bool(pos.waste) and (pos.passes is None or pos.passes_used + 1 < pos.passes)


def is_won(pos: Position) -> bool:
    return sum(len(f) for f in pos.foundations) == N_CARDS


# ---------------------------------------------------------------------------
# Legal moves
# ---------------------------------------------------------------------------
def _single_sources(pos: Position):
    """(zone, card) for every single available card: tableau tops, ladder top, waste top."""
    out = [(f"t{i + 1}", pile[-1]) for i, pile in enumerate(pos.tableau) if pile]
    if pos.ladder:
        out.append(("ladder", pos.ladder[-1]))
    if pos.waste:
        out.append(("waste", pos.waste[-1]))
    return out


def legal_moves(pos: Position) -> list[Move]:
    """Every legal move (trimmed of interchangeable duplicates, see the module text), in a fixed order."""
    moves: list[Move] = []
    # 1. single cards to the foundations: only the first foundation a card fits
    for zone, card in _single_sources(pos):
        for f, foundation in enumerate(pos.foundations):
            if fits_foundation(card, foundation):
                moves.append(Move("move", card=card, from_=zone, to=f"f{f + 1}", count=1))
                break
    # 2. proper tails between tableau piles
    for i, pile in enumerate(pos.tableau):
        longest = proper_tail_length(pile)
        for n in range(1, longest + 1):
            card = pile[-n]
            for j, target in enumerate(pos.tableau):
                if j == i or not fits_tableau(card, target):
                    continue
                if not target and n == len(pile):
                    continue  # whole pile onto an empty pile: only renumbers the piles
                moves.append(Move("move", card=card, from_=f"t{i + 1}", to=f"t{j + 1}", count=n))
    # 3. ladder top and waste top to the tableau
    for zone, card in _single_sources(pos):
        if zone.startswith("t"):
            continue
        for j, target in enumerate(pos.tableau):
            if fits_tableau(card, target):
                moves.append(Move("move", card=card, from_=zone, to=f"t{j + 1}", count=1))
    # 4. the stock
    if pos.stock:
        moves.append(Move("draw"))
    if redeal_allowed(pos):
        moves.append(Move("redeal"))
    return moves


# ---------------------------------------------------------------------------
# Playing a move
# ---------------------------------------------------------------------------
def _index(zone: str, letter: str, limit: int) -> int | None:
    """0-based index of ``t3``/``f5`` style zones, or None if ``zone`` is not one of them."""
    if isinstance(zone, str) and len(zone) >= 2 and zone[0] == letter and zone[1:].isdigit():
        k = int(zone[1:])
        if 1 <= k <= limit:
            return k - 1
    return None


def _take(pos: Position, move: Move) -> tuple[tuple, str]:
    """The cards ``move`` lifts from its source (bottom to top), checking the source; and the source kind."""
    src, n, card = move.from_, move.count, move.card
    if src in ("stock",):
        raise IllegalMove("stock cards are face-down and cannot be moved; draw them onto the waste")
    if _index(src, "f", N_FOUNDATIONS) is not None:
        raise IllegalMove("cards on a foundation never leave it")
    if src in ("ladder", "waste"):
        pile = pos.ladder if src == "ladder" else pos.waste
        if not pile:
            raise IllegalMove(f"the {src} is empty")
        if n != 1:
            raise IllegalMove(f"only one card at a time can be taken from the {src} (count {n})")
        if card != pile[-1]:
            raise IllegalMove(f"{card_name(card)} is not the {src}'s top card ({card_name(pile[-1])}); "
                              f"only the top card of the {src} is available")
        return (card,), src
    i = _index(src, "t", N_PILES)
    if i is None:
        raise IllegalMove(f"no such source zone {src!r} in Ladder")
    pile = pos.tableau[i]
    if not pile:
        raise IllegalMove(f"pile {src} is empty")
    if n > len(pile):
        raise IllegalMove(f"pile {src} has only {len(pile)} cards, cannot move {n}")
    lifted = pile[-n:]
    if card != lifted[0]:
        where = f"the top card of {src}" if n == 1 else f"the lowest of the top {n} cards of {src}"
        raise IllegalMove(f"{card_name(card)} is not {where} (that is {card_name(lifted[0])}); "
                          f"a card moves together with all the cards above it")
    for k in range(1, n):
        if not builds_on(lifted[k], lifted[k - 1]):
            raise IllegalMove(f"the {n} cards from {card_name(card)} up in {src} are not a proper tail: "
                              f"{card_name(lifted[k])} on {card_name(lifted[k - 1])} is not one rank lower "
                              f"in the other colour")
    return lifted, "tableau"


def play(pos: Position, move: Move) -> Position:
    """A new position after ``move``; ``pos`` is not changed. Raises :class:`IllegalMove`."""
    if not isinstance(move, Move):
        raise IllegalMove(f"not a move: {move!r}")
    if move.type == "draw":
        return _draw(pos, move)
    if move.type == "redeal":
        return _redeal(pos)
    if move.type != "move":
        raise IllegalMove(f"Ladder has no {move.type!r} move")
    if not isinstance(move.card, int) or not 0 <= move.card < 52:
        raise IllegalMove(f"a move needs a card, got {move.card!r}")
    if not isinstance(move.count, int) or move.count < 1:
        raise IllegalMove(f"bad count {move.count!r}")
    if move.to in ("ladder", "stock", "waste"):
        raise IllegalMove(f"nothing can be moved onto the {move.to}")
    if move.to == move.from_:
        raise IllegalMove(f"source and target are the same zone {move.to}")

    lifted, source = _take(pos, move)
    card = move.card
    tableau = [list(p) for p in pos.tableau]
    foundations = [list(f) for f in pos.foundations]
    ladder, waste = pos.ladder, pos.waste

    f = _index(move.to, "f", N_FOUNDATIONS)
    j = _index(move.to, "t", N_PILES)
    if f is not None:
        if move.count != 1:
            raise IllegalMove(f"only single cards go to a foundation (count {move.count})")
        foundation = foundations[f]
        if not fits_foundation(card, foundation):
            if not foundation:
                raise IllegalMove(f"{card_name(card)} cannot start foundation {move.to}: "
                                  f"an empty foundation takes only an Ace")
            raise IllegalMove(f"{card_name(card)} cannot go on {card_name(foundation[-1])} in {move.to}: "
                              f"a foundation builds up by suit, one rank at a time")
        foundation.append(card)
    elif j is not None:
        target = tableau[j]
        if not fits_tableau(card, target):
            raise IllegalMove(f"{card_name(card)} cannot go on {card_name(target[-1])} in {move.to}: "
                              f"it must be one rank lower and of the other colour")
        target.extend(lifted)
    else:
        raise IllegalMove(f"no such target zone {move.to!r} in Ladder")

    if source == "tableau":
        i = _index(move.from_, "t", N_PILES)
        del tableau[i][-move.count:]
    elif source == "ladder":
        ladder = ladder[:-1]
    else:
        waste = waste[:-1]
    return Position(tableau=tuple(tuple(p) for p in tableau), ladder=ladder, stock=pos.stock, waste=waste,
                    foundations=tuple(tuple(x) for x in foundations), passes=pos.passes,
                    passes_used=pos.passes_used, seed=pos.seed)


def _draw(pos: Position, move: Move) -> Position:
    if not pos.stock:
        raise IllegalMove("the stock is empty; nothing to draw")
    card = pos.stock[0]
    if move.cards and tuple(move.cards) != (card,):
        raise IllegalMove(f"draw says {' '.join(card_name(c) for c in move.cards)} "
                          f"but the stock turns up {card_name(card)}")
    return Position(tableau=pos.tableau, ladder=pos.ladder, stock=pos.stock[1:], waste=pos.waste + (card,),
                    foundations=pos.foundations, passes=pos.passes, passes_used=pos.passes_used, seed=pos.seed)


def _redeal(pos: Position) -> Position:
    if pos.stock:
        raise IllegalMove(f"the stock still has {len(pos.stock)} cards; redeal only when it is empty")
    if not pos.waste:
        raise IllegalMove("the waste is empty; nothing to turn over")
    if not redeal_allowed(pos):
        raise IllegalMove(f"no passes left: {pos.passes} pass(es) allowed, {pos.passes_used} redeal(s) made")
    # The waste turned over unshuffled: the card drawn first (waste[0]) comes out first again.
    return Position(tableau=pos.tableau, ladder=pos.ladder, stock=pos.waste, waste=(),
                    foundations=pos.foundations, passes=pos.passes, passes_used=pos.passes_used + 1,
                    seed=pos.seed)


# ---------------------------------------------------------------------------
# A picture for people
# ---------------------------------------------------------------------------
def render(pos: Position) -> str:
    """Foundation tops, ladder top and size, the piles, stock count, waste top."""
    name = pretty
    passes = "unlimited" if pos.passes is None else str(pos.passes)
    lines = ["Pass {} of {}".format(pos.passes_used + 1, passes)]
    lines.append("Foundations: " + "  ".join(
        f"f{k + 1}:{name(f[-1]) if f else '--'}" for k, f in enumerate(pos.foundations)))
    top = name(pos.ladder[-1]) if pos.ladder else "--"
    lines.append(f"Ladder: {top}, {len(pos.ladder)} card{'s' if len(pos.ladder) != 1 else ''}")
    for i, pile in enumerate(pos.tableau):
        lines.append(f"t{i + 1}: " + (" ".join(name(c) for c in pile) if pile else "(empty)"))
    waste = f"{name(pos.waste[-1])} ({len(pos.waste)} cards)" if pos.waste else "--"
    lines.append(f"Stock: {len(pos.stock)} cards   Waste: {waste}")
    if is_won(pos):
        lines.append("Won: all 104 cards on the foundations.")
    return "\n".join(lines)
