"""The native searches: each puzzle's own search methods (formulations with `search`), run as one
more backend. A method returns an Outcome (search/outcome.py); this module alone turns it into a
Result, and what it reports on the way into incumbents, so no search imports solvers/."""
from __future__ import annotations

import importlib
import sys
import time
from typing import Any

from ..models.core import OPTIMISE, Count, NativeTask, Question
from ..search.outcome import Outcome, Refused
from ..search.tasks import journal_log
from .base import Backend, Incumbent, Options, Report, Result, Status

INSTALL = "pip install numba"

_warmed: set[str] = set()      # modules already compiled in this (long-lived) worker


def _function(entry: str) -> Any:
    module, function = entry.split(":")
    return getattr(importlib.import_module(module), function)


def cold(entry: str) -> bool:
    """Whether warming `entry` ("module:function") must compile: no kernel of its package has an entry
    in numba's cache for its current source (numba's own index and stamp, read, nothing compiled;
    helpers compiled into their callers have none of their own, hence none rather than any).
    Cheap (an index file a kernel), so that a first run can say why it waits."""
    from numba.core.dispatcher import Dispatcher
    package = importlib.import_module(entry.split(":")[0]).__name__.rpartition(".")[0]
    kernels: list[Any] = [obj for name, module in list(sys.modules.items()) if name.startswith(package + ".") and module
                          for obj in vars(module).values()
                          if isinstance(obj, Dispatcher) and obj.py_func.__module__ == name]     # its own, not imported
    try:
        caches = [k._cache for k in kernels]        # numba's FunctionCache (a NullCache where not cached)
        return not any(c._cache_file._load_index() for c in caches if hasattr(c, "_cache_file"))
    except Exception:        # numba's cache internals moved: no line, no compile figure
        return False


def warm_up(entry: str, say: bool = False) -> float:
    """Compile a search method ("module:function" of its warm-up) once in this process; numba keeps
    the machine code on disk, so later processes load it instead of compiling. With `say`, a cold
    cache is one line on stderr first (a first run waits a minute, not hangs). Returns the seconds
    spent compiling (0 when the cache was warm)."""
    if entry in _warmed:
        return 0.0
    compiling = cold(entry)
    if compiling and say:
        what = entry.partition(":")[0].split(".")[-2]
        print(f"compiling the {what} search into numba's cache (once; later runs load it)", file=sys.stderr, flush=True)
    watch = time.perf_counter()
    _function(entry)()
    _warmed.add(entry)
    return time.perf_counter() - watch if compiling else 0.0


def incumbent(out: Outcome[Any], question: Question) -> Incumbent:
    """What a search reported so far, as the runner keeps it."""
    return Incumbent(out.best, out.bound, out.witness, count=out.count if isinstance(question, Count) else None)


def result(out: Outcome[Any], question: Question) -> Result:
    """A search's answer as a Result. A count is complete or unknown; otherwise a complete search
    proves its best (or, finding nothing, that there is none), an incomplete one found what it found."""
    if isinstance(question, Count):
        return Result(Status.COMPLETE if out.complete else Status.UNKNOWN, count=out.count if out.complete else None,
                      examples=list(out.examples), message=out.message, build_seconds=out.build_seconds,
                      positions=out.positions or None)
    found = out.found or out.best is not None
    if out.complete:
        status, bound = (Status.OPTIMAL, out.best) if found else (Status.INFEASIBLE, None)
    else:
        status, bound = (Status.FEASIBLE if found else Status.UNKNOWN), out.bound
    return Result(status, out.best, bound, values=out.witness, solution=out.witness, count=out.count or None,
                  message=out.message, build_seconds=out.build_seconds, positions=out.positions or None)


class NativeSearch(Backend):
    name = "search"
    kinds = (NativeTask,)
    install = INSTALL
    distribution, version_format = "numba", "workbench native (numba {})"
    compile_seconds = 0.0       # what this job's prepare() spent compiling

    def prepare(self, model: Any) -> None:
        """Compile the search (numba caches it on disk) before the time limit starts counting; once
        per worker, since the compiled code stays loaded."""
        self.compile_seconds = warm_up(model.warm_up, say=True) if model.warm_up else 0.0

    def solve(self, model: Any, options: Options, report: Report) -> Result:
        return self._run(model, options, report, OPTIMISE)

    def count(self, model: Any, options: Options, report: Report, question: Count) -> Result:
        return self._run(model, options, report, question)

    def _run(self, model: NativeTask, options: Options, report: Report, question: Question) -> Result:
        started = time.perf_counter()
        try:
            with journal_log() as log:        # finished journals stay until the parent keeps the answer
                out = _function(model.entry)(model.n, model.params, options,
                                             lambda part: report(incumbent(part, question)), question)
                answer = result(out, question)
        except Refused as e:
            return Result(Status.ERROR, message=str(e))
        answer.message = "; ".join(filter(None, [answer.message, *log.notes]))
        answer.journals = log.finished
        answer.solve_seconds = time.perf_counter() - started - answer.build_seconds
        answer.compile_seconds = self.compile_seconds
        return answer
