"""What makes a path unfit to read or write: the checks every command makes before it
opens a file, so that a directory, a FIFO or a device is one clear error, not a
traceback or a read that never returns."""

from __future__ import annotations

import os
import stat
from pathlib import Path


def unreadable(path) -> str | None:
    """Why ``path`` cannot be read as a file (None when it can)."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "cannot read file: no such file"
    except OSError as err:
        return f"cannot read file: {err.strerror}"
    if stat.S_ISDIR(mode):
        return "is a directory, not a file"
    if not stat.S_ISREG(mode):
        return "not a regular file (a pipe or a device)"
    if not os.access(path, os.R_OK):
        return "cannot read file: permission denied"
    return None


def unwritable(path) -> str | None:
    """Why a file cannot be written at ``path`` (None when it can): its folder missing or
    read-only, or the path a directory or something other than a regular file."""
    path = Path(path)
    if path.exists():
        mode = path.stat().st_mode
        if stat.S_ISDIR(mode):
            return "is a directory, not a file"
        if not stat.S_ISREG(mode):
            return "not a regular file (a pipe or a device)"
        if not os.access(path, os.W_OK):
            return "not writable"
        return None
    parent = path.parent
    if not parent.exists():
        return f"no such directory {str(parent)!r}"
    if not parent.is_dir():
        return f"{str(parent)!r} is not a directory"
    if not os.access(parent, os.W_OK):
        return f"cannot write in {str(parent)!r}"
    return None
