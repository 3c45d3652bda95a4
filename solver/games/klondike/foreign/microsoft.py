"""Microsoft Solitaire Collection deal numbers, as lonelybot decodes them.

Microsoft has not published its Klondike shuffle. What is public is a
reverse-engineered decoding (credited to ShootMe) in lonelybot (github
vuonghy2442/lonelybot, ``src/shuffler.rs``, ``microsoft_shuffle``): the game
writes a number below 52! to its log file (lines starting
``SolitaireGameLogic::TryLoadGame`` or ``SolvableDeckAppComponent`` in
``solitaire.log``), and that number is the deal's permutation in a mixed-radix
form. It is *not* the deal number shown in the game's menus, and the only check
available is lonelybot's own test value (pinned in the tests here). Steps:

* the deck spades, hearts, clubs, diamonds, each A..K;
* for i = 51..1: j = N mod (i + 1), N = N div (i + 1), swap deck[i] and deck[j];
* the dealt order is that deck reversed, dealt in the usual order of
  :mod:`solver.games.klondike.foreign.dealing`.
"""

from __future__ import annotations

from math import factorial

from ....cards import make_card
from ....deals import Deal, DealError
from .dealing import klondike_from_dealing_order

SEED_LIMIT = factorial(52)
SUIT_BLOCKS = (3, 2, 0, 1)           # spades, hearts, clubs, diamonds in our suit numbers


def dealing_order(seed: int) -> list[int]:
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < SEED_LIMIT:
        raise DealError(f"a Microsoft Solitaire Collection deal number is an integer from 0 to 52!-1, got {seed!r}")
    deck = [make_card(r, s) for s in SUIT_BLOCKS for r in range(1, 14)]
    n = seed
    for i in range(51, 0, -1):
        n, j = divmod(n, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck[::-1]


def deal_from_seed(seed: int, options: dict | None = None) -> Deal:
    return klondike_from_dealing_order(dealing_order(seed), options)
