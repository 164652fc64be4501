"""`workbench showcase` (the main job, `make run`): one table per puzzle recomputed into a fresh run
folder, then one summary line per table against the published values.

A demonstration, so every case finishes in seconds (the heavy ones are bench cases) and only a wrong
answer fails it: a run stopped by its time limit is reported as not finished, never as a difference,
so a slower machine never makes the job fail."""
from __future__ import annotations

import textwrap
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from .api import TablePlan, run_table
from .pipeline import Run
from .puzzles import available
from .puzzles.base import ShowcaseCase
from .solvers.base import Options, Status

Case = ShowcaseCase

MATCHED, DIFFERS, NOT_FINISHED, ERROR = "matched", "differs", "not finished", "error"
# The exit status of `workbench showcase` (2 is bad input, as for every command): a wrong answer
# outranks a backend failure; runs that did not finish count against nothing.
EXIT_MATCHED, EXIT_DIFFERS, EXIT_ERROR = 0, 1, 3


def cases() -> list[Case]:
    """Every puzzle's showcase tables (its `showcase_cases()`), in the registry's order: about a
    minute on 2 quiet cores in all (docs/showcase.md)."""
    return [case for puzzle in available() for case in puzzle.showcase_cases()]


def run_folder(root: str | Path = "runs") -> Path:
    """A fresh folder for this run's tables, named by the UTC time it started."""
    base = Path(root) / time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    path, i = base, 1
    while path.exists():
        path, i = base.with_name(f"{base.name}-{i}"), i + 1
    path.mkdir(parents=True)
    return path


def outcome(run: Run) -> str:
    """How a run stands against the published value. DIFFERS: a finished answer other than a PROVEN
    published value, a checked solution better than a proven optimum, or a solution the checker
    rejects (no answer, and a wrong one). ERROR: the backend failed. NOT_FINISHED: stopped by its
    time limit, which says nothing about the answer. MATCHED, or '' when there is nothing to compare."""
    pub, proven_pub = run.published, run.published is not None and run.published.status == "PROVEN"
    if run.verdict is not None and not run.verdict.ok:
        return DIFFERS
    if run.result.status == Status.ERROR:
        return ERROR
    if not run.proven:
        return DIFFERS if proven_pub and run.match == "CONTRADICTS published" else NOT_FINISHED
    if pub is None:
        return ""
    return MATCHED if run.value == pub.value else DIFFERS if proven_pub else ""


@dataclass
class Done:
    """A showcase table's runs, and the N it left: after a run that did not finish, a larger N would
    not finish either, so the rest are not run rather than each waiting out its limit."""

    case: Case
    runs: list[Run]
    not_run: list[int | None] = field(default_factory=list)

    def of(self, kind: str) -> list[Run]:
        return [run for run in self.runs if outcome(run) == kind]


def run_case(case: Case, planned: TablePlan, settings: Options,
             on_row: Callable[[Run, str], None] | None = None) -> Done:
    """The table's rows N by N (all recomputed), up to the first run that does not finish."""
    done = Done(case, [])
    for i, request in enumerate(planned.requests):
        done.runs += run_table(replace(planned, requests=[request]), settings, redo=True, on_row=on_row)
        if outcome(done.runs[-1]) == NOT_FINISHED:
            done.not_run = [later.n for later in planned.requests[i + 1:]]
            break
    return done


def _limit(run: Run) -> str:
    """The time limit the run was given, as the summary says it."""
    seconds = run.result.params.get("time_limit")
    return f"{seconds:g} s" if isinstance(seconds, (int, float)) else "its time limit"


def _note(run: Run) -> str:
    """What the summary says of a run that did not match."""
    kind = outcome(run)
    text = {NOT_FINISHED: f"not finished within {_limit(run)}", ERROR: "backend error",
            DIFFERS: run.match or "checker rejected"}.get(kind, run.match)
    return f"N={run.n}: {text}" if run.n is not None else text


def _span(ns: Sequence[int | None]) -> str:
    known = [n for n in ns if n is not None]
    return "-" if not known else f"{min(known)}" if len(known) == 1 else f"{min(known)}..{max(known)}"


