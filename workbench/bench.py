"""`workbench bench`: every puzzle's canonical performance cases, one CSV row per run."""
from __future__ import annotations

import socket
import statistics
from dataclasses import replace
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from . import pipeline
from .checks import table_file
from .errors import BadRow
from .models.core import OPTIMISE, Count
from .puzzles import available
from .puzzles.base import BadInput, BenchCase, Puzzle
from .records import BENCH_COLUMNS as COLUMNS
from .records import Record
from .solvers import canonical
from .solvers.base import Options, Status
from .tables import RESULTS, append_row, numbered_rows, row_from_record

SLOWER = 0.9        # a case's positions a second under this share of its stored rows' draws a warning


BenchRun = tuple[str, str, Record]      # a bench row: its case's label, its machine, its run


def _stored(case: BenchCase, run: pipeline.Run) -> BenchRun:
    import time

    record = replace(run.record(), time_limit=case.time_limit, timestamp=time.strftime("%Y-%m-%dT%H:%M:%S"))
    return case.label, socket.gethostname(), record


def _request(case: BenchCase, n: int | None) -> pipeline.Request:
    question = Count() if case.count else OPTIMISE
    return pipeline.plan(case.puzzle, n, case.solver, case.formulation, case.params, question)


def run_case(case: BenchCase, path: Path, console: Console, threads: int = 2) -> None:
    n = case.n
    while True:
        request = _request(case, n)
        run = pipeline.solve(request, Options(time_limit=case.time_limit, threads=threads))
        if case.certify is not None and run.verified:
            pipeline.certify(run, case.certify)
        bench_run = _stored(case, run)
        record, rate = bench_run[2], positions_a_second(bench_run[2])
        console.print(f"{case.label or case.puzzle}: n={record.n} {record.solver} {record.status} "
                      f"value {record.value} bound {record.bound} {record.seconds or 0:.2f} s"
                      + (f", {rate:,.0f} positions/s" if rate else ""))
        if warning := speed_warning(bench_run, read_bench(path)):
            console.print(warning)
        append_row(path, record.bench_row(*bench_run[:2]), COLUMNS)
        if case.store and (record := run.record()).finished:
            append_row(_stored_table(request), row_from_record(record))
        run.answer_kept()
        proven = run.result.status == Status.COMPLETE if run.request.counting else \
            run.result.status == Status.OPTIMAL and run.verified
        if not case.ladder or not proven or n is None or (case.n_stop is not None and n >= case.n_stop):
            return
        n += 1


def positions_a_second(record: Record) -> float | None:
    """A run's positions over its solve time, None where it has not both."""
    if not record.positions or not record.solve_seconds:
        return None
    rate = record.positions / record.solve_seconds
    return rate if rate > 0 else None


def speed_warning(run: BenchRun, stored: list[BenchRun]) -> str | None:
    """A warning line when the run's positions a second fall more than 10% under the median of the
    stored rows of the same case (label, n, threads, solver, formulation) on the same machine and
    the same positions: a search can get slower a position while its answers and position counts
    stay the same (issue 63: 2x, unseen for a week). The solver and formulation are part of the case,
    since what a position is differs between them (one label races the cubes' conflicts against
    `sat`'s), and so are the positions: a method that visits fewer, dearer positions is another
    search, whose own rows start its comparison (stones' grouped tail roots: 3.6x fewer, 1.3x faster,
    had warned "61% slower"). None when it does not, or when there is nothing to compare with."""
    label, machine, record = run
    rate = positions_a_second(record)

    def case(lab: str, mach: str, r: Record) -> tuple[object, ...]:
        return lab, r.n, r.threads, r.solver, r.formulation, mach, r.positions

    past = [r for r in (positions_a_second(s) for lab, mach, s in stored if case(lab, mach, s) == case(*run)) if r]
    if rate is None or not past:
        return None
    usual = statistics.median(past)
    if rate >= SLOWER * usual:
        return None
    return (f"warning: {label} n={record.n}: {rate:,.0f} positions/s, {1 - rate / usual:.0%} slower than "
            f"the median of {len(past)} stored rows on {machine} ({usual:,.0f})")


