"""The Python API: `workbench.solve`, `count`, `table` and `compare` return the records the command
line prints (`pipeline.Run`: .value .status .bound .solution .verified .render() .png()).

They run through the same worker processes as the command line; a worker is a fresh interpreter, not
a fork, so a script that calls them needs no `if __name__ == "__main__":` guard.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from . import checks, tables
from .models.core import NativeTask
from .pipeline import BadRow, Run, plan, stored
from .pipeline import solve as run_pipeline
from .puzzles import get
from .puzzles.base import BadInput, Puzzle
from .solvers import backend_class, canonical, first_counting, known, require, split_name
from .solvers.base import Options

RESULTS = Path("results")
OnRow = Callable[[Run, str], None]       # called with each row of a table and a note: skipped, not stored
SKIPPED = "skipped (already in the file; --redo recomputes)"


def puzzle_params(puzzle: Puzzle, params: Any) -> Any:
    """The puzzle's typed parameters; an unknown or ill-typed one is bad input (Params.parse)."""
    return puzzle.params(params)


def pick_solver(puzzle: Puzzle, solver: str | None, count: bool = False, formulation: str | None = None) -> str:
    """The backend named, else the puzzle's default (measured fastest in bench); it must run here.
    Puzzles that do not count answer `count` with their count_solver on their counting formulation."""
    if solver is not None and not isinstance(solver, str):
        raise BadInput(f"solver is a backend's name, got {solver!r}")
    default = puzzle.default_solver if puzzle.counts or not count else puzzle.count_solver or first_counting()
    chosen = canonical(solver or default)
    if count:
        if not puzzle.can_count:
            raise BadInput(f"{puzzle.name} is not a counting puzzle")
        native = NativeTask in backend_class(split_name(chosen)[0]).kinds
        if not puzzle.counts and (native or formulation not in (None, *puzzle.count_formulations)):
            raise BadInput(f"{puzzle.name} counts with a model backend and the "
                           f"{'/'.join(puzzle.count_formulations)} formulation")
    require(chosen)
    return chosen


def n_values(puzzle: Puzzle, n: int | str | Iterable[int] | None) -> Sequence[int | None]:
    """A table's N: an int, a range or list, or the command line's 'A..B' / 'A,B,C', each within
    the puzzle's range (a range's ends are checked before anything is built from it)."""
    if not puzzle.needs_n:
        if n is not None:
            raise BadInput(f"{puzzle.name} takes no --n")
        return [None]
    if n is None:
        raise BadInput(f"{puzzle.name} needs --n")
    ns: Sequence[int]
    if isinstance(n, int):
        ns = [n]
    elif isinstance(n, str):
        try:
            if ".." in n:
                a, b = n.split("..")
                ns = range(int(a), int(b) + 1)
            else:
                ns = [int(x) for x in n.split(",")]
        except ValueError:
            raise BadInput(f"bad --n '{n}': use N, A..B or a comma list") from None
    else:
        ns = n if isinstance(n, range) else [int(x) for x in n]
    if not ns:
        raise BadInput(f"--n '{n}' is an empty range")
    for value in (ns[0], ns[-1]) if isinstance(ns, range) else ns:
        puzzle.validate(value)
    return ns


def solve(puzzle: str, n: int | None = None, solver: str | None = None, time_limit: float = 60.0,
          threads: int = 2, seed: int = 0, formulation: str | None = None, cluster: str | None = None,
          fresh: bool = False, **params: Any) -> Run:
    """One run, checked: `workbench solve`. `cluster` and `fresh` as the command's --cluster and
    --fresh (native searches)."""
    p = get(puzzle)
    options = checks.options(time_limit, threads, seed, cluster=cluster, fresh=fresh)
    return run_pipeline(p.name, n, pick_solver(p, solver), options, formulation, puzzle_params(p, params))


def count(puzzle: str, n: int | None = None, solver: str | None = None, time_limit: float = 60.0,
          threads: int = 2, seed: int = 0, formulation: str | None = None, show: int = 0,
          **params: Any) -> Run:
    """Count the solutions (`workbench count`); `show` keeps that many examples, all checked."""
    p = get(puzzle)
    chosen = pick_solver(p, solver, True, formulation)
    return run_pipeline(p.name, n, chosen, checks.options(time_limit, threads, seed, count=True, show=show),
                        formulation, puzzle_params(p, params))


def table_path(puzzle: Puzzle, params: Any, formulation: str, output: str | Path | None = None,
               results_dir: str | Path = RESULTS) -> Path:
    """Where a table's rows go: `output`, else <results_dir>/<variant>.csv."""
    return Path(output) if output else Path(results_dir) / f"{puzzle.variant(params, formulation)}.csv"


