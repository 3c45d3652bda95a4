"""README's quick start is what CI runs, so a user's first command is the tested one."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ci_runs_the_readme_test_command():
    readme = ROOT.joinpath("README.md").read_text()
    ci_lines = [ln.strip() for ln in ROOT.joinpath(".ci/run").read_text().splitlines()
                if ln.strip() and not ln.lstrip().startswith(("#", "set ", "cd "))]
    # the tests run once, last, by the README's command; the lines before it only install
    # what the machine lacks (the browser of tests/test_browser.py) and run no test
    assert ci_lines[-1] in readme and "pytest" in ci_lines[-1]
    assert not any("pytest" in line for line in ci_lines[:-1])
    assert all("apt-get install" in line for line in ci_lines[:-1])
