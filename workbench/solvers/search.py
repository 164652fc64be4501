"""The native searches: each puzzle's own exhaustive or heuristic program, run as one more backend."""
from __future__ import annotations

import importlib
import time
from typing import Any

from ..models.core import NativeTask
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
    counts = True
    distribution, version_format = "numba", "workbench native (numba {})"

    def prepare(self, model: Any) -> None:
        """Compile the search (numba caches it on disk) before the time limit starts counting; once
        per worker, since the compiled code stays loaded."""
        if model.warm_up and model.warm_up not in _warmed:
            _function(model.warm_up)()
            _warmed.add(model.warm_up)

    def solve(self, model: Any, options: Options, report: Report) -> Result:
        started = time.perf_counter()
        result: Result = _function(model.entry)(model.n, model.params, options, report)
        if not result.solve_seconds:
            result.solve_seconds = time.perf_counter() - started - result.build_seconds
        return result
