"""One task layer for every exhaustive search: split, run on every core or on a Dask cluster,
journal each finished task, reduce.

A search is cut into many small, picklable task descriptors (many more than workers, so that the
tail never leaves cores idle). A kernel runs one task and returns an Outcome; the outcomes reduce
with Outcome.merge (the best value with its witness, exact sums of counts and positions). A task
may hand part of its work back (Outcome.parts: a search that caps its tasks' positions does), and
the parts run as new tasks, so that one giant subtree never holds up the end of a run. Each
finished task, with the parts it handed back, is committed to a SQLite journal as it arrives, so
a killed run resumes where it stopped, with the same final answer and the same counters as an
uninterrupted one.

Executors: local threads (the numba kernels release the GIL), or Dask distributed (`local:K` for a
LocalCluster of K worker processes, `tcp://HOST:PORT` or a scheduler file for a real cluster). Both
are driven through the concurrent.futures interface, with a bounded window of tasks in flight. The
journal, not Dask, is the record of what is done.
"""
from __future__ import annotations

import concurrent.futures as cf
import contextlib
import hashlib
import inspect
import math
import os
import random
import sys
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from ..errors import SchedulerUnreachable
from .journal import AT_LEAST, PLAIN, SAMPLE, Codec, Journal, JournalBroken, Ledger, _log, disagreement
from .journal import JournalBusy as JournalBusy  # (re-exported: the task layer's errors and tools)
from .journal import JournalLog as JournalLog
from .journal import copy_journal as copy_journal
from .journal import journal_log as journal_log
from .journal import remove_finished as remove_finished
from .journal import survey as survey
from .outcome import Outcome

JOURNALS = "WORKBENCH_JOURNALS"      # environment variable: where journals go (default runs/journals)
WINDOW = 4                  # tasks in flight per worker
LOG_EVERY = 5.0             # seconds between progress lines when stderr is not a terminal

Kernel = Callable[..., Outcome]   # kernel(task, stop_at[, best]): stop_at is a time.time() instant


def journals() -> Path:
    """Where journals go: $WORKBENCH_JOURNALS, read at each use (tests and workers point it elsewhere)."""
    return Path(os.environ.get(JOURNALS, "runs/journals"))


def cluster_address(text: str) -> str:
    """The --cluster value, checked when it is read: local:K, tcp://HOST:PORT or a scheduler file."""
    import argparse
    import re

    kind, _, rest = text.partition(":")
    if kind == "local" and rest.isdigit() and 1 <= int(rest) <= 4096:
        return text
    address = re.fullmatch(r"(tcp|tls)://([A-Za-z0-9._-]+|\[[0-9A-Fa-f:.]+\]):([0-9]{1,5})", text)
    if address and 1 <= int(address.group(3)) <= 65535:
        return text
    if kind not in ("local", "tcp", "tls") and Path(text).is_file():
        return text
    raise argparse.ArgumentTypeError(f"--cluster is local:K, tcp://HOST:PORT or a scheduler file, got {text!r}")


@dataclass(frozen=True)
class Split:
    """A search cut into independent tasks. `identity` holds whatever changes the answer (the puzzle,
    n, the search's parameters); the kernel's code version is added to it, so that a changed
    search never resumes from an old journal. `kernel` lives in the installed package (Dask
    workers import it by name). `shares_best`: each task starts with the best value found so far
    (kernel(task, stop_at, best)), so an optimisation prunes with it; its outcome says the bounds it
    started and ended under, and `alone` gives a copy of a task that shares nothing with the others
    (a re-check runs it under its own bound). `codec`: how the journal stores witnesses and parts,
    and the puzzle's checker that measures a witness."""

    name: str
    identity: dict[str, Any]
    tasks: Sequence[Any]
    kernel: Kernel
    maximise: bool = False
    shares_best: bool = False
    codec: Codec = PLAIN
    alone: Callable[[Any], Any] = lambda task: task

    @property
    def key(self) -> dict[str, Any]:
        """The journal's key. The code version covers every module beside the kernel's, since the
        compiled kernels it calls usually live in another file of the same package."""
        code = code_version(Path(inspect.getsourcefile(self.kernel) or "").parent)
        return {**self.identity, "search": self.name, "tasks": len(self.tasks), "code": code,
                "maximise": self.maximise}


