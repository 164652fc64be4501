"""The Python API: `workbench.solve`, `count`, `table`, `compare` and `verify` return the records
the command line prints (`pipeline.Run`: .value .status .bound .solution .verified .render() .png()).

The command line only parses its arguments into these calls and prints what they return. Runs go
through the same worker processes as the command line; a worker is a fresh interpreter, not a fork,
so a script that calls them needs no `if __name__ == "__main__":` guard.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from . import checks, tables
from .errors import RowNotStored
from .models.core import OPTIMISE, Count, Optimise, Options, Question
from .pipeline import BadRow, Request, Run, plan, read_back, record_claims, stored
from .pipeline import solve as run
from .puzzles import get
from .puzzles.base import BadInput, Puzzle, Verdict
from .records import Status, read_json
from .solvers import canonical, known, require
from .solvers.base import Result, clean_number
from .tables import RESULTS

__all__ = ["RESULTS", "Request", "RowNotStored", "Run", "TablePlan", "Verification", "compare",
           "comparison_summary", "count", "disagreements", "n_values", "request", "run", "run_table", "single_n",
           "solve", "table", "table_request", "verify"]

OnRow = Callable[[Run, str], None]       # called with each row of a table and a note: skipped, not stored
SKIPPED = "skipped (already in the file; --redo recomputes)"
PuzzleName = str | Puzzle[Any]


def _puzzle(puzzle: PuzzleName) -> Puzzle[Any]:
    return puzzle if isinstance(puzzle, Puzzle) else get(puzzle)


def n_values(puzzle: Puzzle[Any], n: int | str | Iterable[int] | None, single: bool = False) -> Sequence[int | None]:
    """The one N check: an int, or (unless `single`) a range or list of ints or the command line's
    text for one ('A..B', 'A,B,C'), each within the puzzle's range (a range's ends are checked
    before anything is built from it). One N is never text: `solve(puzzle, '3')` is refused."""
    if not puzzle.needs_n:
        if n is not None:
            raise BadInput(f"{puzzle.name} takes no --n")
        return [None]
    if n is None:
        raise BadInput(f"{puzzle.name} needs --n")
    ns: Sequence[int]
    if isinstance(n, str) and not single:     # a table's 'A..B' or 'A,B,C', as on the command line
        n = checks.n_text(n)
    if isinstance(n, (int, str)):             # one N: an int (text and bools are refused)
        ns = [checks.whole(n)]
    elif single:
        raise BadInput(f"n must be one integer, got {n!r}")
    else:
        ns = n if isinstance(n, range) else [checks.whole(x) for x in n]
    if not ns:
        raise BadInput(f"n is empty: {n!r}")
    for value in (ns[0], ns[-1]) if isinstance(ns, range) else ns:
        puzzle.validate(value)
    return ns


def single_n(puzzle: Puzzle[Any], n: int | None) -> int | None:
    """One N (a run's, not a table's): an integer within the puzzle's range, or None where it takes none."""
    return n_values(puzzle, n, single=True)[0]


def request(puzzle: PuzzleName, n: int | None, solver: str | None = None,
            formulation: str | None = None, question: Question = OPTIMISE, params: Any = None,
            settings: Options | None = None) -> Request[Any]:
    """A run's request, planned (pipeline.plan, its `settings` checked too) and its backend able
    to run here."""
    p = _puzzle(puzzle)
    planned = plan(p, single_n(p, n), solver, formulation, params, question, settings)
    require(planned.solver)
    return planned


def solve(puzzle: str, n: int | None = None, solver: str | None = None, time_limit: float = 60.0,
          threads: int = 2, seed: int = 0, formulation: str | None = None, cluster: str | None = None,
          fresh: bool = False, **params: Any) -> Run:
    """One run, checked: `workbench solve`. `cluster` and `fresh` as the command's --cluster and
    --fresh (native searches)."""
    settings = checks.options(time_limit, threads, seed, cluster=cluster, fresh=fresh)
    return _handed_over(run(request(puzzle, n, solver, formulation, Optimise(), params, settings), settings))


