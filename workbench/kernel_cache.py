"""Numba's disk cache, one folder per state of the package's source.

Numba reloads a cached kernel while the file that defines it is unchanged, even when a function it
inlines from another file has changed (numba's docs, "Cache invalidation"): after a pull that edits
only squares/cuts.py, the search compiled from squares/dfs.py would run the old cuts from disk. Keying
the folder by a digest of every source file of the package makes any edit a cold cache instead (4 ms
a start). A NUMBA_CACHE_DIR given by the user is kept as given; worker processes inherit ours."""
from __future__ import annotations

import hashlib
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
KEEP_DAYS = 14                 # folders of other source states unused this long are removed


def source_digest(package: Path = PACKAGE) -> str:
    """A digest of every .py file of the package, names and contents."""
    digest = hashlib.blake2b(digest_size=8)
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def default_root() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")) / "workbench" / "numba"


def use_keyed_cache(root: Path | None = None, package: Path = PACKAGE) -> Path | None:
    """Point numba at the folder of this source state, unless NUMBA_CACHE_DIR is set already.
    Returns the folder chosen."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return None
    roots = [root] if root else [default_root(), Path(tempfile.gettempdir()) / "workbench-numba"]
    folder = next((f for f in (keyed_folder(r, package) for r in roots) if _writable(f)), None)
    if folder is None:           # nowhere to write: numba's own places, as without this module
        return None
    os.environ["NUMBA_CACHE_DIR"] = str(folder)
    if "numba" in sys.modules:                   # imported before us: its config read the old value
        from numba.core import config
        config.reload_config()
    return folder


def keyed_folder(root: Path, package: Path = PACKAGE) -> Path:
    """The cache folder of the package's source state under root; the folders of other states left
    unused for KEEP_DAYS are removed when a new state first appears."""
    folder = root / source_digest(package)
    if folder.exists():
        _touch(folder)                           # in use: not stale for the other states' clean-up
    else:
        _remove_stale(root, time.time() - KEEP_DAYS * 86400)
    return folder


def _writable(folder: Path) -> bool:
    """Numba given a folder it cannot write fails at the first cached kernel, so check first."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    return os.access(folder, os.W_OK)


def _touch(folder: Path) -> None:
    try:
        os.utime(folder)
    except OSError:
        pass


def _remove_stale(root: Path, before: float) -> None:
    try:
        for other in root.iterdir():
            if other.is_dir() and other.stat().st_mtime < before:
                shutil.rmtree(other, ignore_errors=True)
    except OSError:              # no cache yet, or not ours to clean: numba makes what it needs
        pass
