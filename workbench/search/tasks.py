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
import contextvars
import fcntl
import functools
import hashlib
import inspect
import json
import math
import os
import pickle
import sqlite3
import sys
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TextIO

from .outcome import Outcome

JOURNALS = "WORKBENCH_JOURNALS"      # environment variable: where journals go (default runs/journals)
WINDOW = 4                  # tasks in flight per worker
RECENT = 20                 # finished tasks `journals` takes a run's recent pace over
PAUSE = 10                  # a gap between finishing tasks this many typical ones long is a pause
LOG_EVERY = 5.0             # seconds between progress lines when stderr is not a terminal
_log: contextvars.ContextVar[JournalLog | None] = contextvars.ContextVar("journal log", default=None)

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


class JournalBusy(Exception):
    """Another process holds this search's journal."""


class JournalBroken(Exception):
    """A journal that cannot be read (a damaged file): the message names it and the way out (--fresh)."""


@dataclass(frozen=True)
class Split:
    """A search cut into independent tasks. `identity` holds whatever changes the answer (the puzzle,
    n, the search's parameters); the kernel's code version is added to it, so that a changed
    search never resumes from an old journal. `kernel` lives in the installed package (Dask
    workers import it by name). `shares_best`: each task starts with the best value found so far
    (kernel(task, stop_at, best)), so an optimisation prunes with it."""

    name: str
    identity: dict[str, Any]
    tasks: Sequence[Any]
    kernel: Kernel
    maximise: bool = False
    shares_best: bool = False

    @property
    def key(self) -> dict[str, Any]:
        """The journal's key. The code version covers every module beside the kernel's, since the
        compiled kernels it calls usually live in another file of the same package."""
        code = code_version(Path(inspect.getsourcefile(self.kernel) or "").parent)
        return {**self.identity, "search": self.name, "tasks": len(self.tasks), "code": code}


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


UNREADABLE = (sqlite3.DatabaseError, pickle.UnpicklingError, EOFError, ValueError, TypeError)


def _broken(path: Path, e: Exception) -> JournalBroken:
    return JournalBroken(f"the journal {path} cannot be read ({e}); rerun with --fresh to start over")


def _outcome(stored: bytes | str) -> Outcome:
    """A finished task's outcome as journaled (text: a journal written before outcomes were pickled)."""
    return Outcome(**json.loads(stored)) if isinstance(stored, str) else pickle.loads(stored)


class Journal:
    """The finished tasks of one search, in a SQLite database (WAL mode) under runs/journals/. One
    process at a time: a second one refuses with JournalBusy rather than share the file."""

    def __init__(self, folder: Path, key: dict[str, Any], fresh: bool = False) -> None:
        text = json.dumps(key, sort_keys=True)
        folder.mkdir(parents=True, exist_ok=True)
        self.path = folder / f"{key['search']}-{hashlib.sha256(text.encode()).hexdigest()[:16]}.sqlite"
        self._lock = open(self.path.with_suffix(".lock"), "w")
        try:
            fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self._lock.close()
            raise JournalBusy(f"another run is using the journal {self.path}; wait for it, or stop it") from None
        if fresh:
            self._remove()
        try:
            self._open(text)
        except sqlite3.DatabaseError as e:
            self._lock.close()
            raise self.broken(e) from None

    def broken(self, e: Exception) -> JournalBroken:
        return _broken(self.path, e)

    def _open(self, text: str) -> None:
        self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("CREATE TABLE IF NOT EXISTS search (key TEXT NOT NULL)")
        self.db.execute("CREATE TABLE IF NOT EXISTS tasks (id INTEGER PRIMARY KEY, outcome BLOB NOT NULL, "
                        "seconds REAL NOT NULL, finished TEXT NOT NULL)")
        self.db.execute("CREATE TABLE IF NOT EXISTS parts (id INTEGER PRIMARY KEY, task BLOB NOT NULL)")
        stored = self.db.execute("SELECT key FROM search").fetchone()
        if stored is None:
            self.db.execute("INSERT INTO search VALUES (?)", (text,))
        elif stored[0] != text:
            self.close()
            raise JournalBusy(f"{self.path} belongs to another search; remove it or run with --fresh")

    def done(self) -> dict[int, Outcome]:
        try:
            rows = self.db.execute("SELECT id, outcome FROM tasks").fetchall()
            return {task: _outcome(stored) for task, stored in rows}
        except UNREADABLE as e:
            raise self.broken(e) from None

    def task_seconds(self) -> float:
        """The seconds the finished tasks took, summed (the work earlier runs left to this one)."""
        return float(self.db.execute("SELECT COALESCE(SUM(seconds), 0) FROM tasks").fetchone()[0])

    def parts(self) -> dict[int, Any]:
        """The parts that tasks handed back, by their task ids."""
        try:
            return {task: pickle.loads(blob) for task, blob in self.db.execute("SELECT id, task FROM parts")}
        except UNREADABLE as e:
            raise self.broken(e) from None

    def record(self, task: int, outcome: Outcome, seconds: float, parts: dict[int, Any] | None = None) -> None:
        """Commit one finished task (a complete one only: a task cut by the clock is run again) with
        the parts it handed back, numbered, in one transaction."""
        stored = pickle.dumps(replace(outcome, parts=()))    # pickled: a witness keeps its types
        self.db.execute("BEGIN")
        self.db.execute("INSERT OR REPLACE INTO tasks VALUES (?, ?, ?, ?)",
                        (task, stored, seconds, time.strftime("%Y-%m-%dT%H:%M:%S")))
        self.db.executemany("INSERT INTO parts VALUES (?, ?)", [(i, pickle.dumps(t)) for i, t in (parts or {}).items()])
        self.db.execute("COMMIT")

    def close(self, finished: bool = False) -> None:
        """A finished search leaves no journal: its answer goes to the results, and a rerun of the
        command then searches again rather than replay. Inside journal_log the removal is left to
        whoever keeps the answer (remove_finished, once its row is written), so that a failure
        after the search costs no work."""
        self.db.close()
        if finished and (log := _log.get()) is not None:
            log.finished.append(str(self.path.resolve()))
        elif finished:
            self.remove()             # (while the lock is still held, as before)
        self._lock.close()

    def remove(self) -> None:
        self._remove()
        self.path.with_suffix(".lock").unlink(missing_ok=True)

    def _remove(self) -> None:
        _unlink(self.path)


