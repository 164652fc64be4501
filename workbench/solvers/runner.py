"""Run a backend in a worker process with a hard wall-clock limit.

One long-lived worker per backend family (its solver library is imported once); the parent keeps
the latest incumbent the worker reported, so when the worker has to be killed at the deadline,
or dies, the best solution and bound found so far survive.
"""
from __future__ import annotations

import atexit
import contextlib
import math
import os
import signal
import socket
import subprocess
import sys
import time
import traceback
from dataclasses import replace
from multiprocessing.connection import Connection
from typing import Any

from ..models.core import OPTIMISE, Count, MaxSatModel, Question
from ..search.tasks import JOURNALS, JournalBroken, JournalBusy
from . import backend, backend_class, canonical, split_name
from .base import Backend, Incumbent, Options, Report, Result, Status, Unavailable, UnsupportedModel, refuse_past

PREPARE_LIMIT = 900.0    # seconds a worker may spend loading its library and compiling, before the clock


def grace(time_limit: float) -> float:
    """How long past its time limit a worker may take to stop and report before it is killed
    (a loaded machine slows a solver's own shutdown)."""
    return 5.0 + 0.05 * time_limit


Job = tuple[str, Any, Options, Question, str | None]


def request(name: str, model: Any, options: Options, question: Question = OPTIMISE) -> Job:
    """A request to a worker. It carries the parent's journal folder (None: unset): a worker
    outlives the runs that started it, so its own environment may be stale."""
    return name, model, options, question, os.environ.get(JOURNALS)


def answer(solver: Backend, model: Any, options: Options, question: Question, report: Report) -> Result:
    """The backend's answer to the question: its solve(), or its count() of the model's solutions."""
    if isinstance(question, Count):
        return solver.count(model, options, report, question)
    return solver.solve(model, options, report)


def die_with_parent(parent: int | None = None) -> None:
    """The kernel kills this process with its parent (Linux): a worker whose parent is gone has no
    one to report to, a solver command whose worker is gone no one to read it. With `parent`, it
    exits at once if that parent died before this point. (The kernel acts when the parent's thread
    that started the process ends; a later run then starts a fresh worker.)"""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)     # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if parent is not None and os.getppid() != parent:
        os._exit(0)


REAPER = "wb-reaper"      # the process name of each worker's reaper (tests leave it out of a worker's children)


def _reap_group_after_me() -> None:
    """Fork a reaper that waits, in the worker's process group, for the worker to end (its parent's
    death, a crash, a kill of the worker alone) and then kills the group: the solvers the worker
    started through a library (PuLP's cbc, MiniZinc's driver and solver) would otherwise run on as
    orphans to their own limits. It holds only the read end of a pipe that the worker never writes
    to: its read returns when the worker's end closes, that is when the worker is gone."""
    import ctypes

    watch, _ = os.pipe()            # the write end stays open, unused, for the worker's life
    if os.fork() == 0:
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None).prctl(15, REAPER.encode())            # PR_SET_NAME (Linux)
        os.closerange(0, watch)                                     # no pipe of anyone's held open
        os.closerange(watch + 1, os.sysconf("SC_OPEN_MAX"))
        with contextlib.suppress(OSError):
            os.read(watch, 1)
            os.killpg(0, signal.SIGKILL)
        os._exit(0)
    os.close(watch)


def _serve(conn: Connection) -> None:
    try:
        _answer(conn)
    except (EOFError, OSError):      # the parent closed the connection or died: nothing to report to
        os._exit(0)


def _answer(conn: Connection) -> None:
    conn.send(("ready", None))
    while True:
        job = conn.recv()
        if job is None:
            return
        name, model, options, question, folder = job
        if folder is None:
            os.environ.pop(JOURNALS, None)
        else:
            os.environ[JOURNALS] = folder
        try:
            solver = backend(name)
            ver = solver.version()
            if not isinstance(model, solver.kinds):
                raise UnsupportedModel(f"{name} does not take {type(model).__name__} models")
            if isinstance(model, MaxSatModel) and (limit := solver.exact_integers()):
                refuse_past(model, *limit)
            solver.prepare(model)             # one-off work such as compiling, before the clock starts
            conn.send(("clock", None))
            result = answer(solver, model, options, question, lambda inc: conn.send(("incumbent", inc)))
            result.solver_version = ver
        except UnsupportedModel as e:
            result = Result(Status.UNSUPPORTED, message=str(e))
        except JOURNAL_REFUSALS as e:   # the input (a journal) is refused, as bad input is: no result
            conn.send(("refused", (type(e).__name__, str(e))))
            continue
        except Unavailable as e:
            result = Result(Status.ERROR, message=str(e))
        except (EOFError, BrokenPipeError, ConnectionError):
            raise
        except Exception as e:  # a backend failure is a result, not a crash of the whole run
            result = Result(Status.ERROR, message=" ".join(f"{type(e).__name__}: {e}".split()))   # one line
            if options.verbose:
                traceback.print_exc()
        conn.send(("result", result))


