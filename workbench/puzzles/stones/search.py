"""Exact search for the stepping-stones puzzle (OEIS A337663): the `search` backend.

The kernel (kernel.py) cuts the tree at a fixed value into independent tasks (the frontier); they
are shuffled and handed out in small chunks on the task layer (threads or a Dask cluster): task
sizes vary a lot, so a fixed split would leave a core idle. A task that reaches SPLIT_AFTER
positions hands the rest of its work back: every move not yet tried on its current path becomes a
board of its own, and these run as new tasks (`Part`s), again if need be. So the rare giant
subtree (a(6) has subtrees of more than 1e9 positions) is spread over the workers instead of
holding up the end of the run, and no work is thrown away. Each task's outcome is merged into the
whole (Outcome.merge).
For n >= 6 (or --formulation hunt) the backend runs the record hunt (hunt/) instead.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

import numpy as np

from ...models.core import OPTIMISE, Options, Question
from ...search import tasks
from ...search.deadline import NEVER, Deadline
from ...search.journal import Codec, integer
from ...search.outcome import Outcome, Progress
from ...search.tasks import Settings, Split
from .check import check, parse_board
from .hunt import run as hunt
from .kernel import dedupe, frontier, run_chunk
from .moves import MARGIN, MAXC, MAXL, MAXS, H, W

CHUNK = 16                     # tasks per hand-out: small, so the threads finish together
SPLIT_AFTER = 200_000_000      # positions after which a task hands the rest back (about a minute on one core)
CUTS = {1: 3, 2: 3, 3: 4, 4: 6, 5: 6}   # the value the tree is cut at, by n (7 above)

Board = list[list[int]]


def default_cut(n: int) -> int:
    return CUTS.get(n, 7)


_FRONTIERS: dict[tuple[int, int], tuple[np.ndarray, Outcome[Board]]] = {}


def tasks_of(n: int, cut: int, deadline: Deadline = NEVER) -> tuple[np.ndarray | None, Outcome[Board]]:
    """The frontier boards (deduplicated) and the outcome above the cut: the same in every process
    that builds them (once), so a task needs to carry only its indices into the frontier. None for
    the boards when the deadline comes first."""
    if (n, cut) not in _FRONTIERS:
        front, above = frontier(n, cut, deadline)
        if front is None:
            return None, above
        _FRONTIERS[n, cut] = dedupe(front), above
    return _FRONTIERS[n, cut]


@dataclass(frozen=True)
class Chunk:
    """Frontier boards by their indices into the shared frontier of (n, cut)."""

    n: int
    cut: int
    indices: np.ndarray
    cap: int = SPLIT_AFTER
    target: int = 0
    count: bool = False

    def boards(self) -> tuple[np.ndarray, np.ndarray]:
        front, _ = tasks_of(self.n, self.cut)
        assert front is not None
        return front, self.indices


@dataclass(frozen=True)
class Part:
    """Boards handed back by a capped task, carried whole: they are below the shared frontier."""

    front: np.ndarray
    cap: int = SPLIT_AFTER
    target: int = 0
    count: bool = False

    def boards(self) -> tuple[np.ndarray, np.ndarray]:
        return self.front, np.arange(len(self.front))


def run_task(task: Chunk | Part, stop_at: float) -> Outcome[Board]:
    """One task, searched where it lands (a thread here, or a Dask worker that builds the frontier
    once); after `task.cap` positions the rest comes back as parts of CHUNK boards. `stop_at` is a
    time.time() instant (inf: no limit)."""
    front, indices = task.boards()
    out, rest = run_chunk(front, indices, Deadline.at_wall(stop_at), task.cap, task.target, task.count)
    return replace(out, parts=tuple(Part(rest[i:i + CHUNK], task.cap, task.target, task.count)
                                    for i in range(0, len(rest), CHUNK)))


def _board_in(raw: Any) -> Board:
    parse_board(raw)                  # raises ValueError on anything but [row, col, value] integer triples
    return [list(t) for t in raw]


def _part_out(part: Part) -> dict[str, Any]:
    return ({"front": part.front.tolist(), "cap": part.cap} | ({"target": part.target} if part.target else {})
            | ({"count": True} if part.count else {}))


def _part_in(raw: Any) -> Part:
    """A handed-back part from a journal, each board checked against the kernel's limits before it
    is searched: the compiled kernel indexes its arrays with these numbers unchecked."""
    if not isinstance(raw, dict) or not {"front", "cap"} <= set(raw) <= {"front", "cap", "target", "count"}:
        raise ValueError("a part is {front, cap} with a target and a count flag or not")
    if raw.get("count", True) is not True:
        raise ValueError("a part's count flag is not true")
    front = np.array(raw["front"], dtype=object)
    if front.ndim != 3 or not 0 < len(front) <= CHUNK or not 2 < front.shape[1] <= 2 + MAXC or front.shape[2] != 2:
        raise ValueError(f"a part's boards have the shape {front.shape}")
    if not all(type(x) is int and 0 <= x < H * W for x in front.flat):
        raise ValueError("a part's boards hold numbers that are not cells")
    front = front.astype(np.int64)
    rows, cols, values = front[:, 2:, 0] // W, front[:, 2:, 0] % W, front[:, 2:, 1]
    used = np.arange(front.shape[1] - 2)[None, :] < front[:, 0, 0][:, None]
    if ((front[:, 0, 0] > front.shape[1] - 2) | (front[:, 0, 1] < 2) | (front[:, 0, 1] >= MAXL)
            | (front[:, 1, 0] > 8) | (front[:, 1, 1] > 1)).any():
        raise ValueError("a part's board has a header out of range")
    inside = (rows >= MARGIN) & (rows < H - MARGIN) & (cols >= MARGIN) & (cols < W - MARGIN)
    if (used & ~(inside & (values >= 1) & (values < MAXS))).any():
        raise ValueError("a part's board has a cell out of range")
    return Part(front, integer(raw["cap"], "cap"), integer(raw.get("target", 0), "target", below=MAXS),
                "count" in raw)


def _value(n: int, board: Board) -> int:
    """The board's value by the independent checker (check.py), which replays it by the rules."""
    verdict = check(n, board)
    if not verdict.ok or verdict.objective is None:
        raise ValueError(f"the checker rejects its board: {verdict.message}")
    return int(verdict.objective)


