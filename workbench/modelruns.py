"""Model files on backends, repeated: `solve`, `compare` and `bench` with --model, and the API's
solve_model and compare_models.

`compare --model a.lp dir/ 'glob*.mps'` takes files, folders (every model file inside, by suffix) and
globs; every file is read (so checked) and every backend looked up before the first run, so one bad
file stops the run before any work. Each (model, backend, repeat) is one row of the model-comparison
table (COLUMNS: the shared schema `workbench report` reads), written under runs/ unless -o says
otherwise: nothing a --model run writes by default is a tracked file.
"""
from __future__ import annotations

import glob
import hashlib
import json
import shlex
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from rich.console import Console

from . import api, checks, tables
from .puzzles.base import BadInput
from .solvers import installed, require
from .solvers.base import Options, clean_number
from .solvers.tuning import as_flags, as_record, backend_options
from .userfile.reading import kind_of
from .usermodel import FileRun, ModelFile, backends_for, read, solve

COLUMNS = ["model", "model_sha256", "kind", "solver", "options", "repeat", "seed", "status", "value", "bound",
           "proven", "verified", "seconds", "time_limit", "threads", "solver_version", "incumbents", "timestamp",
           "message", "command"]
RUNS = Path("runs")


def expand(given: Iterable[str | Path]) -> list[Path]:
    """The model files meant: a file as given, a folder's model files (by known suffix, sorted, not
    its subfolders), a glob's matches (sorted); each once. BadInput for a folder or glob that holds none."""
    found: list[Path] = []
    for item in given:
        path = Path(item)
        if path.is_dir():
            files = sorted(f for f in path.iterdir() if f.is_file() and _model_suffix(f))
            if not files:
                raise BadInput(f"--model {item}: no model file in this folder (.lp, .mps, .wcnf, .mzn, .gz of these)")
        elif path.exists() or not glob.has_magic(str(item)):
            files = [path]                  # read() says what is wrong with it
        else:
            files = sorted(Path(f) for f in glob.glob(str(item)) if Path(f).is_file())
            if not files:
                raise BadInput(f"--model {item}: no file matches")
        found += [f for f in files if f not in found]
    return found


def _model_suffix(path: Path) -> bool:
    try:
        kind_of(path)
    except BadInput:
        return False
    return True


@dataclass
class Planned:
    """A model read and checked, with the backends it runs on."""

    file: ModelFile
    solvers: list[str]


def plan(paths: Sequence[Path], solvers: Sequence[str] | None = None, data: str | Path | None = None,
         warn: Callable[[str], Any] | None = None) -> list[Planned]:
    """Every file read, and its backends found (the named ones, else every one here that takes its
    kind) and required, before any run: BadInput naming the first bad file. A reader's warnings go
    to `warn`. (A MiniZinc file's flattening, which the time limit bounds, is part of its runs.)"""
    if data is not None and len(paths) != 1:
        raise BadInput("--data goes with a single MiniZinc --model")
    here = None if solvers else installed()                   # probed once, not once per file
    planned = []
    for path in paths:
        mf = read(path, data)
        for line in mf.warnings:
            if warn:
                warn(line)
        chosen = backends_for(mf, list(solvers) if solvers else None, here)
        if not chosen:
            raise BadInput(f"--model {path}: no backend here takes a {mf.kind} model")
        for solver in chosen:
            require(solver)
        planned.append(Planned(mf, chosen))
    return planned


def run(planned: Sequence[Planned], options: Options, repeat: int = 1,
        on_start: Callable[[ModelFile, str, int], None] | None = None,
        on_run: Callable[[FileRun], Any] | None = None) -> list[FileRun]:
    """Each model on each of its backends, `repeat` times with seeds seed, seed + 1, ..."""
    runs = []
    for item in planned:
        for solver in item.solvers:
            for k in range(1, repeat + 1):
                if on_start:
                    on_start(item.file, solver, k)
                done = solve(item.file, solver, replace(options, seed=options.seed + k - 1))
                done.repeat = k
                runs.append(done)
                if on_run:
                    on_run(done)
    return runs


_hashes: dict[tuple[Path, Path | None], str] = {}


