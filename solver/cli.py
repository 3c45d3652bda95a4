"""The ``solitaire`` command: click commands over the API, no game logic of its own.

Bad input ends with one line on stderr and exit code 2; ``check`` exits 0 only
when the line wins.
"""

from __future__ import annotations

import json
import math
import os
import sys
from functools import wraps
from pathlib import Path

import click

from .cards import CardError
from .engine.memory import DEFAULT_MEMORY_MB
from .deals import DealError, deal_from_seed, deal_to_json, load_deal, read_json
from .moves import Move, MoveFormatError
from .options import OptionError, parse_option_value, resolve
from .registry import game as game_named
from .registry import games as all_games
from .seeds import deal_from_tool_seed, seed_types

INPUT_ERRORS = (DealError, OptionError, MoveFormatError, CardError)
EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130   # Ctrl-C, as shells report it
MAX_SECONDS = 1e7        # about 115 days: more is a mistake, not a limit
MAX_MEGABYTES = 1e7      # 10 TB


class Finite(click.ParamType):
    """A number above ``low`` and at most ``high``: never inf or nan (a limit that cannot
    be reached is left out, not given as inf)."""

    def __init__(self, unit: str, low: float, high: float):
        self.name, self.low, self.high = unit, low, high

    def convert(self, value, param, ctx):
        try:
            number = float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number of {self.name}", param, ctx)
        if not math.isfinite(number) or not self.low < number <= self.high:
            self.fail(f"{value!r} {self.name}: expected a number above {self.low:g} and at most {self.high:g}",
                      param, ctx)
        return number


class FileName(click.ParamType):
    """A file's name as given: not empty, no NUL character (which no file system takes).
    Whether the file can be read or written is checked where it is opened."""

    name = "file"

    def convert(self, value, param, ctx):
        text = os.fsdecode(value) if isinstance(value, bytes) else str(value)
        if not text:
            self.fail("an empty file name", param, ctx)
        if "\0" in text:
            self.fail(f"{text!r} is not a file name (it holds a NUL character)", param, ctx)
        return text


FILE = FileName()
SECONDS = Finite("seconds", 0, MAX_SECONDS)
MEGABYTES = Finite("MB", 0, MAX_MEGABYTES)


def limit_options(time_default: float, per: str = "", shortest: bool = False):
    """--max-nodes, --time-limit and --memory-mb; ``per`` says what each limit applies to."""
    def add(func):
        func = click.option(
            "--memory-mb", type=MEGABYTES, default=DEFAULT_MEMORY_MB, show_default=True,
            help=f"{per}bound, in MB of 2^20 bytes, on the search's memory: the transposition table, the dominance "
                 "multimap, the stacks of every run and the restart runs' tables"
                 + (", and the shortest-line search's store" if shortest else "")
                 + ". A search that would need more ends unknown (memory); one whose first arrays do not fit ends "
                   "so at once, with 0 nodes. Each search gets the whole bound (they run one after another). Not "
                   "counted: the Python process itself (interpreter, numpy, Numba, compiled code: about 150-250 MB)"
        )(func)
        func = click.option("--time-limit", type=SECONDS, default=time_default, show_default=True,
                            help=f"{per}seconds before giving up (verdict unknown)")(func)
        func = click.option("--max-nodes", type=click.IntRange(1), help=f"{per}stop after this many nodes "
                            "(verdict unknown)")(func)
        return func
    return add


def fail(message: str, code: int = EXIT_BAD_INPUT):
    click.echo(f"solitaire: {message}", err=True)
    sys.exit(code)


def input_errors(func):
    """Turn the project's input errors into one line on stderr and exit 2."""

    @wraps(func)
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except INPUT_ERRORS as err:
            fail(str(err))
        except KeyboardInterrupt:   # where a command has nothing to show for its work so far
            fail("interrupted", code=EXIT_INTERRUPTED)

    return wrapper


def variant_options(func=None, *, only=None):
    """The rule options of every game (of the games ``only`` accepts), as flags generated
    from the games' option lists; each is checked against the game a command is given."""
    if func is None:
        return lambda f: variant_options(f, only=only)
    helps: dict[str, dict[str, list[str]]] = {}   # option -> help text -> the games that say it
    kinds = {}
    for g in all_games().values():
        if only is not None and not only(g):
            continue
        for option in g.options:
            helps.setdefault(option.name, {}).setdefault(option.help, []).append(g.name)
            kinds[option.name] = option.kind
    for name in reversed(list(helps)):
        text = "; ".join(f"{'/'.join(names)}: {words}" for words, names in helps[name].items())
        flag = "--" + name.replace("_", "-")
        if kinds[name] == "flag":
            func = click.option(f"{flag}/--no-{flag[2:]}", name, default=None, help=text)(func)
        else:
            func = click.option(flag, name, help=text)(func)
    return func


