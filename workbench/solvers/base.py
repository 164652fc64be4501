"""The result record and the one protocol every backend follows.

A backend is a module in this package exposing `NAME`, `KINDS`, `version()` and
`solve(model, options, report)`. It is imported lazily, inside its own worker process
(see runner.py), so a missing or crashing solver library never takes the others down.
"""
from __future__ import annotations

import enum
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Protocol


class Status(str, enum.Enum):
    OPTIMAL = "optimal"        # proven: gap 0, or (when counting) the enumeration was complete
    FEASIBLE = "feasible"      # a solution, not proven optimal (time limit, or the backend cannot prove)
    INFEASIBLE = "infeasible"  # proven: no solution
    UNKNOWN = "unknown"        # stopped before finding anything
    ERROR = "error"            # the backend failed; see Result.message

    def __str__(self) -> str:
        return self.value


class Unavailable(Exception):
    """The backend cannot run here (library or executable missing); the message says how to get it."""


class UnsupportedModel(Exception):
    """The backend does not take this model kind."""


@dataclass
class Options:
    time_limit: float | None = 60.0
    threads: int = 2
    seed: int = 0
    verbose: bool = False
    count: bool = False                     # enumerate all solutions instead of optimising
    cluster: str | None = None              # native searches: local:K, tcp://HOST:PORT or a scheduler file
    fresh: bool = False                     # native searches: forget the journal of an interrupted run
    quiet: bool = False                     # native searches: no progress on stderr
    params: dict[str, Any] = field(default_factory=dict)   # backend- or puzzle-specific extras

    def remaining(self, since: float) -> float | None:
        """The solver's own limit: what is left after the model building done since `since`
        (a perf_counter time), so that a run ends near the limit, not past the runner's deadline."""
        if self.time_limit is None:
            return None
        return max(0.1, self.time_limit - (time.perf_counter() - since))


@dataclass
class Incumbent:
    """What a backend knows mid-run; the runner keeps the latest so a hard kill loses nothing."""

    objective: float | None
    bound: float | None
    values: Any = None
    count: int | None = None


Report = Callable[[Incumbent], None]


@dataclass
class Result:
    status: Status
    objective: float | None = None
    bound: float | None = None
    values: Any = None            # the model's variable values, or a native search's own solution
    solution: Any = None          # the puzzle-level solution, JSON-able (filled in by the puzzle)
    count: int | None = None
    solver: str = ""
    solver_version: str = ""
    build_seconds: float = 0.0
    solve_seconds: float = 0.0
    total_seconds: float = 0.0
    params: dict[str, Any] = field(default_factory=dict)
    message: str = ""

    @property
    def proven(self) -> bool:
        return self.status in (Status.OPTIMAL, Status.INFEASIBLE)

    @property
    def gap(self) -> float | None:
        if self.objective is None or self.bound is None:
            return None
        return abs(self.objective - self.bound) / max(1.0, abs(self.objective))

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["status"] = str(self.status)
        d["proven"] = self.proven
        d.pop("values", None)
        return d


class Backend(Protocol):
    NAME: str
    KINDS: tuple[type, ...]

    def version(self) -> str: ...

    def solve(self, model: Any, options: Options, report: Report) -> Result: ...


def clean_number(x: float | None) -> float | int | None:
    """Integral objective values print as integers: puzzle objectives are counts."""
    if x is None:
        return None
    r = round(x)
    return int(r) if abs(x - r) < 1e-6 else x
