"""What the replay pages of ``solve``, ``hint`` and ``review`` show (:mod:`.html` draws them)."""

from __future__ import annotations

from ..notation import readable
from ..registry import game
from .html import Line, page


def short_title(deal) -> str:
    """``Klondike, seed 7, draw=3``: the game, the deal and the options not at their default,
    short enough for a caption above a table."""
    g = game(deal.game)
    changed = " ".join(f"{o.name}={o.spell(deal.options[o.name])}" for o in g.options
                       if o.name in deal.options and deal.options[o.name] != o.default)
    seed = f", seed {deal.seed}" if deal.seed is not None else ""
    return f"{g.title}{seed}" + (f", {changed}" if changed else "")


def deal_title(deal) -> str:
    """``Klondike, seed 7 (draw=1, passes=1)``: the game, the deal and its options."""
    g = game(deal.game)
    options = ", ".join(f"{o.name}={o.spell(deal.options.get(o.name, o.default))}" for o in g.options)
    seed = f", seed {deal.seed}" if deal.seed is not None else ""
    return f"{g.title}{seed}" + (f" ({options})" if options else "")


def verdict_words(result) -> str:
    """A solver's verdict in a few words: ``won in 113 moves``."""
    if result.verdict == "won":
        return f"won in {len(result.moves)} moves"
    if result.verdict == "lost":
        return "lost (no line wins)"
    return f"unknown ({result.reason})"


def solve_page(result) -> str:
    """The solver's line from the deal (or the deal alone, when it is not won)."""
    if result.verdict == "won":
        summary = f"Won: a line of {len(result.moves)} moves found by the solver ({result.nodes:,} nodes)."
    elif result.verdict == "lost":
        summary = "Lost: no line wins this deal (the solver proved it)."
    else:
        summary = f"Unknown: the solver stopped at its limits ({result.reason}) before deciding."
    return page(deal_title(result.deal), [Line("solver's line", result.deal, list(result.moves))], summary)


def hint_page(deal, played: list, hint) -> str:
    """The moves played, then the line offered from the table they reach; the page opens there."""
    n = len(played)
    if hint.verdict == "won":
        summary = (f"{n} moves played; from there a winning line of {len(hint.line)} moves"
                   if n else f"A winning line of {len(hint.line)} moves")
        summary += " (the moves played are greyed)." if n else "."
    elif hint.verdict == "lost":
        summary = f"{n} moves played; no line wins from the table reached."
    else:
        summary = f"{n} moves played; the solver could not decide the table reached ({hint.reason})."
    marks = {k: ("played", "") for k in range(1, n + 1)}
    line = Line("hint", deal, list(played) + list(hint.line), start=n, marks=marks)
    return page(deal_title(deal), [line], summary)


def review_page(review) -> str:
    """The game played, its losing move marked, and (a second tab) the game up to the table
    before that move followed by a line that keeps it winnable, the better move marked."""
    rules = game(review.deal.game).rules
    moves = list(review.moves)
    played = Line("game played", review.deal, moves)
    lines = [played]
    if review.outcome == "lost_at":
        k = review.lost_at
        summary = f"Move {k} lost the game: before it the deal could be won, after it no line wins."
        note = "this move lost the game"
        if review.better is not None:
            before = review.deal
            pos = rules.initial(before)
            for m in moves[:k - 1]:
                pos = rules.play(pos, m)
            better = readable(review.better, rules.to_deal(pos))
            note += f"; instead: {better} [{review.better}]"
            marks = {i: ("played", "") for i in range(1, k)}
            marks[k] = ("better", f"instead of move {k}: keeps the game winnable")
            lines.append(Line(f"keeps it winnable from move {k}", review.deal, moves[:k - 1] + list(review.better_line),
                              start=k - 1, marks=marks))
        played.marks[k] = ("lost", note)
        played.start = k
    elif review.outcome == "won":
        summary = "The game was won."
    elif review.outcome == "winnable":
        summary = "No move lost the game: the table reached can still be won."
    elif review.outcome == "lost_from_start":
        summary = "The deal could not be won from the start: no move lost it."
    else:
        lo = "the start" if not review.lo else f"move {review.lo}"
        summary = (f"Undecided within the limits: winnable after {lo}" if review.lo is not None
                   else "Undecided within the limits")
        if review.hi is not None:
            summary += f"; no line wins after move {review.hi}"
        summary += "."
    return page(deal_title(review.deal), lines, summary)


def play_page(record) -> str:
    """A game played without peeking (:class:`solver.play.GameRecord`), each move noted with
    the chance the player gave it when it chose it."""
    marks = {}
    for k, decision in enumerate(record.decisions[:len(record.moves)], 1):
        note = "forced" if decision.chance is None else f"estimated chance {100 * decision.chance:.0f}%"
        marks[k] = ("", note)
    summary = (f"Played without peeking (hidden {record.level}, {record.settings.samples} tables sampled a "
               f"decision): {record.ending()}.")
    return page(deal_title(record.deal), [Line("game played", record.deal, list(record.moves), marks=marks)],
                summary)