def codec(n: int) -> Codec:
    """How a stones journal stores boards and parts, and measures a board."""
    return Codec(witness_in=_board_in, part_out=_part_out, part_in=_part_in, value=partial(_value, n))


def search(n: int, settings: Settings | None = None, seed: int = 0, cut: int | None = None,
           report: Progress | None = None, split_after: int = SPLIT_AFTER, target: int = 0,
           count: bool = False) -> Outcome[Board]:
    """Exhaustive search for a(n): the largest number reachable with n ones (n <= 8). The tasks are
    chunks of the shuffled frontier (task sizes vary a lot: shuffled small chunks finish together)
    on the task layer's threads or cluster; a task hands the rest of its work back after
    `split_after` positions; complete when every task was searched to the end.
    With a target (> 0) only boards that can still reach it are searched to the end: a best >= target
    is a(n), proven; below it the search proves a(n) < target (bound target - 1), and its best is
    only a board found on the way (complete, and so proven, when it is target - 1). The use: a board
    of value L from the hunt, then target L + 1. With `count` (and a target) the outcome also holds
    every board of the best value up to symmetry, when the best reaches the target: count and
    examples (the use: target a(n) counts the optimal boards while it proves a(n))."""
    if not 1 <= n <= 8:
        raise ValueError("the exact search handles 1 <= n <= 8 (at most two groups)")
    settings = settings or Settings(journal=False, quiet=True)
    cut = cut if cut is not None else default_cut(n)
    if count and not target > cut:
        raise ValueError("counting the best boards needs a target above the cut")
    deadline = Deadline.after(settings.time_limit)
    front, above = tasks_of(n, cut, deadline)
    if report is not None and above.witness:
        report(replace(above, complete=False))
    if front is None:                   # the deadline came before the tasks were made
        return Outcome(above.best, above.witness, positions=above.positions, complete=False, maximise=True)
    order = np.random.default_rng(seed).permutation(len(front))
    chunks = [Chunk(n, cut, order[i:i + CHUNK], split_after, target, count) for i in range(0, len(order), CHUNK)]
    params = {"n": n, "cut": cut, "seed": seed, "chunk": CHUNK, "split after": split_after} | \
        ({"target": target} if target else {}) | ({"count": True} if count else {})
    split = Split("stones", params, chunks, run_task, maximise=True, codec=codec(n))

    def better(part: Outcome[Board]) -> None:
        if report is not None:
            report(replace(part, complete=False))

    left = None if settings.time_limit is None else deadline.left()
    out = tasks.run(split, replace(settings, time_limit=left), above, better)
    if target and out.complete and (out.best or 0) < target - 1:
        return replace(out, complete=False, bound=target - 1)
    if count:       # tasks may meet the same board in other orientations: one of each
        distinct = tuple(sorted({tuple(map(tuple, b)): b for b in out.examples}.values()))
        return replace(out, count=len(distinct), examples=distinct)
    return out


