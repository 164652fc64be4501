"""workbench: integer-programming and constraint-model workbench for combinatorial puzzles.

`workbench.solve`, `count`, `table`, `compare` and `verify` are the command line's commands as functions
(api.py); they return the records the command line prints. `solve_model` and `compare_models` run
model files (.lp, .mps, .wcnf, .mzn) as `--model` does; `available_solvers()` names the backends here.
`results(puzzle)` and `bench_results()`
give results/ as pandas DataFrames (frames.py). They are loaded on first use, so that
the worker processes, which import this package, do not load the whole pipeline."""
from typing import Any

from .kernel_cache import use_keyed_cache

use_keyed_cache()          # before any kernel loads: numba's cache keyed by the source (kernel_cache.py)

__version__ = "0.1.0"
__all__ = ["solve", "count", "table", "compare", "verify", "solve_model", "compare_models", "available_solvers",
           "results", "bench_results",
           "WorkbenchError", "BadInput", "UnknownSolver", "Unavailable", "JournalBusy", "JournalBroken"]
# What the functions raise, before anything is solved (docs/usage.md), all of it a WorkbenchError
# (errors.py): BadInput for a request that cannot run as given (its message is the command line's
# one line), UnknownSolver for a backend name not in the registry, Unavailable for a backend that
# cannot run here, JournalBusy for a native search whose journal another run holds, JournalBroken
# for one whose journal is refused (unreadable, edited, or written elsewhere and contradicted when
# its sample was searched again); table's RowNotStored for an answer whose row could not be written.
ERRORS = ("WorkbenchError", "BadInput", "UnknownSolver", "Unavailable", "JournalBusy", "JournalBroken")


def __getattr__(name: str) -> Any:
    if name in ERRORS:
        from . import errors
        return getattr(errors, name)
    if name in ("solve_model", "compare_models", "available_solvers"):
        from . import modelruns
        return getattr(modelruns, name)
    if name in ("results", "bench_results"):
        from . import frames
        return getattr(frames, name)
    if name in __all__:
        from . import api
        return getattr(api, name)
    raise AttributeError(f"module 'workbench' has no attribute '{name}'")
