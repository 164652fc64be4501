"""The pool a split search's tasks run on: local threads (the numba kernels release the GIL) or
Dask distributed (`local:K` for a LocalCluster of K worker processes, `tcp://HOST:PORT` or a
scheduler file for a real cluster), both driven through the concurrent.futures interface."""
from __future__ import annotations

import concurrent.futures as cf
import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from ...errors import SchedulerUnreachable
from .settings import Settings


@contextlib.contextmanager
def executor(settings: Settings) -> Iterator[tuple[cf.Executor, int]]:
    """The pool the tasks run on, and how many workers it has."""
    if settings.cluster is None:
        threads = max(1, settings.threads)
        with cf.ThreadPoolExecutor(threads) as pool:
            yield pool, threads
        return
    from distributed import Client, LocalCluster

    with contextlib.ExitStack() as stack:
        where = settings.cluster
        if where.startswith("local:"):
            workers = int(where.partition(":")[2])
            cluster = stack.enter_context(LocalCluster(n_workers=workers, threads_per_worker=1,
                                                       dashboard_address=None, processes=True))
            client = stack.enter_context(Client(cluster))
        else:
            client = stack.enter_context(_connect(where, settings.time_limit))
        workers = max(1, len(client.scheduler_info()["workers"]))
        yield client.get_executor(pure=False), workers


@contextlib.contextmanager
def fan_out(threads: int) -> Iterator[Callable[..., Iterator[Any]]]:
    """A map (in order) over `threads` threads, for a job's own inner loop: the stones hunt's
    lookahead scores a level's children with it, its class sweep ranks boards. Why not as tasks of
    the pool the job runs on: a job that waits on tasks of its own pool holds a worker while it
    waits (with one worker, for ever), and a job on a Dask worker has no such pool; so the job
    holds that many slots in its window and maps over threads of its own."""
    with executor(Settings(threads=threads)) as (pool, _):
        yield pool.map


def _connect(where: str, time_limit: float | None) -> Any:
    """A Dask client of the scheduler at `where` (an address or a scheduler file), given a few
    seconds (half the time limit, 1..10 s) to answer, so that an unreachable one is reported as
    such before the runner's deadline, not taken for a slow search."""
    from distributed import Client

    timeout = 5.0 if time_limit is None else min(10.0, max(1.0, time_limit / 2))
    try:
        if Path(where).is_file():
            return Client(scheduler_file=where, timeout=timeout)
        return Client(where, timeout=timeout)
    except (OSError, TimeoutError, ValueError) as e:
        raise SchedulerUnreachable(f"the Dask scheduler {where} did not answer within {timeout:.0f} s "
                                   f"({type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''})") from None
