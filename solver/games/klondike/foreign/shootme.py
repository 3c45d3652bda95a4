"""ShootMe's Klondike-Solver (github ShootMe/Klondike-Solver): ``/G N`` deals and deck strings.

Seeds (``Random.cpp``, ``Solitaire::Shuffle1``, ``Solitaire::ResetGame``):

* a home-made generator on three signed 32-bit ints ``value, mix, twist``;
  ``SetSeed(N)``: mix = 51651237, twist = 895213268, value = N, 50 steps, then
  value = 0x9417B3AF ^ N ^ (N >> 15) and 950 more steps. One step (C++ int
  arithmetic: wrapping, ``>>`` arithmetic)::

      y = twist - mix            (written value ^ twist - mix ^ value)
      y ^= twist ^ value ^ mix
      mix ^= twist ^ value
      value ^= twist - mix
      twist ^= value ^ y
      value ^= (twist << 7) ^ (mix >> 16) ^ (y << 8)

  ``Next1()`` steps and returns ``value & 0x7fffffff``;
* card i (0..51) is rank i % 13 + 1 of suit i / 13 in ShootMe's suit order
  clubs, diamonds, spades, hearts; 269 swaps of cards[k] and cards[j] with
  k = Next1() % 52 drawn before j = Next1() % 52;
* dealing is the usual order (:mod:`solver.games.klondike.foreign.dealing`): the stock is
  built from cards[51] up to cards[28], so cards[28] is on top, drawn first.

Deck strings (``LoadSolitaire``/``GetSolitaire``, README.txt): 52 cards in that
dealing order, each three digits: the rank 01..13, then the suit 1 clubs,
2 diamonds, 3 hearts, 4 spades (``014`` is the ace of spades).
"""

from __future__ import annotations

from ....cards import make_card, rank, suit
from ....deals import Deal, DealError
from .dealing import dealing_order_of, klondike_from_dealing_order

MASK32 = 0xFFFFFFFF
SEED_LIMIT = 2 ** 31                 # /G takes a C int; -1 means "pick one at random"
SUIT_FROM_SHOOTME = (0, 1, 3, 2)     # ShootMe's C D S H -> ours C D H S


def _signed(x: int) -> int:
    x &= MASK32
    return x - (1 << 32) if x & 0x80000000 else x


class ShootMeRandom:
    """``Random`` of Klondike-Solver, with C++'s 32-bit int behaviour."""

    def __init__(self, seed: int):
        self.mix, self.twist, self.value = 51651237, 895213268, seed & MASK32
        for _ in range(50):
            self._step()
        s = _signed(seed)
        self.value = (0x9417B3AF ^ s ^ (s >> 15)) & MASK32
        for _ in range(950):
            self._step()

    def _step(self) -> None:
        value, mix, twist = self.value, self.mix, self.twist
        y = (twist - mix) & MASK32
        y ^= twist ^ value ^ mix
        mix ^= twist ^ value
        value ^= (twist - mix) & MASK32
        twist ^= value ^ y
        value ^= ((twist << 7) ^ (_signed(mix) >> 16) ^ (y << 8)) & MASK32
        self.value, self.mix, self.twist = value & MASK32, mix & MASK32, twist & MASK32

    def next1(self) -> int:
        self._step()
        return self.value & 0x7FFFFFFF


def shootme_card(value: int) -> int:
    """ShootMe's card number (suit order C D S H) -> ours."""
    return make_card(value % 13 + 1, SUIT_FROM_SHOOTME[value // 13])


def dealing_order(seed: int) -> list[int]:
    """The deck of ``KlondikeSolver /G seed`` in dealing order (our card numbers)."""
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < SEED_LIMIT:
        raise DealError(f"a Klondike-Solver game number is an integer from 0 to 2**31-1, got {seed!r}")
    rng = ShootMeRandom(seed)
    cards = list(range(52))
    for _ in range(269):
        k = rng.next1() % 52
        j = rng.next1() % 52
        cards[k], cards[j] = cards[j], cards[k]
    return [shootme_card(v) for v in cards]


def deal_from_seed(seed: int, options: dict | None = None) -> Deal:
    return klondike_from_dealing_order(dealing_order(seed), options)


# --------------------------------------------------------------------------
# Deck strings
# --------------------------------------------------------------------------
def deal_from_deck_string(text: str, options: dict | None = None) -> Deal:
    digits = "".join(text.split())
    if len(digits) != 156 or not digits.isdigit():
        raise DealError(f"a Klondike-Solver deck string is 156 digits (52 cards of 3), got {len(digits)} "
                        f"characters" + ("" if digits.isdigit() else " with non-digits"))
    cards = []
    for i in range(52):
        chunk = digits[3 * i:3 * i + 3]
        r, s = int(chunk[:2]), int(chunk[2])
        if not 1 <= r <= 13 or not 1 <= s <= 4:
            raise DealError(f"deck string card {i + 1}: {chunk!r} is not a card (rank 01-13, suit 1-4)")
        cards.append(make_card(r, s - 1))                   # digits 1..4 = C D H S, our order
    return klondike_from_dealing_order(cards, options)


def deal_to_deck_string(deal: Deal) -> str:
    cards = dealing_order_of(deal, "a Klondike-Solver deck string")
    return "".join(f"{rank(c):02d}{suit(c) + 1}" for c in cards)
