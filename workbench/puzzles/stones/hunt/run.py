"""The hunt itself: its jobs run on the task layer (tasks.window on tasks.executor), each chosen by
the plan from the results so far; and the hunt as the `hunt` method's answer (solve)."""
from __future__ import annotations

import queue
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ....models.core import OPTIMISE, Options, Question
from ....search import tasks
from ....search.deadline import Deadline
from ....search.outcome import Outcome, Progress
from ....search.tasks import Settings
from ..check import check
from ..kernel import subtree
from .beam import FILTERS, LEXICOGRAPHIC, beam
from .lookahead import finish, lookahead
from .plan import Ending, Found, HuntOptions, Job, Plan, Ranked, Records, Sweep, book
from .store import load_store, read_store, save_store, store_path
from .sweep import sweep_order


def run_job(job: Job, stop_at: float,
            stream: Callable[[int, int, list[list[int]]], None] | None = None) -> Found | Ranked:
    """The hunt's kernel on the task layer's executor (threads or Dask workers): a beam run, an
    exhaustive ending or a sweep's ranking, cut at the wall-clock instant stop_at. Returns the best
    board per ones count (a sweep: its boards in order); a beam run on threads also passes each
    board to `stream` as it finds it (a lookahead job takes minutes)."""
    if isinstance(job, Sweep):
        return sweep_order(job.ones, job.seed, FILTERS[job.filter], job.threads, Deadline.at_wall(stop_at), job.width)
    if isinstance(job, Ending):
        value, board = finish(job.n, job.board, min(job.seconds, max(0.0, stop_at - time.time())))
        return {sum(1 for *_, v in board if v == 1): (value, board)}
    found: Found = {}

    def keep(ones: int, value: int, board: list[list[int]]) -> None:
        found[ones] = (value, board)
        if stream is not None:
            stream(ones, value, board)

    if job.worth > 0:
        lookahead(job.nmax, job.width, job.seed, FILTERS[job.filter], list(job.start) or None,
                  Deadline.at_wall(stop_at), keep, job.worth, threads=job.threads)
    else:
        beam(job.nmax, job.width, np.array(job.weights), job.seed, FILTERS[job.filter], list(job.start) or None,
             Deadline.at_wall(stop_at), keep, job.horizon)
    return found


def hunt(n: int, time_limit: float | None, how: HuntOptions = HuntOptions(),  # noqa: B008 - frozen
         log: Callable[[str], None] | None = None,
         on_best: Callable[[int, list[list[int]]], None] | None = None,
         on_record: Callable[[int, int, list[list[int]]], None] | None = None,
         start: Found | None = None) -> tuple[Records, int]:
    """Beam runs and exhaustive endings until the time limit (None: 60 s), one per worker of the
    task layer's executor (threads, or a Dask cluster), each planned from the best board so far;
    on threads, a lookahead beam takes them all.
    Records for every ones count up to nmax, from `start` if given; on_record(ones, value, board)
    for each improvement of any count, on_best(value, board) for each new best board with at most
    n ones. Returns the records and the number of beam runs."""
    limit = 60.0 if time_limit is None else time_limit
    deadline = Deadline.after(limit)
    stop_at = time.time() + limit
    local = how.cluster is None
    plan = Plan(n, max(n, how.nmax or n), how.width, how.filter, how.seed, limit, how.lookahead,
                max(1, how.threads) if local else 1, how.sweep_share(n))
    plan.absorb(start or {})

    def absorb(found: Found) -> None:
        old = plan.best()[0]
        for u, v, b in plan.absorb(found):
            if on_record is not None:
                on_record(u, v, b)
        best, board = plan.best()
        if best > old and board is not None:
            if log is not None:
                log(f"{deadline.elapsed():8.1f}s best {best} with {sum(1 for *_, v in board if v == 1)} ones")
            if on_best is not None:
                on_best(best, board)

    def done(job: Job, found: Found | Ranked, began: float) -> None:
        book(plan.spent, job, time.monotonic() - began)
        if isinstance(job, Sweep):
            assert isinstance(found, list)
            plan.ranked(job.ones, found)
            if log is not None:
                log(f"{deadline.elapsed():8.1f}s class sweep for {job.ones} ones: {len(found)} boards to finish")
            return
        assert isinstance(found, dict)
        absorb(found)
        if log is not None:
            best = plan.best()[0]
            most = job.n if isinstance(job, Ending) else job.ones or n
            got = max([v for u, (v, _) in found.items() if u <= most], default=0)
            what = (f"{job.origin}" if isinstance(job, Ending) else
                    f"run width {job.width}{job.origin}{f' horizon {job.horizon}' if job.horizon < 1 << 20 else ''}")
            log(f"{deadline.elapsed():8.1f}s {what}: reached {got} (best {best})")

    streamed: queue.SimpleQueue[tuple[int, int, list[list[int]]]] = queue.SimpleQueue()
    stream = (lambda u, v, b: streamed.put((u, v, b))) if local else None     # Dask jobs report when they end
    waiting: list[Job] = []            # a job that needs more workers than are free

    def slots(job: Job) -> int:
        return 1 if isinstance(job, Ending) else job.threads

    def next_job(free: int, running: Sequence[tuple[Job, float]]) -> tasks.Job | None:
        if deadline.passed():
            return None
        job = waiting.pop() if waiting else plan.next_job(deadline.left(), running)
        if running and slots(job) > free:
            waiting.append(job)
            return None
        return tasks.Job(job, slots(job), run_job, (job, stop_at, stream))

    def between() -> None:
        while not streamed.empty():
            u, v, b = streamed.get()
            absorb({u: (v, b)})

    with tasks.executor(Settings(threads=how.threads, cluster=how.cluster)) as (pool, workers):
        tasks.window(pool, workers, next_job, done, between)
    return plan.records, plan.runs


