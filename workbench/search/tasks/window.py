"""The one windowed loop that keeps a pool's workers busy, for the split searches and the stones
record hunt alike."""
from __future__ import annotations

import concurrent.futures as cf
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

R = TypeVar("R")

WINDOW = 4                  # tasks in flight per worker


def timed(kernel: Callable[..., R], *args: Any) -> tuple[R, float]:
    """The kernel's outcome and the CPU seconds of the worker thread that ran it: a journal's
    task-seconds. CPU time, not the clock: a task that waited in the window, shared its core with
    another process or lay in a stopped run (a pause for a measurement) would otherwise count
    that time as its own, and the projections made from the journal with it."""
    began = time.thread_time()
    return kernel(*args), time.thread_time() - began


@dataclass(frozen=True)
class Job:
    """One job for `window`: its name (what take() and done() know it by), the worker slots it
    holds, and the call that runs it on a worker."""

    name: Any
    slots: int
    call: Callable[..., Any]
    args: tuple[Any, ...]


def window(pool: cf.Executor, slots: int, take: Callable[[int, Sequence[tuple[Any, float]]], Job | None],
           done: Callable[[Any, Any, float], None], between: Callable[[], None] | None = None) -> None:
    """The one windowed loop: keep `slots` worker slots busy with the jobs take(free slots, running
    jobs as (name, began)) hands out (None: nothing more for now; a job may hold more than what is
    free only when nothing runs), and pass each result to done(name, result, began) as it arrives,
    then ask for more. between() runs at least once a second, for what jobs pass on while they run.
    The split searches (_drain) and the stones record hunt (its jobs chosen from the results so
    far) both run on it; it returns when nothing runs and take() hands out nothing."""
    running: dict[cf.Future[Any], tuple[Job, float]] = {}

    def refill() -> None:
        while (held := sum(job.slots for job, _ in running.values())) < slots:
            job = take(slots - held, [(job.name, began) for job, began in running.values()])
            if job is None:
                break
            running[pool.submit(job.call, *job.args)] = job, time.monotonic()

    refill()
    while running:
        finished, _ = cf.wait(running, timeout=1.0, return_when=cf.FIRST_COMPLETED)
        if between is not None:
            between()
        for future in finished:
            job, began = running.pop(future)
            done(job.name, future.result(), began)
        refill()
