"""Exact search for the stepping-stones puzzle (OEIS A337663): the `search` backend.

The kernel (kernel.py) cuts the tree at a fixed value into independent tasks (the frontier); they
are shuffled and handed out in small chunks to a pool of threads (the kernel releases the GIL):
task sizes vary a lot, so a fixed split would leave a core idle. Between chunks Python honours the
time limit and logs progress. Each chunk's outcome is merged into the whole (Outcome.merge).
For n >= 6 (or --hunt) the backend runs the record hunt (record.py) instead.
"""
from __future__ import annotations

import os
import sys
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import Any, TextIO

import numpy as np

from ...search.deadline import Deadline
from ...search.outcome import Outcome
from ...solvers.base import Incumbent, Options, Report, Result, Status
from . import record
from .kernel import dedupe, frontier, run_chunk

CHUNK = 16                     # tasks per hand-out: small, so the threads finish together
CUTS = {1: 3, 2: 3, 3: 4, 4: 6, 5: 6}   # the value the tree is cut at, by n (7 above)

Board = list[list[int]]


def default_cut(n: int) -> int:
    return CUTS.get(n, 7)


def search(n: int, time_limit: float | None = None, threads: int = 2, seed: int = 0,
           cut: int | None = None, log: TextIO | None = None, report: Report | None = None) -> Outcome[Board]:
    """Exhaustive search for a(n): the largest number reachable with n ones (n <= 8). The outcome
    is complete when every task was searched to the end (a proof); its tasks are the frontier's."""
    if not 1 <= n <= 8:
        raise ValueError("the exact search handles 1 <= n <= 8 (at most two groups)")
    deadline = Deadline.after(time_limit)
    cut = cut if cut is not None else default_cut(n)
    front, total = frontier(n, cut, deadline)
    if report is not None and total.witness:
        report(Incumbent(total.best, None, total.witness))
    if front is None:                   # the deadline came before the tasks were made
        return Outcome(total.best, total.witness, positions=total.positions, complete=False, maximise=True)
    front = dedupe(front, deadline)
    order = np.random.default_rng(seed).permutation(len(front))
    threads = max(1, min(threads, os.cpu_count() or 1))
    chunks = [order[i:i + CHUNK] for i in range(0, len(order), CHUNK)]
    logged = 0
    with ThreadPoolExecutor(threads) as pool:
        pending: set[Future[Outcome[Board]]] = {pool.submit(run_chunk, front, c, deadline)
                                                for c in chunks[:4 * threads]}
        queued = iter(chunks[4 * threads:])
        while pending:
            finished, pending = wait(pending, timeout=1.0, return_when=FIRST_COMPLETED)
            for future in finished:
                part = future.result()
                if part.beats(total) and report is not None:
                    report(Incumbent(part.best, None, part.witness))
                total = total.merge(part)
            if not deadline.passed():      # past it: running chunks stop at the clock
                for c in queued:
                    pending.add(pool.submit(run_chunk, front, c, deadline))
                    if len(pending) >= 4 * threads:
                        break
            if log is not None and (total.tasks - logged >= len(order) // 200 or not pending):
                logged = total.tasks
                print(f"{deadline.elapsed():9.1f}s tasks {total.tasks}/{len(order)} positions "
                      f"{total.positions:,} best {total.best}", file=log, flush=True)
    return Outcome(total.best, total.witness, positions=total.positions,
                   complete=total.complete and total.tasks == len(order), tasks=len(order), maximise=True)


def warm_up() -> None:
    """Compile the exact search and the record hunt (numba caches them on disk)."""
    search(1, threads=1)
    record.warm_up()


def solve(n: int | None, params: Any, options: Options, report: Report) -> Result:
    """The native search: exhaustive for n <= 5 (or --exact, n <= 8; the proof is the complete
    enumeration), the record hunt (record.py) for n >= 6 or with --hunt."""
    assert n is not None
    if (n >= 6 and not params.exact) or params.hunt:
        return record.solve(n, params, options, report)
    log = sys.stderr if options.verbose else None
    cut = default_cut(n) if params.cut is None else params.cut
    out = search(n, options.time_limit, options.threads, options.seed, cut, log, report)
    board = out.witness or []
    if not board and out.best == 1:
        board = [[0, 0, 1]]             # no 2 can be placed: a lone one is the whole board
    status = Status.OPTIMAL if out.complete else Status.FEASIBLE
    return Result(status=status, objective=out.best, bound=out.best if out.complete else None,
                  values=board, solution=board,
                  message=f"{out.positions:,} positions, {out.tasks} tasks cut at {cut}"
                          + ("" if out.complete else " (time limit: incomplete)"))


if __name__ == "__main__":
    import argparse
    ap = argparse.ArgumentParser(description="exact stepping-stones search with a progress log")
    ap.add_argument("n", type=int)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--cut", type=int, default=None)
    ap.add_argument("--time-limit", type=float, default=None)
    a = ap.parse_args()
    res = search(a.n, a.time_limit, a.threads, cut=a.cut, log=sys.stdout)
    print({"best": res.best, "complete": res.complete, "positions": res.positions, "tasks": res.tasks})
    print(res.witness)
