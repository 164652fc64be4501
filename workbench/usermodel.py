"""The user's own model file, run on every backend that takes its kind, without a puzzle package.

Reading (exact: continuous columns, infinite bounds, constants, as the file has them; what cannot be
represented is refused by name) is `userfile/reading.py`, MiniZinc's route `userfile/flatzinc.py`.
No puzzle checker runs; instead every solution is checked against the file itself, read again
(`userfile/checking.py`): each row, bound, integrality and clause, the objective recomputed from the
file (a MiniZinc solution by MiniZinc, on the original file with the solution's output variables fixed).
A MiniZinc file runs as written on MiniZinc's own solvers, flattened to linear FlatZinc on the rest.
"""
from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from .models.core import LinearModel, MaxSatModel
from .puzzles.base import BadInput, Verdict
from .records import Record
from .solvers import BACKENDS, backend_class, canonical, installed, split_name
from .solvers.base import Options, ReadsResult, Result, Status, clean_number
from .solvers.runner import run as run_backend
from .userfile.checking import NO_CHECKER, agrees, check_linear, check_wcnf
from .userfile.flatzinc import (
    CompileCut,
    Flattened,
    MiniZincFile,
    NotLinear,
    check_minizinc,
    flatten,
    json_ready,
    minizinc_file,
    original_values,
)
from .userfile.reading import LinearFile, WcnfFile, kind_of, linear_model, maxsat_model, parse

__all__ = ["NO_CHECKER", "FileRun", "ModelFile", "backends_for", "check", "read", "solve"]


@dataclass
class ModelFile:
    path: Path
    kind: str                                  # lp, mps, wcnf or mzn
    model: LinearModel | MaxSatModel | MiniZincFile   # what the backends get (MiniZinc's own solvers: the file)
    names: list[str]                           # the model's own variables (MiniZinc: its outputs), by name
    data: Path | None = None
    warnings: list[str] = field(default_factory=list)             # one line each, for stderr
    _original: LinearFile | WcnfFile | None = None                # the file read again, for the check
    _flat: Flattened | Result | None = None    # MiniZinc: its linear flattening, or why there is none

    @property
    def sense(self) -> str:
        return self.model.sense

    @property
    def label(self) -> str:
        return f"model:{self.path.name}"

    def original(self) -> LinearFile | WcnfFile:
        """The file as its parser reads it, read afresh (once) for the check: not the model the
        backends were given."""
        if self._original is None:
            self._original = parse(self.path, self.kind)[0]
        return self._original


def read(path: str | Path, data: str | Path | None = None) -> ModelFile:
    """The file as a model kind of the workbench; bad, unreadable or unrepresentable files are BadInput.
    A MiniZinc file is only checked by MiniZinc here (a quick type check); its flattening, for the
    backends other than MiniZinc's own, is part of their run, within their time limit."""
    path = Path(path)
    kind = kind_of(path)
    if not path.is_file():
        raise BadInput(f"--model {path}: no such file")
    if data is not None and (kind != "mzn" or not Path(data).is_file()):
        raise BadInput(f"--data {data}: " + ("only a MiniZinc model takes a data file" if kind != "mzn"
                                             else "no such file"))
    name = path.name.split(".")[0]
    if kind == "mzn":     # flattened only when a backend other than MiniZinc's own asks (flat)
        mzn = minizinc_file(path, Path(data) if data else None)
        return ModelFile(path, kind, mzn, mzn.outputs, Path(data) if data else None)
    parsed, warnings = parse(path, kind)
    if isinstance(parsed, WcnfFile):
        return ModelFile(path, kind, maxsat_model(parsed, name), [str(v + 1) for v in range(parsed.n_vars)],
                         warnings=warnings)
    found = ModelFile(path, kind, linear_model(parsed, name), list(parsed.names), warnings=warnings)
    # A user's model comes with no search of its own for a CP backend; the one it would get, a complete
    # search without a relaxation, finds 31 on Enigma 144 N = 6 in 300 s where neighbourhoods find the
    # optimum 29 at once (docs/backends.md), but they never end: the complete search runs first, for a
    # third of the time, so that a small model is proven (minizinc._phases).
    assert isinstance(found.model, LinearModel)
    found.model.neighbourhoods = True
    return found


def check(mf: ModelFile, values: Any) -> Verdict:
    """The solution against the file itself (read again): every row/bound/integrality/clause holds;
    the objective recomputed from the file."""
    if mf.kind == "mzn":      # a flattened solution (a list) is first named as the model names it
        assert isinstance(mf.model, MiniZincFile)
        try:
            named = _by_name(mf, values)
        except ValueError as e:
            return Verdict(False, f"{NO_CHECKER}; {e}")
        return check_minizinc(mf.model, named)
    original = mf.original()
    return check_wcnf(original, values) if isinstance(original, WcnfFile) else check_linear(original, values)


# -- runs -------------------------------------------------------------------------------------