def collect_options(game: str, **given) -> dict:
    options = game_named(game).options
    out = {}
    for name, value in given.items():
        if value is None:
            continue
        if isinstance(value, str):
            try:
                value = parse_option_value(value)
            except OptionError as err:
                raise OptionError(f"--{name.replace('_', '-')}: {err}") from None
        if not any(o.name == name for o in options):
            raise OptionError(f"{game}: option --{name.replace('_', '-')} does not apply "
                              f"(options: {', '.join(o.name for o in options) or 'none'})")
        out[name] = value
    return resolve(game, out)


def with_given_options(deal, options: dict) -> dict:
    """The deal's options overridden by those given on the command line (an unlimited
    ``passes`` in the file stays unlimited unless --passes is given)."""
    given = {k: v for k, v in options.items() if v is not None}
    checked = collect_options(deal.game, **given)
    chosen = resolve(deal.game, {**deal.options, **{k: checked[k] for k in given}})
    g = game_named(deal.game)
    for name in given:
        if chosen[name] != deal.options[name]:   # said, not silent: the file meant something else
            option = g.option(name)
            click.echo(f"solitaire: playing {name}={option.spell(chosen[name])} as given, not the deal file's "
                       f"{name}={option.spell(deal.options[name])}", err=True)
    return chosen


def _has_formats(g) -> bool:
    return g.deal_formats is not None


GAME_CHOICE = click.Choice(list(all_games()), case_sensitive=False)


