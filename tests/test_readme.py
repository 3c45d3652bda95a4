"""README's quick start is what CI runs, so a user's first command is the tested one."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def ci_commands() -> list[str]:
    return [ln.strip() for ln in ROOT.joinpath(".ci/run").read_text().splitlines()
            if ln.strip() and not ln.lstrip().startswith(("#", "set ", "cd "))]


def test_ci_runs_the_readme_test_command_then_the_slow_suite():
    readme = ROOT.joinpath("README.md").read_text()
    lines = ci_commands()
    tests = [i for i, line in enumerate(lines) if "pytest" in line]
    # the install lines first (only what the machine lacks: the browser of tests/test_browser.py),
    # then README's test command as README writes it, then the slow suite README names
    assert len(tests) == 2 and tests[1] == len(lines) - 1
    assert lines[tests[0]] in readme and lines[tests[0]].endswith("-m pytest -q -n auto")
    assert lines[tests[1]] == ".venv/bin/python -m pytest -q -m slow" and lines[tests[1]] in readme
    assert all("apt-get install" in line for line in lines[:tests[0]])


def test_the_default_suite_leaves_the_slow_one_out():
    pyproject = ROOT.joinpath("pyproject.toml").read_text()
    assert "-m 'not slow'" in pyproject
