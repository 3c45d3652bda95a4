"""Numba's on-disk cache, kept true to the sources it was compiled from.

Numba reloads a function compiled with ``cache=True`` while the file that defines
it is unchanged (its index records a hash of that one file), even when a function
it inlines, or a global table it froze in, lives in another file that has changed.
The kernels of a game are split over several modules and inline each other, and
the engine's loops inline the table's probes, so an edit of one module (or a
``git checkout``) could leave stale machine code behind: a wrong verdict with no
error. So each package that holds compiled code calls :func:`keep_fresh` before
its modules are imported: when the sources it depends on differ from those of the
last check, it deletes the package's cached code, and Numba compiles it again.

Pure Python (no Numba import): a game package calls it on every import.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

CACHE_SUFFIXES = (".nbi", ".nbc")   # Numba's index and data files

HERE = Path(__file__).resolve().parent
STAMP = "numba-sources.sha1"


def _compiled_sources(folder: Path) -> list[Path]:
    return sorted(p for p in folder.glob("*.py") if "numba" in p.read_text(encoding="utf-8"))


def keep_fresh(package_file: str, *shared: str) -> None:
    """Before the package of ``package_file`` (its ``__init__.py``) loads compiled code:
    if its modules that use Numba, or the ``shared`` files they draw on, changed since
    the last check, delete Numba's cache of the package so that it compiles again."""
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
        for cache in cache_dirs(folder):
            for path in cache.iterdir():
                if path.suffix in CACHE_SUFFIXES:
                    path.unlink(missing_ok=True)
        stamp.parent.mkdir(exist_ok=True)
        stamp.write_text(digest.hexdigest())
    except OSError:
        pass   # an installed, read-only copy: its files never change under its cache


def cache_dirs(folder: Path) -> list[Path]:
    """Where Numba keeps the cache of the modules in ``folder``: beside them, and under
    ``NUMBA_CACHE_DIR`` when it is set (one folder per source folder, as Numba names it)."""
    out = [folder / "__pycache__"]
    root = os.environ.get("NUMBA_CACHE_DIR")
    if root:
        out.append(Path(root) / f"{folder.name}_{hashlib.sha1(str(folder).encode()).hexdigest()}")
    return [p for p in out if p.is_dir()]


def shared_kernel_sources() -> tuple[str, ...]:
    """The files every game's kernels may draw on besides their own: the engine's contract
    (its signatures and hash mixer) and the modules the games share (the card bit tables,
    the talon's dominance field), every file at the top of ``games`` whether it holds
    compiled code or tables compiled code freezes in."""
    return (str(HERE / "contract.py"),) + tuple(str(p) for p in sorted((HERE.parent / "games").glob("*.py")))
