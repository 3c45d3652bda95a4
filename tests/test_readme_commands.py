"""Every `solitaire` command README.md shows runs as shown.

The commands are read from README's indented code blocks (a line that starts with
``solitaire``) and run one after another in one empty folder, as a reader would type
them: ``> FILE`` sends the output to a file, which later commands read. Each must end
with exit 0 and no traceback. The one that names a Dask scheduler gets a scheduler on
this machine, as README says to start one.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from solver.cli import main

README = Path(__file__).resolve().parents[1] / "README.md"


def readme_commands() -> list[str]:
    out = []
    for line in README.read_text(encoding="utf-8").splitlines():
        if line.startswith("    solitaire "):
            out.append(line.strip())
    return out


def test_readme_shows_commands():
    assert len(readme_commands()) >= 20


@pytest.fixture
def scheduler():
    """A Dask scheduler on 127.0.0.1:8786 with one worker, as README's cluster section starts."""
    from solver.studies import local_cluster

    cluster = local_cluster(1, scheduler_port=8786, host="127.0.0.1")
    try:
        yield cluster
    finally:
        cluster.close()


def run_line(line: str):
    words = shlex.split(line)
    target = None
    if ">" in words:
        i = words.index(">")
        words, target = words[:i], words[i + 1]
    assert words[0] == "solitaire"
    result = CliRunner().invoke(main, words[1:], catch_exceptions=True)
    if target is not None:
        Path(target).write_text(result.stdout)
    return result


@pytest.mark.slow
def test_every_readme_command_runs_as_shown(tmp_path, monkeypatch, request):
    monkeypatch.chdir(tmp_path)
    for line in readme_commands():
        if "--scheduler" in line:
            request.getfixturevalue("scheduler")
        result = run_line(line)
        crashed = result.exception is not None and not isinstance(result.exception, SystemExit)
        assert not crashed, f"{line}: {type(result.exception).__name__}: {result.exception}"
        assert result.exit_code == 0, f"{line}: exit {result.exit_code}: {result.stderr}"
        assert "Traceback" not in result.stdout + result.stderr, line


def test_the_quick_start_commands_are_the_ones_ci_and_readme_agree_on():
    text = README.read_text(encoding="utf-8")
    assert re.search(r"^    python3 -m venv \.venv && \.venv/bin/pip install -q -e \. && \.venv/bin/solitaire solve "
                     r"klondike --seed 1$", text, re.M)
