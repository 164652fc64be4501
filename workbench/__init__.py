"""workbench: integer-programming and constraint-model workbench for combinatorial puzzles.

`workbench.solve`, `count`, `table`, `compare` and `verify` are the command line's commands as functions
(api.py); they return the records the command line prints. `solve_model` and `compare_models` run
model files (.lp, .mps, .wcnf, .mzn) as `--model` does; `available_solvers()` names the backends here.
`results(puzzle)` and `bench_results()`
give results/ as pandas DataFrames (frames.py). They are loaded on first use, so that
the worker processes, which import this package, do not load the whole pipeline."""
from typing import Any

__version__ = "0.1.0"
__all__ = ["solve", "count", "table", "compare", "verify", "solve_model", "compare_models", "available_solvers",
           "results", "bench_results",
           "BadInput", "UnknownSolver", "Unavailable", "JournalBusy", "JournalBroken"]
# What the functions raise, before anything is solved (docs/usage.md): BadInput for a request that
# cannot run as given (its message is the command line's one line), UnknownSolver for a backend
# name not in the registry, Unavailable for a backend that cannot run here, JournalBusy for a
# native search whose journal another run holds, JournalBroken for one whose journal is refused
# (unreadable, edited, or written elsewhere and contradicted when its sample was searched again).
ERRORS = {"BadInput": "puzzles.base", "UnknownSolver": "solvers", "Unavailable": "solvers.base",
          "JournalBusy": "search.tasks", "JournalBroken": "search.tasks"}


def __getattr__(name: str) -> Any:
    if name in ERRORS:
        from importlib import import_module
        return getattr(import_module(f".{ERRORS[name]}", __name__), name)
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
