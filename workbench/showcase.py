"""`workbench showcase` (the main job, `make run`): one table per puzzle recomputed into a fresh run
folder, then one summary line per table against the published values."""
from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from .pipeline import Run
from .puzzles import available
from .puzzles.base import ShowcaseCase

Case = ShowcaseCase


def cases() -> list[Case]:
    """Every puzzle's showcase tables (its `showcase_cases()`), in the registry's order. All of them
    take about 5 minutes on 2 quiet cores, most of it the two proofs that need minutes: CP-SAT's of
    stones a(3) (about 80 s) and the transfer matrix's second count of percolation a(9) (about 150 s)."""
    return [case for puzzle in available() for case in puzzle.showcase_cases()]


def run_folder(root: str | Path = "runs") -> Path:
    """A fresh folder for this run's tables, named by the UTC time it started."""
    base = Path(root) / time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    path, i = base, 1
    while path.exists():
        path, i = base.with_name(f"{base.name}-{i}"), i + 1
    path.mkdir(parents=True)
    return path


def _values(values: list[Any]) -> str:
    return " ".join("-" if v is None else str(v) for v in values)


def differs_from_proven(run: Run) -> bool:
    """The one failure of the main job: an answer other than a value the literature has proven."""
    return run.published is not None and run.published.status == "PROVEN" and run.value != run.published.value


SUMMARY_COLUMNS = ["puzzle", "N", "workbench", "published", "match", "proven", "seconds", "backend"]


def summary(case: Case, runs: list[Run]) -> dict[str, Any]:
    """One line of the summary table: the workbench's values beside the published ones."""
    ns = [run.n for run in runs if run.n is not None]
    with_published = [run for run in runs if run.published is not None]
    matched = sum(1 for run in with_published if run.match == "yes")
    other = [f"N={run.n}: {run.match}" if run.n is not None else run.match
             for run in with_published if run.match != "yes"]
    return {
        "puzzle": case.name,
        "N": f"{min(ns)}..{max(ns)}" if ns else "-",
        "workbench": _values([run.value for run in runs]),
        "published": _values([None if run.published is None else run.published.value for run in runs]),
        "match": f"{matched}/{len(with_published)}" + "".join(f"; {o}" for o in other),
        "proven": f"{sum(1 for run in runs if run.proven)}/{len(runs)}",
        "seconds": round(sum(run.seconds for run in runs), 1),
        "backend": ", ".join(sorted({run.result.solver for run in runs})),
    }


def format_summary(lines: list[dict[str, Any]], width: int = 80) -> str:
    """The summary as text within `width` columns: a line per table, then its values beside the
    published ones, aligned N by N and wrapped."""
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
    return "\n".join(out)
