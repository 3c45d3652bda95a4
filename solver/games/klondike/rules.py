"""Klondike, reference rules (RULES.md, "Klondike"). Plain Python, for clarity.

Zones: ``t1``..``t7`` tableau piles, ``f1``..``f4`` foundations in suit order
C D H S, ``waste``, ``stock``. A pile's face-down cards are its first
``face_down[i]`` cards; all cards above them are face up and form a run.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...cards import card_name, is_red, pretty, rank, suit
from ...deals import Deal
from ...moves import Move
from ...replay import IllegalMove
from .layout import KlondikeDeal


@dataclass
class Position:
    options: dict
    tableau: list          # 7 lists, bottom to top
    face_down: list        # 7 counts
    stock: list            # stock[0] is the next card drawn
    waste: list            # waste[-1] is the playable card
    foundations: list      # 4 lists, suit order C D H S
    passes_used: int = 0   # redeals made so far
    seed: int | None = field(default=None, compare=False)

    def copy(self) -> "Position":
        return Position(dict(self.options), [list(p) for p in self.tableau], list(self.face_down),
                        list(self.stock), list(self.waste), [list(f) for f in self.foundations],
                        self.passes_used, self.seed)


def initial(deal: Deal) -> Position:
    return Position(dict(deal.options), [list(p) for p in deal.tableau], list(deal.face_down),
                    list(deal.stock), list(deal.waste),
                    [list(f) for f in deal.foundations] or [[] for _ in range(4)], deal.passes_used, deal.seed)


def to_deal(pos: Position) -> Deal:
    return KlondikeDeal(game="klondike", options=dict(pos.options), seed=pos.seed,
                tableau=[list(p) for p in pos.tableau], face_down=list(pos.face_down),
                stock=list(pos.stock), waste=list(pos.waste),
                foundations=[list(f) for f in pos.foundations], passes_used=pos.passes_used)


def key(pos: Position, *, passes: bool = True):
    """The table as a value (see :class:`solver.game.Rules`); the seed is left out, and the
    redeals made unless they count (a limited number of passes and ``passes``)."""
    redeals = pos.passes_used if passes and pos.options["passes"] is not None else 0
    return (tuple(sorted(pos.options.items())), tuple(tuple(p) for p in pos.tableau), tuple(pos.face_down),
            tuple(pos.stock), tuple(pos.waste), tuple(tuple(f) for f in pos.foundations), redeals)


# ---------------------------------------------------------------------------
# What may go where
# ---------------------------------------------------------------------------
def fits_on_tableau(card: int, pile: list) -> bool:
    """Down by one rank in the other colour; an empty pile takes only a King."""
    if not pile:
        return rank(card) == 13
    top = pile[-1]
    return rank(top) == rank(card) + 1 and is_red(top) != is_red(card)


def fits_on_foundation(card: int, foundations: list) -> bool:
    return len(foundations[suit(card)]) == rank(card) - 1


def redeal_allowed(pos: Position) -> bool:
    passes = pos.options["passes"]
    return not pos.stock and bool(pos.waste) and (passes is None or pos.passes_used + 1 < passes)


def legal_moves(pos: Position) -> list[Move]:
    moves: list[Move] = []
    # to the foundations: waste top, then tableau tops
    if pos.waste and fits_on_foundation(pos.waste[-1], pos.foundations):
        c = pos.waste[-1]
        moves.append(Move("move", card=c, from_="waste", to=f"f{suit(c) + 1}"))
    for i, pile in enumerate(pos.tableau):
        if pile and fits_on_foundation(pile[-1], pos.foundations):
            c = pile[-1]
            moves.append(Move("move", card=c, from_=f"t{i + 1}", to=f"f{suit(c) + 1}"))
    # waste top to the tableau
    if pos.waste:
        c = pos.waste[-1]
        for j, target in enumerate(pos.tableau):
            if fits_on_tableau(c, target):
                moves.append(Move("move", card=c, from_="waste", to=f"t{j + 1}"))
    # tableau runs to the tableau: any face-up card with everything above it
    for i, pile in enumerate(pos.tableau):
        for k in range(pos.face_down[i], len(pile)):
            c = pile[k]
            for j, target in enumerate(pos.tableau):
                if j != i and fits_on_tableau(c, target):
                    moves.append(Move("move", card=c, from_=f"t{i + 1}", to=f"t{j + 1}", count=len(pile) - k))
    # foundation tops back to the tableau (optional rule)
    if pos.options["foundation_to_tableau"]:
        for s, found in enumerate(pos.foundations):
            if found:
                c = found[-1]
                for j, target in enumerate(pos.tableau):
                    if fits_on_tableau(c, target):
                        moves.append(Move("move", card=c, from_=f"f{s + 1}", to=f"t{j + 1}"))
    if pos.stock:
        moves.append(Move("draw"))
    elif redeal_allowed(pos):
        moves.append(Move("redeal"))
    return moves


# ---------------------------------------------------------------------------
# Playing a move
# ---------------------------------------------------------------------------
def _pile_index(zone: str, letter: str, count: int) -> int:
    if not zone or zone[0] != letter or not zone[1:].isdigit() or not 1 <= int(zone[1:]) <= count:
        raise IllegalMove(f"no zone {zone!r} in Klondike")
    return int(zone[1:]) - 1


def play(pos: Position, move: Move) -> Position:
    new = pos.copy()
    if move.type == "draw":
        if not new.stock:
            raise IllegalMove("the stock is empty")
        n = min(new.options["draw"], len(new.stock))
        drawn = new.stock[:n]
        if move.cards and tuple(move.cards) != tuple(drawn):
            raise IllegalMove(f"the draw turns {' '.join(map(card_name, drawn))}, "
                              f"not {' '.join(map(card_name, move.cards))}")
        del new.stock[:n]
        new.waste.extend(drawn)
        return new
    if move.type == "redeal":
        if new.stock:
            raise IllegalMove("redeal while the stock still has cards")
        if not new.waste:
            raise IllegalMove("nothing to redeal: the waste is empty")
        if not redeal_allowed(new):
            raise IllegalMove(f"no pass left (passes={new.options['passes']})")
        new.stock, new.waste = list(new.waste), []
        new.passes_used += 1
        return new
    if move.type != "move":
        raise IllegalMove(f"Klondike has no {move.type!r} move")

    # take the cards from the source
    src, dst, card = move.from_, move.to, move.card
    if src == "waste":
        if not new.waste or new.waste[-1] != card:
            raise IllegalMove(f"{card_name(card)} is not the waste's top card")
        moving = [new.waste.pop()]
    elif src.startswith("f"):
        s = _pile_index(src, "f", 4)
        if not new.options["foundation_to_tableau"]:
            raise IllegalMove("cards may not leave the foundations (foundation_to_tableau is off)")
        if not new.foundations[s] or new.foundations[s][-1] != card:
            raise IllegalMove(f"{card_name(card)} is not the top of {src}")
        if not dst.startswith("t"):
            raise IllegalMove("a foundation card may only go back to the tableau")
        moving = [new.foundations[s].pop()]
    elif src.startswith("t"):
        i = _pile_index(src, "t", 7)
        pile = new.tableau[i]
        if card not in pile:
            raise IllegalMove(f"{card_name(card)} is not in {src}")
        k = pile.index(card)
        if k < new.face_down[i]:
            raise IllegalMove(f"{card_name(card)} is face down")
        if len(pile) - k != move.count:
            raise IllegalMove(f"{card_name(card)} carries {len(pile) - k} card(s), not {move.count}")
        moving = pile[k:]
        del pile[k:]
    else:
        raise IllegalMove(f"cannot move from {src}")
    if not src.startswith("t") and move.count != 1:
        raise IllegalMove("only one card moves from the waste or a foundation")

    # put them on the target
    if dst.startswith("f"):
        s = _pile_index(dst, "f", 4)
        if len(moving) != 1:
            raise IllegalMove("only one card at a time goes to a foundation")
        if suit(card) != s or not fits_on_foundation(card, new.foundations):
            raise IllegalMove(f"{card_name(card)} does not fit on {dst}")
        new.foundations[s].append(card)
    elif dst.startswith("t"):
        j = _pile_index(dst, "t", 7)
        if src == dst:
            raise IllegalMove("a pile cannot move onto itself")
        if not fits_on_tableau(card, new.tableau[j]):
            if not new.tableau[j]:
                raise IllegalMove(f"only a King may go onto the empty pile {dst}")
            raise IllegalMove(f"{card_name(card)} does not fit on {card_name(new.tableau[j][-1])} in {dst}")
        new.tableau[j].extend(moving)
    else:
        raise IllegalMove(f"cannot move to {dst}")

    # a face-down card left on top is turned up at once
    if src.startswith("t"):
        i = int(src[1:]) - 1
        if new.tableau[i] and new.face_down[i] >= len(new.tableau[i]):
            new.face_down[i] = len(new.tableau[i]) - 1
    return new


def is_won(pos: Position) -> bool:
    return sum(len(f) for f in pos.foundations) == 52


def render(pos: Position) -> str:
    found = "  ".join(pretty(f[-1]) if f else "--" for f in pos.foundations)
    waste = " ".join(pretty(c) for c in pos.waste[-3:]) if pos.waste else "--"
    passes = pos.options["passes"]
    lines = [f"Foundations: {found}",
             f"Stock: {len(pos.stock)} cards   Waste: {waste}   "
             f"Pass {pos.passes_used + 1} of {'unlimited' if passes is None else passes}"]
    height = max((len(p) for p in pos.tableau), default=0)
    lines.append("  ".join(f"{'t' + str(i + 1):>4}" for i in range(7)))
    for row in range(height):
        cells = []
        for i, pile in enumerate(pos.tableau):
            if row >= len(pile):
                cells.append("    ")
            elif row < pos.face_down[i]:
                cells.append("  ##")
            else:
                cells.append(f"{pretty(pile[row]):>4}")
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)
