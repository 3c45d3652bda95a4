"""Solvitaire (github thecharlesblake/Solvitaire): its ``--random N`` deals and its deal JSON.

Seeds (``game_state(rules, seed)`` and ``gen_shuffled_deck`` in
``src/main/game/search-state/game_state.cpp``):

* ``std::mt19937`` seeded with N (the standard 32-bit Mersenne Twister);
* the deck in rank-major order, suits in Solvitaire's order clubs, hearts,
  spades, diamonds: AC AH AS AD 2C 2H ...;
* Fisher-Yates from the back: for i = 51..1 swap d[i] with d[D(g, 0, i)], where
  D is ``boost::random::uniform_int_distribution``. For a 32-bit engine and a
  range 0..i, boost takes ``bucket = 2**32 // (i + 1)`` and draws ``g() // bucket``
  until the quotient is at most i (both of boost's branches give that bucket);
* dealing pops cards off the back: first the 24 stock cards (d[51] at the
  bottom, d[28] on top, so d[28] is drawn first), then the tableau row by row,
  each row right to left ("diagonal deal": row r covers piles r..7), so the
  face-up tops are d[21], d[15], d[10], d[6], d[3], d[1], d[0].

Deal JSON (``deal_parser.cpp``): ``{"tableau piles": [[...] x7], "stock": [...],
"waste": [...], "foundations": [...]}``. Piles list cards bottom to top; a
lower-case suit letter marks a face-down card; ranks are ``A 2..10 J Q K`` (or
1..13). The stock is placed card by card, so its *last* card is the top, the
first drawn. ``foundations`` is one flat list, each card going to its suit.
"""

from __future__ import annotations

from ....cards import RANKS, SUITS, is_red, make_card, rank, suit
from ....deals import Deal, DealError, validate
from ....options import resolve
from ..layout import KlondikeDeal

MASK32 = 0xFFFFFFFF
# Solvitaire's suit numbers (card.cpp: Clubs 0, Hearts 1, Spades 2, Diamonds 3) -> ours (C D H S)
SUIT_FROM_SOLVITAIRE = (0, 2, 3, 1)
SEED_LIMIT = 2 ** 32


class MT19937:
    """The 32-bit Mersenne Twister with the standard's seeding (``std::mt19937(seed)``)."""

    def __init__(self, seed: int):
        mt = [seed & MASK32]
        for i in range(1, 624):
            prev = mt[-1]
            mt.append((1812433253 * (prev ^ (prev >> 30)) + i) & MASK32)
        self.mt = mt
        self.index = 624

    def _twist(self) -> None:
        mt = self.mt
        for i in range(624):
            y = (mt[i] & 0x80000000) | (mt[(i + 1) % 624] & 0x7FFFFFFF)
            v = mt[(i + 397) % 624] ^ (y >> 1)
            if y & 1:
                v ^= 0x9908B0DF
            mt[i] = v
        self.index = 0

    def next(self) -> int:
        if self.index >= 624:
            self._twist()
        y = self.mt[self.index]
        self.index += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        y ^= y >> 18
        return y & MASK32


def boost_uniform_int(rng: MT19937, high: int) -> int:
    """``boost::random::uniform_int_distribution(0, high)`` over a 32-bit engine."""
    bucket = (1 << 32) // (high + 1)
    while True:
        x = rng.next() // bucket
        if x <= high:
            return x


def shuffled_deck(seed: int) -> list[int]:
    """Solvitaire's shuffled deck d[0..51] (our card numbers) for ``--random seed``."""
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < SEED_LIMIT:
        raise DealError(f"a Solvitaire seed is an integer from 0 to 2**32-1, got {seed!r}")
    deck = [make_card(r, SUIT_FROM_SOLVITAIRE[s]) for r in range(1, 14) for s in range(4)]
    rng = MT19937(seed)
    for i in range(51, 0, -1):
        j = boost_uniform_int(rng, i)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def deal_from_seed(seed: int, options: dict | None = None) -> Deal:
    """The Klondike deal ``solvitaire --type klondike --random seed`` plays."""
    deck = shuffled_deck(seed)
    stock_pile = [deck.pop() for _ in range(24)]          # bottom first: d[51] .. d[28]
    tableau = [[] for _ in range(7)]
    t = 0
    while deck:                                            # diagonal deal, right to left
        row, pile = divmod(t, 7)
        pile = 6 - pile
        if pile >= row:
            tableau[pile].append(deck.pop())
        t += 1
    deal = KlondikeDeal(game="klondike", options=resolve("klondike", options), tableau=tableau,
                face_down=[len(p) - 1 for p in tableau], stock=stock_pile[::-1],
                foundations=[[] for _ in range(4)])
    validate(deal)
    return deal


