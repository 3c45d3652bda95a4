"""Numba's on-disk cache, kept true to the sources it was compiled from.

Numba reloads a function compiled with ``cache=True`` while the file that defines
it is unchanged (same modification time and size), even when a function it
inlines, or a global table it froze in, lives in another file that has changed.
The kernels of a game are split over several modules and inline each other, and
the engine's loops inline the table's probes, so an edit of one module (or a
``git checkout``) could leave stale machine code behind: a wrong verdict with no
error. So each package that holds compiled code calls :func:`keep_fresh` before
its modules are imported: when the sources it depends on differ from those of the
last check, it touches them all, and Numba compiles them again.

Pure Python (no Numba import): a game package calls it on every import.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

HERE = Path(__file__).resolve().parent
STAMP = "numba-sources.sha1"


def _compiled_sources(folder: Path) -> list[Path]:
    return sorted(p for p in folder.glob("*.py") if "numba" in p.read_text(encoding="utf-8"))


def keep_fresh(package_file: str, *shared: str) -> None:
    """Before the package of ``package_file`` (its ``__init__.py``) loads compiled code:
    if its modules that use Numba, or the ``shared`` files they draw on, changed since
    the last check, touch those modules so that Numba's cache of them is not used."""
    folder = Path(package_file).resolve().parent
    own = _compiled_sources(folder)
    digest = hashlib.sha1()
    for path in own + [Path(p).resolve() for p in shared]:
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    stamp = folder / "__pycache__" / STAMP
    try:
        if stamp.read_text() == digest.hexdigest():
            return
    except OSError:
        pass
    try:
        for path in own:
            os.utime(path)   # a new modification time: Numba compiles the module again
        stamp.parent.mkdir(exist_ok=True)
        stamp.write_text(digest.hexdigest())
    except OSError:
        pass   # an installed, read-only copy: its files never change under its cache


def shared_kernel_sources() -> tuple[str, ...]:
    """The files every game's kernels draw on besides their own: the engine's contract
    (its signatures and hash mixer) and the card bit tables."""
    return str(HERE / "contract.py"), str(HERE.parent / "games" / "cardbits.py")
