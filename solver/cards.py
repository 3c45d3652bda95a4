"""Cards: parsing, writing, and the compact integer encoding.

The integer encoding, used everywhere (reference rules and kernels alike)::

    card = suit * 13 + (rank - 1)        0 <= card < 52

with suits in the order clubs, diamonds, hearts, spades (``C D H S`` = 0..3) and
ranks Ace = 1 .. King = 13. So ``0`` is the ace of clubs, ``12`` the king of
clubs, ``51`` the king of spades. Red suits are 1 and 2, so
``colour = (suit == 1 or suit == 2)``. Two-deck games use the same 52 numbers:
the two copies of a card are interchangeable and share one value. Kernels may
pack cards into ``uint8`` arrays.

Cards are written ``RS`` (rank ``A 2 .. 9 T J Q K``, suit ``C D H S``) and read
leniently: lower case, ``10`` for ``T``, and the symbols ``♣ ♦ ♥ ♠``.

>>> parse_card("10h") == parse_card("TH") == parse_card("t♥")
True
>>> card_name(parse_card("qs"))
'QS'
>>> rank(parse_card("KD")), suit(parse_card("KD")), is_red(parse_card("KD"))
(13, 1, True)
"""

from __future__ import annotations

RANKS = "A23456789TJQK"
SUITS = "CDHS"
SUIT_SYMBOLS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


class CardError(ValueError):
    """A token that is not a card."""


def make_card(rank_value: int, suit_index: int) -> int:
    return suit_index * 13 + (rank_value - 1)


def rank(card: int) -> int:
    """1 (Ace) .. 13 (King)."""
    return card % 13 + 1


def suit(card: int) -> int:
    """0..3 for clubs, diamonds, hearts, spades."""
    return card // 13


def is_red(card: int) -> bool:
    return suit(card) in (1, 2)


def card_name(card: int) -> str:
    if not isinstance(card, int) or not 0 <= card < 52:
        raise CardError(f"not a card number: {card!r}")
    return RANKS[card % 13] + SUITS[card // 13]


def parse_card(token: str) -> int:
    """Read one card leniently; raise :class:`CardError` naming the token."""
    if not isinstance(token, str):
        raise CardError(f"unknown card {token!r}: expected a string such as 'TD'")
    text = token.strip()
    if len(text) < 2:
        raise CardError(f"unknown card {token!r}")
    suit_text = SUIT_SYMBOLS.get(text[-1], text[-1].upper())
    rank_text = text[:-1].upper()
    if rank_text == "10":
        rank_text = "T"
    if len(rank_text) != 1 or rank_text not in RANKS or suit_text not in SUITS:
        raise CardError(f"unknown card {token!r}")
    return make_card(RANKS.index(rank_text) + 1, SUITS.index(suit_text))


def pretty(card: int) -> str:
    """Human-facing form with a suit symbol, e.g. ``7♠``, ``10♥``."""
    r = RANKS[card % 13]
    return ("10" if r == "T" else r) + "♣♦♥♠"[card // 13]