def count(puzzle: str, n: int | None = None, solver: str | None = None, time_limit: float = 60.0,
          threads: int = 2, seed: int = 0, formulation: str | None = None, show: int = 0,
          **params: Any) -> Run:
    """Count the solutions (`workbench count`); `show` keeps that many examples, all checked."""
    settings = checks.options(time_limit, threads, seed)
    question = Count(checks.given("show", checks.SHOW, show))
    return _handed_over(run(request(puzzle, n, solver, formulation, question, params, settings), settings))


def _handed_over(done: Run) -> Run:
    """A run returned to the caller, who keeps its answer now: its finished journals go."""
    done.answer_kept()
    return done


@dataclass
class TablePlan:
    """A table's runs, every one planned before the first runs (so that bad input never
    interrupts a table halfway), and the file their rows go to."""

    requests: list[Request[Any]]
    path: Path

    @property
    def solver(self) -> str:
        return self.requests[0].solver


def table_request(
                  puzzle: PuzzleName, n: int | str | Iterable[int] | None = None, solver: str | None = None,
                  time_limit: float = 60.0, threads: int = 2, seed: int = 0, formulation: str | None = None,
                  output: str | Path | None = None, results_dir: str | Path = RESULTS,
                  settings: Options | None = None, **params: Any) -> tuple[TablePlan, Options]:
    """A table's request: a Request per N, for the formulation named or the one made for the
    backend, with the question that formulation answers, every part checked (its file and its
    options too) before anything runs; rows go to `output`, else <results_dir>/<variant>.csv.
    run_table's first arguments; `showcase` checks all its tables with it before the first.
    `settings`: the run options as the command line has them (else from the three keywords)."""
    p = _puzzle(puzzle)
    ns = n_values(p, n)
    typed = p.params(params)
    settings = settings or checks.options(time_limit, threads, seed)
    requests = [plan(p, value, solver, formulation, typed, None, settings) for value in ns]
    require(requests[0].solver)
    path = checks.table_file(Path(output) if output else Path(results_dir) / f"{requests[0].variant}.csv")
    return TablePlan(requests, path), settings


def run_table(planned: TablePlan, settings: Options, redo: bool = False, on_row: OnRow | None = None) -> list[Run]:
    """A row per N appended to the plan's file as soon as it is done; rows already there are skipped
    (read back, checked again, and redone when they do not hold) unless `redo`."""
    finished = {} if redo else tables.finished_rows(planned.path, {req.key for req in planned.requests})
    runs = []
    for req in planned.requests:
        row = finished.get(req.key)
        done, redone, note = None, "", ""
        try:
            if row is not None:
                done, note = stored(req, tables.readable(row), strict=True), SKIPPED
        except BadRow as e:              # edited by hand, say: recomputed, and the new row appended
            redone = f"stored row redone: {e}"
        if done is None:
            done = run(req, settings)
            record = done.record()
            try:
                if not record.finished:
                    note = "not stored: a rerun tries it again"
                elif tables.append_row(planned.path, tables.row_from_record(record), once=not redo and not redone):
                    note = ""
                else:
                    note = "not stored: another run stored this N meanwhile"
            except (OSError, tables.NotOurs) as e:
                runs.append(done)
                why = f"cannot write its row to {planned.path}: {getattr(e, 'strerror', None) or e}"
                if on_row:
                    on_row(done, f"NOT STORED ({why})")
                kept = "; its search's journal is kept, so a rerun stores it in seconds" if done.result.journals else ""
                raise RowNotStored(f"{done.puzzle} n = {done.n}: {why}{kept}", runs,
                                   2 if isinstance(e, tables.NotOurs) else 1) from None
            done.answer_kept()
            note = "; ".join(x for x in (redone, note) if x)
        runs.append(done)
        if on_row:
            on_row(done, note)
    return runs


