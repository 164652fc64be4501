"""What a puzzle family provides to the workbench: the contract of puzzles/<family>/.

A puzzle ties together its typed Params, its generator (geometry -> a solver-neutral model, Built
with the decoder that reads a backend's answer back in the puzzle's own terms), an independent
checker (`check(n, solution, params) -> Verdict`, which never imports the generator or a search),
drawings and the published reference values. The commands only ever talk to this interface.
"""
from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Generic, Self, TypeVar

from ..errors import BadInput
from ..models.core import OPTIMISE, Built, Count, NativeTask, Question, Sense


@dataclass
class Verdict:
    """What a checker says of a solution: the one return type of every `check(n, solution, params)`."""

    ok: bool
    message: str
    objective: float | None = None      # the objective the checker itself measured on the solution


@dataclass
class PuzzleOption:
    """A puzzle's command-line flag, made from one field of its Params."""

    flag: str
    help: str
    type: Callable[[str], Any] | None = None   # None: a boolean switch
    default: Any = None
    applies: tuple[str, ...] = ()      # the formulations it applies to (none named: all of them)

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
            return self.type(value if isinstance(value, str) or self.type is int else str(value))  # type: ignore[arg-type]
        except argparse.ArgumentTypeError as e:     # the option's own parser says what it takes
            raise BadInput(str(e)) from None
        except ValueError:
            raise BadInput(f"{self.flag} wants {kind}, got {value!r}") from None


def option(default: Any, help: str, parse: Callable[[str], Any] | None = None, applies: tuple[str, ...] = ()) -> Any:
    """A Params field that is also a command-line flag (--field-name); a False default makes a switch,
    `parse` reads the flag's text (default: the default value's type); `applies` names the
    formulations that read it (a run of another refuses it, so that no option is silently ignored)."""
    return field(default=default, metadata={"help": help, "parse": parse, "applies": applies})


@dataclass(frozen=True)
class Params:
    """A puzzle's parameters, typed: each puzzle subclasses this with `option(...)` fields. The command
    line, the API, `--set` and saved records all come in through `parse`, so one place validates."""

    def __post_init__(self) -> None:
        self.validate()

    def validate(self) -> None:
        """BadInput when the values contradict each other (a subclass says which)."""

    @classmethod
    def options(cls) -> list[PuzzleOption]:
        made = []
        for f in fields(cls):
            if "help" not in f.metadata:
                continue            # a fixed field: set by the puzzle, not by its user
            switch = f.default is False
            parse = f.metadata["parse"] or (None if switch else type(f.default) if f.default is not None else str)
            made.append(PuzzleOption("--" + f.name.replace("_", "-"), f.metadata["help"], parse, f.default,
                                     f.metadata["applies"]))
        return made

    @classmethod
    def parse(cls, raw: Mapping[str, Any] | None = None, owner: str = "this puzzle") -> Self:
        """Typed params from names and values (text or typed); an unknown name is bad input."""
        known = {o.dest: o for o in cls.options()}
        values = {}
        for key, value in (raw or {}).items():
            if key not in known:
                raise BadInput(f"{owner} has no parameter '{key}' (known: {', '.join(known) or 'none'})")
            if value is not None:
                values[key] = known[key].coerce(value)
        return cls(**values)

    def changed(self) -> dict[str, Any]:
        """The options set away from their defaults: what a results row's `setting` records."""
        return {o.dest: getattr(self, o.dest) for o in self.options() if getattr(self, o.dest) != o.default}


P = TypeVar("P", bound=Params)


@dataclass
class Formulation:
    """A way to put the puzzle to a backend: a model (the generator builds it), or, with `search`, a
    native search method, which the native search backend runs as a NativeTask."""

    name: str
    help: str
    solvers: tuple[str, ...] = ()     # backends it is made for: their default formulation
    counts: bool = False              # its question is how many solutions there are (the `count` command)
    search: str | None = None         # "module:function": function(n, params, options, report, question) -> Outcome
    warm_up: str | None = None        # "module:function" compiling the search, run before the clock starts
    tasks: bool = False               # the search runs on the task layer (search/tasks/): --cluster, --fresh


