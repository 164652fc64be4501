"""`workbench bench`: every puzzle's canonical performance cases, one CSV row per run."""
from __future__ import annotations

import socket
import statistics
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from . import pipeline
from .checks import table_file
from .models.core import OPTIMISE, Count
from .puzzles import available
from .puzzles.base import BadInput, BenchCase, Puzzle
from .solvers import canonical
from .solvers.base import Options, Status
from .tables import RESULTS, append_row, finished, read_rows, row_from_record

COLUMNS = ["label", "puzzle", "n", "solver", "formulation", "time_limit", "threads", "status", "value",
           "bound", "proven", "verified", "seconds", "solve_seconds", "solver_version", "published", "match",
           "timestamp", "count", "certificate", "check_seconds", "proof_bytes", "positions", "machine"]
SLOWER = 0.9        # a case's positions a second under this share of its stored rows' draws a warning


def _row(case: BenchCase, run: pipeline.Run) -> dict:
    import time

    rec = run.record()
    cert = rec["certificate"] or {}
    return {"label": case.label, "puzzle": case.puzzle, "n": "" if run.n is None else run.n,
            "solver": rec["solver"], "formulation": rec["formulation"], "time_limit": case.time_limit,
            "threads": rec["params"].get("threads"), "status": rec["status"],
            "value": "" if run.value is None else run.value, "bound": "" if rec["bound"] is None else rec["bound"],
            "proven": rec["proven"], "verified": rec["verified"], "seconds": rec["seconds"],
            "solve_seconds": rec["solve_seconds"],
            "solver_version": rec["solver_version"], "published": rec["published"] or "",
            "match": rec["match"], "timestamp": time.strftime("%Y-%m-%dT%H:%M:%S"),
            "count": "" if rec["count"] is None else rec["count"],
            "positions": "" if rec["positions"] is None else rec["positions"],
            "certificate": cert.get("verdict", ""), "proof_bytes": cert.get("proof_bytes", ""),
            "machine": socket.gethostname(),
            "check_seconds": round(cert["check_seconds"] + cert["drup_seconds"], 3) if cert else ""}


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
        row = _row(case, run)
        rate = positions_a_second(row)
        console.print(f"{case.label or case.puzzle}: n={row['n']} {row['solver']} {row['status']} "
                      f"value {row['value']} bound {row['bound']} {row['seconds']:.2f} s"
                      + (f", {rate:,.0f} positions/s" if rate else ""))
        if warning := speed_warning(row, read_rows(path) if path.exists() else []):
            console.print(warning)
        append_row(path, row, COLUMNS)
        if case.store and finished(table_row := row_from_record(run.record())):
            append_row(_stored_table(request), table_row)
        run.answer_kept()
        proven = run.result.status == Status.COMPLETE if run.request.counting else \
            run.result.status == Status.OPTIMAL and run.verified
        if not case.ladder or not proven or n is None or (case.n_stop is not None and n >= case.n_stop):
            return
        n += 1


def positions_a_second(row: dict) -> float | None:
    """A row's positions over its solve time, None where it has not both."""
    try:
        rate = float(row["positions"]) / float(row["solve_seconds"])
    except (KeyError, TypeError, ValueError, ZeroDivisionError):
        return None
    return rate if rate > 0 else None


def speed_warning(row: dict, stored: list[dict[str, str]]) -> str | None:
    """A warning line when the row's positions a second fall more than 10% under the median of the
    stored rows of the same case (label, n, threads) on the same machine: a search can get slower
    a position while its answers and position counts stay the same (issue 63: 2x, unseen for a
    week). None when it does not, or when there is nothing to compare with."""
    rate = positions_a_second(row)
    same = (row["label"], str(row["n"]), str(row["threads"]), row["machine"])
    past = [r for r in (positions_a_second(s) for s in stored
                        if (s.get("label"), s.get("n"), s.get("threads"), s.get("machine")) == same) if r]
    if rate is None or not past:
        return None
    usual = statistics.median(past)
    if rate >= SLOWER * usual:
        return None
    return (f"warning: {row['label']} n={row['n']}: {rate:,.0f} positions/s, {1 - rate / usual:.0%} slower than "
            f"the median of {len(past)} stored rows on {row['machine']} ({usual:,.0f})")


def _stored_table(request: pipeline.Request) -> Path:
    """The results table a `store` case adds its row to (a second computation)."""
    return RESULTS / f"{request.variant}.csv"


def run_bench(puzzles: list[str] | None, solvers: list[str] | None, label: str | None, path: Path,
              console: Console, threads: int = 2, ns: list[int] | None = None) -> int:
    """Every matching case with `threads` threads (the `scale-out` cases at 1 and at 16 threads
    give the speed-ups of the scale-out issue)."""
    wanted = {canonical(s) for s in solvers} if solvers else None
    cases = [case for puzzle in available() if not puzzles or puzzle.name in puzzles
             for case in puzzle.bench_cases()
             if (not wanted or canonical(case.solver) in wanted) and (not label or label in case.label)
             and (not ns or case.n in ns)]
    if not cases:
        raise BadInput("no bench case matches these --puzzle, --solver, --label and --n")
    for case in cases:       # the results tables that cases store rows in, checked before the first runs
        if case.store:
            table_file(_stored_table(_request(case, case.n)))
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, transient=True) as bar:
        job = bar.add_task("bench cases", total=len(cases))
        for case in cases:
            bar.update(job, description=f"bench: {case.label or case.puzzle}")
            run_case(case, path, bar.console, threads)
            bar.advance(job)
    console.print(f"figures appended to {path}")
    return 0


def fastest_proving(puzzle: Puzzle, rows: list[dict[str, str]]) -> str | None:
    """The backend the bench shows proving the largest N of the puzzle's own question (a ladder
    gives every backend the same time per N), then the most cases, then the fastest: the puzzle's
    default solver. Counts of a puzzle that is not a counting one are another question, and the cases
    that store their rows in results/ (second computations, the frontier: each backend picked for
    the record, with hours to run) are records, not races."""
    records = {case.label for case in puzzle.bench_cases() if case.store}
    proven: dict[str, list[tuple[int, float]]] = {}
    for r in rows:
        counts = puzzle.sense is None
        if r["puzzle"] != puzzle.name or (not counts and r["formulation"] in puzzle.counting_formulations):
            continue
        if r["label"] in records:
            continue
        if r["proven"] == "True" and (r["verified"] == "True" or counts):
            proven.setdefault(r["solver"], []).append((int(r["n"] or 0), float(r["seconds"])))
    if not proven:
        return None
    return max(proven, key=lambda s: (max(n for n, _ in proven[s]), len(proven[s]),
                                      -statistics.median(t for _, t in proven[s])))
