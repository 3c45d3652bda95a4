"""Rule options of each game (RULES.md): names, allowed values, defaults.

A variant is a game plus a complete options dict. :func:`resolve` fills in
defaults and rejects unknown names and bad values with one clear message.

>>> resolve("klondike", {"draw": 3})
{'draw': 3, 'passes': 1, 'foundation_to_tableau': False}
>>> resolve("pyramid", {"piles": 3, "passes": 3})
Traceback (most recent call last):
...
solver.options.OptionError: pyramid: piles=3 allows no redeal (passes must be 1)
"""

from __future__ import annotations

UNLIMITED = None  # `passes: null` in JSON


class OptionError(ValueError):
    """An unknown game, unknown option, or bad option value."""


# game -> (number of decks, {option: (default, allowed values or a check)})
def _passes(value) -> bool:
    return value is None or (isinstance(value, int) and not isinstance(value, bool) and value >= 1)


def _flag(value) -> bool:
    return isinstance(value, bool)


GAMES: dict[str, dict] = {
    "klondike": {
        "decks": 1,
        "options": {"draw": (1, (1, 3)), "passes": (1, _passes), "foundation_to_tableau": (False, _flag)},
    },
    "pyramid": {
        "decks": 1,
        "options": {"piles": (1, (1, 3)), "passes": (1, _passes), "stock_top": (False, _flag)},
    },
    "twenty": {"decks": 2, "options": {}},
    "ladder": {"decks": 2, "options": {"passes": (None, _passes)}},
}


def _expected(allowed) -> str:
    if allowed is _passes:
        return "expected a number of passes from 1, or unlimited"
    if allowed is _flag:
        return "expected true or false"
    return "expected " + " or ".join(map(str, allowed))


def game_names() -> list[str]:
    return list(GAMES)


def check_game(game) -> str:
    if not isinstance(game, str) or game not in GAMES:
        raise OptionError(f"unknown game {game!r} (known: {', '.join(GAMES)})")
    return game


def defaults(game: str) -> dict:
    return {name: spec[0] for name, spec in GAMES[check_game(game)]["options"].items()}


def resolve(game: str, given: dict | None) -> dict:
    """Complete and validate an options dict for ``game``."""
    spec = GAMES[check_game(game)]["options"]
    if given is not None and not isinstance(given, dict):
        raise OptionError(f"{game}: options must be an object")
    given = dict(given or {})
    out = {}
    for name, (default, allowed) in spec.items():
        value = given.pop(name, default)
        ok = allowed(value) if callable(allowed) else (value in allowed and not isinstance(value, bool))
        if not ok:
            raise OptionError(f"{game}: bad value {value!r} for option {name!r} ({_expected(allowed)})")
        out[name] = value
    if given:
        name = next(iter(given))
        known = ", ".join(spec) or "none"
        raise OptionError(f"{game}: unknown option {name!r} (options: {known})")
    if game == "pyramid" and out["piles"] == 3 and out["passes"] != 1:
        raise OptionError("pyramid: piles=3 allows no redeal (passes must be 1)")
    return out


def parse_option_value(text: str):
    """Command-line text -> option value (``unlimited``/``none`` -> None, numbers, booleans)."""
    low = text.strip().lower()
    if low in ("unlimited", "none", "null", "inf"):
        return None
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    try:
        return int(low)
    except ValueError:
        raise OptionError(f"bad option value {text!r}") from None


def variant_name(game: str, options: dict) -> str:
    """A short stable label such as ``klondike draw=3 passes=unlimited``."""
    parts = [game]
    for name, value in options.items():
        parts.append(f"{name}={'unlimited' if value is None else str(value).lower()}")
    return " ".join(parts)