def sha256(mf: ModelFile) -> str:
    """The model file's sha256, "model+data" for a MiniZinc model with its data file."""
    key = (mf.path, mf.data)
    if key not in _hashes:
        _hashes[key] = "+".join(hashlib.sha256(p.read_bytes()).hexdigest() for p in (mf.path, mf.data) if p)
    return _hashes[key]


def row(run: FileRun) -> dict[str, Any]:
    """The run as a row of the model-comparison table."""
    r, mf = run.result, run.file
    own = r.params.get("options") or {}
    return {"model": str(mf.path), "model_sha256": sha256(mf), "kind": mf.kind, "solver": r.solver,
            "options": as_record(own), "repeat": run.repeat, "seed": r.params.get("seed"), "status": str(r.status),
            "value": run.value, "bound": clean_number(r.bound), "proven": r.proven, "verified": run.verified,
            "seconds": round(r.total_seconds, 3), "time_limit": r.params.get("time_limit"),
            "threads": r.params.get("threads"), "solver_version": r.solver_version,
            "incumbents": json.dumps(r.incumbents, separators=(",", ":")),
            "timestamp": datetime.now().astimezone().isoformat(timespec="seconds"), "message": r.message,
            "command": command_of(run)}


def command_of(run: FileRun) -> str:
    """The command that runs this row again (its one backend, its seed; the row goes under runs/)."""
    r, mf = run.result, run.file
    words = ["python", "-m", "workbench", "compare", "--model", str(mf.path)]
    words += ["--data", str(mf.data)] if mf.data else []
    words += ["--solvers", r.solver, "--time-limit", str(r.params.get("time_limit")), "--threads",
              str(r.params.get("threads")), "--seed", str(r.params.get("seed"))]
    words += as_flags(r.solver.partition(":")[0], r.params.get("options") or {})
    return shlex.join(words)


def fresh_output(name: str, folder: Path = RUNS) -> Path:
    """runs/<name>-<UTC time>.csv, a new file."""
    base = folder / f"{name}-{time.strftime('%Y%m%d-%H%M%S', time.gmtime())}"
    path, i = base.with_suffix(".csv"), 1
    while path.exists():
        path, i = base.with_name(f"{base.name}-{i}.csv"), i + 1
    return path


def summary(item: Planned, runs: Sequence[FileRun]) -> tuple[list[str], int]:
    """A model's lines: a line per run, then the comparison's closing lines; and its exit status."""
    mf = item.file
    lines = [f"{mf.path} ({mf.kind}, {len(mf.names)} variables)"]
    repeated = any(run.repeat > 1 for run in runs)
    for done in runs:
        r = done.result
        value = "-" if done.value is None else done.value
        bound = "-" if r.bound is None else clean_number(r.bound)
        note = done.verdict.message if done.verdict else r.message or "-"
        lines.append(f"  {r.solver}{f' #{done.repeat}' if repeated else ''}: {r.status} {value} (bound {bound}) "
                     f"{r.total_seconds:.2f} s: {note}")
    closing, status = api.comparison_summary(runs, mf.sense)
    return lines + [f"  {line}" for line in closing], status


# -- the Python API (workbench.solve_model, compare_models, available_solvers) -----------------------

def solve_model(path: str | Path, solver: str, *, data: str | Path | None = None, time_limit: float = 60.0,
                threads: int = 2, seed: int = 0, options: Mapping[str, Mapping[str, Any]] | Iterable[str] | None = None,
                verbose: bool = False) -> FileRun:
    """A model file (.lp, .mps, .wcnf, .mzn with `data`) on one backend, its solution checked against
    the file (`solve --model`); `options` as compare_models takes them."""
    (done,) = run(plan([Path(path)], [solver], data),
                  _model_options(time_limit, threads, seed, verbose, options))
    return done


