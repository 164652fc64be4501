"""The result record and the one contract every backend follows: the Backend base class.

A backend is one module in this package holding one Backend subclass (copy TEMPLATE.py). It is
imported lazily, inside its own worker process (see runner.py), so a missing or crashing solver
library never takes the others down; its solver library is imported inside solve().
"""
from __future__ import annotations

import importlib
import math
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _dist_version
from typing import TYPE_CHECKING, Any, ClassVar

from ..errors import Unavailable, UnsupportedModel
from ..models.core import Count, MaxSatModel, NativeTask, Options
from ..records import Status

if TYPE_CHECKING:
    from ..certify import Certificate


@dataclass
class Incumbent:
    """What a backend knows mid-run; the runner keeps the latest so a hard kill loses nothing."""

    objective: float | None
    bound: float | None
    values: Any = None
    count: int | None = None


Report = Callable[[Incumbent], None]


@dataclass
class RacerResult:
    """One racer of a portfolio run (auto), as it stood when the race ended."""

    racer: str
    status: str
    objective: float | None
    bound: float | None
    seconds: float


DOUBLE_EXACT = 2 ** 53      # the integers a double holds exactly


def refuse_past(model: MaxSatModel, limit: int, arithmetic: str) -> None:
    """A model whose weights reach past what the backend's arithmetic holds exactly is refused by
    name: past it an optimum and its neighbours tie, and the wrong one can win."""
    reach = model.objective_reach()
    if reach > limit:
        raise UnsupportedModel(f"{arithmetic}; this model's integer weights reach 2^{math.log2(reach):.1f}")


class ReadsResult:
    """What every kind of run (a puzzle's, a model file's, a stored row's) says of its Result alike."""

    result: Result

    @property
    def solver(self) -> str:
        return self.result.solver

    @property
    def proven(self) -> bool:
        return self.result.proven

@dataclass
class Result:
    status: Status
    objective: float | None = None
    bound: float | None = None
    values: Any = None            # the model's variable values, or a native search's own solution
    solution: Any = None          # the puzzle-level solution, JSON-able (filled in by the puzzle)
    count: int | None = None      # a count's answer (or, optimising, the optimal solutions counted)
    examples: list[Any] | None = None   # a count's example solutions, in the puzzle's terms
    solver: str = ""
    solver_version: str = ""
    build_seconds: float = 0.0
    solve_seconds: float = 0.0
    compile_seconds: float = 0.0  # a native search compiled into numba's cache before the clock (a cold cache)
    total_seconds: float = 0.0
    params: dict[str, Any] = field(default_factory=dict)      # the run's settings: threads, time limit, seed
    message: str = ""
    positions: int | None = None  # the boards a native search visited (its work, machine-independent)
    racers: list[RacerResult] | None = None     # a portfolio run's racers, each as it ended
    certificate: Certificate | None = None      # the lower bound's DRUP certificate (solve --certify)
    journals: list[str] = field(default_factory=list)   # finished searches' journals: removed once the answer is kept
    incumbents: list[list[float]] = field(default_factory=list)   # [seconds since the start, objective], as found

    @property
    def proven(self) -> bool:
        return self.status.proves

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


