"""What /proc says of a test's processes: their children, all their descendants, whether one still runs."""
from __future__ import annotations

import os
import signal
import time

from workbench.solvers.runner import REAPER


def children(pid: int) -> list[int]:
    """The process's children but a worker's reaper, which each worker has (OSError when it is gone)."""
    with open(f"/proc/{pid}/task/{pid}/children") as f:
        return [int(c) for c in f.read().split() if name(int(c)) != REAPER]


def name(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/comm") as f:
            return f.read().strip()
    except OSError:
        return ""


def descendants(pid: int) -> set[int]:
    found, todo = set(), [pid]
    while todo:
        try:
            kids = children(todo.pop())
        except OSError:
            continue
        found.update(kids)
        todo += kids
    return found


def running(pid: int) -> bool:
    """Alive and not a zombie (the state follows the command's name, which may hold spaces)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def outlived(pids: set[int] | list[int], seconds: float = 5.0) -> list[str]:
    """The names of the processes still running after `seconds`, each then killed so that a
    failing test leaves nothing behind (empty when all ended)."""
    end = time.monotonic() + seconds
    while any(map(running, pids)) and time.monotonic() < end:
        time.sleep(0.1)
    left = [name(p) or str(p) for p in pids if running(p)]
    for p in pids:
        if running(p):
            os.kill(p, signal.SIGKILL)
    return left