def _unlink(path: Path) -> None:
    """A journal's database with its WAL files (not its lock)."""
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def remove_finished(paths: Sequence[str]) -> None:
    """The finished journals of a run whose answer is now kept, removed under their locks (one
    that a run holds again meanwhile is left to it)."""
    for path in map(Path, paths):
        with open(path.with_suffix(".lock"), "a") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                continue
            _unlink(path)
            path.with_suffix(".lock").unlink(missing_ok=True)


@dataclass(frozen=True)
class JournalState:
    """Where one journaled search stands, read without disturbing a run that may be writing it."""

    path: Path
    key: dict[str, Any]
    done: int                   # tasks finished
    parts: int                  # tasks handed back by others (they join the total)
    positions: int              # of the finished tasks (the split before them is not journaled)
    best: int | None            # the best value the finished tasks found
    task_seconds: float
    last: str | None            # when the latest task finished
    running: bool               # a run holds the journal now
    pace: float | None          # tasks an hour of wall time, over the latest RECENT finished (None: too few)

    @property
    def total(self) -> int:
        return int(self.key.get("tasks", 0)) + self.parts

    @property
    def seconds_left(self) -> float | None:
        """Task-seconds still to go at the mean pace so far (tasks are shuffled, so the mean is fair)."""
        return self.task_seconds / self.done * (self.total - self.done) if self.done else None

    @property
    def hours_left(self) -> float | None:
        """Wall-clock hours still to go at the recent pace (as many workers as then)."""
        return (self.total - self.done) / self.pace if self.pace else None


def _pace(finished: list[str]) -> float | None:
    """Tasks an hour over the latest RECENT finishing times (ISO, to the second). A gap of more than
    PAUSE typical ones (the median, at least a second) is a pause, the run stopped or moved, and
    counts as a typical gap: a resumed run's pace is its own, not diluted by the hours it lay still."""
    from datetime import datetime
    from statistics import median

    latest = sorted(datetime.fromisoformat(t).timestamp() for t in finished)[-RECENT:]
    gaps = [later - earlier for earlier, later in zip(latest, latest[1:])]
    if not gaps:
        return None
    typical = max(median(gaps), 1.0)
    span = sum(gap if gap <= PAUSE * typical else typical for gap in gaps)
    return 3600 * len(gaps) / span if span > 0 else None


def _read_only(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True)


