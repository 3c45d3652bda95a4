"""Every command, every option and file argument, fed hostile values: one line on stderr
naming the problem and exit 2 (or an answer: exit 0 or 1), never a traceback, never a hang.

The commands and their parameters are read from the click group, so a new option is
covered as soon as it exists. Each invocation starts from a valid one (small limits,
so that a value that happens to be fine finishes fast) and replaces one parameter.
"""

from __future__ import annotations

import os
import sys

import click
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.cli import main

NUMBERS = ["inf", "-inf", "nan", "-1", "0", "1e400", "99999999999999999999999", "", "abc", "1e-320", "½",
           "\x00", "--", " 3 "]
# a valid base invocation per command (the argument values first); limits keep it short
BASE = {
    "games": [],
    "deal": ["klondike", "--seed", "1"],
    "solve": ["pyramid", "--seed", "1", "--max-nodes", "2000", "--time-limit", "5"],
    "hint": ["pyramid", "--seed", "1", "--max-nodes", "2000", "--time-limit", "5"],
    "review": ["pyramid", "--seed", "1", "--moves", "{moves}", "--max-nodes", "2000", "--time-limit", "5"],
    "batch": ["golf", "--seeds", "1-2", "--out", "{out}", "--jobs", "1", "--quiet", "--max-nodes", "2000"],
    "check": ["{result}"],
    "convert": ["{deal}", "--to", "json"],
    "report": ["{study}"],
    "play": ["golf", "--seed", "1"],
}


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("hostile")
    # the commands run in a folder of their own: a value such as "abc" given as --out or
    # --plot names a file in the working directory
    work = d / "work"
    work.mkdir()
    before = os.getcwd()
    os.chdir(work)
    paths = {
        "binary": d / "binary.json", "bom": d / "bom.json", "empty": d / "empty.json", "dir": d / "adir",
        "fifo": d / "fifo", "missing": d / "missing.json", "devnull": "/dev/null", "nul": d / "nul.json",
        "huge_line": d / "huge.json",
    }
    paths["binary"].write_bytes(b"\xff\xfe\x00\x81bad\x00")
    paths["bom"].write_bytes(b"\xef\xbb\xbf" + b'{"game": "klondike", "seed": 1}')
    paths["empty"].write_bytes(b"")
    paths["dir"].mkdir()
    os.mkfifo(paths["fifo"])
    paths["nul"].write_bytes(b"\x00" * 64)
    paths["huge_line"].write_text("[" + "1," * 100_000 + "1]")
    good = {
        "moves": d / "moves.txt", "out": d / "study.jsonl", "result": d / "result.json", "deal": d / "deal.json",
        "study": d / "done.jsonl",
    }
    good["moves"].write_text("draw\n")
    runner = CliRunner()
    good["result"].write_text(runner.invoke(main, ["solve", "golf", "--seed", "1", "--json"]).stdout)
    good["deal"].write_text(runner.invoke(main, ["deal", "klondike", "--seed", "1", "--json"]).stdout)
    runner.invoke(main, ["batch", "golf", "--seeds", "1-2", "--out", str(good["study"]), "--jobs", "1", "--quiet"])
    yield {k: str(v) for k, v in paths.items()}, {k: str(v) for k, v in good.items()}
    os.chdir(before)


def cases():
    """(command, parameter) pairs: every option and argument of every command."""
    out = []
    for name, command in sorted(main.commands.items()):
        for param in command.params:
            if param.name in ("help",) or (isinstance(param, click.Option) and param.is_flag):
                continue
            out.append((name, param))
    return out


CASES = cases()


def invocation(name, param, value, good):
    """The base invocation of ``name`` with ``param`` set to ``value``."""
    args = [a.format(**good) for a in BASE.get(name, [])]
    if isinstance(param, click.Argument):
        position = [p for p in main.commands[name].params if isinstance(p, click.Argument)].index(param)
        args = list(args)
        if position < len(args):
            args[position] = value
        else:
            args.append(value)
        return args
    flag = param.opts[0]
    if flag in args:
        i = args.index(flag)
        return args[:i] + [flag, value] + args[i + 2:]
    return args + [flag, value]


# values that, given as a prefix of files to write, are plain names: each would only draw the same
# plots once more (most of this test's time), so a prefix gets the other values only
PLAIN_NUMBERS = {"-1", "0", "1", "1e400", "99999999999999999999999", "inf", "-inf", "nan", "1e-320"}
PLAIN_FILES = ("binary", "bom", "empty", "nul", "huge_line")   # existing files: a prefix names files beside


def hostile_values(param, paths):
    values = list(NUMBERS)
    if isinstance(param.type, click.Path) or param.name in ("paths", "file", "deal_file", "moves_file", "out",
                                                           "html_file", "plot_prefix"):
        values += list(paths.values()) + [paths["dir"] + "/x", paths["missing"] + "/x", paths["devnull"] + "/x"]
    if param.name == "plot_prefix":
        plain = PLAIN_NUMBERS | {paths[k] for k in PLAIN_FILES}
        values = [v for v in values if v not in plain]
    return values


@settings(max_examples=1000, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_hostile_values_give_one_line_and_exit_2_or_an_answer(files, data):
    paths, good = files
    name, param = data.draw(st.sampled_from(CASES), label="parameter")
    value = data.draw(st.sampled_from(hostile_values(param, paths)), label="value")
    args = [name] + invocation(name, param, value, good)
    result = CliRunner().invoke(main, args, catch_exceptions=True)
    crashed = result.exception is not None and not isinstance(result.exception, SystemExit)
    assert not crashed, f"{args}: {type(result.exception).__name__}: {result.exception}"
    assert result.exit_code in (0, 1, 2), f"{args}: exit {result.exit_code}"
    text = result.stdout + result.stderr
    assert "Traceback" not in text, args
    if result.exit_code == 2:
        lines = [line for line in result.stderr.splitlines() if line.strip()]
        assert len(lines) == 1 and lines[0].startswith("solitaire: "), f"{args}: {result.stderr!r}"


def test_every_command_has_a_base_invocation():
    missing = sorted(set(main.commands) - set(BASE))
    assert not missing, f"add a base invocation for {missing}"


def test_a_fifo_given_as_a_deal_file_is_refused_not_read(files):
    paths, _ = files
    result = CliRunner().invoke(main, ["solve", "klondike", "--deal", paths["fifo"]])
    assert result.exit_code == 2 and "not a regular file" in result.stderr


def test_a_byte_order_mark_is_not_part_of_a_deal_file(files, tmp_path):
    _, good = files
    plain = CliRunner().invoke(main, ["convert", good["deal"], "--to", "json"])
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + open(good["deal"], "rb").read())
    converted = CliRunner().invoke(main, ["convert", str(path), "--to", "json"])
    assert converted.exit_code == 0, converted.stderr
    assert converted.stdout == plain.stdout


if __name__ == "__main__":   # pragma: no cover
    sys.exit(pytest.main([__file__, "-q"]))