def compare_models(paths: str | Path | Iterable[str | Path], solvers: Iterable[str] | None = None, *,
                   time_limit: float = 60.0, repeat: int = 1, threads: int = 2, seed: int = 0,
                   options: Mapping[str, Mapping[str, Any]] | Iterable[str] | None = None,
                   output: str | Path | None = None, data: str | Path | None = None) -> list[FileRun]:
    """Model files (files, folders, globs) on the backends named, else on every backend here that
    takes each, `repeat` times (seeds seed, seed + 1, ...): one run per (model, backend, repeat).
    `options`: the backends' own, {"highs": {"mip_rel_gap": 0}} or ["highs:mip_rel_gap=0"]. With
    `output`, each run is a row of that model-comparison CSV (modelruns.COLUMNS) as it ends. Every
    file is read and every option checked before the first run (BadInput)."""
    given = [paths] if isinstance(paths, (str, Path)) else list(paths)
    chosen = None if solvers is None else [solvers] if isinstance(solvers, str) else list(solvers)
    settings = _model_options(time_limit, threads, seed, False, options)
    planned = plan(expand(given), chosen, data)
    target = None if output is None else checks.table_file(output, COLUMNS)
    return run(planned, settings, checks.given("repeat", checks.REPEAT, repeat),
               on_run=None if target is None else lambda done: tables.append_row(target, row(done), COLUMNS))


def _model_options(time_limit: float, threads: int, seed: int, verbose: bool,
                   options: Mapping[str, Mapping[str, Any]] | Iterable[str] | None) -> Options:
    settings = checks.options(time_limit, threads, seed, verbose=verbose)
    settings.backend_options = backend_options(options)
    return settings


def available_solvers() -> list[str]:
    """The names of the backends that run here (like PuLP's listSolvers(onlyAvailable=True)); `workbench
    solvers` says why the others cannot."""
    from .solvers import available_solvers as probed

    return [info.name for info in probed() if info.available]


# -- the command line ----------------------------------------------------------------------------

def command(args: Any, name: str, out: Console, err: Console) -> int:
    """`solve`, `compare` or `bench` with --model: the files on the backends named, else on every
    backend here that takes each; answers go to `out`, what is being run to `err`."""
    puzzle_bits = [flag for flag, given in (("puzzle", getattr(args, "puzzle", None)),
                                            ("--n", getattr(args, "n", None)),
                                            ("--formulation", getattr(args, "formulation", None))) if given]
    if puzzle_bits:
        raise BadInput(f"--model takes no {' or '.join(puzzle_bits)}: the file is the whole model")
    named = getattr(args, "solver", None)
    named = [named] if isinstance(named, str) else named
    if getattr(args, "solvers", None):
        named = [s.strip() for s in args.solvers.split(",") if s.strip()]
    if name == "solve" and not named:
        raise BadInput("solve --model needs --solver (compare --model runs every backend that takes it)")
    options = Options(time_limit=args.time_limit, threads=args.threads, seed=getattr(args, "seed", 0),
                      verbose=getattr(args, "verbose", False),
                      backend_options=backend_options(getattr(args, "option", None)))
    models = args.model if isinstance(args.model, list) else [args.model]
    planned = plan(expand(models), named, args.data, lambda line: err.print(line, markup=False))
    unused = set(options.backend_options) - {s.partition(":")[0] for item in planned for s in item.solvers}
    if unused:
        raise BadInput(f"--option {sorted(unused)[0]}:...: {sorted(unused)[0]} is not among the backends run")
    if name == "solve":
        return _solve(planned[0], options, args, out)
    folder = Path(getattr(args, "results_dir", None) or RUNS)
    output = Path(args.output) if args.output else fresh_output(f"{name}-models", folder)
    checks.table_file(output, COLUMNS)
    runs = run(planned, options, getattr(args, "repeat", 1),
               on_start=lambda mf, solver, k: err.print(f"running {solver} on {mf.path.name}"
                                                           + (f" (repeat {k})" if k > 1 else "") + " ..."),
               on_run=lambda done: tables.append_row(output, row(done), COLUMNS))
    status = 0
    for item in planned:
        lines, code = summary(item, [done for done in runs if done.file is item.file])
        status = max(status, code)
        for line in lines:
            out.print(line, markup=False, style="red" if line.lstrip().startswith(("DISAGREEMENT", "every"))
                         else None)
    out.print(f"{len(runs)} rows written to {output}", markup=False)
    return status


def _solve(item: Planned, options: Options, args: Any, out: Console) -> int:
    (done,) = run([item], options)
    if getattr(args, "json", False):
        print(json.dumps(done.record().to_json(), default=str))
    else:
        lines, status = summary(item, [done])
        for line in lines[:2] + (lines[2:] if status else []):
            out.print(line, markup=False)
    return 0 if done.result.status.answered else 1