class OneLineUsageErrors(click.Group):
    """Usage errors of the commands (unknown game, unknown option, missing argument) as one
    line on stderr and exit 2, like every other bad input (README, "Bad input")."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except click.exceptions.NoArgsIsHelpError:
            raise
        except click.UsageError as err:
            where = err.ctx.command_path if err.ctx is not None else ctx.command_path
            if isinstance(err, click.NoSuchOption) and err.ctx is not None:
                meant = _meant_option(err.option_name, err.ctx.command)
                if meant is not None:
                    err.possibilities = [meant]
            fail(f"{' '.join(err.format_message().split())} (try '{where} --help')")


# names other solvers and habits give to the options (a user who types one is told the
# option it means: click's own suggestion goes by spelling, and offers --piles for --file)
OPTION_SYNONYMS = {"--file": "--deal", "--deal-file": "--deal", "--input": "--deal", "--in": "--deal",
                   "--output": "--out", "--timeout": "--time-limit", "--time": "--time-limit",
                   "--limit": "--time-limit", "--nodes": "--max-nodes", "--memory": "--memory-mb",
                   "--mem": "--memory-mb", "--workers": "--jobs", "--threads": "--jobs", "--processes": "--jobs",
                   "--range": "--seeds"}


def _meant_option(name: str, command: click.Command) -> str | None:
    """The option of ``command`` that an unknown option ``name`` stands for, if it is a known synonym."""
    meant = OPTION_SYNONYMS.get(name)
    if meant is None:
        return None
    return meant if any(meant in param.opts for param in command.params) else None


@click.group(cls=OneLineUsageErrors)
@click.version_option(package_name="solitaire-solver")
def main():
    """Solve, study and replay solitaire deals (`solitaire games` lists the games)."""


def run() -> None:
    """The ``solitaire`` console script: the command, then an exit that skips Python's
    teardown of the loaded Numba code, a noticeable share of a warm ``solitaire solve``.
    The commands close their files and pools themselves; the output is flushed here. An
    error escaping a command still ends the normal way, and so does a command that
    started worker processes: their queues' semaphores are released by the teardown
    (skipped, the resource tracker would warn that they leaked)."""
    try:
        main()
        code = 0
    except SystemExit as stop:
        code = stop.code
    if code is None:
        code = 0
    elif not isinstance(code, int):
        print(code, file=sys.stderr)
        code = 1
    sys.stdout.flush()
    sys.stderr.flush()
    if "solver.engine.warm" in sys.modules:
        sys.modules["solver.engine.warm"].end_child()   # the exit below skips atexit
    if "concurrent.futures.process" in sys.modules:
        sys.exit(code)
    os._exit(code)


@main.command(short_help="List the games, their options and defaults.")
def games():
    """List the games, their options and defaults."""
    for g in all_games().values():
        opts = ", ".join(f"{o.name}={o.spell(o.default)}" for o in g.options)
        decks = "one deck" if g.decks == 1 else "two decks"
        click.echo(f"{g.name:9} {decks:9}  {opts or '(no options)'}")


def _deal_for(game, seed, deal_file, options, seed_type="ours") -> "object":
    if (seed is None) == (deal_file is None):
        raise OptionError("give exactly one of --seed N or --deal FILE")
    if deal_file is not None:
        if seed_type != "ours":
            raise OptionError("--seed-type applies to --seed only")
        from .deals import load_any_deal

        deal = load_any_deal(deal_file)
        if deal.game != game:
            raise DealError(f"{deal_file}: the deal is {deal.game}, not {game}")
        deal.options = with_given_options(deal, options)
        return deal
    return deal_from_tool_seed(game, seed, seed_type, collect_options(game, **options))


def seed_type_option(func):
    others = "; ".join(f"{g.name}: {', '.join(g.seed_types)}" for g in all_games().values() if g.seed_types)
    return click.option("--seed-type", type=click.Choice(seed_types(), case_sensitive=False), default="ours",
                        show_default=True, help=f"whose seed numbers --seed uses ({others})")(func)


def options_text(deal) -> str:
    """The options of ``deal`` as the command line spells them: ``draw=3, passes=unlimited``."""
    g = game_named(deal.game)
    return ", ".join(f"{o.name}={o.spell(deal.options[o.name])}" for o in g.options) or "no options"


def seed_label(seed, seed_type) -> str:
    return f"seed {seed}" + ("" if seed_type == "ours" else f" ({seed_type})")


def html_option(what: str):
    return click.option("--html", "html_file", type=FILE, metavar="FILE",
                        help=f"also write {what} as a self-contained HTML page that replays it")


def check_html_target(path) -> None:
    """Refuse an --html FILE that cannot be written before any work is done for it."""
    from .files import unwritable

    if path is None:
        return
    problem = unwritable(path)
    if problem:
        raise OptionError(f"--html {path}: {problem}")


def write_html(path, make_page) -> None:
    """Write the page ``make_page()`` returns to ``path``; a failure is one line and exit 2."""
    if path is None:
        return
    text = make_page()
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as err:
        fail(f"--html {path}: cannot write the file: {err.strerror or err}")


@main.command(short_help="Deal GAME from a seed (or read a deal file) and show the table.")
@click.argument("game", type=GAME_CHOICE)
@click.option("--seed", type=click.IntRange(0), help="deal number")
@seed_type_option
@click.option("--deal", "deal_file", type=FILE, help="show this deal file instead (any format --deal reads)")
@variant_options
@click.option("--json", "as_json", is_flag=True, help="print FORMATS.md deal JSON")
@input_errors
def deal(game, seed, seed_type, deal_file, as_json, **options):
    """Deal GAME from a seed, or read a deal file, and show the table (or its deal JSON)."""
    game, seed_type = game.lower(), seed_type.lower()
    d = _deal_for(game, seed, deal_file, options, seed_type)
    if as_json:
        click.echo(json.dumps(deal_to_json(d)))
        return
    r = game_named(game).rules
    what = seed_label(seed, seed_type) if seed is not None else deal_file
    click.echo(f"{game} {what} ({options_text(d)})")
    click.echo(r.render(r.initial(d)))


@main.command(short_help="Replay a result file's moves: win or not.")
@click.argument("file", type=FILE)
@input_errors
def check(file):
    """Replay a result object (deal + moves) with the reference rules."""
    from .replay import replay

    obj = read_json(file)
    if not isinstance(obj, dict):
        raise DealError(f"{file}: expected a result object with 'deal' and 'moves'")
    if isinstance(obj.get("deal"), dict):
        d = load_deal(file)
    elif "game" in obj and "seed" in obj:
        try:
            d = deal_from_seed(obj["game"], obj["seed"], obj.get("options"))
        except (DealError, OptionError) as err:
            raise DealError(f"{file}: {err}") from None
    else:
        raise DealError(f"{file}: no 'deal' (or 'game' and 'seed') to replay from")
    raw = obj.get("moves")
    if not isinstance(raw, list):
        raise DealError(f"{file}: 'moves' must be a list")
    moves = []
    for i, m in enumerate(raw, 1):
        try:
            moves.append(Move.from_json(m))
        except MoveFormatError as err:
            raise MoveFormatError(f"{file}: move {i}: {err}") from None
    pos, bad = replay(d, moves)
    if bad is not None:
        index, move, reason = bad
        fail(f"{file}: move {index} ({move}) is illegal: {reason}")
    wins = game_named(d.game).rules.is_won(pos)
    click.echo(f"wins ({len(moves)} moves)" if wins else f"does not win ({len(moves)} moves played)")
    said = obj.get("verdict")
    # a result that says lost while its moves win, or won while they do not, is wrong
    if said == "lost" and wins or said == "won" and not wins:
        click.echo(f"but the file's verdict is {said!r}: the replay contradicts it")
        sys.exit(1)
    if not wins:
        sys.exit(1)


@main.command(short_help="Decide whether a deal can be won; print the line.")
@click.argument("game", type=GAME_CHOICE)
@click.option("--seed", type=click.IntRange(0), help="deal number")
@seed_type_option
@click.option("--deal", "deal_file", type=FILE,
              help="a deal file: the project's deal JSON, or " + "; ".join(
                  f"{g.name}: {g.deal_formats.description}" for g in all_games().values() if _has_formats(g)))
@variant_options
@limit_options(60.0)
@click.option("--json", "as_json", is_flag=True, help="print a FORMATS.md result object")
@html_option("the winning line")
@input_errors
def solve(game, seed, seed_type, deal_file, max_nodes, time_limit, memory_mb, as_json, html_file, **options):
    """Decide whether a deal of GAME can be won, and print a winning line."""
    from .terminal import Watch

    game, seed_type = game.lower(), seed_type.lower()
    d = _deal_for(game, seed, deal_file, options, seed_type)
    check_html_target(html_file)
    watch = Watch(game)   # before the solver is imported: a first import compiles it
    _load_solver(game)
    from .solve import solve as run_solve

    result = run_solve(d, max_nodes=max_nodes, time_limit=time_limit, memory_mb=memory_mb, progress=watch.progress,
                       interruptible=True)
    wall = watch.done()
    write_html(html_file, result.replay_html)
    if as_json:
        click.echo(json.dumps(result.to_json(wall_seconds=round(wall, 6))))
    else:
        what = seed_label(seed, seed_type) if seed is not None else deal_file
        click.echo(f"{game} {what} ({options_text(d)}): {result.verdict}"
                   + (f" ({result.reason})" if result.reason else "")
                   + f"  nodes={result.nodes} time={result.seconds:.3f}s wall={wall:.3f}s")
        if result.verdict == "won":
            click.echo(f"line ({len(result.moves)} moves):")
            for i, m in enumerate(result.moves, 1):
                click.echo(f"{i:4}. {m}")
    if result.reason == "interrupted":
        sys.exit(EXIT_INTERRUPTED)
    # every verdict is an answer, so exit 0; only bad input (2) and errors fail


def _load_solver(game: str, whole_engine: bool = False) -> None:
    """Load the game's solver before anything imports the engine: on a first run it
    compiles, and the engine compiles beside it in a second process (engine/warm.py);
    ``whole_engine`` waits for all of the engine, for searches in other processes."""
    from .engine.warm import engine_compiled_aside

    g = game_named(game)
    with engine_compiled_aside(g.solver_module, g.compiled_aside, whole=whole_engine):
        g.solver


def _format_names() -> list[str]:
    names = ["json"]
    for g in all_games().values():
        if g.deal_formats is not None:
            names += [n for n in g.deal_formats.names if n not in names]
    return names


@main.command(short_help="Rewrite a deal file in another program's format.")
@click.argument("file", type=FILE)
@click.option("--to", "fmt", type=click.Choice(_format_names(), case_sensitive=False),
              required=True, help="format to write (" + "; ".join(
                  f"{g.name}: {', '.join(g.deal_formats.names)}" for g in all_games().values() if _has_formats(g))
              + "; any game: json)")
@variant_options(only=_has_formats)
@input_errors
def convert(file, fmt, **options):
    """Rewrite a deal file in another program's format (the input format is recognised)."""
    from .deals import format_deal, load_any_deal

    deal = load_any_deal(file)
    deal.options = with_given_options(deal, options)
    click.echo(format_deal(deal, fmt.lower()), nl=False)


