"""The two trees a comparison runs: this checkout (HEAD, or HEAD + uncommitted changes) and
an earlier commit checked out into a temporary git worktree."""

from __future__ import annotations

import contextlib
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def head_label() -> str:
    """HEAD's short hash, marked when the working tree (which is what runs) differs from it."""
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                          check=True).stdout.strip()
    if subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT, capture_output=True,
                      text=True, check=True).stdout.strip():
        head += " + uncommitted changes"
    return head


@contextlib.contextmanager
def base_worktree(commit: str) -> Iterator[Path]:
    """``commit`` checked out in a temporary worktree, removed afterwards."""
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "base"
        subprocess.run(["git", "worktree", "add", "--detach", "-q", str(base), commit], cwd=ROOT, check=True)
        try:
            yield base
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(base)], cwd=ROOT, check=True)
