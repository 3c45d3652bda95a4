"""PySolFC's game numbers: the shuffled deck PySolFC deals for a number, which Klondike,
Pyramid and Golf each lay out as PySolFC does (their ``pysol`` seed type).

The shuffle is the PyPI package ``pysol-cards`` (by the fc-solve author), the generators
PySolFC itself imports: ``pysollib/pysolrandom.py`` takes ``MTRandom`` and ``LCRandom31``
from it. It is an optional dependency (``pip install 'solitaire-solver[pysol]'``).

Which generator a number gets, as PySolFC's ``construct_random`` chooses it: from 1 to
31999, ``LCRandom31`` (the Microsoft FreeCell generator) on the deck rearranged into
Microsoft's order (``ms_rearrange``), so FreeCell numbers are Microsoft's deals; from
32000 on, ``MTRandom`` (a Mersenne twister). ``pysol-cards``' own ``shuffle()`` switches
at 32000 inclusive, PySolFC below it, so the generator is chosen here. 0 is not a
PySolFC number; its random deals run up to 20 digits.

PySolFC puts the shuffled list on the talon in order, so its last card is on top and is
dealt first: :func:`dealing_order` gives the cards in the order they are dealt.
"""

from __future__ import annotations

from ..cards import SUITS, make_card
from ..deals import DealError
from ..options import OptionError

FIRST_TWISTER = 32000          # numbers from here on use the Mersenne twister
HIGHEST = 10 ** 20 - 1


def dealing_order(number: int) -> list[int]:
    """The 52 cards of PySolFC deal ``number`` (our card numbers), first dealt first."""
    try:
        from pysol_cards.cards import createCards, ms_rearrange
        from pysol_cards.random import LCRandom31, MTRandom
    except ImportError:
        raise OptionError("seed type 'pysol' needs the pysol-cards package: "
                          "pip install 'solitaire-solver[pysol]'") from None
    if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= HIGHEST:
        raise DealError(f"a PySolFC game number runs from 1 to {HIGHEST}, got {number!r}")
    cards = createCards(1)
    if number < FIRST_TWISTER:
        rng, cards = LCRandom31(number), ms_rearrange(cards)
    else:
        rng = MTRandom(number)
    rng.shuffle(cards)
    return [make_card(c.rank, SUITS.index(c.suit_s())) for c in reversed(cards)]