def _played_moves(deal, moves_file, played):
    """The played moves given by --moves FILE or --played TEXT, replayed: (tables, moves)."""
    from .played import parse_played, read_moves_file, replay_played

    if moves_file is not None and played is not None:
        raise OptionError("give at most one of --moves FILE or --played \"MOVES\"")
    entries = read_moves_file(moves_file) if moves_file is not None else parse_played(played or "")
    return replay_played(deal, entries)


def _show_line(game, table, moves, show):
    """Print a numbered line in readable and compact notation, the table after each move if ``show``."""
    from .notation import readable

    r = game_named(game).rules
    for i, m in enumerate(moves, 1):
        click.echo(f"{i:4}. {readable(m, r.to_deal(table))}   [{m}]")
        table = r.play(table, m)
        if show:
            click.echo(r.render(table))
            click.echo()


def player_options(func):
    """How the no-peek player plays (``play``, ``hint --no-peek``, ``batch --player no-peek``);
    None when not given, so that a command can refuse them where they do not apply."""
    from .game import HIDDEN_LEVELS

    func = click.option("--player-nodes", type=click.IntRange(1), metavar="N",
                        help="no-peek player: node limit per table it solves (default 20000)")(func)
    func = click.option("--player-seed", type=click.IntRange(0, 2 ** 64 - 1), metavar="S",
                        help="no-peek player: seed of its samples (default 0)")(func)
    func = click.option("--samples", type=click.IntRange(1, 1000), metavar="K",
                        help="no-peek player: tables sampled per decision, up to 3K where the choice is close "
                             "(default 12)")(func)
    func = click.option("--hidden", type=click.Choice(HIDDEN_LEVELS), default=None,
                        help="no-peek player: what it does not see: 'tableau' (face-down tableau cards; the stock's "
                             "order is known; the default) or 'all' (the stock too, and Ladder's ladder)")(func)
    return func