def code_version(folder: Path) -> str:
    """The hash of a search package's code (its folder's modules), as a journal's key holds it."""
    code = hashlib.sha256()
    for path in sorted(folder.glob("*.py")):
        code.update(path.read_bytes())
    return code.hexdigest()[:16]


@dataclass
class Settings:
    """How a split search runs: where, for how long, with which journal."""

    threads: int = 2
    time_limit: float | None = None
    cluster: str | None = None      # None: threads; local:K, tcp://HOST:PORT or a scheduler file
    journal: bool = True
    fresh: bool = False             # forget the journal and start over
    quiet: bool = False
    runs: Path = field(default_factory=journals)


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


def run(split: Split, settings: Settings, start: Outcome | None = None,
        on_better: Callable[[Outcome], None] | None = None) -> Outcome:
    """All tasks of `split` (those its journal already holds are skipped), reduced onto `start`
    (the work done before the split). Complete only when every task finished within the limit."""
    stop_at = math.inf if settings.time_limit is None else time.time() + settings.time_limit
    total = start or Outcome(maximise=split.maximise)
    journal = Journal(settings.runs, split.key, settings.fresh, split.codec) if settings.journal else None
    work, left = list(split.tasks), 1       # left: tasks unfinished (not 0 until known: a failure keeps the journal)
    try:
        ledger = journal.read() if journal else Ledger()
        work += [ledger.parts[i] for i in sorted(ledger.parts)]
        with executor(settings) as (pool, workers):
            notes = _recheck(split, work, ledger, journal, pool, stop_at) if journal and ledger.foreign else []
            done = ledger.rows
            for row in done.values():
                total = total.merge(row.outcome)
            if done and (log := _log.get()) is not None:
                imported = sum(i["tasks"] for i in ledger.imports)
                log.notes += [f"resumed from its journal: {len(done)} of {len(work)} tasks were done by earlier "
                              f"runs ({sum(row.seconds for row in done.values()):,.0f} task-seconds"
                              + (f"; {imported} of them imported from elsewhere" if imported and not notes else "")
                              + ")", *notes]
            progress = Progress(len(work), len(done), settings.quiet)
            total, left = _drain(split, work, pool, workers, [i for i in range(len(work)) if i not in done],
                                 stop_at, total, journal, progress, on_better)
        progress.close()
    finally:
        if journal:
            journal.close(finished=left == 0)
    return Outcome(total.best, total.witness, total.count, total.positions, total.complete and left == 0,
                   len(work), split.maximise)


def _recheck(split: Split, work: list[Any], ledger: Ledger, journal: Journal, pool: cf.Executor,
             stop_at: float) -> list[str]:
    """Rows that no row of this machine vouches for (a copy from elsewhere) are trusted only after a
    random sample of them (SAMPLE of them, at least AT_LEAST, all if fewer) is searched again here
    and agrees (journal.disagreement says what is compared). Then an import row, MAC'd here,
    vouches for them. Any disagreement refuses the journal: no answer is taken from it. Returns
    the note for the run's message."""
    foreign = ledger.foreign
    size = min(len(foreign), max(AT_LEAST, math.ceil(SAMPLE * len(foreign))))
    sample = random.SystemRandom().sample(foreign, size)     # unknown to whoever wrote the rows
    proven = {row.outcome.best for row in ledger.rows.values() if row.outcome.best is not None}
    futures = {}
    for task in sample:
        bounds = ledger.rows[task].bounds
        best = ((bounds[0] if bounds and bounds[0] in proven else None),) if split.shares_best else ()
        futures[task] = pool.submit(timed, split.kernel, split.alone(work[task]), stop_at, *best)
    for task, future in futures.items():
        again, _ = future.result()
        if not again.complete:
            raise JournalBroken(f"the journal {journal.path} was written elsewhere and its re-check did not finish "
                                "in the time limit; rerun with more time, or with --fresh")
        if (why := disagreement(ledger.rows[task], again, split.codec, proven)) is not None:
            raise JournalBroken(f"the journal {journal.path} is refused: task {task}, written elsewhere, was searched "
                                f"again here and disagrees ({why}); no answer is taken from it (--fresh starts over)")
    origin = sorted({ledger.rows[task].machine for task in foreign})
    return [journal.imported(len(foreign), size, origin)]