def _values(values: list[Any]) -> str:
    return " ".join("-" if v is None else str(v) for v in values)


SUMMARY_COLUMNS = ["puzzle", "N", "workbench", "published", "match", "proven", "seconds", "backend", "notes"]


def summary(done: Done) -> dict[str, Any]:
    """One line of the summary table: the workbench's finished answers beside the published values
    (a run that did not finish shows none), the matches and what else happened."""
    runs = done.runs
    with_published = [run for run in runs if run.published is not None]
    notes = [_note(run) for run in runs if outcome(run) != MATCHED and (outcome(run) or run.match)]
    if done.not_run:
        notes.append(f"N={_span(done.not_run)}: not run")
    return {
        "puzzle": done.case.name,
        "N": _span([run.n for run in runs] + done.not_run),
        "workbench": _values([None if outcome(run) == NOT_FINISHED else run.value for run in runs]),
        "published": _values([None if run.published is None else run.published.value for run in runs]),
        "match": f"{len(done.of(MATCHED))}/{len(with_published)}",
        "proven": f"{sum(1 for run in runs if run.proven)}/{len(runs)}",
        "seconds": round(sum(run.seconds for run in runs), 1),
        "backend": ", ".join(sorted({run.result.solver for run in runs})),
        "notes": "; ".join(notes),
    }


def verdict(tables: list[Done]) -> tuple[list[str], int]:
    """The lines that end the job, one per run that differs, failed or did not finish, then the
    last word; and the exit status (EXIT_*)."""
    differs = [run for done in tables for run in done.of(DIFFERS)]
    errors = [run for done in tables for run in done.of(ERROR)]
    unfinished = [(done, run) for done in tables for run in done.of(NOT_FINISHED)]
    lines = [f"DIFFERS: {run.puzzle} N={run.n}: {'-' if run.value is None else run.value} against published "
             + (f"{run.published.value} ({run.published.status})" if run.published else "-")
             + (f"; {run.result.message}" if run.result.message else "") for run in differs]
    lines += [f"ERROR: {run.puzzle} N={run.n} with {run.solver}: {run.result.message or 'the backend failed'}"
              for run in errors]
    lines += [f"not finished within {_limit(run)}: {done.case.name} N={run.n}"
              + (f" (N={_span(done.not_run)} not run)" if done.not_run else "") for done, run in unfinished]
    if differs:
        lines.append(f"{len(differs)} answer(s) differ from the proven published values")
    elif errors:
        lines.append(f"{len(errors)} run(s) failed; every answer that came back matched")
    elif unfinished:
        lines.append(f"every finished answer matched; {len(unfinished)} run(s) not finished in time (not a failure)")
    else:
        lines.append("every proven published value matched")
    return lines, EXIT_DIFFERS if differs else EXIT_ERROR if errors else EXIT_MATCHED


def format_summary(lines: list[dict[str, Any]], width: int = 80) -> str:
    """The summary as text within `width` columns: a line per table, then its values beside the
    published ones, aligned N by N and wrapped, and its notes."""
    heads = ["puzzle", "N", "match", "proven", "seconds", "backend"]
    sizes = [max(len(h), *(len(str(line[h])) for line in lines)) for h in heads]
    out = ["  ".join(h.ljust(s) for h, s in zip(heads, sizes)).rstrip()]
    for line in lines:
        out.append("  ".join(str(line[h]).ljust(s) for h, s in zip(heads, sizes)).rstrip())
        ours, theirs = line["workbench"].split(), line["published"].split()
        cells = [max(len(a), len(b)) for a, b in zip(ours, theirs)]
        start, used = 0, 12
        for i, cell in enumerate(cells + [width]):          # the sentinel ends the last chunk
            if used + cell + 1 > width:
                for label, values in (("workbench", ours), ("published", theirs)):
                    out.append(f"  {label} " + "".join(" " + v.rjust(c) for v, c in
                                                       zip(values[start:i], cells[start:i])))
                start, used = i, 12
            used += cell + 1
        if line["notes"]:
            out += textwrap.wrap(line["notes"], width, initial_indent="  notes: ", subsequent_indent="    ")
    return "\n".join(out)
