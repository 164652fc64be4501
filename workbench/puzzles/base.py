"""What a puzzle family provides to the workbench.

A puzzle ties together its generator (geometry -> solver-neutral model), the decoding of a
model solution into the puzzle's own terms, an independent checker, drawings and the published
reference values. The commands in cli.py only ever talk to this interface.
"""
from __future__ import annotations

import argparse
import json
from dataclasses import dataclass, field
from typing import Any, Callable

from ..models.core import Model, Sense


class BadInput(Exception):
    """User error: the CLI prints the message on one line and exits with status 2."""


@dataclass
class Verdict:
    ok: bool
    message: str
    objective: float | None = None      # the objective the checker itself measured on the solution


@dataclass
class PuzzleOption:
    """A puzzle-specific command-line option, e.g. --margin for squares."""

    flag: str
    help: str
    type: Callable[[str], Any] | None = None   # None: a boolean switch
    default: Any = None
    backends: str = ""          # "search" or "models" when the option applies to those backends only

    @property
    def dest(self) -> str:
        return self.flag.lstrip("-").replace("-", "_")

    def coerce(self, value: Any) -> Any:
        """A value given as text (`--set`) or read from a record, as this option's type; BadInput
        for anything else, so that a wrong value never reaches a generator or a search."""
        if self.type is None:
            words = {"true": True, "1": True, "yes": True, "false": False, "0": False, "no": False}
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.lower() in words:
                return words[value.lower()]
            raise BadInput(f"{self.flag} is a switch: give true or false, got {value!r}")
        kind = {int: "an integer", str: "text"}.get(self.type, "a value it knows")   # type: ignore[call-overload]
        if isinstance(value, bool) or not isinstance(value, (str, int)):
            raise BadInput(f"{self.flag} wants {kind}, got {value!r}")
        try:
            return self.type(value if isinstance(value, str) or self.type is int else str(value))
        except argparse.ArgumentTypeError as e:     # the option's own parser says what it takes
            raise BadInput(str(e)) from None
        except ValueError:
            raise BadInput(f"{self.flag} wants {kind}, got {value!r}") from None


@dataclass
class Formulation:
    name: str
    help: str
    solvers: tuple[str, ...] = ()     # backends it is made for: their default formulation


class Puzzle:
    name: str = ""
    title: str = ""
    sense: Sense = "min"
    needs_n: bool = True
    n_min: int = 1
    n_max: int = 10**6
    formulations: list[Formulation] = []
    options: list[PuzzleOption] = []
    default_solver: str = "highs"
    native_search: str | None = None    # "module:function" run by the `search` backend
    counts: bool = False                # the puzzle's question is a count (the `count` command)
    count_formulations: tuple[str, ...] = ()   # formulations whose solutions are counted, if not all

    exclusive: tuple[tuple[str, str], ...] = ()    # pairs of options that contradict each other

    # -- generator and model -------------------------------------------------------------
    def validate(self, n: int | None, params: dict[str, Any]) -> None:
        if not self.needs_n:
            if n is not None:
                raise BadInput(f"{self.name} takes no --n")
            return
        if n is None:
            raise BadInput(f"{self.name} needs --n")
        if isinstance(n, bool) or not isinstance(n, int):
            raise BadInput(f"{self.name}: n must be an integer, got {n!r}")
        if not self.n_min <= n <= self.n_max:
            raise BadInput(f"{self.name}: n must be between {self.n_min} and {self.n_max}, got {n}")

    def validate_run(self, params: dict[str, Any], solver: str) -> None:
        """Options that the backend would ignore, or that contradict each other, are bad input."""
        kind = "search" if solver == "search" else "models"
        for opt in self.options:
            if params.get(opt.dest) not in (None, False, opt.default) and opt.backends not in ("", kind):
                raise BadInput(f"{self.name}: {opt.flag} applies to the "
                               f"{'search backend' if opt.backends == 'search' else 'model backends'} only")
        for a, b in self.exclusive:
            if params.get(a) and params.get(b):
                raise BadInput(f"{self.name}: --{a} and --{b} exclude each other")

    def model(self, n: int | None, formulation: str, params: dict[str, Any]) -> Model:
        raise NotImplementedError

    def decode(self, n: int | None, model: Model, values: Any, params: dict[str, Any]) -> Any:
        """Model variable values -> the puzzle's own JSON-able solution."""
        raise NotImplementedError

    # -- independent checking and drawing ------------------------------------------------
    def check(self, n: int | None, solution: Any, params: dict[str, Any]) -> Verdict:
        raise NotImplementedError

    def render(self, n: int | None, solution: Any, params: dict[str, Any]) -> str:
        return str(solution)

    def png(self, n: int | None, solution: Any, path: str, params: dict[str, Any]) -> None:
        raise BadInput(f"{self.name} has no PNG drawing")

    # -- reference data ------------------------------------------------------------------
    def table_key(self, params: dict[str, Any], formulation: str = "") -> str:
        """The name of the published series these params reproduce (variants differ)."""
        return self.name

    def variant(self, params: dict[str, Any], formulation: str = "") -> str:
        """The results table a run belongs to: its published series, unless params that keep the
        question but change the run (say, a search area) need rows of their own."""
        return self.table_key(params, formulation)

    def setting(self, params: dict[str, Any]) -> str:
        """The options a run sets away from their defaults, as text: part of a table row's key, since
        each of them can change the answer ('' when none is set)."""
        defaults = {o.dest: o.default for o in self.options}
        chosen = {k: v for k, v in sorted(params.items()) if k in defaults and v not in (None, False, defaults[k])}
        return json.dumps(chosen, separators=(",", ":")) if chosen else ""

    def bench_cases(self) -> list["BenchCase"]:
        """The canonical performance cases of this puzzle, run by `workbench bench`."""
        return []

    @property
    def default_formulation(self) -> str:
        return self.formulations[0].name if self.formulations else "default"

    @property
    def can_count(self) -> bool:
        return self.counts or bool(self.count_formulations)

    def formulation_for(self, solver: str, count: bool = False) -> str:
        """The formulation a run uses when none is named: the counting one for counts, else one made
        for this backend, else the default."""
        if solver == "search":
            return "native"
        if count and self.count_formulations:
            return self.count_formulations[0]
        base = solver.partition(":")[0]
        made_for = [f.name for f in self.formulations if base in f.solvers or solver in f.solvers]
        general = [f.name for f in self.formulations if not f.solvers]
        return (made_for or general or [self.default_formulation])[0]

    def is_count(self, formulation: str) -> bool:
        """Whether runs of this formulation answer with a count of solutions."""
        return self.counts or formulation in self.count_formulations


@dataclass
class Published:
    puzzle: str
    n: int
    value: int
    status: str          # PROVEN, CLAIMED or BOUND
    source: str
    extra: dict[str, str] = field(default_factory=dict)


@dataclass
class BenchCase:
    """One canonical performance case. With `ladder`, n climbs from `n` until a run is not proven
    (or `n_stop` is passed): that measures the largest n a backend proves within the time limit."""

    puzzle: str
    n: int | None
    solver: str
    time_limit: float
    params: dict[str, Any] = field(default_factory=dict)
    formulation: str | None = None
    ladder: bool = False
    n_stop: int | None = None
    count: bool = False
    label: str = ""
