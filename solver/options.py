"""Rule options: a variant is a game plus a complete options dict.

Each game lists its options (:class:`solver.game.Option`: name, default, the
values it takes, help). :func:`resolve` fills in defaults and rejects unknown
names, bad values and options that do not go together, with one clear message.

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


def check_game(name) -> str:
    from .registry import game

    return game(name).name


def defaults(name: str) -> dict:
    from .registry import game

    return game(name).defaults()


def resolve(name: str, given: dict | None) -> dict:
    """Complete and validate an options dict for the game ``name``."""
    from .registry import game

    g = game(name)
    if given is not None and not isinstance(given, dict):
        raise OptionError(f"{name}: options must be an object")
    given = dict(given or {})
    out = {}
    for option in g.options:
        value = given.pop(option.name, option.default)
        if not option.accepts(value):
            raise OptionError(f"{name}: bad value {value!r} for option {option.name!r} ({option.expected()})")
        out[option.name] = value
    if given:
        unknown = next(iter(given))
        known = ", ".join(o.name for o in g.options) or "none"
        raise OptionError(f"{name}: unknown option {unknown!r} (options: {known})")
    conflict = g.options_conflict(out)
    if conflict:
        raise OptionError(f"{name}: {conflict}")
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