def table(  # noqa: PLR0913 - one keyword per flag of the command
          puzzle: str, n: int | str | Iterable[int] | None = None, solver: str | None = None,
          time_limit: float = 60.0, threads: int = 2, seed: int = 0, formulation: str | None = None,
          output: str | Path | None = None, results_dir: str | Path = RESULTS, redo: bool = False,
          on_row: OnRow | None = None, **params: Any) -> list[Run]:
    """`workbench table`: one run per N, rows appended to <results_dir>/<variant>.csv (or `output`)."""
    planned, settings = table_request(puzzle, n, solver, time_limit, threads, seed, formulation, output, results_dir,
                                      **params)
    return run_table(planned, settings, redo, on_row)


def compare(  # noqa: PLR0913 - one keyword per flag of the command
        puzzle: PuzzleName, n: int | None = None, *, solvers: Iterable[str], time_limit: float = 60.0,
            threads: int = 2, seed: int = 0, formulation: str | None = None, verbose: bool = False,
            on_start: Callable[[str], None] | None = None, on_run: Callable[[Run], None] | None = None,
            options: Mapping[str, Mapping[str, Any]] | Iterable[str] | None = None, **params: Any) -> list[Run]:
    """Every backend on the same model and limit (`workbench compare`), one run each; a backend
    that cannot run gives a run with status `error` and the others go on. Every request is checked
    before the first backend runs, so that bad input never throws a finished run away; `on_run`
    gets each run as it ends (the command line stores its row then). `options`: the backends' own
    ({"highs": {"mip_rel_gap": 0}}, or --option texts)."""
    from .solvers.tuning import backend_options

    p = _puzzle(puzzle)
    typed, value = p.params(params), single_n(p, n)
    if isinstance(solvers, str) or not all(isinstance(s, str) for s in solvers):
        raise BadInput(f"solvers is a list of backend names, got {solvers!r}")
    chosen = [canonical(s) for s in solvers]
    if not chosen:
        raise BadInput("--solvers names no backend")
    settings = checks.options(time_limit, threads, seed, verbose=verbose)
    settings.backend_options = backend_options(options)
    requests = []
    for solver in chosen:
        requests.append(plan(p, value, solver, formulation, typed, None, settings))
        known(solver)
    runs = []
    for req in requests:
        if on_start:
            on_start(req.solver)
        runs.append(run(req, settings))
        if on_run:
            on_run(runs[-1])
        runs[-1].answer_kept()
    return runs


class Compared(Protocol):
    """What a comparison reads of a run: a puzzle's (pipeline.Run) or a model file's (usermodel.FileRun)."""

    result: Result

    @property
    def solver(self) -> str: ...
    @property
    def verified(self) -> bool: ...
    @property
    def proven(self) -> bool: ...
    @property
    def counting(self) -> bool: ...