def warm_up() -> None:
    """Compile the exact search and the record hunt (numba caches them on disk)."""
    search(3)     # n = 3 has frontier tasks, so run_chunk is compiled too (search(1) had none)
    hunt.warm_up()


def solve(n: int | None, params: Any, options: Options, report: Progress,
          question: Question = OPTIMISE) -> Outcome[Board]:
    """The exact method: exhaustive (n <= 8), the proof is the complete enumeration. (The record hunt,
    hunt/, is the other method.) With --all the optimal boards are counted up to symmetry, each one
    replayed by the checker first."""
    assert n is not None
    cut = default_cut(n) if params.cut is None else params.cut
    settings = Settings.of(options, options.time_limit)
    out = search(n, settings, options.seed, cut, report, target=params.target or 0, count=params.all)
    board = out.witness or []
    if not board and out.best == 1:
        board = [[0, 0, 1]]             # no 2 can be placed: a lone one is the whole board
    below = params.target and out.bound == params.target - 1
    counted = params.all and out.complete and out.best is not None and out.best >= params.target
    if counted and any(_value(n, b) != out.best for b in out.examples):
        raise RuntimeError("the checker rejects a counted board")
    return replace(out, witness=board, count=out.count if counted else 0, examples=(),
                   message=f"{out.positions:,} positions, {out.tasks} tasks cut at {cut}"
                           + (f", {out.count} optimal boards up to symmetry" if counted else "")
                           + ("" if out.complete else f" (no board reaches {params.target}: proven)" if below
                              else " (time limit: incomplete)"))


def projection(n: int, cut: int, sample: int, seconds: float, per_task: float, seed: int = 0,
               target: int = 0) -> dict[str, float]:
    """What the whole exact search would cost, from a uniform random sample of its frontier tasks
    searched to the end on one core (the mean times the number of tasks is unbiased; a task cut
    short by `per_task` makes the figures lower bounds), with the target prune when target > 0.
    Why: a(6) takes core-weeks, so its sharding is planned from a sample."""
    front, _ = tasks_of(n, cut)
    assert front is not None
    stop = Deadline.after(seconds)
    positions, spent, short = [], [], 0
    for i in np.random.default_rng(seed).choice(len(front), min(sample, len(front)), replace=False):
        if stop.passed():
            break
        began = time.monotonic()
        out, _ = run_chunk(front, np.array([i]), Deadline.after(per_task), target=target)
        positions.append(out.positions)
        spent.append(time.monotonic() - began)
        short += not out.complete
    done = len(spent)
    return {"tasks": len(front), "sampled": done, "cut short": short,
            "positions": float(np.mean(positions)) * len(front),
            "core-seconds": float(np.mean(spent)) * len(front),
            "core-seconds, 2 standard errors": 2 * float(np.std(spent, ddof=1)) / math.sqrt(done) * len(front)}


if __name__ == "__main__":
    import argparse
    ap = argparse.ArgumentParser(description="exact stepping-stones search with a progress log")
    ap.add_argument("n", type=int)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--cut", type=int, default=None)
    ap.add_argument("--time-limit", type=float, default=None)
    ap.add_argument("--project", type=int, metavar="SAMPLE",
                    help="instead: project the whole search's cost from SAMPLE random tasks (one core, "
                         "--time-limit seconds in all, at most 300 s a task)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--target", type=int, default=0,
                    help="search only for boards reaching TARGET: proves a(n) < TARGET when none is found")
    ap.add_argument("--split-after", type=float, default=SPLIT_AFTER,
                    help="positions after which a task hands the rest of its work back (0: never)")
    a = ap.parse_args()
    if a.project:
        print(projection(a.n, default_cut(a.n) if a.cut is None else a.cut, a.project, a.time_limit or 600, 300.0,
                         a.seed, a.target))
    else:
        res = search(a.n, Settings(a.threads, a.time_limit, journal=False), cut=a.cut, split_after=int(a.split_after),
                     target=a.target)
        print({"best": res.best, "complete": res.complete, "bound": res.bound, "positions": res.positions,
               "tasks": res.tasks})
        print(res.witness)
