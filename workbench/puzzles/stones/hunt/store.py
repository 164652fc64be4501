"""The hunt's store: the best board per ones count, kept across hunts in one JSON file (merged under
a file lock, each board replayed by the checker when read)."""
from __future__ import annotations

import fcntl
import json
import time
from pathlib import Path
from typing import Any

from ....errors import BrokenStore
from ....search.tasks import journals
from ..check import check, draw
from .plan import Found


def store_path() -> Path:
    """Where hunts keep their best boards: beside the task layer's journals."""
    return journals() / "hunts" / "stones.json"


def read_store(path: Path) -> dict[str, Any]:
    """The store's entries as saved; BrokenStore, with the path and the way out, when it cannot be read."""
    if not path.is_file():
        return {}
    try:
        data = json.loads(path.read_text())
    except (ValueError, UnicodeDecodeError, RecursionError) as e:
        data = e
    if not isinstance(data, dict):
        why = str(data).splitlines()[0] if isinstance(data, Exception) else "not a JSON object"
        raise BrokenStore(f"the hunt's store {path} cannot be read ({why}); move it away (a hunt then "
                          f"starts a new one) or mend it")
    return data


def replayed(key: str, entry: Any) -> tuple[int, int, list[list[int]]] | None:
    """(ones, value, board) of a stored entry whose board the checker replays to its value; None
    for any other entry (a hand edit, a bad board), which then neither counts nor blocks a record."""
    try:
        ones, value, board = int(key), entry["value"], entry["board"]
        verdict = check(ones, board)
    except (ValueError, TypeError, KeyError):
        return None
    return (ones, value, board) if verdict.ok and verdict.objective == value else None


def load_store(path: Path, nmax: int) -> Found:
    """The stored boards for up to nmax ones, each replayed by the checker (a board that fails is
    ignored)."""
    found: Found = {}
    for key, entry in read_store(path).items():
        if (good := replayed(key, entry)) is not None and good[0] <= nmax:
            found[good[0]] = good[1:]
    return found


def save_store(path: Path, ones: int, value: int, board: list[list[int]], note: str) -> None:
    """Add a board to the store at once (under a file lock, so that concurrent hunts merge), with
    its drawing beside it; a better stored board for that count stays, if the checker replays it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        data = read_store(path)
        held = replayed(str(ones), data.get(str(ones)))
        if held is not None and held[1] >= value:
            return
        data[str(ones)] = {"value": value, "board": board, "found": time.strftime("%Y-%m-%dT%H:%M:%S"),
                           "by": note}
        temp = path.with_suffix(".tmp")
        temp.write_text(json.dumps(data, indent=1, sort_keys=True))
        temp.replace(path)
        path.with_name(f"stones-{ones}-ones.txt").write_text(f"{check(ones, board).message}\n{draw(board)}\n")
