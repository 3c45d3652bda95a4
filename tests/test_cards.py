"""Cards (FORMATS.md "Cards"): lenient reading, canonical writing, errors naming the token."""

import pytest

from solver.cards import CardError, card_name, is_red, parse_card, rank, suit

RANK_LETTERS = "A23456789TJQK"
SUIT_LETTERS = "CDHS"


def test_encoding_is_suit_times_13_plus_rank_minus_1():
    # cards.py's documented encoding, checked on cards picked by hand
    assert parse_card("AC") == 0
    assert parse_card("KC") == 12
    assert parse_card("AD") == 13
    assert parse_card("TD") == 13 + 9
    assert parse_card("QH") == 26 + 11
    assert parse_card("AS") == 39
    assert parse_card("KS") == 51


@pytest.mark.parametrize("text, expected", [
    ("TD", "TD"), ("td", "TD"), ("tD", "TD"), ("Td", "TD"),
    ("10d", "TD"), ("10D", "TD"), ("10♦", "TD"), ("t♦", "TD"),
    ("as", "AS"), ("A♠", "AS"), ("a♠", "AS"),
    ("qh", "QH"), ("Q♥", "QH"), ("10♥", "TH"), ("10h", "TH"),
    ("7c", "7C"), ("7♣", "7C"), ("kd", "KD"), ("K♦", "KD"),
    ("j♣", "JC"), (" 2H ", "2H"),
])
def test_lenient_reading(text, expected):
    assert card_name(parse_card(text)) == expected


def test_suit_symbols_map_to_the_suits_in_order():
    for s, symbol in enumerate("♣♦♥♠"):
        card = parse_card("5" + symbol)
        assert suit(card) == s
        assert rank(card) == 5
        assert is_red(card) == (symbol in "♦♥")


@pytest.mark.parametrize("r", range(13))
@pytest.mark.parametrize("s", range(4))
def test_every_card_round_trips(r, s):
    name = RANK_LETTERS[r] + SUIT_LETTERS[s]
    card = parse_card(name)
    assert card == s * 13 + r
    assert (rank(card), suit(card)) == (r + 1, s)
    assert card_name(card) == name
    assert parse_card(card_name(card)) == card
    assert parse_card(name.lower()) == card
    # 10 for T, and the suit symbol
    ten_form = ("10" if name[0] == "T" else name[0]) + "♣♦♥♠"[s]
    assert parse_card(ten_form) == card


def test_all_52_names_are_distinct_and_canonical():
    names = [card_name(c) for c in range(52)]
    assert len(set(names)) == 52
    assert all(len(n) == 2 and n[0] in RANK_LETTERS and n[1] in SUIT_LETTERS for n in names)


@pytest.mark.parametrize("token", ["ZZ", "1H", "H", "", "11H", "0S", "AX", "10", "AHS", "TT", "♥", "1♥", "X♥"])
def test_bad_tokens_raise_card_error_naming_the_token(token):
    with pytest.raises(CardError) as info:
        parse_card(token)
    assert repr(token) in str(info.value)


@pytest.mark.parametrize("value", [None, 5, ["AS"]])
def test_non_string_is_a_card_error(value):
    with pytest.raises(CardError):
        parse_card(value)


def test_card_error_is_a_value_error():
    assert issubclass(CardError, ValueError)


@pytest.mark.parametrize("bad", [-1, 52, 255])
def test_card_name_refuses_numbers_outside_the_deck(bad):
    with pytest.raises(CardError):
        card_name(bad)