def _player_settings(hidden, samples, player_seed, player_nodes):
    from .play import Settings

    return hidden or "tableau", Settings.of(samples, player_nodes, player_seed)


def _refuse_player_options(why: str, hidden, samples, player_seed, player_nodes) -> None:
    given = [name for name, value in (("--hidden", hidden), ("--samples", samples), ("--player-seed", player_seed),
                                      ("--player-nodes", player_nodes)) if value is not None]
    if given:
        raise OptionError(f"{', '.join(given)}: {why}")


def _chance(value) -> str:
    return "forced" if value is None else f"{100 * value:.0f}%"


@main.command(short_help="Play a deal seeing only what a person sees.")
@click.argument("game", type=GAME_CHOICE)
@click.option("--seed", type=click.IntRange(0, 2 ** 64 - 1), help="deal number")
@seed_type_option
@click.option("--deal", "deal_file", type=FILE, help="a deal file (fresh or mid-game)")
@variant_options
@player_options
@click.option("--json", "as_json", is_flag=True,
              help="print the game as a FORMATS.md object (its deal and moves: solitaire check replays it)")
@html_option("the game played, each move with its estimated chance,")
@input_errors
def play(game, seed, seed_type, deal_file, hidden, samples, player_seed, player_nodes, as_json, html_file,
         **options):
    """Play a deal of GAME without peeking: a player that sees only face-up cards (and
    remembers those it saw), with each decision's estimated chance of winning."""
    from .notation import readable
    from .play import ObservationError, play_game

    game = game.lower()
    d = _deal_for(game, seed, deal_file, options, seed_type.lower())
    level, settings = _player_settings(hidden, samples, player_seed, player_nodes)
    check_html_target(html_file)
    _load_solver(game)
    try:
        record = play_game(d, level, settings)
    except ObservationError as err:
        fail(str(err))
    if html_file is not None:
        from .pictures.pages import play_page

        write_html(html_file, lambda: play_page(record))
    if as_json:
        click.echo(json.dumps(record.to_json(), ensure_ascii=False))
        return
    r = game_named(game).rules
    what = seed_label(seed, seed_type.lower()) if seed is not None else deal_file
    opts = ", ".join(f"{k}={game_named(game).option(k).spell(v)}" for k, v in d.options.items()) or "no options"
    click.echo(f"{game} {what} ({opts}), played without peeking: hidden {level}, {settings.samples} samples "
               f"per decision, player seed {settings.seed}")
    table = r.initial(d)
    for i, (m, decision) in enumerate(zip(record.moves, record.decisions), 1):
        click.echo(f"{i:4}. {readable(m, r.to_deal(table))}   [{m}]   {_chance(decision.chance)}")
        table = r.play(table, m)
    click.echo(f"{record.ending()} ({record.solves} tables solved, {record.seconds:.2f} s)")


@main.command(short_help="The next move (or the whole line) from a table.")
@click.argument("game", type=GAME_CHOICE)
@click.option("--seed", type=click.IntRange(0, 2 ** 64 - 1), help="deal number")
@seed_type_option
@click.option("--deal", "deal_file", type=FILE, help="a deal file (fresh or mid-game)")
@click.option("--moves", "moves_file", type=FILE,
              help="the moves played so far (move JSON list / JSON Lines, or compact/readable text)")
@click.option("--played", help="the moves played so far, e.g. \"7S t3-t5 draw\" (';' between readable moves)")
@variant_options
@click.option("--all", "show_all", is_flag=True, help="print the whole remaining line")
@click.option("--show", is_flag=True, help="draw the table after each move printed")
@click.option("--shortest", is_flag=True, help="a line with the fewest moves (exact search; " + ", ".join(
    g.name for g in all_games().values() if g.offers_shortest) + ")")
@click.option("--shortest-nodes", type=click.IntRange(1),
              help="tables the shortest-line search may expand before giving up (default: no limit but "
                   "--time-limit and --memory-mb)")
@limit_options(10.0, shortest=True)
@click.option("--json", "as_json", is_flag=True, help="print a FORMATS.md result object for the table reached")
@html_option("the moves played and the whole line offered")
@click.option("--no-peek", is_flag=True, help="the next move of a player that sees only face-up cards, with its "
              "estimated chance of winning (see solitaire play)")