def _stderr_fd() -> int:
    """Where a worker's solver output goes: our stderr, or the process's own where ours is not a file
    (captured, say, by a test or a notebook)."""
    try:
        return sys.stderr.fileno()
    except (AttributeError, OSError, ValueError):
        return sys.__stderr__.fileno() if sys.__stderr__ else subprocess.DEVNULL


class Worker:
    """A fresh interpreter (not a fork: solver libraries must not meet in one process), talking
    over a socket pair so that solver output on stdout never mixes with the messages. It leads a
    session of its own, so that a kill reaches what it started too: MiniZinc's driver and its
    solver, PuLP's cbc (a terminal's Ctrl-C reaches the parent alone, whose exit kills the workers)."""

    def __init__(self, wait: bool = True) -> None:
        ours, theirs = socket.socketpair()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "workbench.solvers.runner", str(theirs.fileno()), str(os.getpid())],
            pass_fds=[theirs.fileno()], stdin=subprocess.DEVNULL, stdout=_stderr_fd(), start_new_session=True)
        theirs.close()
        self.conn = Connection(ours.detach())
        self.starting = True
        if wait:
            self.wait_ready()

    def wait_ready(self) -> None:
        """Read its "ready": the interpreter start-up is not charged to the solve."""
        if not self.starting:
            return
        self.starting = False
        try:
            self.conn.recv()
        except (EOFError, OSError):   # it died while starting (killed, say)
            self.kill()
            raise

    @property
    def exitcode(self) -> int | None:
        return self.process.poll()

    def alive(self) -> bool:
        return self.process.poll() is None

    def kill(self) -> None:
        """The worker's whole process group (it leads it), even when the worker itself has died already."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(5)
        self.conn.close()


_workers: dict[str, Worker] = {}


def worker_for(base: str, wait: bool = True) -> Worker:
    """The live worker kept under `base`, or a new one (`wait=False`: without waiting for its
    "ready", so that several start side by side; the caller then calls wait_ready)."""
    w = _workers.get(base)
    if w is None or not w.alive():
        w = _workers[base] = Worker(wait)
    return w


@atexit.register
def shutdown() -> None:
    for w in _workers.values():
        if w.alive():
            w.kill()
    _workers.clear()


def model_sense(model: Any) -> str:
    return getattr(model, "sense", "min")


def finite(x: float | None) -> float | None:
    """An objective or bound as the runner takes it in: a finite number, else None. Every value a
    worker sends (incumbents and final results) passes here: HiGHS reports a dual bound of -inf
    with its first incumbents, and a worker killed then leaves it as the run's bound."""
    if x is None or isinstance(x, bool) or not isinstance(x, (int, float)):
        return None
    return x if math.isfinite(x) else None


def admitted(result: Result) -> Result:
    """The result with its objective and bound through `finite`."""
    result.objective, result.bound = finite(result.objective), finite(result.bound)
    return result


class Tracker:
    """The best incumbent and bound reported so far, kept by the parent."""

    def __init__(self, sense: str, started: float | None = None) -> None:
        self.sign = 1.0 if sense == "min" else -1.0
        self.started = time.perf_counter() if started is None else started
        self.found: list[list[float]] = []      # [seconds since the start, objective] of each improvement
        self.objective: float | None = None
        self.bound: float | None = None
        self.values: Any = None
        self.count: int | None = None

    def update(self, inc: Incumbent) -> None:
        inc = replace(inc, objective=finite(inc.objective), bound=finite(inc.bound))
        if inc.objective is not None and (self.objective is None or
                                          self.sign * inc.objective < self.sign * self.objective):
            self.objective, self.values = inc.objective, inc.values
            self.found.append([round(time.perf_counter() - self.started, 3), inc.objective])
        if inc.bound is not None and (self.bound is None or self.sign * inc.bound > self.sign * self.bound):
            self.bound = inc.bound
        if inc.count is not None:
            self.count, self.values = inc.count, inc.values

    def merge(self, result: Result) -> Result:
        """Fill what the final result lacks (a killed or interrupted run) from the incumbents. An
        objective always travels with the solution it measures: the incumbent replaces both, and
        only when the result has no solution or a worse one."""
        has_solution = result.values is not None or result.solution is not None
        better = self.objective is not None and (result.objective is None or
                                                 self.sign * self.objective < self.sign * result.objective)
        if self.values is not None and result.status in (Status.UNKNOWN, Status.FEASIBLE) \
                and (not has_solution or better) and self.objective is not None:
            result.values, result.solution, result.objective = self.values, None, self.objective
            if result.status == Status.UNKNOWN:
                result.status = Status.FEASIBLE
        if self.bound is not None and (result.bound is None or self.sign * self.bound > self.sign * result.bound):
            if result.status != Status.OPTIMAL:
                result.bound = self.bound
        if result.count is None and self.count is not None:
            result.count = self.count
            if result.values is None:
                result.values = self.values
        result.incumbents = list(self.found)
        return result


