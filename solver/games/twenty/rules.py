"""Twenty ("Двадцать"), reference rules (RULES.md, "Twenty"). Plain Python, for clarity.

Two decks, 104 cards. One Ace and one King of each suit start on the eight
foundations; the other 96 cards are dealt one onto each of the 20 tableau piles
and the remaining 76 form the stock.

Zones: ``t1``..``t20`` tableau piles (left to right), ``f1``..``f4`` the
*ascending* foundations (built up by suit from the Ace, suit order C D H S),
``f5``..``f8`` the *descending* foundations (built down by suit from the King,
suit order C D H S), and the ``stock`` (``stock[0]`` comes out first).

The moves, as :class:`solver.moves.Move` values:

* ``Move("move", card=c, from_="t<i>", to="f<k>", count=1)``: the top card of
  pile i onto foundation k (same suit; one rank above an ascending top or one
  rank below a descending top). A card that fits both foundations of its suit
  gives two distinct moves.
* ``Move("deal")``: only when no foundation move exists and the stock is not
  empty; one stock card onto each pile, left to right from pile 1 (20 cards, or
  fewer when the stock runs out: the last of the 76 covers piles 1-16).
* ``Move("move", card=c, from_="t<i>", to="t<j>", count=1)``: only after the
  stock is exhausted, the top card of pile i onto the *empty* pile j. There is
  no building on the tableau: a non-empty pile never takes a card.

The refill is not a move: whenever a pile becomes empty while the stock still
has cards, the next stock card goes onto it at once, inside :func:`play`.
Consequently, while the stock has cards no pile is ever empty, and an empty
pile exists only after the stock is exhausted.

Rule points settled here (RULES.md leaves them implicit):

* Moving the only card of a pile onto another empty pile is legal (the rules
  allow "a pile's top card onto an empty pile" without exception) and
  :func:`legal_moves` lists it, although it changes nothing that matters: once
  the stock is exhausted a pile's place in the row plays no part in the rules.
  A solver may prune such moves; the oracle does not.
* Moves are optional, except that a deal is forbidden while a foundation move
  exists. With the stock exhausted and no foundation move, the only moves are
  those onto empty piles (if any); with none the game is lost.
* :func:`initial` checks the table's shape (8 well-formed foundations, 20 piles,
  no empty pile while the stock has cards, no card more than twice) but not
  that all 104 cards are present, so that tests and tools can pose small
  positions; :func:`solver.deals.validate` checks complete deals. Since no card
  appears more than twice, "all 104 cards on the foundations" is the same as
  "every foundation holds 13 cards", which is what :func:`is_won` tests.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ...cards import card_name, make_card, pretty, rank, suit
from ...deals import Deal, DealError
from ...moves import Move
from ...replay import IllegalMove

N_PILES = 20
N_FOUNDATIONS = 8
FOUNDATION_SIZE = 13
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")


# ---------------------------------------------------------------------------
# The position
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Position:
    """A Twenty table. Immutable (tuples throughout), hashable, comparable.

    ``foundations``: 8 tuples, bottom to top (f1..f4 ascending, f5..f8
    descending, suit order C D H S); ``tableau``: 20 tuples, bottom to top;
    ``stock``: ``stock[0]`` is the next card to come out. ``seed`` is carried
    along for :func:`to_deal` only and takes no part in comparisons.
    """

    foundations: tuple
    tableau: tuple
    stock: tuple
    seed: int | None = field(default=None, compare=False)


def foundation_is_ascending(k: int) -> bool:
    """Foundation number ``k`` (1..8): f1..f4 ascending, f5..f8 descending."""
    return k <= 4


def foundation_suit(k: int) -> int:
    """Suit index (0..3 = C D H S) of foundation number ``k`` (1..8)."""
    return (k - 1) % 4


def foundation_name(k: int) -> str:
    direction = "ascending" if foundation_is_ascending(k) else "descending"
    return f"f{k} (the {direction} {SUIT_NAMES[foundation_suit(k)]} foundation)"


def _base_card(k: int) -> int:
    """The card a foundation starts with: the Ace (ascending) or the King (descending)."""
    return make_card(1 if foundation_is_ascending(k) else 13, foundation_suit(k))


def _check_table(foundations, tableau, stock) -> None:
    """Raise :class:`DealError` unless the zones form a possible Twenty table."""
    if len(foundations) != N_FOUNDATIONS:
        raise DealError(f"twenty: expected {N_FOUNDATIONS} foundations, got {len(foundations)}")
    if len(tableau) != N_PILES:
        raise DealError(f"twenty: expected {N_PILES} tableau piles, got {len(tableau)}")
    everything = list(stock) + [c for p in tableau for c in p] + [c for f in foundations for c in f]
    for c in everything:
        if not isinstance(c, int) or isinstance(c, bool) or not 0 <= c < 52:
            raise DealError(f"twenty: not a card number: {c!r}")
    for k, pile in enumerate(foundations, 1):
        # A Twenty foundation is never empty: its Ace or King is there before the deal.
        if not pile:
            raise DealError(f"twenty: foundation f{k} is empty (it starts with {card_name(_base_card(k))})")
        step = 1 if foundation_is_ascending(k) else -1
        for i, c in enumerate(pile):
            want = _base_card(k) + i * step  # same suit, rank moving by one
            if c != want:
                raise DealError(f"twenty: foundation f{k} card {i + 1} is {card_name(c)}, "
                                f"expected {card_name(want)}")
    for c, n in sorted(Counter(everything).items()):
        if n > 2:
            raise DealError(f"twenty: card {card_name(c)} appears {n} times (two decks have 2)")
    if stock:
        for i, pile in enumerate(tableau, 1):
            if not pile:
                raise DealError(f"twenty: pile t{i} is empty while the stock has cards "
                                "(it would have been refilled at once)")


def initial(deal: Deal) -> Position:
    """The position ``deal`` describes (a fresh deal or a mid-game table)."""
    if deal.game != "twenty":
        raise DealError(f"not a Twenty deal (game {deal.game!r})")
    if deal.options:
        raise DealError(f"twenty has no options, got {sorted(deal.options)}")
    foundations = tuple(tuple(f) for f in deal.foundations)
    tableau = tuple(tuple(p) for p in deal.tableau)
    stock = tuple(deal.stock)
    _check_table(foundations, tableau, stock)
    return Position(foundations, tableau, stock, deal.seed)


def to_deal(pos: Position) -> Deal:
    """The position written as a (mid-game) deal; ``initial(to_deal(p)) == p``."""
    return Deal(game="twenty", options={}, seed=pos.seed,
                foundations=[list(f) for f in pos.foundations],
                tableau=[list(p) for p in pos.tableau],
                stock=list(pos.stock))


def key(pos: Position, *, passes: bool = True) -> Position:
    """The table as a value (see :class:`solver.game.Rules`): the position itself (the seed
    takes no part in comparisons; Twenty has no redeals)."""
    return pos


# ---------------------------------------------------------------------------
# What may go where
# ---------------------------------------------------------------------------
def foundation_takes(pos: Position, k: int, card: int) -> bool:
    """Whether foundation ``k`` (1..8) accepts ``card`` now."""
    return _foundation_refusal(pos, k, card) is None


def _foundation_refusal(pos: Position, k: int, card: int) -> str | None:
    """Why foundation ``k`` refuses ``card``, or None when it takes it."""
    pile = pos.foundations[k - 1]
    if suit(card) != foundation_suit(k):
        return (f"{card_name(card)} is not a {SUIT_NAMES[foundation_suit(k)][:-1]}: "
                f"it cannot go on {foundation_name(k)}")
    if len(pile) >= FOUNDATION_SIZE:
        # Explicit, though rank arithmetic alone would refuse too: nothing follows
        # the King going up or the Ace going down (no wrapping round).
        return f"{foundation_name(k)} is full (13 cards)"
    top = pile[-1]
    wanted = rank(top) + 1 if foundation_is_ascending(k) else rank(top) - 1
    if rank(card) != wanted:
        return (f"{card_name(card)} does not go on {foundation_name(k)}: its top card is {card_name(top)}, "
                f"so it takes only {card_name(make_card(wanted, foundation_suit(k)))}")
    return None


def foundation_moves(pos: Position) -> list[Move]:
    """Every foundation move, pile 1..20, and for each pile foundation 1..8."""
    moves = []
    for i, pile in enumerate(pos.tableau, 1):
        if not pile:
            continue
        card = pile[-1]
        for k in range(1, N_FOUNDATIONS + 1):
            if foundation_takes(pos, k, card):
                moves.append(Move("move", card=card, from_=f"t{i}", to=f"f{k}", count=1))
    return moves


def legal_moves(pos: Position) -> list[Move]:
    """Every legal move, in a fixed order.

    First the foundation moves (pile 1..20, then foundation 1..8); then either
    the deal (stock not empty and no foundation move) or, once the stock is
    exhausted, the moves onto empty piles (source pile 1..20, then target pile
    1..20). The deal and the moves onto empty piles never coexist.
    """
    moves = foundation_moves(pos)
    if pos.stock:
        if not moves:
            moves.append(Move("deal"))
        return moves
    empty = [j for j, pile in enumerate(pos.tableau, 1) if not pile]
    for i, pile in enumerate(pos.tableau, 1):
        if pile:
            for j in empty:
                moves.append(Move("move", card=pile[-1], from_=f"t{i}", to=f"t{j}", count=1))
    return moves


def is_won(pos: Position) -> bool:
    """All 104 cards on the foundations: each of the 8 holds 13 cards."""
    return all(len(f) == FOUNDATION_SIZE for f in pos.foundations)


# ---------------------------------------------------------------------------
# Playing a move
# ---------------------------------------------------------------------------
def _zone_number(zone, letter: str, most: int) -> int | None:
    """``"t7"`` -> 7 for letter ``t``; None if ``zone`` is not such a zone."""
    if isinstance(zone, str) and zone[:1] == letter and zone[1:].isdigit():
        n = int(zone[1:])
        if 1 <= n <= most and zone[1:] == str(n):
            return n
    return None


def play(pos: Position, move: Move) -> Position:
    """The position after ``move``; ``pos`` is unchanged. Raises :class:`IllegalMove`."""
    if not isinstance(move, Move):
        raise IllegalMove(f"not a move: {move!r}")
    if move.type == "deal":
        return _play_deal(pos)
    if move.type != "move":
        raise IllegalMove(f"Twenty has no {move.type!r} moves (only card moves and deals)")
    return _play_card(pos, move)


def _play_deal(pos: Position) -> Position:
    if not pos.stock:
        raise IllegalMove("cannot deal: the stock is exhausted (there is no redeal)")
    available = foundation_moves(pos)
    if available:
        raise IllegalMove(f"cannot deal while a foundation move exists (e.g. {available[0]})")
    n = min(N_PILES, len(pos.stock))
    tableau = tuple(pile + (pos.stock[i],) if i < n else pile for i, pile in enumerate(pos.tableau))
    return Position(pos.foundations, tableau, pos.stock[n:], pos.seed)


def _play_card(pos: Position, move: Move) -> Position:
    if move.count != 1:
        raise IllegalMove(f"only one card moves at a time, not {move.count}")
    if move.card is None:
        raise IllegalMove("the move names no card")
    src = _zone_number(move.from_, "t", N_PILES)
    if src is None:
        if _zone_number(move.from_, "f", N_FOUNDATIONS) is not None:
            raise IllegalMove("cards on a foundation never leave it")
        if move.from_ == "stock":
            raise IllegalMove("stock cards come out only by a deal or a refill")
        raise IllegalMove(f"no zone {move.from_!r} to take a card from in Twenty")
    pile = pos.tableau[src - 1]
    card = move.card
    if not pile:
        raise IllegalMove(f"t{src} is empty")
    if pile[-1] != card:
        if card in pile:
            raise IllegalMove(f"only a pile's top card may move: {card_name(card)} in t{src} "
                              f"is covered (top card {card_name(pile[-1])})")
        raise IllegalMove(f"t{src} holds no {card_name(card)} (its top card is {card_name(pile[-1])})")

    k = _zone_number(move.to, "f", N_FOUNDATIONS)
    if k is not None:
        why = _foundation_refusal(pos, k, card)
        if why:
            raise IllegalMove(why)
        foundations = tuple(f + (card,) if n == k else f for n, f in enumerate(pos.foundations, 1))
        tableau = list(pos.tableau)
        tableau[src - 1] = pile[:-1]
        stock = pos.stock
        if not tableau[src - 1] and stock:
            # The refill: part of this move, with the next stock card.
            tableau[src - 1] = (stock[0],)
            stock = stock[1:]
        return Position(foundations, tuple(tableau), stock, pos.seed)

    dst = _zone_number(move.to, "t", N_PILES)
    if dst is None:
        raise IllegalMove(f"no zone {move.to!r} to put a card on in Twenty")
    if pos.stock:
        # Checked before the target's emptiness: the rule text forbids using empty
        # piles before the stock is exhausted (while refills keep every pile
        # covered, this can only matter for a hand-made position).
        raise IllegalMove(f"a card may move between piles only after the stock is exhausted "
                          f"({len(pos.stock)} cards left)")
    if pos.tableau[dst - 1]:
        raise IllegalMove(f"t{dst} is not empty: a card may go only onto an empty pile "
                          "(there is no building on the tableau)")
    tableau = list(pos.tableau)
    tableau[src - 1] = pile[:-1]
    tableau[dst - 1] = (card,)
    return Position(pos.foundations, tuple(tableau), pos.stock, pos.seed)


# ---------------------------------------------------------------------------
# A picture for people
# ---------------------------------------------------------------------------
def render(pos: Position) -> str:
    """Foundation tops, the 20 piles (bottom to top, top card last), stock count."""
    def top(k: int) -> str:
        f = pos.foundations[k - 1]
        return f"{pretty(f[-1]):>3}" + ("*" if len(f) == FOUNDATION_SIZE else " ")

    lines = [
        "up   (A->K)  " + "  ".join(f"f{k}:{top(k)}" for k in range(1, 5)),
        "down (K->A)  " + "  ".join(f"f{k}:{top(k)}" for k in range(5, 9)),
        "(* = full)",
    ]
    for i, pile in enumerate(pos.tableau, 1):
        lines.append(f"t{i:<3} " + (" ".join(pretty(c) for c in pile) if pile else "(empty)"))
    stock = f"stock: {len(pos.stock)} cards"
    if pos.stock:
        stock += f", next {pretty(pos.stock[0])}"
    if is_won(pos):
        stock += "   -- won"
    lines.append(stock)
    return "\n".join(lines)