@player_options
@input_errors
def hint(game, seed, seed_type, deal_file, moves_file, played, show_all, show, shortest, shortest_nodes, max_nodes,
         time_limit, memory_mb, as_json, html_file, no_peek, hidden, samples, player_seed, player_nodes, **options):
    """The next move of a winning line from the table reached by the moves played."""
    from .notation import readable
    game = game.lower()
    d = _deal_for(game, seed, deal_file, options, seed_type.lower())
    if no_peek:
        return _hint_no_peek(d, seed, seed_type.lower(), deal_file, moves_file, played, as_json,
                             dict(all=show_all, shortest=shortest, html=html_file, show=show),
                             _player_settings(hidden, samples, player_seed, player_nodes))
    _refuse_player_options("apply with --no-peek only", hidden, samples, player_seed, player_nodes)
    if shortest and not game_named(game).offers_shortest:
        raise OptionError(f"--shortest is not offered for {game} (too many positions for an exact search)")
    from .terminal import Watch

    tables, moves = _played_moves(d, moves_file, played)
    check_html_target(html_file)
    r = game_named(game).rules
    watch = Watch(game)   # before the solver is imported: a first import compiles it
    _load_solver(game)
    from .hints import hint as run_hint

    h = run_hint(r.to_deal(tables[-1]), len(moves), max_nodes=max_nodes, time_limit=time_limit,
                 memory_mb=memory_mb, shortest=shortest, shortest_nodes=shortest_nodes, progress=watch.progress,
                 interruptible=True)
    watch.done()
    if h.reason == "interrupted":
        fail(f"interrupted after {h.nodes} nodes ({h.seconds:.1f} s): no hint", code=EXIT_INTERRUPTED)
    if html_file is not None:
        from .pictures.pages import hint_page

        write_html(html_file, lambda: hint_page(d, moves, h))
    if as_json:
        click.echo(json.dumps(h.to_json(), ensure_ascii=False))
        return
    what = seed_label(seed, seed_type.lower()) if seed is not None else deal_file
    click.echo(f"{game} {what} ({options_text(d)}), after {len(moves)} move{'s' if len(moves) != 1 else ''} played:")
    if show:
        click.echo(r.render(tables[-1]))
        click.echo()
    if r.is_won(tables[-1]):
        click.echo("the game is won: no move is needed")
        return
    if h.verdict == "lost":
        click.echo("no winning line exists from here (the solver proved it: every line loses)")
        return
    if h.verdict == "unknown":
        click.echo(f"no hint: the solver could not decide this table within its limits ({h.reason}); "
                   "try a larger --time-limit")
        return
    note = ""
    if h.shortest == "won":
        note = ", the shortest"
    elif h.shortest == "unknown":
        limit = {"time_limit": "--time-limit", "memory": "--memory-mb", "node_limit": "--shortest-nodes"}
        note = f"; no shortest line found within the {limit.get(h.shortest_reason, 'search')} limit"
    click.echo(f"winnable: a line of {len(h.line)} moves (the solver's raw line: {h.raw_length}{note})")
    if show_all:
        _show_line(game, tables[-1], h.line, show)
    else:
        m = h.line[0]
        click.echo(f"next: {readable(m, r.to_deal(tables[-1]))}   [{m}]")
        if show:
            click.echo(r.render(r.play(tables[-1], m)))


def _hint_no_peek(d, seed, seed_type, deal_file, moves_file, played, as_json, refused, player):
    """``hint --no-peek``: the player's move after the moves played, from what they showed."""
    from .notation import readable
    from .play import ObservationError, no_peek_hint

    given = [f"--{name}" for name, value in refused.items() if value]
    if given:
        raise OptionError(f"{', '.join(given)}: not with --no-peek (it gives the next move only)")
    level, settings = player
    tables, moves = _played_moves(d, moves_file, played)
    try:
        obs, decision, seconds = no_peek_hint(d, moves, level, settings)
    except ObservationError as err:
        fail(str(err))
    game = d.game
    if as_json:
        out = {"game": game, "options": dict(d.options)}
        if d.seed is not None:
            out["seed"] = d.seed
        out.update(player="no-peek", hidden=level, **settings.to_json(), played=len(moves),
                   next=None if decision.move is None else decision.move.to_json(),
                   chance=None if decision.chance is None else round(decision.chance, 4))
        details = decision.to_json()
        for name in ("exact", "stop", "plan", "estimates"):
            if name in details:
                out[name] = details[name]
        out.update(samples_used=decision.samples, solves=decision.solves, nodes=decision.nodes,
                   seconds=round(seconds, 6), observation=obs.describe())
        click.echo(json.dumps(out, ensure_ascii=False))
        return
    r = game_named(game).rules
    what = seed_label(seed, seed_type) if seed is not None else deal_file
    click.echo(f"{game} {what}, after {len(moves)} move{'s' if len(moves) != 1 else ''} played, without peeking "
               f"(hidden {level}):")
    if r.is_won(tables[-1]):
        click.echo("the game is won: no move is needed")
        return
    if decision.move is None:
        click.echo("no move: " + ("no legal move is left" if decision.stop == "no_moves"
                                  else "every move loses in every table sampled"))
        return
    table = r.to_deal(tables[-1])
    how = "forced (the only legal move)" if decision.chance is None else \
        f"estimated chance of winning {_chance(decision.chance)} ({decision.samples} " \
        f"{'arrangements of the unseen cards' if decision.exact else 'tables sampled'}; {seconds:.2f} s)"
    click.echo(f"next: {readable(decision.move, table)}   [{decision.move}]   {how}")
    if decision.plan:
        click.echo("then: " + ", ".join(str(m) for m in decision.plan) + "   (on the way to the last, nothing "
                   "new shows: the player plays them without weighing again)")
    rest = [f"{m} {100 * c:.0f}%" + ("" if exact else " at most") for m, c, exact in decision.estimates
            if m != decision.move]
    if rest:
        above = decision.chance is not None and any(c > decision.chance and exact
                                                    for m, c, exact in decision.estimates if m != decision.move)
        click.echo("other moves: " + ", ".join(rest) + ("   (a share above the chosen move's is within sampling "
                                                        "noise of it; then the player prefers a table it has seen "
                                                        "less often, then more cards face up)" if above else ""))


