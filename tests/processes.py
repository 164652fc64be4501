"""What /proc says of a test's processes: their children, all their descendants, whether one still runs."""
from __future__ import annotations


def children(pid: int) -> list[int]:
    """The process's children (OSError when it is gone)."""
    with open(f"/proc/{pid}/task/{pid}/children") as f:
        return [int(c) for c in f.read().split()]


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
