"""workbench: integer-programming and constraint-model workbench for combinatorial puzzles.

`workbench.solve`, `count`, `table`, `compare` and `verify` are the command line's commands as functions
(api.py); they return the records the command line prints. They are loaded on first use, so that
the worker processes, which import this package, do not load the whole pipeline."""
from typing import Any

__version__ = "0.1.0"
__all__ = ["solve", "count", "table", "compare", "verify"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from . import api
        return getattr(api, name)
    raise AttributeError(f"module 'workbench' has no attribute '{name}'")