def table_formulation(puzzle: Puzzle, solver: str, formulation: str | None, params: Any,
                      ns: Sequence[int | None], options: Options | None = None) -> str:
    """The formulation named, else the one made for the backend; every N's request is checked
    (with `options`, those too) before the first run, so that bad input never interrupts a table
    halfway."""
    chosen = formulation or puzzle.formulation_for(solver)
    count = puzzle.is_count(chosen)
    for n in ns:
        _, chosen = plan(puzzle.name, n, solver, formulation, params, count,
                         None if options is None else replace(options, count=count))
    return chosen


def run_table(puzzle: Puzzle, ns: Sequence[int | None], solver: str, options: Options, formulation: str,
              params: Any, path: Path, redo: bool = False, on_row: OnRow | None = None) -> list[Run]:
    """A row per N appended to `path` as soon as it is done; rows already there are skipped (read
    back and checked again) unless `redo`. The command line's `table` and the API share this loop."""
    count = puzzle.is_count(formulation)
    options = replace(options, count=count)
    rows = [] if redo else tables.read_rows(path)
    finished = {tables.key_of(r): r for r in rows if tables.finished(r)}
    variant, setting = puzzle.variant(params, formulation), puzzle.setting(params)
    runs = []
    for n in ns:
        key = (puzzle.name, variant, "" if n is None else str(n), formulation, solver, setting)
        run, redone = None, ""
        if key in finished:
            try:
                run, note = stored(puzzle.name, n, finished[key], params, count, strict=True), SKIPPED
            except BadRow as e:          # edited by hand, say: recomputed, and the new row appended
                redone = f"stored row redone: {e}"
        if run is None:
            run = run_pipeline(puzzle.name, n, solver, options, formulation, params)
            row = tables.row_from_record(run.record())
            if not tables.finished(row):
                note = "not stored: a rerun tries it again"
            elif tables.append_row(path, row, once=not redo and not redone):
                note = ""
            else:
                note = "not stored: another run stored this N meanwhile"
            note = "; ".join(x for x in (redone, note) if x)
        runs.append(run)
        if on_row:
            on_row(run, note)
    return runs


def table(  # noqa: PLR0913 - one keyword per flag of the command
          puzzle: str, n: int | str | Iterable[int] | None = None, solver: str | None = None,
          time_limit: float = 60.0, threads: int = 2, seed: int = 0, formulation: str | None = None,
          output: str | Path | None = None, results_dir: str | Path = RESULTS, redo: bool = False,
          on_row: OnRow | None = None, **params: Any) -> list[Run]:
    """`workbench table`: one run per N, rows appended to <results_dir>/<variant>.csv (or `output`)."""
    request = table_request(puzzle, n, solver, time_limit, threads, seed, formulation, output, results_dir, **params)
    return run_table(*request, redo, on_row)


def table_request(
                  puzzle: str, n: int | str | Iterable[int] | None = None, solver: str | None = None,
                  time_limit: float = 60.0, threads: int = 2, seed: int = 0, formulation: str | None = None,
                  output: str | Path | None = None, results_dir: str | Path = RESULTS,
                  **params: Any) -> tuple[Puzzle, Sequence[int | None], str, Options, str, Any, Path]:
    """A table's request, every part checked (its file too) before anything runs: run_table's
    first arguments. `showcase` checks all its tables with it before it computes the first."""
    p = get(puzzle)
    ns = n_values(p, n)
    chosen = pick_solver(p, solver)
    typed = puzzle_params(p, params)
    options = checks.options(time_limit, threads, seed)
    chosen_formulation = table_formulation(p, chosen, formulation, typed, ns, options)
    path = checks.table_file(table_path(p, typed, chosen_formulation, output, results_dir))
    return p, ns, chosen, options, chosen_formulation, typed, path


def compare(puzzle: str, n: int | None = None, *, solvers: Iterable[str], time_limit: float = 60.0,
            threads: int = 2, seed: int = 0, formulation: str | None = None, verbose: bool = False,
            on_start: Callable[[str], None] | None = None, on_run: Callable[[Run], None] | None = None,
            **params: Any) -> list[Run]:
    """Every backend on the same model and limit (`workbench compare`), one run each; a backend
    that cannot run gives a run with status `error` and the others go on. Every request is checked
    before the first backend runs, so that bad input never throws a finished run away; `on_run`
    gets each run as it ends (the command line stores its row then)."""
    p = get(puzzle)
    params = puzzle_params(p, params)
    if isinstance(solvers, str) or not all(isinstance(s, str) for s in solvers):
        raise BadInput(f"solvers is a list of backend names, got {solvers!r}")
    chosen = [canonical(s) for s in solvers]
    if not chosen:
        raise BadInput("--solvers names no backend")
    count = p.is_count(formulation or "")
    options = checks.options(time_limit, threads, seed, count=count, verbose=verbose)
    for solver in chosen:
        plan(p.name, n, solver, formulation, params, count, options)
        known(solver)
    runs = []
    for solver in chosen:
        if on_start:
            on_start(solver)
        runs.append(run_pipeline(p.name, n, solver, options, formulation, params))
        if on_run:
            on_run(runs[-1])
    return runs
