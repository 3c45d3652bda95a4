"""Small builders shared by the tests: hand-built positions from card names."""

from solver.cards import parse_card
from solver.deals import deal_from_json
from solver.moves import Move, parse_move


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def mv(text: str) -> Move:
    """A move in compact notation, e.g. ``mv("7S t3-t5")``, ``mv("draw")``."""
    return parse_move(text)


def deal(obj: dict):
    return deal_from_json(obj)


def rules(game: str):
    """The reference rules of ``game`` (through the registry, as the solver finds them)."""
    from solver.registry import game as lookup

    return lookup(game).rules