class Backend(ABC):
    """One solver behind the workbench. `name:sub` names pick a subsolver (minizinc:gecode), so no
    code outside a backend's own module needs to know which backend it is."""

    name: ClassVar[str]
    kinds: ClassVar[tuple[type, ...]]         # the model kinds solve() takes
    install: ClassVar[str]                    # how to get it, shown when it is missing
    default_sub: ClassVar[str | None] = None  # the subsolver a bare name means
    in_parent: ClassVar[bool] = False         # it runs in the calling process (a portfolio of workers)
    exports: ClassVar[tuple[str, ...]] = ()   # `workbench export` formats made for it
    # how it takes --option (tuning.py): "library" (names and types from option_types()), "command"
    # (flags on its command line, as given), None (none)
    options_via: ClassVar[str | None] = None

    def __init__(self, sub: str | None = None) -> None:
        self.sub = sub or self.default_sub

    @classmethod
    def subsolvers(cls, probe: bool = False) -> dict[str, str | None]:
        """The subsolvers this backend offers here: name -> why it cannot run (None: it can); with
        `probe`, each one is tried as well as read from its configuration."""
        return {}

    distribution: ClassVar[str] = ""          # the pip package that holds the solver
    version_format: ClassVar[str] = "{}"      # how its version reads, e.g. "pulp {}"

    def version(self) -> str:
        """The solver's version, cheaply (package metadata, no import); Unavailable when it is missing."""
        try:
            return self.version_format.format(_dist_version(self.distribution))
        except PackageNotFoundError:
            raise Unavailable(f"{self.distribution} is not installed ({self.install})") from None

    def exact_integers(self) -> tuple[int, str] | None:
        """How far the backend's arithmetic holds a MaxSAT model's cost exactly (None: no limit); the
        runner refuses a model whose weights pass it (refuse_past)."""
        return DOUBLE_EXACT, f"{self.name} computes in doubles, exact to 2^53"

    def library(self, module: str) -> Any:
        """The solver library, imported inside the worker on first use: a missing one disables only
        this backend."""
        try:
            return importlib.import_module(module)
        except ImportError as e:
            raise Unavailable(f"{module} cannot be imported ({e}); install: {self.install}") from e

    def option_types(self) -> dict[str, Any]:
        """The library's option names -> "bool", "int", "float", "str" or an enum's names (imports
        the library: called in a child process of its own, tuning.py)."""
        raise NotImplementedError

    def prepare(self, model: Any) -> None:  # noqa: B027 - optional, and nothing to do by default
        """One-off work (say, compiling native code) done before the time limit starts counting."""

    @abstractmethod
    def solve(self, model: Any, options: Options, report: Report) -> Result:
        """Solve within options.time_limit on options.threads, calling report() on every improvement
        so that a hard kill still leaves the best solution and bound. OPTIMAL only from a proof."""

    def count(self, model: Any, options: Options, report: Report, question: Count) -> Result:
        """Count the model's solutions (a backend that enumerates overrides this), keeping
        question.show of them as examples (their values); COMPLETE only when none was missed."""
        raise UnsupportedModel(f"{self.name} does not count solutions; name a backend that does")

    @classmethod
    def runs_searches(cls) -> bool:
        """Whether it runs the puzzles' native search methods rather than models."""
        return NativeTask in cls.kinds

    @classmethod
    def enumerates(cls) -> bool:
        """Whether it answers the count question (it overrides count())."""
        return cls.count is not Backend.count


class Enumerator(Backend):
    """A backend whose one run serves both questions: solve and count each call run(), with the
    count question or None, so the settings and the streaming are written once."""

    def solve(self, model: Any, options: Options, report: Report) -> Result:
        return self.run(model, options, report, None)

    def count(self, model: Any, options: Options, report: Report, question: Count) -> Result:
        return self.run(model, options, report, question)

    @abstractmethod
    def run(self, model: Any, options: Options, report: Report, counting: Count | None) -> Result:
        """Optimise (counting None) or count, as solve() and count() promise."""


class SolutionCount:
    """Counting by enumeration, shared by the backends that enumerate: solutions are told apart by
    the model's projection (`project`: the variables that identify a solution), the first
    `show` are kept as examples, and every thousandth new one is reported to the parent."""

    def __init__(self, project: list[int] | None, n_vars: int, show: int, report: Report) -> None:
        self.project = project if project is not None else list(range(n_vars))
        self.n_vars, self.show, self.report = n_vars, show, report
        self.seen: set[tuple[int, ...]] = set()
        self.examples: list[list[int]] = []

    def add(self, value: Callable[[int], int]) -> None:
        """One solution found, given as variable index -> value (read only as far as needed)."""
        key = tuple(value(v) for v in self.project)
        if key in self.seen:
            return
        self.seen.add(key)
        if len(self.examples) < self.show:
            self.examples.append([value(v) for v in range(self.n_vars)])
        if len(self.seen) % 1000 == 0:
            self.report(Incumbent(None, None, self.examples, count=len(self.seen)))

    def result(self, complete: bool, **timings: Any) -> Result:
        return Result(Status.COMPLETE if complete else Status.FEASIBLE, count=len(self.seen),
                      values=self.examples, **timings)


def flags(own: dict[str, Any], dash: str) -> list[str]:
    """A command backend's --option values as its command-line words: NAME alone for a bare flag
    (True), else NAME VALUE, each NAME after `dash` (CBC's options go through PuLP, which adds its own)."""
    words: list[str] = []
    for key, value in own.items():
        flag = key if key.startswith("-") else dash + key
        words += [flag] if value is True else [f"{flag} {value}"] if not dash else [flag, str(value)]
    return words


def clean_number(x: float | None) -> float | int | None:
    """Integral objective values print as integers: puzzle objectives are counts."""
    if x is None or not math.isfinite(x):
        return x
    r = round(x)
    return int(r) if abs(x - r) < 1e-6 else x
