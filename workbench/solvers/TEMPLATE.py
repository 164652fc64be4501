"""Template for a new backend: copy to <name>.py, fill in, and add the name to BACKENDS in __init__.py.

A backend runs inside its own worker process (runner.py), so it may import its solver library at
the top of solve(): a missing library then only disables this backend.
"""
from __future__ import annotations

from ..models.core import LinearModel
from .base import Incumbent, Options, Report, Result, Status, Unavailable

NAME = "template"
KINDS = (LinearModel,)            # the model kinds solve() accepts
INSTALL = "pip install <library>"  # shown by `workbench solvers` when the library is missing


def version() -> str:
    """The solver's version, without importing heavy libraries (importlib.metadata is enough)."""
    raise Unavailable(f"not installed ({INSTALL})")


# Optional: def prepare(model) -> None, one-off work (say, compiling native code) that the runner
# does before the time limit starts counting.


def solve(model, options: Options, report: Report, sub: str | None = None) -> Result:
    """Solve within options.time_limit using options.threads and options.seed.

    Call report(Incumbent(objective, bound, values)) on every improvement, so that a hard kill by
    the runner still leaves the best solution and bound. Return Status.OPTIMAL only when the solver
    proved it with gap 0.
    """
    raise Unavailable(f"not installed ({INSTALL})")