# --------------------------------------------------------------------------
# Deal JSON
# --------------------------------------------------------------------------
RANK_WORDS = {"A": 1, "J": 11, "Q": 12, "K": 13, "T": 10}
KNOWN_KEYS = {"tableau piles", "stock", "waste", "foundations", "foundation"}


def parse_solvitaire_card(token, where: str) -> tuple[int, bool]:
    """``(card, face_down)`` from a token such as ``"10h"`` or ``"QS"``."""
    if not isinstance(token, str) or len(token) < 2:
        raise DealError(f"{where}: not a card: {token!r}")
    rank_text, suit_text = token[:-1].upper(), token[-1]
    if suit_text.upper() not in SUITS:
        raise DealError(f"{where}: not a card: {token!r} (suit must be one of C D H S)")
    if rank_text in RANK_WORDS:
        value = RANK_WORDS[rank_text]
    elif rank_text.isdigit() and 1 <= int(rank_text) <= 13:
        value = int(rank_text)
    else:
        raise DealError(f"{where}: not a card: {token!r}")
    return make_card(value, SUITS.index(suit_text.upper())), suit_text.islower()


def _card_list(obj, key: str) -> list:
    value = obj.get(key, [])
    if not isinstance(value, list):
        raise DealError(f"Solvitaire deal: {key!r} must be a list")
    return value


def deal_from_json(obj, options: dict | None = None) -> Deal:
    """Read a Solvitaire Klondike deal object (the file carries no rule options)."""
    if not isinstance(obj, dict):
        raise DealError("a Solvitaire deal must be a JSON object")
    unknown = sorted(set(obj) - KNOWN_KEYS)
    if unknown:
        raise DealError(f"Solvitaire deal: unknown or non-Klondike field {unknown[0]!r}")
    piles = obj.get("tableau piles")
    if not isinstance(piles, list) or len(piles) != 7:
        raise DealError("Solvitaire deal: 'tableau piles' must list 7 piles for Klondike")
    deal = KlondikeDeal(game="klondike", options=resolve("klondike", options))
    for p, pile in enumerate(piles, 1):
        if not isinstance(pile, list):
            raise DealError(f"Solvitaire deal: tableau pile {p} must be a list of cards")
        cards, down = [], 0
        for i, token in enumerate(pile, 1):
            card, face_down = parse_solvitaire_card(token, f"tableau pile {p} card {i}")
            if face_down:
                if down != len(cards):
                    raise DealError(f"tableau pile {p} card {i}: face-down {token!r} lies on a face-up card")
                down += 1
            cards.append(card)
        for k in range(down + 1, len(cards)):
            below, above = cards[k - 1], cards[k]
            if rank(below) != rank(above) + 1 or is_red(below) == is_red(above):
                raise DealError(f"tableau pile {p} card {k + 1}: face-up {pile[k]!r} cannot lie on face-up "
                                f"{pile[k - 1]!r} in Klondike (Solvitaire marks a face-down card with a "
                                f"lower-case suit)")
        deal.tableau.append(cards)
        deal.face_down.append(down)

    def plain(key: str) -> list[int]:
        out = []
        for i, token in enumerate(_card_list(obj, key), 1):
            card, face_down = parse_solvitaire_card(token, f"{key} card {i}")
            out.append(card)
        return out

    deal.stock = plain("stock")[::-1]                      # the last listed is drawn first
    deal.waste = plain("waste")
    deal.foundations = [[] for _ in range(4)]
    for key in ("foundations", "foundation"):               # flat (Solvitaire) or per suit (lonelybot)
        tokens = _card_list(obj, key)
        if tokens and all(isinstance(t, list) for t in tokens):
            tokens = [t for pile in tokens for t in pile]
        for i, token in enumerate(tokens, 1):
            card, _ = parse_solvitaire_card(token, f"{key} card {i}")
            deal.foundations[suit(card)].append(card)
    for f in deal.foundations:
        f.sort()
    validate(deal)
    return deal


def _token(card: int, face_down: bool = False) -> str:
    r = RANKS[rank(card) - 1]
    letter = SUITS[suit(card)]
    return ("10" if r == "T" else r) + (letter.lower() if face_down else letter)


def deal_to_json(deal: Deal) -> dict:
    """A Solvitaire deal object for a Klondike deal or position."""
    if deal.game != "klondike":
        raise DealError(f"Solvitaire's deal JSON is written for Klondike only, not {deal.game}")
    if deal.passes_used:
        raise DealError("Solvitaire's deal JSON has no field for passes already used")
    out = {"tableau piles": [[_token(c, i < fd) for i, c in enumerate(p)]
                             for p, fd in zip(deal.tableau, deal.face_down)],
           "stock": [_token(c) for c in reversed(deal.stock)]}
    if deal.waste:
        out["waste"] = [_token(c) for c in deal.waste]
    if any(deal.foundations):
        out["foundations"] = [_token(c) for f in deal.foundations for c in f]
    return out