def _stored_table(request: pipeline.Request) -> Path:
    """The results table a `store` case adds its row to (a second computation)."""
    return RESULTS / f"{request.variant}.csv"


def run_bench(puzzles: list[str] | None, solvers: list[str] | None, label: str | None, path: Path,
              console: Console, threads: int = 2, ns: list[int] | None = None) -> int:
    """Every matching case with `threads` threads (the `scale-out` cases at 1 and at 16 threads
    give the speed-ups of the scale-out issue)."""
    wanted = {canonical(s) for s in solvers} if solvers else None
    cases = [case for puzzle in available() if not puzzles or puzzle.name in puzzles
             for case in _at(puzzle.bench_cases(), ns)
             if (not wanted or canonical(case.solver) in wanted) and (not label or label in case.label)]
    if not cases:
        raise BadInput("no bench case matches these --puzzle, --solver, --label and --n")
    for case in cases:       # the results tables that cases store rows in, checked before the first runs
        if case.store:
            table_file(_stored_table(_request(case, case.n)))
    if warning := unreadable_warning(path):
        console.print(warning, markup=False)
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, transient=True) as bar:
        job = bar.add_task("bench cases", total=len(cases))
        for case in cases:
            bar.update(job, description=f"bench: {case.label or case.puzzle}")
            run_case(case, path, bar.console, threads)
            bar.advance(job)
    console.print(f"figures appended to {path}")
    return 0


def _at(cases: list[BenchCase], ns: list[int] | None) -> list[BenchCase]:
    """The cases at these N (all without `ns`); a ladder's rung at N is a case of its own, so that one
    rung (hours, say) runs alone: its first rung too (`--n 1` on a ladder from 1 is N = 1, not the
    whole ladder: a stones ladder runs up to a(5), half an hour)."""
    if not ns:
        return cases
    return [replace(case, n=n, n_stop=n) if case.ladder else case for case in cases for n in ns
            if case.n == n or (case.ladder and case.n is not None and case.n < n <= (case.n_stop or n))]


def fastest_proving(puzzle: Puzzle, path: Path) -> str | None:
    """The backend the bench (`path`) shows proving the largest N of the puzzle's own question (a
    ladder gives every backend the same time per N), then the most cases, then the fastest: the
    puzzle's default solver. Counts of a puzzle that is not a counting one are another question,
    and the cases that store their rows in results/ (second computations, the frontier: each backend
    picked for the record, with hours to run) are records, not races, as are comparisons of methods
    and certificates (one backend's refutation, checked)."""
    records = {case.label for case in puzzle.bench_cases() if case.store or not case.race or case.certify is not None}
    proven: dict[str, list[tuple[int, float]]] = {}
    for label, _, r in read_bench(path):
        counts = puzzle.sense is None
        if r.puzzle != puzzle.name or (not counts and r.formulation in puzzle.counting_formulations):
            continue
        if label not in records and r.proven and (r.verified or counts):
            proven.setdefault(r.solver, []).append((r.n or 0, r.seconds or 0.0))
    if not proven:
        return None
    return max(proven, key=lambda s: (max(n for n, _ in proven[s]), len(proven[s]),
                                      -statistics.median(t for _, t in proven[s])))


def unreadable_warning(path: Path) -> str | None:
    """One line for the stored rows that cannot be read, before a bench run: they would drop out of
    its speed check and of the default solver's choice unseen. None when every row reads."""
    refused: list[BadRow] = []
    read_bench(path, refused)
    if not refused:
        return None
    rows = "1 row" if len(refused) == 1 else f"{len(refused)} rows"
    return f"warning: {rows} of {path} cannot be read, left out (the first: {refused[0]})"


def read_bench(path: Path, refused: list[BadRow] | None = None) -> list[tuple[str, str, Record]]:
    """The bench's rows that can be read: label, machine, run; each row that cannot (a field that
    is not its column's type: a row pasted in another column order, say) is left out, its refusal
    added to `refused`."""
    out = []
    for line, row in numbered_rows(path):
        try:
            out.append(Record.from_bench_row(row, f"{path}:{line}"))
        except BadRow as e:
            if refused is not None:
                refused.append(e)
    return out
