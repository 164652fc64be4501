"""A search cut into tasks, run on a pool within a window, each finished task journaled, reduced."""
from __future__ import annotations

import concurrent.futures as cf
import hashlib
import inspect
import math
import random
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..forecast import tallies
from ..journal import AT_LEAST, PLAIN, SAMPLE, Codec, Journal, JournalBroken, Ledger, _log, disagreement
from ..outcome import Outcome
from .executor import executor
from .progress import TaskProgress
from .settings import Settings
from .window import WINDOW, Job, timed, window

Kernel = Callable[..., Outcome]   # kernel(task, stop_at[, best]): stop_at is a time.time() instant


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
            done, before = ledger.rows, total
            for row in done.values():
                total = total.merge(row.outcome)
            if on_better and total.beats(before):    # reported at once: a run killed before its first task keeps it
                on_better(total)
            if done and (log := _log.get()) is not None:
                imported = sum(i["tasks"] for i in ledger.imports)
                log.notes += [f"resumed from its journal: {len(done)} of {len(work)} tasks were done by earlier "
                              f"runs ({sum(row.seconds for row in done.values()):,.0f} task-seconds"
                              + (f"; {imported} of them imported from elsewhere" if imported and not notes else "")
                              + ")", *notes]
            progress = TaskProgress(len(split.tasks), len(ledger.parts), settings.quiet,
                                    done=tallies(done.values(), len(split.tasks)))
            total, left = _drain(split, work, pool, workers, [i for i in range(len(work)) if i not in done],
                                 stop_at, total, journal, progress, on_better)
        progress.close()
    finally:
        if journal:
            journal.close(finished=left == 0)
    return Outcome(total.best, total.witness, total.count, total.positions, total.complete and left == 0,
                   len(work), split.maximise, examples=total.examples)


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
           total: Outcome, journal: Journal | None, progress: TaskProgress,
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
        parts = dict(enumerate(outcome.parts, start=len(work))) if outcome.complete else {}
        if outcome.complete:
            work.extend(outcome.parts)
            queue.extend(parts)
            left += len(parts) - 1
            if journal:
                journal.task_done(task, outcome, seconds, parts)
        if outcome.beats(total) and on_better:
            on_better(outcome)
        total = total.merge(outcome)
        progress.update(task, outcome, total, len(parts))

    window(pool, WINDOW * workers, take, done)
    return total, left
