"""Native searches: puzzle-specific exhaustive or heuristic programs, counted as one more backend."""
from __future__ import annotations

import importlib
import time
from dataclasses import dataclass, field
from importlib.metadata import version as _dist_version
from typing import Any

from .base import Options, Report, Result, UnsupportedModel


@dataclass
class NativeTask:
    """What the `search` backend runs instead of a model: the puzzle's own search function."""

    entry: str                      # "module:function"
    n: int | None
    params: dict[str, Any] = field(default_factory=dict)
    sense: str = "min"


NAME = "search"
KINDS = (NativeTask,)
INSTALL = "pip install numba"


def version() -> str:
    return f"workbench native (numba {_dist_version('numba')})"


def _entry(task: NativeTask) -> tuple[Any, str]:
    module, function = task.entry.split(":")
    return importlib.import_module(module), function


_warmed: set[str] = set()      # modules already compiled in this (long-lived) worker


def prepare(task: NativeTask) -> None:
    """Compile the search (numba caches it on disk) before the time limit starts counting; once
    per worker, since the compiled code stays loaded."""
    module, _ = _entry(task)
    if hasattr(module, "warm_up") and module.__name__ not in _warmed:
        module.warm_up()
        _warmed.add(module.__name__)


def solve(task, options: Options, report: Report, sub: str | None = None) -> Result:
    if not isinstance(task, NativeTask):
        raise UnsupportedModel("the search backend runs a puzzle's native search, not a model")
    module, function = _entry(task)
    search = getattr(module, function)
    options.params = {**task.params, **options.params}
    started = time.perf_counter()
    result = search(task.n, options, report)
    if not result.solve_seconds:
        result.solve_seconds = time.perf_counter() - started - result.build_seconds
    return result
