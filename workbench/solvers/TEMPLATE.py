"""Template for a new backend: copy to <name>.py, fill in, and add one line to BACKENDS in __init__.py.

A backend runs inside its own worker process (runner.py), so it imports its solver library inside
solve(): a missing library then only disables this backend.
"""
from __future__ import annotations

from typing import Any

from ..models.core import LinearModel
from .base import Backend, Incumbent, Options, Report, Result, Status, Unavailable

INSTALL = "pip install <library>"


class Template(Backend):
    name = "template"
    kinds = (LinearModel,)          # the model kinds solve() accepts
    install = INSTALL               # shown by `workbench solvers` when the library is missing

    def version(self) -> str:
        """The solver's version, without importing heavy libraries (importlib.metadata is enough)."""
        raise Unavailable(f"not installed ({INSTALL})")

    def solve(self, model: Any, options: Options, report: Report) -> Result:
        """Solve within options.time_limit using options.threads and options.seed.

        Call report(Incumbent(objective, bound, values)) on every improvement, so that a hard kill by
        the runner still leaves the best solution and bound. Return Status.OPTIMAL only when the
        solver proved it with gap 0.
        """
        report(Incumbent(None, None))
        return Result(Status.UNKNOWN, message=f"not installed ({INSTALL})")