def deadline_for(options: Options, since: float, prepare: float = 0.0) -> float | None:
    """When the worker is killed: the time limit from `since`, plus grace (plus, before the clock
    starts, what loading and compiling may take)."""
    if options.time_limit is None:
        return None
    return since + prepare + options.time_limit + grace(options.time_limit)


POLL_SLICE = 3600.0     # seconds
JOURNAL_REFUSALS = (JournalBroken, JournalBusy)   # raised again in the parent, never a backend's failure


def run(name: str, model: Any, options: Options, question: Question = OPTIMISE) -> Result:
    """Answer the question (optimise, or count) on `model` with backend `name`; never raises for a
    backend's own failure, only for a journal the search refused (JOURNAL_REFUSALS)."""
    name = canonical(name)
    base, sub = split_name(name)
    if backend_class(base).in_parent:      # a portfolio: it starts workers of its own
        try:
            return admitted(answer(backend(name), model, options, question, lambda _: None))
        except UnsupportedModel as e:
            return Result(Status.UNSUPPORTED, solver=name, message=str(e))
    started = time.perf_counter()
    tracker = Tracker(model_sense(model), started)
    deadline = deadline_for(options, started, PREPARE_LIMIT)
    params: dict[str, Any] = dict(threads=options.threads, time_limit=options.time_limit, seed=options.seed)
    if options.own(base):
        params["options"] = options.own(base)
    worker: Worker | None = None
    try:
        worker = worker_for(base)
        worker.conn.send(request(name, model, options, question))
        while True:
            # waited for in slices: select() overflows on a timeout past about 24 days (2**31 ms)
            wait = None if deadline is None else min(POLL_SLICE, max(0.0, deadline - time.perf_counter()))
            if not worker.conn.poll(wait):
                if deadline is not None and time.perf_counter() < deadline:
                    continue
                worker.kill()
                result = tracker.merge(Result(Status.UNKNOWN, message="killed at the hard wall-clock limit"))
                break
            kind, payload = worker.conn.recv()
            if kind == "clock":
                deadline = deadline_for(options, time.perf_counter())
            elif kind == "incumbent":
                tracker.update(payload)
            elif kind == "refused":
                refusal, message = payload
                raise next(e for e in JOURNAL_REFUSALS if e.__name__ == refusal)(message)
            else:
                result = tracker.merge(admitted(payload))
                break
    except (EOFError, OSError):    # it died, or its connection was closed by a kill from another thread
        time.sleep(0.1)
        code = None if worker is None else worker.exitcode
        if worker is not None:
            worker.kill()
        result = tracker.merge(Result(Status.UNKNOWN, message=f"backend process died (exit code {code})"))
        # an error even with an incumbent (kept, and checked): a crash is not a time limit, and
        # `table` reruns an error row but keeps a feasible one
        result.status = Status.ERROR
    result = replace(result, solver=name, params={**params, **result.params},
                     total_seconds=time.perf_counter() - started)
    if options.own(base) and result.status == Status.OPTIMAL and backend_class(base).options_via == "command":
        # a command's own flags can loosen what its "optimal" means (a gap, say), and its bound is not read
        # apart from it: with the user's flags its answer is a solution, not a proof
        result.status, result.bound = Status.FEASIBLE, None
        result.message = f"{result.message}; not counted as proven: --option flags were passed to it".lstrip("; ")
    if not result.solver_version and result.status not in (Status.ERROR, Status.UNSUPPORTED):
        result.solver_version = "?"
    return result


if __name__ == "__main__":
    die_with_parent(int(sys.argv[2]))
    _reap_group_after_me()
    _serve(Connection(int(sys.argv[1])))