def _running(path: Path) -> bool:
    """Whether a run holds the journal's lock (tried and let go at once)."""
    lock = path.with_suffix(".lock")
    if not lock.exists():
        return False
    with open(lock) as f:
        try:
            fcntl.flock(f, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(f, fcntl.LOCK_UN)
    return False


def survey(folder: Path) -> list[JournalState]:
    """The journals in `folder`, each with its key and how far its run got."""
    states = []
    for path in sorted(folder.glob("*.sqlite")):
        try:
            with contextlib.closing(_read_only(path)) as db:
                key = json.loads(db.execute("SELECT key FROM search").fetchone()[0])
                rows = db.execute("SELECT outcome, seconds, finished FROM tasks").fetchall()
                parts = db.execute("SELECT count(*) FROM parts").fetchone()[0]
            outcomes = [_outcome(stored) for stored, _, _ in rows]
        except UNREADABLE as e:
            raise _broken(path, e) from None
        total = functools.reduce(Outcome.merge, outcomes) if outcomes else Outcome()
        finished = [f for _, _, f in rows]
        states.append(JournalState(path, key, len(rows), parts, total.positions, total.best,
                                   sum(s for _, s, _ in rows), max(finished, default=None), _running(path),
                                   _pace(finished)))
    return states


def copy_journal(path: Path, folder: Path) -> Path:
    """A consistent copy of a journal into `folder` under its own name (SQLite's online backup, so
    a run may go on writing it meanwhile): how a long run is carried to another machine, or kept
    past the end of the disk it runs on. The copy resumes like the original, and reading it leaves
    no -wal or -shm file beside it."""
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / path.name
    if target.resolve() == path.resolve():
        raise ValueError(f"{path} would be copied onto itself")
    if _running(target):
        raise JournalBusy(f"a run is using {target}; stop it before copying over it")
    for suffix in ("", "-wal", "-shm"):
        Path(f"{target}{suffix}").unlink(missing_ok=True)
    source, copy = _read_only(path), sqlite3.connect(target)
    try:
        source.backup(copy)
        copy.execute("PRAGMA journal_mode=DELETE")    # one self-contained file; a run sets WAL again
    finally:
        source.close()
        copy.close()
    return target


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


@dataclass
class JournalLog:
    """What the journals of one run's searches leave for its answer: notes (a run that resumed from
    a journal says so, and how much work earlier runs, here or elsewhere, had done), and the paths
    of the finished journals, for remove_finished once the answer is kept."""

    notes: list[str] = field(default_factory=list)
    finished: list[str] = field(default_factory=list)


@contextlib.contextmanager
def journal_log() -> Iterator[JournalLog]:
    """The journal log of the searches run inside. Their finished journals stay until the answer
    is kept (its row written, or printed) and the keeper calls remove_finished: a run that fails
    after its search (writing its row, say) reruns from the journal in seconds instead of
    searching again."""
    log = JournalLog()
    token = _log.set(log)
    try:
        yield log
    finally:
        _log.reset(token)


class SchedulerUnreachable(Exception):
    """The --cluster scheduler did not answer: the run ends with an error naming it."""


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
    journal = Journal(settings.runs, split.key, settings.fresh) if settings.journal else None
    work, left = list(split.tasks), 1       # left: tasks unfinished (not 0 until known: a failure keeps the journal)
    try:
        done = journal.done() if journal else {}
        for outcome in done.values():
            total = total.merge(outcome)
        if done and journal and (log := _log.get()) is not None:
            log.notes.append(f"resumed from its journal: {len(done)} of {len(work)} tasks were done by earlier "
                         f"runs ({journal.task_seconds():,.0f} task-seconds)")
        parts = journal.parts() if journal else {}
        assert sorted(parts) == list(range(len(work), len(work) + len(parts))), "parts are numbered in a row"
        work += [parts[i] for i in sorted(parts)]
        progress = Progress(len(work), len(done), settings.quiet)
        with executor(settings) as (pool, workers):
            total, left = _drain(split, work, pool, workers, [i for i in range(len(work)) if i not in done],
                                 stop_at, total, journal, progress, on_better)
        progress.close()
    finally:
        if journal:
            journal.close(finished=left == 0)
    return Outcome(total.best, total.witness, total.count, total.positions, total.complete and left == 0,
                   len(work), split.maximise)


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
        self.quiet, self.tasks, self.done = quiet, tasks, done
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
            print(f"tasks {self.done}/{self.tasks}, {rate}, best {best}", file=self.stream, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()