def disagreements(runs: Sequence[Compared], sense: str | None) -> list[str]:
    """Contradictions between backends: proven optima or complete counts that differ, a verified
    solution beyond another's bound (a proven optimum's too), a partial count above a complete one,
    and `infeasible` beside a verified solution. A failed run's verified best board counts as found."""
    issues = []
    sign = 1 if sense == "min" else -1

    def differ(x: float, y: float) -> bool:
        return abs(x - y) > 1e-6 * max(1.0, abs(x))      # relative: continuous optima

    for i, a in enumerate(runs):
        for j, b in enumerate(runs):
            ra, rb = a.result, b.result
            if i == j:
                continue
            if ra.status == Status.INFEASIBLE and b.verified:
                issues.append(f"{ra.solver} says infeasible but {rb.solver} found a verified solution")
            if a.counting:
                ca, cb = ra.count, rb.count
                if ra.status != Status.COMPLETE or ca is None or cb is None:
                    continue
                if rb.status == Status.COMPLETE and ca != cb and i < j:
                    issues.append(f"{ra.solver} counts {ca} but {rb.solver} counts {cb}")
                if rb.status != Status.COMPLETE and cb > ca:
                    issues.append(f"{rb.solver} found {cb} solutions, more than {ra.solver}'s complete count {ca}")
                continue
            oa, ob = ra.objective, rb.objective
            if ra.status == rb.status == Status.OPTIMAL and oa is not None and ob is not None and differ(oa, ob):
                if i < j:
                    issues.append(f"{ra.solver} proves {clean_number(oa)} but {rb.solver} proves {clean_number(ob)}")
                continue
            bound = oa if ra.status == Status.OPTIMAL and ra.bound is None else ra.bound
            beyond = ob is not None and bound is not None and sign * (ob - bound) < -1e-6 * max(1.0, abs(bound))
            if b.verified and beyond:
                issues.append(f"{rb.solver} found {clean_number(ob)}, beyond {ra.solver}'s "
                              f"{'proven optimum' if ra.status == Status.OPTIMAL else 'bound'} {clean_number(bound)}")
    return issues


def comparison_summary(runs: Sequence[Compared], sense: str | None) -> tuple[list[str], int]:
    """The lines that close a comparison, and its exit status: 1 when backends disagree or every one
    failed (nothing was compared), else 0; a comparison in which no backend proved says so."""
    issues = disagreements(runs, sense)
    failed = [run.solver for run in runs if run.result.status == Status.ERROR]
    lines = [f"DISAGREEMENT: {issue}" for issue in issues]
    if len(failed) == len(runs):
        return lines + [f"every backend failed ({', '.join(failed)}): nothing was compared"], 1
    if failed:
        lines.append(f"failed: {', '.join(failed)}")
    if not any(run.proven for run in runs):
        lines.append("no backend proved its answer")
    if not issues:
        lines.append("no disagreement between the backends that answered")
    return lines, 1 if issues else 0


@dataclass
class Verification:
    """What `verify` finds: the checker's verdict on a saved solution, the claims of its record that
    the checker's measure does not bear out, and the solution drawn (when valid, and not a count's)."""

    verdict: Verdict
    false_claims: list[str] = field(default_factory=list)
    drawing: str = ""

    @property
    def ok(self) -> bool:
        return self.verdict.ok and not self.false_claims


def verify(puzzle: PuzzleName, file: str | Path, n: int | None = None, **params: Any) -> Verification:
    """Check a saved run (a `solve --json` record, the bare solution, or a results table's latest
    finished row for `n`) and every claim it makes, both through pipeline.stored (`workbench
    verify`); `n` and `params` override the record's."""
    p, path = _puzzle(puzzle), Path(file)
    if path.suffix == ".csv":
        value = single_n(p, n)      # the one N check: "needs --n" where the puzzle takes one
        record = tables.latest_finished(path, p.name, value, p.setting(p.params(params)) if params else None)
    else:
        record = read_json(path)
        value = single_n(p, n) if n is not None or not p.needs_n else record.n
    if record.puzzle not in ("", p.name):
        raise BadInput(f"{file} is a record of {record.puzzle!r}, not {p.name}")
    if record.n not in (None, value):
        raise BadInput(f"{file} is a record of n = {record.n!r}, not {value}")
    found = read_back(p, replace(record, objective=None), params, value)     # the board alone; its claims below
    if found.verdict is None and found.counting and isinstance(record.solution, list):    # a count, no examples
        found = replace(found, verdict=Verdict(True, "no example solutions stored: the count's claims checked"))
    if found.verdict is None:
        raise BadInput(f"{file}: malformed solution ({str(record.solution)[:40]}): nothing to check")
    if found.verdict.message.startswith("malformed"):
        raise BadInput(f"{file}: {found.verdict.message}")
    if not found.verdict.ok:
        return Verification(found.verdict)
    return Verification(found.verdict, record_claims(found, record), found.render() if not found.counting else "")