@main.command(short_help="Which move lost a game, and a better one.")
@click.argument("game", type=GAME_CHOICE)
@click.option("--seed", type=click.IntRange(0, 2 ** 64 - 1), help="deal number")
@seed_type_option
@click.option("--deal", "deal_file", type=FILE, help="a deal file (fresh or mid-game)")
@click.option("--moves", "moves_file", type=FILE, required=True,
              help="the moves of the game played (move JSON list / JSON Lines, or compact/readable text)")
@variant_options
@limit_options(5.0, "per table examined: ")
@click.option("--json", "as_json", is_flag=True, help="print the review as JSON")
@html_option("the game played, its losing move and a move that keeps it winnable,")
@input_errors
def review(game, seed, seed_type, deal_file, moves_file, max_nodes, time_limit, memory_mb, as_json, html_file,
           **options):
    """Find the move that lost a game played, and a move that would have kept it winnable."""
    from .notation import readable
    game = game.lower()
    d = _deal_for(game, seed, deal_file, options, seed_type.lower())
    tables, moves = _played_moves(d, moves_file, None)
    check_html_target(html_file)
    from .terminal import Watch

    watch = Watch(game, draw=False)   # tables one after another: the compile notice only
    _load_solver(game)
    from .hints import review as run_review

    rv = run_review(d, moves, max_nodes=max_nodes, time_limit=time_limit, memory_mb=memory_mb, progress=watch.progress)
    watch.done()
    if html_file is not None:
        from .pictures.pages import review_page

        write_html(html_file, lambda: review_page(rv))
    if as_json:
        click.echo(json.dumps(rv.to_json(), ensure_ascii=False))
        return
    r = game_named(game).rules
    n = len(moves)
    click.echo(f"{game} {f'seed {d.seed}' if d.seed is not None else deal_file} ({options_text(d)}): "
               f"{n} moves played")
    if rv.outcome == "won":
        click.echo("the game was won")
    elif rv.outcome == "winnable":
        click.echo("no move lost the game: the table reached can still be won")
    elif rv.outcome == "lost_from_start":
        click.echo("the deal could not be won from the start: no move lost it")
    elif rv.outcome == "lost_at":
        k = rv.lost_at
        m = moves[k - 1]
        click.echo(f"move {k} lost the game: {readable(m, r.to_deal(tables[k - 1]))}   [{m}]")
        click.echo("before it the deal could be won; after it no line wins (proved by the solver)")
        if rv.better is not None:
            click.echo(f"instead: {readable(rv.better, r.to_deal(tables[k - 1]))}   [{rv.better}]   "
                       f"keeps it winnable (a winning line of {len(rv.better_line)} moves follows from there)")
    else:
        lo = "the start" if not rv.lo else f"move {rv.lo}"
        if rv.lo is None and rv.hi is not None:
            click.echo(f"undecided: no line wins after move {rv.hi}, but the solver could not show any "
                       "earlier table winnable within the limits")
        elif rv.lo is None:
            click.echo("undecided: the solver could not show that any table of this game was winnable")
        elif rv.hi is None:
            click.echo(f"undecided: winnable after {lo}; no later table was proved lost within the limits")
        else:
            click.echo(f"undecided: the game was lost by one of moves {rv.lo + 1}..{rv.hi} "
                       f"(the tables between could not be decided within the limits)")
    undecided = sorted(k for k, v in rv.verdicts.items() if v.verdict == "unknown")
    if undecided:
        click.echo(f"tables left undecided by the limits (after move): {', '.join(map(str, undecided))}")


@main.command(short_help="Solve a range of seeds into a resumable study.")
@click.argument("game", type=GAME_CHOICE)
@click.option("--seeds", required=True, help="seeds to deal: A-B, N, or a comma list of both (1-10000)")
@seed_type_option
@variant_options
@click.option("--out", required=True, type=FILE, help="the study's journal (JSON Lines); the CSV "
              "table is written next to it (study.jsonl -> study.csv) when every seed is done")