def warm_up() -> None:
    """Compile the kernels (numba caches them on disk): the beam, and the exact kernel that the
    endings, lookaheads and sweeps call (compiled on a fresh clone, it took a 4-s hunt's time)."""
    beam(2, 16, LEXICOGRAPHIC, 0)
    subtree(3, [[0, 0, 1], [1, 1, 2], [2, 2, 1]], 1000)


def solve(n: int, params: Any, options: Options, report: Progress, question: Question = OPTIMISE) -> Outcome[Any]:
    """The record hunt as the native search's answer: params.width, filter, nmax, resume; the seed,
    threads, cluster and time limit from the options. Each new board (for every ones count) is
    checked, then stored at once (store_path) with its drawing; each new best for n is reported."""
    if n < 2:                                 # no 2 can be placed: a lone one is the whole board
        return Outcome(1, [[0, 0, 1]], maximise=True)
    nmax = max(n, params.nmax or n)
    path = store_path()
    note = f"record hunt, width {params.width}, filter {params.filter}, nmax {nmax}, seed {options.seed}"

    def verified(ones: int, value: int, board: list[list[int]]) -> None:
        verdict = check(ones, board)
        if verdict.objective != value:
            raise RuntimeError(f"record hunt: a board the checker rejects ({verdict.message})")

    def on_record(ones: int, value: int, board: list[list[int]]) -> None:
        verified(ones, value, board)
        save_store(path, ones, value, board, note)

    def on_best(value: int, board: list[list[int]]) -> None:
        report(Outcome(value, board, complete=False, maximise=True))

    start = load_store(path, nmax)            # read first: a broken store ends the hunt before it runs
    start = start if params.resume else {}
    resumed_from = ""                         # read now: the hunt rewrites the store as it improves it
    if (resumed := max([(v, u) for u, (v, _) in start.items() if u <= n], default=None)) is not None:
        entry = read_store(path)[str(resumed[1])]
        resumed_from = (f", resumed from a stored board of {resumed[0]} ({entry.get('by', '?')}, "
                        f"found {entry.get('found', '?')})")
    log = (lambda line: print(line, file=sys.stderr, flush=True)) if options.verbose else None
    began = time.monotonic()
    how = HuntOptions(options.threads, options.seed, params.width, params.filter, nmax, options.cluster,
                      params.lookahead, params.sweep)
    records, runs = hunt(n, options.time_limit, how, log, on_best, on_record, start)
    value, board = records.best(n)
    board = board or [[0, 0, 1]]
    return Outcome(value, board, complete=False, maximise=True,
                   message=f"record hunt: {runs} beam runs of width up to {params.width} in "
                          f"{time.monotonic() - began:.0f} s, filter {params.filter}"
                          + (f", nmax {nmax}" if nmax > n else "") + resumed_from)