class Puzzle(Generic[P]):
    """A puzzle family's contract with the workbench; a subclass lives in puzzles/<family>/puzzle.py,
    generic in its typed Params (P), which every method below takes as they are."""

    name: str = ""
    title: str = ""
    sense: Sense | None = "min"          # None: nothing is optimised, the puzzle's question is a count
    needs_n: bool = True
    n_min: int = 1
    n_max: int = 10**6
    formulations: tuple[Formulation, ...] = ()
    Params: type[P] = Params      # type: ignore[assignment]   # a puzzle without options keeps the base
    default_solver: str = "highs"

    @property
    def options(self) -> list[PuzzleOption]:
        return self.Params.options()

    def params(self, raw: P | Mapping[str, Any] | None = None) -> P:
        """This puzzle's typed Params from a mapping (or as they are, when already typed)."""
        if isinstance(raw, self.Params):
            return raw
        return self.Params.parse(raw, self.name)     # type: ignore[arg-type]   # not a P: a mapping or None

    # -- generator and model -------------------------------------------------------------
    def validate(self, n: int | None, params: P | None = None) -> None:
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

    def validate_run(self, n: int | None, params: P, formulation: str) -> None:
        """Options that the run's formulation would ignore are bad input (a puzzle adds the limits of
        its own methods)."""
        for opt in self.options:
            if getattr(params, opt.dest) != opt.default and opt.applies and formulation not in opt.applies:
                raise BadInput(f"{self.name}: {opt.flag} applies to {self._scope(opt.applies)} only")

    def _scope(self, formulations: tuple[str, ...]) -> str:
        if not set(formulations) & set(self.methods):
            return "the model backends"
        if set(formulations) >= set(self.methods):
            return "the native search backend"
        return f"the {'/'.join(formulations)} search method{'s' if len(formulations) > 1 else ''}"

    def build(self, n: int | None, formulation: str, params: P | Mapping[str, Any] | None = None) -> Built:
        """The model of this question (or a search method's task) with its decoder."""
        params = self.params(params)
        method = next((f for f in self.formulations if f.name == formulation and f.search), None)
        if method is not None and method.search is not None:
            task = NativeTask(method.search, n, params, self.sense or "min", method.warm_up)
            return Built(task, lambda values: values)      # a native search answers in the puzzle's terms
        return self.generate(n, formulation, params)

    def generate(self, n: int | None, formulation: str, params: P) -> Built:
        raise NotImplementedError

    # -- independent checking and drawing ------------------------------------------------
    checker: Callable[[int | None, Any, Any], Verdict]     # check.py's check(n, solution, params)

    def check(self, n: int | None, solution: Any, params: P | Mapping[str, Any] | None = None) -> Verdict:
        return type(self).checker(n, solution, self.params(params))

    def render(self, n: int | None, solution: Any, params: P) -> str:
        return str(solution)

    def png(self, n: int | None, solution: Any, path: str, params: P) -> None:
        raise BadInput(f"{self.name} has no PNG drawing")

    # -- reference data ------------------------------------------------------------------
    def published_series(self, params: P, formulation: str = "") -> str:
        """The name of the published series these params reproduce (variants differ): a count that a
        puzzle which optimises makes is a series of its own, <name>-<formulation>."""
        counts = self.sense is not None and formulation in self.counting_formulations
        return f"{self.name}-{formulation}" if counts else self.name

    def variant(self, params: P, formulation: str = "") -> str:
        """The results table a run belongs to: its published series, unless params that keep the
        question but change the run (say, a search area) need rows of their own."""
        return self.published_series(params, formulation)

    def setting(self, params: P) -> str:
        """The options a run sets away from their defaults, as text: part of a table row's key, since
        each of them can change the answer ('' when none is set)."""
        chosen = dict(sorted(params.changed().items()))
        return json.dumps(chosen, separators=(",", ":")) if chosen else ""

    def bench_cases(self) -> list[BenchCase]:
        """The canonical performance cases of this puzzle, run by `workbench bench`."""
        return []

    def showcase_cases(self) -> list[ShowcaseCase]:
        """The tables `workbench showcase` (the main job) recomputes for this puzzle."""
        return []

    def pictures(self) -> list[Picture]:
        """The pictures of this puzzle that the README shows, made by `workbench plot`."""
        return []

    @property
    def models(self) -> list[Formulation]:
        """The model formulations (the generator builds them)."""
        return [f for f in self.formulations if f.search is None]

    @property
    def methods(self) -> list[str]:
        """The names of the native search methods."""
        return [f.name for f in self.formulations if f.search is not None]

    @property
    def default_formulation(self) -> str:
        return self.models[0].name if self.models else "default"

    @property
    def counting_formulations(self) -> list[str]:
        """The formulations whose question is a count: those that say so (a counting puzzle's models all do)."""
        return [f.name for f in self.formulations if f.counts or (self.sense is None and f.search is None)]

    def formulation_for(self, solver: str, count: bool = False) -> str:
        """The model formulation a run uses when none is named: the counting one for counts, else one
        made for this backend, else the default."""
        counting = [f for f in self.counting_formulations if f not in self.methods]
        if count and self.sense is not None and counting:
            return counting[0]
        base = solver.partition(":")[0]
        made_for = [f.name for f in self.models if base in f.solvers or solver in f.solvers]
        general = [f.name for f in self.models if not f.solvers]
        return (made_for or general or [self.default_formulation])[0]

    def default_method(self, n: int | None, params: P) -> str:
        """The search method a native run uses when none is named: the first that optimises (a puzzle
        whose n or params pick another says how)."""
        return next((m for m in self.methods if m not in self.counting_formulations), self.methods[0])

    def method(self, n: int | None, params: P, formulation: str | None) -> str:
        """The search method of a native run: the one named, else the default for n and params."""
        if not self.methods:
            raise BadInput(f"{self.name} has no native search method")
        if formulation is None:
            return self.default_method(n, params)
        if formulation not in self.methods:
            raise BadInput(f"{self.name}: the native search takes no --formulation '{formulation}' "
                           f"(its search methods: {', '.join(self.methods)})")
        return formulation

    def on_tasks(self, formulation: str) -> bool:
        """Whether this formulation's search runs on the task layer: only then do --cluster and
        --fresh mean anything."""
        return any(f.name == formulation and f.tasks for f in self.formulations)

    def question_of(self, formulation: str) -> Question:
        """The question a formulation answers on its own (in tables and compare): a count, or the optimum."""
        return Count() if self.sense is None or formulation in self.counting_formulations else OPTIMISE


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
    certify: float | None = None   # also certify the answer as a lower bound (seconds allowed)
    store: bool = False            # also store the run's row in results/<variant>.csv (a second computation)
    race: bool = True              # False: a comparison of two methods, not a race that picks the default solver


@dataclass
class ShowcaseCase:
    """One table of the main job (`workbench showcase`), compared with the published values."""

    puzzle: str
    n: str | None                     # the table's N, as on the command line
    solver: str | None = None         # None: the puzzle's default
    params: dict[str, Any] = field(default_factory=dict)
    time_limit: float = 60.0          # seconds per run: several times its slowest row's on 2 quiet cores
    formulation: str | None = None    # None: the backend's default

    @property
    def name(self) -> str:
        return " ".join([self.puzzle, *(f"--{k}" if v is True else f"--{k} {v}" for k, v in self.params.items()),
                         *([f"--formulation {self.formulation}"] if self.formulation else []),
                         *([f"--solver {self.solver}"] if self.solver else [])])


@dataclass
class Picture:
    """A picture `workbench plot` writes as `file`: the best verified board stored in results/<table>.csv
    for n (with these params), or, with `draw`, what draw(results folder, path) makes of the tables."""

    file: str
    table: str = ""
    n: int | None = None
    params: dict[str, Any] = field(default_factory=dict)
    draw: Callable[[Path, Path], None] | None = None
    formulation: str | None = None
