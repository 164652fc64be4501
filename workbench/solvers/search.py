"""The native searches: each puzzle's own exhaustive or heuristic program, run as one more backend."""
from __future__ import annotations

import importlib
import time
from typing import Any

from ..models.core import Count, NativeTask
from .base import Backend, Options, Report, Result

INSTALL = "pip install numba"

_warmed: set[str] = set()      # modules already compiled in this (long-lived) worker


def _function(entry: str) -> Any:
    module, function = entry.split(":")
    return getattr(importlib.import_module(module), function)


class NativeSearch(Backend):
    name = "search"
    kinds = (NativeTask,)
    install = INSTALL
    distribution, version_format = "numba", "workbench native (numba {})"

    def prepare(self, model: Any) -> None:
        """Compile the search (numba caches it on disk) before the time limit starts counting; once
        per worker, since the compiled code stays loaded."""
        if model.warm_up and model.warm_up not in _warmed:
            _function(model.warm_up)()
            _warmed.add(model.warm_up)

    def solve(self, model: Any, options: Options, report: Report) -> Result:
        return self._run(model, options, report, None)

    def count(self, model: Any, options: Options, report: Report, question: Count) -> Result:
        """A native count: the search function takes the question as a fifth argument."""
        return self._run(model, options, report, question)

    def _run(self, model: Any, options: Options, report: Report, counting: Count | None) -> Result:
        started = time.perf_counter()
        search = _function(model.entry)
        result: Result = search(model.n, model.params, options, report, *([counting] if counting else []))
        if not result.solve_seconds:
            result.solve_seconds = time.perf_counter() - started - result.build_seconds
        return result