def _drain(split: Split, work: list[Any], pool: cf.Executor, workers: int, todo: list[int], stop_at: float,
           total: Outcome, journal: Journal | None, progress: Progress,
           on_better: Callable[[Outcome], None] | None) -> tuple[Outcome, int]:
    """Keep WINDOW tasks per worker in flight; commit each one as it finishes, with the parts it
    hands back, which join `work` and the queue. Returns the reduced outcome and how many tasks are
    left unfinished (a task cut by the clock is not finished: a rerun redoes it)."""
    queue = deque(todo)
    left = len(queue)

    def take(free: int, running: Sequence[tuple[int, float]]) -> Job | None:
        if not queue or time.time() >= stop_at:
            return None
        task = queue.popleft()
        best = (total.best,) if split.shares_best else ()
        return Job(task, 1, timed, (split.kernel, work[task], stop_at, *best))

    def done(task: int, result: tuple[Outcome, float], began: float) -> None:
        nonlocal total, left
        outcome, seconds = result
        if outcome.complete:
            parts = dict(enumerate(outcome.parts, start=len(work)))
            work.extend(outcome.parts)
            queue.extend(parts)
            left += len(parts) - 1
            if parts:
                progress.grow(len(parts))
            if journal:
                journal.record(task, outcome, seconds, parts)
        if outcome.beats(total) and on_better:
            on_better(outcome)
        total = total.merge(outcome)
        progress.update(outcome, total)

    window(pool, WINDOW * workers, take, done)
    return total, left


def timed(kernel: Kernel, *args: Any) -> tuple[Outcome, float]:
    """The kernel's outcome and the seconds it ran on its worker: a journal's task-seconds, which
    leave out the time a task waited in the window (4 a worker) before it started."""
    began = time.monotonic()
    return kernel(*args), time.monotonic() - began


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


class Progress:
    """A rich bar on a terminal (tasks, positions per second, best so far, ETA); elsewhere a line
    every few seconds; nothing with `quiet`."""

    def __init__(self, tasks: int, done: int, quiet: bool, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stderr
        self.quiet, self.tasks, self.done, self.resumed = quiet, tasks, done, done
        self.started = self.last = time.monotonic()
        self.positions = 0
        self.bar = None
        if not quiet and self.stream.isatty():
            from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn
            from rich.progress import Progress as Bar

            self.bar = Bar(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                           TextColumn("{task.fields[rate]}"), TextColumn("best {task.fields[best]}"),
                           TimeRemainingColumn(), transient=True)
            self.bar.start()
            self.job = self.bar.add_task("tasks", total=tasks, completed=done, rate="", best="-")

    def grow(self, tasks: int) -> None:
        """More tasks: the parts a task handed back."""
        self.tasks += tasks
        if self.bar is not None:
            self.bar.update(self.job, total=self.tasks)

    def update(self, outcome: Outcome, total: Outcome) -> None:
        self.done += 1
        self.positions += outcome.positions
        rate = f"{self.positions / max(1e-9, time.monotonic() - self.started):,.0f} positions/s"
        if self.bar is not None:
            self.bar.update(self.job, completed=self.done, rate=rate, best="-" if total.best is None else total.best)
        elif not self.quiet and time.monotonic() - self.last >= LOG_EVERY:
            self.last = time.monotonic()
            best = "-" if total.best is None else total.best
            print(f"tasks {self.done}/{self.tasks}, {rate}, best {best}, {self.eta()}", file=self.stream, flush=True)

    def eta(self) -> str:
        """The time left at this run's pace so far (the tasks handed back make it grow)."""
        pace = (time.monotonic() - self.started) / max(1, self.done - self.resumed)
        return f"about {pace * (self.tasks - self.done):,.0f} s left"

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()