@dataclass
class FileRun(ReadsResult):
    """A run of a model file: the fields of pipeline.Run that the tables and the views read."""

    file: ModelFile
    result: Result
    verdict: Verdict | None
    n: None = None
    counting: bool = False
    repeat: int = 1           # which of a --repeat K run's runs (its seed is in result.params)

    @property
    def verified(self) -> bool:
        return self.verdict is not None and self.verdict.ok

    @property
    def value(self) -> float | int | None:
        return clean_number(self.result.objective)

    def record(self) -> Record:
        """The run as it is stored and printed (`solve --model --json`)."""
        r = self.result
        return Record(puzzle=self.file.label, status=r.status, variant=self.file.kind, formulation=self.file.kind,
                      solver=r.solver, objective=self.value, bound=clean_number(r.bound), proven=r.proven,
                      verified=self.verified, seconds=round(r.total_seconds, 3),
                      build_seconds=round(r.build_seconds, 3), solve_seconds=round(r.solve_seconds, 3),
                      solver_version=r.solver_version, params=dict(r.params),
                      time_limit=r.params.get("time_limit"), threads=r.params.get("threads"),
                      racers=None if r.racers is None else [asdict(racer) for racer in r.racers],
                      check=None if self.verdict is None else self.verdict.message, message=r.message,
                      solution=r.solution, model=str(self.file.path),
                      recomputed_objective=None if self.verdict is None else clean_number(self.verdict.objective))


def _kinds(mf: ModelFile) -> tuple[type, ...]:
    """The model kinds that carry the file: a MiniZinc file also goes flattened to a LinearModel."""
    return (MiniZincFile, LinearModel) if mf.kind == "mzn" else (type(mf.model),)


def backends_for(mf: ModelFile, solvers: list[str] | None = None, here: list[str] | None = None) -> list[str]:
    """The backends named, else every single backend installed here (`here`: installed(), found
    once for many files) that takes the file's kind."""
    if solvers:
        chosen = [canonical(s) for s in solvers]
        for s in chosen:
            if not set(_kinds(mf)) & set(backend_class(split_name(s)[0]).kinds):
                raise BadInput(f"{s} does not take a {mf.kind} model ({type(mf.model).__name__})")
        return chosen
    kinds = set(_kinds(mf))
    takes = {s for kind in kinds for s in installed(kind)} if here is None else \
        {s for s in here if kinds & set(backend_class(split_name(s)[0]).kinds)}
    return [canonical(b) for b in BACKENDS if canonical(b) in takes]


def _flattened(mf: ModelFile, time_limit: float | None = None) -> Flattened | Result:
    """A MiniZinc file's linear flattening, made once; or the result of every backend that needs it:
    unsupported (what the linear route cannot take), unknown (the time limit ran out compiling)."""
    assert isinstance(mf.model, MiniZincFile)
    if mf._flat is None:
        began = time.perf_counter()
        try:
            mf._flat = flatten(mf.model, time_limit)
        except NotLinear as e:
            mf._flat = Result(Status.UNSUPPORTED, message=str(e), total_seconds=time.perf_counter() - began)
        except CompileCut as e:
            mf._flat = Result(Status.UNKNOWN, message=str(e), total_seconds=time.perf_counter() - began)
    return mf._flat


def _by_name(mf: ModelFile, values: Any) -> dict[str, Any]:
    """A MiniZinc solution by the model's own names: a flattened one (a list) mapped back."""
    if isinstance(values, dict):
        return values
    flat = _flattened(mf)
    if isinstance(flat, Result):
        raise ValueError(flat.message)
    return original_values(flat, list(values))


def _given(mf: ModelFile, solver: str, options: Options) -> Any:
    """What `solver` gets: the model; a MiniZinc file as written where the backend takes it, else
    its flattened LinearModel (or the Result that says why there is none)."""
    if mf.kind != "mzn" or MiniZincFile in backend_class(split_name(solver)[0]).kinds:
        return mf.model
    flat = _flattened(mf, options.time_limit)
    return flat if isinstance(flat, Result) else flat.model


def solve(mf: ModelFile, solver: str, options: Options) -> FileRun:
    given = _given(mf, solver, options)
    if isinstance(given, Result):
        return FileRun(mf, replace(given, solver=canonical(solver)), None)
    result = run_backend(solver, given, options)
    verdict = None
    if result.values is not None and result.status in (Status.OPTIMAL, Status.FEASIBLE):
        values = result.values if isinstance(result.values, dict) else list(result.values)
        if mf.kind == "mzn":
            try:
                values = _by_name(mf, values)
            except ValueError as e:
                verdict = Verdict(False, f"{NO_CHECKER}; {e}")
        verdict = verdict or check(mf, values)
        if verdict.ok and verdict.objective is not None and result.objective is not None \
                and not agrees(verdict.objective, result.objective):
            verdict = Verdict(False, f"the backend reports objective {clean_number(result.objective)} but the file "
                                     f"gives {clean_number(verdict.objective)}")
        if verdict.ok:
            result.solution = _named(mf, values)
            # An empty objective: the file's (0, as HiGHS says). A WCNF's cost: the file's, exact where
            # the backend's double (CP-SAT's ObjectiveValue) rounds an integer past 2^53.
            if verdict.objective is not None and (result.objective is None or mf.kind == "wcnf"):
                result.objective = verdict.objective
                result.bound = verdict.objective if result.status == Status.OPTIMAL else result.bound
            if isinstance(mf.model, MiniZincFile) and not mf.model.has_objective:   # `solve satisfy`: no value,
                result.objective = result.bound = None     # where a linear backend reports its empty objective's 0
        else:
            result.message = f"the file rejects the solution: {verdict.message}"
            result.status, result.objective = Status.ERROR, None
    elif result.objective is not None and result.status != Status.ERROR:
        result.objective, result.status = None, Status.UNKNOWN
    return FileRun(mf, result, verdict)


def _named(mf: ModelFile, values: Any) -> Any:
    """The solution as the file names it: MiniZinc's output variables, else every variable."""
    if isinstance(values, dict):
        return {name: json_ready(value) for name, value in values.items()}
    if mf.kind == "wcnf":
        return [v + 1 if x else -(v + 1) for v, x in enumerate(values[:len(mf.names)])]
    return dict(zip(mf.names, values))
