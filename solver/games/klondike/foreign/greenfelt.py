"""GreenFelt (greenfelt.net) Klondike game numbers.

GreenFelt publishes no description, but its shuffle runs in the browser; ShootMe
read it there and reproduced it as ``Board.ShuffleGreenFelt`` in his C# solver
(github ShootMe/MinimalKlondike, ``Entities/Board.cs``; issue #1 tells how), and
lonelybot (github vuonghy2442/lonelybot, ``src/shuffler.rs``) carries the same
mapping with a test value for game 0. The steps:

* Park-Miller "minimal standard" generator: ``s = s * 16807 % (2**31 - 1)``,
  seeded with the game number as is (so game 0 keeps drawing 0);
* the deck in ShootMe's card numbering (suits C D S H), laid out as clubs,
  diamonds, hearts, spades, each A..K;
* seven passes of: for j = 0..51 swap deck[j] with deck[next() % 52];
* the dealt order is the shuffled deck reversed, dealt in the usual order of
  :mod:`solver.games.klondike.foreign.dealing`. (MinimalKlondike gets there by moving the cards
  into its own pile-by-pile layout; its deals were checked to be the same for
  game numbers 0-299 and a few large ones. ShootMe's C++ Klondike-Solver has the
  same steps as ``Solitaire::Shuffle2``, except that it replaces seed 0.)
"""

from __future__ import annotations

from ....deals import Deal, DealError
from .dealing import klondike_from_dealing_order
from .shootme import shootme_card

MODULUS = 2 ** 31 - 1
SEED_LIMIT = 2 ** 32                 # game numbers are read as C# uint


def dealing_order(seed: int) -> list[int]:
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < SEED_LIMIT:
        raise DealError(f"a GreenFelt game number is an integer from 0 to 2**32-1, got {seed!r}")
    deck = list(range(26)) + list(range(39, 52)) + list(range(26, 39))   # C, D, H, S in ShootMe numbers
    state = seed
    for _ in range(7):
        for j in range(52):
            state = state * 16807 % MODULUS
            k = state % 52
            deck[j], deck[k] = deck[k], deck[j]
    return [shootme_card(v) for v in reversed(deck)]


def deal_from_seed(seed: int, options: dict | None = None) -> Deal:
    return klondike_from_dealing_order(dealing_order(seed), options)