@click.option("--jobs", type=click.IntRange(1), help="worker processes (default: all cores)")
@click.option("--scheduler", help="run on the Dask cluster whose scheduler is at this address "
              "(e.g. tcp://10.0.0.5:8786)")
@limit_options(10.0, "per deal: ")
@click.option("--lines/--no-lines", default=True, show_default=True,
              help="keep each won line (moves) and the deal in the journal")
@click.option("--chunk", type=click.IntRange(1), help="deals per task (default: sized to ~0.2 s of work)")
@click.option("--quiet", is_flag=True, help="no progress bar")
@click.option("--player", type=click.Choice(["thoughtful", "no-peek"]), default="thoughtful", show_default=True,
              help="no-peek: also play each deal without peeking (see solitaire play), beside its verdict")
@player_options
@click.option("--pack", is_flag=True, help="also write the packed journal (study.jsonl.gz: sorted, gzipped, small "
              "enough to commit); a run reads it in first, so a study goes on from it on another machine")
@input_errors
def batch(game, seeds, seed_type, out, jobs, scheduler, max_nodes, time_limit, memory_mb, lines, chunk, quiet,
          player, hidden, samples, player_seed, player_nodes, pack, **options):
    """Solve a range of seeds of GAME into a resumable study (run again to resume)."""
    from .studies import BatchError, no_peek_player, run_batch, stop_on_sigterm
    from .report import render, summarize

    game = game.lower()
    opts = collect_options(game, **options)
    if player == "no-peek":
        player = no_peek_player(*_player_settings(hidden, samples, player_seed, player_nodes))
    else:
        _refuse_player_options("apply with --player no-peek only", hidden, samples, player_seed, player_nodes)
        player = None
    stop_on_sigterm()
    try:
        from .studies.journal import check_out_path

        check_out_path(out)   # a wrong --out is said before the wait of a first compile
        if scheduler is None:
            # compiled here first (said so if it takes long), the workers load it from the cache
            from .studies.worker import _warm
            from .terminal import Watch

            watch = Watch(game, draw=False)
            _load_solver(game, whole_engine=True)   # the workers' searches may use any of it
            _warm(game, opts)
            watch.done()
        done = run_batch(game, seeds, opts, out=out, max_nodes=max_nodes, time_limit=time_limit,
                         memory_mb=memory_mb, jobs=jobs, scheduler=scheduler, lines=lines,
                         progress=not quiet, chunk=chunk, seed_type=seed_type.lower(), player=player,
                         pack=pack)
    except BatchError as err:
        fail(str(err))
    except KeyboardInterrupt:
        fail(f"interrupted; the finished deals are in {out}: run the same command to resume",
             code=EXIT_INTERRUPTED)
    if done.unpacked:
        click.echo(f"note: {done.unpacked} finished deals read from the packed journal {out}.gz", err=True)
    if done.complete:
        click.echo(render(summarize(done.table), "table"), nl=False)
        click.echo(f"{done.new} deals solved now, {done.deals} in the study; table: {done.table}")
    if done.packed:
        click.echo(f"packed journal: {done.packed}", err=True)


@main.command(short_help="Win rates (95% intervals) and times of studies.")
@click.argument("paths", nargs=-1, required=True, type=FILE)
@click.option("--by", "by", multiple=True, help="group by this column (repeat; default: variant), "
              "e.g. game, variant, reason, time_limit")
@click.option("--format", "fmt", type=click.Choice(["table", "csv", "markdown", "json"]), default="table",
              show_default=True)
@click.option("--plot", "plot_prefix", type=FILE,
              help="also write PREFIX-winrate.png and PREFIX-times.png")
@input_errors
def report(paths, by, fmt, plot_prefix):
    """Win rates with 95% intervals and solve-time percentiles of batch studies (journals or CSVs)."""
    from .studies import BatchError
    from .report import DEFAULT_BY, load_rows, render, summarize

    try:
        if plot_prefix:
            from .files import unwritable

            folder = Path(plot_prefix).parent
            if not folder.exists():
                try:
                    folder.mkdir(parents=True)   # a new folder of plots, as batch makes a study's
                except OSError as err:
                    raise BatchError(f"--plot {plot_prefix}: cannot make the folder {str(folder)!r}: "
                                     f"{err.strerror}") from None
            for suffix in ("-winrate.png", "-times.png"):   # before any output: nothing half done
                problem = unwritable(f"{plot_prefix}{suffix}")
                if problem:
                    raise BatchError(f"--plot {plot_prefix}{suffix}: {problem}")
        rows = load_rows(paths)
        summary = summarize(rows, by=by or DEFAULT_BY)
        click.echo(render(summary, fmt), nl=False)
        if plot_prefix:
            from .plots import plot_solve_times, plot_win_rates
            plot_win_rates(summary, f"{plot_prefix}-winrate.png")
            plot_solve_times(rows, f"{plot_prefix}-times.png", by=(by or DEFAULT_BY)[0])
    except BatchError as err:
        fail(str(err))
