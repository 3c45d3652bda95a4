"""The ``Talon:`` text layout of PySol's board generator, as ShootMe's Klondike-Solver reads it.

``make_pysol_freecell_board.py -t N klondike`` (fc-solve) prints Klondike deals
this way, and Klondike-Solver reads and writes it (``Solitaire::LoadPysol`` /
``GetPysol``; an example is in its ``TestDeals.txt``)::

    Talon: TC TS AD ... AS          the 24 stock cards, the first drawn first
    5C                              pile 1, bottom to top
    <7H> 9H                         pile 2: <..> marks a face-down card
    <2D> <9S> AC
    ...

A tableau line may start with ``:`` (the layout of Klondike-Solver's mid-game
diagrams); a line with only ``:`` is an empty pile. Ranks ``A 2..9 T J Q K``
(``10`` is read too), suits ``C D H S``.
"""

from __future__ import annotations

from ....cards import CardError, card_name, parse_card
from ....deals import Deal, DealError, validate
from ....options import resolve
from ..layout import KlondikeDeal


def looks_like(text: str) -> bool:
    return text.lstrip().lower().startswith("talon:")


def deal_from_text(text: str, options: dict | None = None) -> Deal:
    lines = [line.strip() for line in text.strip().splitlines()]
    if not lines or not lines[0].lower().startswith("talon:"):
        raise DealError("a PySol Klondike layout starts with a 'Talon:' line")
    piles = [line for line in lines[1:] if line]
    if len(piles) != 7:
        raise DealError(f"a PySol Klondike layout has 7 tableau lines after 'Talon:', got {len(piles)}")
    deal = KlondikeDeal(game="klondike", options=resolve("klondike", options))

    def card(token: str, where: str) -> int:
        try:
            return parse_card(token)
        except CardError as err:
            raise DealError(f"{where}: {err}") from None

    deal.stock = [card(t, f"Talon card {i}") for i, t in enumerate(lines[0][6:].split(), 1)]
    for p, line in enumerate(piles, 1):
        tokens = line[1:].split() if line.startswith(":") else line.split()
        cards, down = [], 0
        for i, token in enumerate(tokens, 1):
            where = f"line {p + 1} (pile {p}) card {i}"
            if token.startswith("<") and token.endswith(">"):
                if down != len(cards):
                    raise DealError(f"{where}: face-down {token} lies on a face-up card")
                down += 1
                token = token[1:-1]
            cards.append(card(token, where))
        deal.tableau.append(cards)
        deal.face_down.append(down)
    deal.foundations = [[] for _ in range(4)]
    validate(deal)
    return deal


def deal_to_text(deal: Deal) -> str:
    if deal.game != "klondike":
        raise DealError(f"the PySol 'Talon:' layout is written for Klondike only, not {deal.game}")
    if deal.waste or any(deal.foundations) or deal.passes_used:
        raise DealError("the PySol 'Talon:' layout has no waste or foundations: only a deal whose cards "
                        "are all in the stock and tableau can be written")
    lines = ["Talon: " + " ".join(card_name(c) for c in deal.stock)]
    for pile, down in zip(deal.tableau, deal.face_down):
        tokens = [f"<{card_name(c)}>" if i < down else card_name(c) for i, c in enumerate(pile)]
        lines.append(" ".join(tokens) if tokens else ":")
    return "\n".join(lines) + "\n"
