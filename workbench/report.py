"""`workbench report`: a model comparison (docs/usage.md, one row per model, backend and repeat) or the
bench as a person reads it: a status table per backend, a model x backend table, the disagreements.

A backend run several times on one model (repeats; the bench's runs over the months) is shown by its
best run (proven first, then answered, then the fastest); every run counts towards the disagreements.
"""
from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import api, frames
from .puzzles import get
from .puzzles.base import BadInput
from .solvers.base import ReadsResult, Result, Status, clean_number

if TYPE_CHECKING:
    import pandas as pd

FORMATS = ("text", "markdown", "csv", "json", "latex")
WIDTH = 100
STATUS_COLUMNS = ["models", "solved", "proven", "best", "unknown", "unsupported", "error", "disagree"]
CELL_COLUMNS = ["model", "backend", "status", "value", "proven", "verified", "seconds", "time_limit", "runs",
                "best", "disagree"]
HOW = ("solved: a value or proven infeasibility; proven: optimal, infeasible or a complete count, proved by the "
       "backend; best: the best value of the model; unknown: nothing found; disagree: models where its answer "
       "contradicts another run (api.disagreements)")
KEY = "* proven (time: wall seconds); >L s: stopped unproven at the time limit L"


@dataclass
class RowRun(ReadsResult):
    """One CSV row as api.disagreements reads a run (api.Compared)."""

    result: Result
    verified: bool
    counting: bool


def load(paths: Sequence[str | Path]) -> pd.DataFrame:
    """The rows of every file, as one frame of runs (model, backend, status, value, ...)."""
    import pandas as pd

    if not paths:
        raise BadInput("report needs a CSV file")
    return pd.concat([runs(_read(path), str(path)) for path in paths], ignore_index=True)


def _read(path: str | Path) -> pd.DataFrame:
    if not Path(path).is_file():
        raise BadInput(f"no such file: {path}")
    try:
        return frames.read(path)
    except (ValueError, UnicodeDecodeError) as e:
        raise BadInput(f"{path} is not a CSV table ({str(e).splitlines()[0]})") from None


def runs(df: pd.DataFrame, name: str = "the table") -> pd.DataFrame:
    """A model comparison's rows or the bench's (or a results table's) as runs: model, backend,
    status, value, bound, proven, verified, seconds, time_limit, counting, sense."""
    import pandas as pd

    if {"model", "kind", "solver", "status"} <= set(df.columns):
        out = df.assign(backend=df["solver"], model=df["model"].astype(str))
        counting = out.groupby("model")["status"].transform(lambda s: (s == "complete").any())
        out = out.assign(counting=counting, sense=None)
        out["sense"] = out["model"].map(lambda m: _sense_of_rows(out[out["model"] == m]))
    elif {"puzzle", "solver", "status"} <= set(df.columns):
        out = df.assign(backend=df["solver"])
        models, senses, counts = [], [], []
        for row in out.itertuples():
            sense, counting, question = _puzzle_question(str(row.puzzle), str(getattr(row, "formulation", "")),
                                                         str(getattr(row, "label", "")), str(row.solver))
            n = getattr(row, "n", pd.NA)
            models.append(f"{row.puzzle}" + ("" if pd.isna(n) else f" N={n}") + question)
            senses.append(None if counting else sense)
            counts.append(counting)
        out = out.assign(model=models, sense=senses, counting=counts)
    else:
        raise BadInput(f"{name} is neither a model comparison (model, kind, solver, status, ...) nor a bench or "
                       f"results table (puzzle, solver, status, ...)")
    for col in ("value", "bound", "seconds", "time_limit"):
        if col not in out:
            out[col] = pd.NA
    for col in ("proven", "verified"):
        out[col] = out[col].fillna(False).astype(bool) if col in out else False
    out["status"] = out["status"].fillna("unknown").astype(str)
    keep = ["model", "backend", "status", "value", "bound", "proven", "verified", "seconds", "time_limit",
            "counting", "sense"]
    return out[keep + [c for c in ("incumbents", "timestamp") if c in out]].reset_index(drop=True)


def _puzzle_question(puzzle: str, formulation: str, label: str, solver: str) -> tuple[str | None, bool, str]:
    """The puzzle's sense, whether the row is a count, and what sets its question apart from the
    puzzle's own: the bench case's parameters (found by its label), else the label itself."""
    try:
        p = get(puzzle)
    except BadInput:
        return None, False, f" [{label}]" if label else ""
    counting = p.sense is None or formulation in p.counting_formulations
    cases = [c for c in p.bench_cases() if c.label == label] if label else []
    mine = [c for c in cases if c.solver == solver] or cases
    if label and (not mine or any(c.params != mine[0].params or c.count != mine[0].count for c in mine)):
        return p.sense, counting, f" [{label}]"
    counting = counting or bool(mine and mine[0].count)
    params = "".join(f" {k}={v}" for k, v in sorted(mine[0].params.items())) if mine else ""
    return p.sense, counting, params + (" count" if counting and p.sense else "")


def _sense_of_rows(rows: pd.DataFrame) -> str | None:
    """A model file's sense as its rows show it: a bound below a value is a minimum's, above a maximum's."""
    for value, bound in zip(_numbers(rows["value"]), _numbers(rows["bound"])):
        if value is not None and bound is not None and abs(value - bound) > 1e-6 * max(1.0, abs(value)):
            return "min" if bound < value else "max"
    return None


def _numbers(column: pd.Series) -> list[float | None]:
    def number(x: Any) -> float | None:
        try:
            return None if x is None or x != x or str(x) == "<NA>" else float(x)
        except (TypeError, ValueError, OverflowError):
            return None
    return [number(x) for x in column]


def _row_run(row: Any) -> RowRun:
    status = Status(row.status) if row.status in Status._value2member_map_ else Status.UNKNOWN
    value, bound = _numbers([row.value, row.bound]) if not row.counting else (None, None)
    count = int(row.value) if row.counting and _numbers([row.value])[0] is not None else None
    return RowRun(Result(status, value, bound, count=count, solver=str(row.backend)), bool(row.verified),
                  bool(row.counting))


def issues(rows: pd.DataFrame) -> list[str]:
    """api.disagreements over one model's runs; a model file of unknown sense keeps only the
    contradictions that hold whichever way it optimises."""
    found = [_row_run(r) for r in rows.itertuples()]
    sense = rows["sense"].iloc[0]
    if sense is not None or rows["counting"].iloc[0]:
        return api.disagreements(found, sense)
    either = set(api.disagreements(found, "max"))
    return [issue for issue in api.disagreements(found, "min") if issue in either]


def cells(all_runs: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    """One row per model and backend (its best run, `runs` of them), with `best` and `disagree`;
    and the disagreement lines."""
    import pandas as pd

    table, lines = [], []
    for model, rows in all_runs.groupby("model", sort=False):
        rows = rows.reset_index(drop=True)
        found = list(dict.fromkeys(issues(rows)))      # repeats say the same once
        lines += [f"{model}: {issue}" for issue in found]
        involved: set[str] = set()
        if found:
            for i in range(len(rows)):
                for j in range(i + 1, len(rows)):
                    if issues(rows.iloc[[i, j]]):
                        involved |= {rows["backend"][i], rows["backend"][j]}
        target = _best_value(rows)
        for backend, mine in rows.groupby("backend", sort=False):
            mine = mine.assign(answered=mine["value"].notna()).sort_values(
                ["proven", "answered", "seconds"], ascending=[False, False, True], kind="stable")
            top = mine.iloc[0]
            value = _numbers([top["value"]])[0]
            best = target is not None and value is not None and abs(value - target) <= 1e-6 * max(1.0, abs(target))
            table.append({"model": model, "backend": backend, "status": top["status"], "value": top["value"],
                          "proven": bool(top["proven"]), "verified": bool(top["verified"]),
                          "seconds": top["seconds"], "time_limit": top["time_limit"], "runs": len(mine),
                          "best": best, "disagree": backend in involved})
    return pd.DataFrame(table, columns=CELL_COLUMNS), lines


def _best_value(rows: pd.DataFrame) -> float | None:
    """The model's best value: a proven one, else the best found when the sense is known."""
    proven = [v for v, p in zip(_numbers(rows["value"]), rows["proven"]) if p and v is not None]
    if proven:
        return proven[0]
    found = [v for v in _numbers(rows["value"]) if v is not None]
    sense = rows["sense"].iloc[0]
    if not found or (sense is None and len(set(found)) > 1):
        return None
    return min(found) if sense == "min" else max(found)


def status_table(table: pd.DataFrame) -> pd.DataFrame:
    """Per backend: models run, solved, proven, best, unknown, unsupported, error, disagree."""
    import pandas as pd

    solved = table["value"].notna() | (table["status"] == "infeasible")
    rows = {}
    for backend, mine in table.assign(solved=solved).groupby("backend", sort=True):
        failed = mine["status"].isin(["error", "unsupported"])
        rows[backend] = [len(mine), int(mine["solved"].sum()), int(mine["proven"].sum()), int(mine["best"].sum()),
                         int((~mine["solved"] & ~failed).sum()), int((mine["status"] == "unsupported").sum()),
                         int((mine["status"] == "error").sum()), int(mine["disagree"].sum())]
    return pd.DataFrame.from_dict(rows, orient="index", columns=STATUS_COLUMNS).rename_axis("backend")


def model_table(table: pd.DataFrame) -> pd.DataFrame:
    """Model x backend: the value (marked * when proven, with its time), else the status."""
    text = table.assign(cell=[_cell(r) for r in table.itertuples()])
    wide = text.pivot(index="model", columns="backend", values="cell")
    return wide.reindex(index=list(dict.fromkeys(table["model"])), columns=sorted(wide.columns)).fillna("")


def _cell(row: Any) -> str:
    seconds, limit = _numbers([row.seconds, row.time_limit])
    if row.proven:
        what = f"{_value_text(row.value)}*" if _present(row.value) else f"{row.status}*"
        return what + ("" if seconds is None else f" {_seconds_text(seconds)}")
    if row.status in ("error", "unsupported"):
        return row.status
    what = _value_text(row.value) if _present(row.value) else row.status
    timed_out = limit is not None and (seconds is None or seconds >= 0.95 * limit)
    return what + (f" >{limit:g}s" if timed_out and limit is not None else "")


def _present(x: Any) -> bool:
    return x is not None and str(x) not in ("<NA>", "nan", "")


def _seconds_text(seconds: float) -> str:
    return f"{seconds:.2f}s" if seconds < 10 else f"{seconds:.0f}s"


def _value_text(value: Any) -> str:
    """A value as text; an exact count of more than 12 digits as its leading digits and power of ten."""
    if isinstance(value, int) and len(str(abs(value))) > 12:
        digits = str(abs(value))
        return f"{'-' if value < 0 else ''}{digits[0]}.{digits[1:4]}e{len(digits) - 1}"
    number = clean_number(float(value)) if isinstance(value, float) else value
    return f"{number:.6g}" if isinstance(number, float) else str(number)


# -- rendering --------------------------------------------------------------------------------

def render(all_runs: pd.DataFrame, fmt: str = "text", title: str = "") -> str:
    """The report in one of FORMATS: text fits WIDTH columns (the model table wrapped by backends)."""
    table, lines = cells(all_runs)
    status, models = status_table(table), model_table(table)
    if fmt == "csv":
        return table.to_csv(index=False)
    if fmt == "json":
        return json.dumps({"backends": status.reset_index().to_dict("records"),
                           "cells": table.to_dict("records"), "disagreements": lines}, default=_json_value,
                          indent=1) + "\n"
    if fmt == "latex":
        return "\n".join([_latex(status), _latex(models), *(_latex_text(line) for line in lines)]) + "\n"
    if fmt == "markdown":
        parts = [f"## {title}" if title else "", _markdown(status), f"{KEY}.", "", _markdown(models)]
        return "\n".join([*parts, *[f"- DISAGREEMENT: {line}" for line in lines]]).strip() + "\n"
    if fmt != "text":
        raise BadInput(f"--format is one of {', '.join(FORMATS)}")
    out = [title] if title else []
    out += [*_text(status), *_wrap(HOW), "", *_text(models), KEY]
    out += [f"DISAGREEMENT: {line}" for line in lines] or ["no disagreement between the runs"]
    return "\n".join(out) + "\n"


def _json_value(x: Any) -> Any:
    if x is None or (isinstance(x, float) and math.isnan(x)) or str(x) == "<NA>":
        return None
    return x.item() if hasattr(x, "item") else str(x)


def _strings(df: pd.DataFrame) -> list[list[str]]:
    """The header (index name first), then each row, as text."""
    head = [str(df.index.name or ""), *[str(c) for c in df.columns]]
    return [head, *[[str(i), *[str(v) for v in row]] for i, row in zip(df.index, df.itertuples(index=False))]]


def _text(df: pd.DataFrame) -> list[str]:
    """Aligned columns; when they are wider than WIDTH, the columns in groups, each under the index."""
    rows = _strings(df)
    widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]))]
    groups: list[list[int]] = [[]]
    for k in range(1, len(widths)):
        if groups[-1] and widths[0] + sum(widths[c] + 2 for c in groups[-1]) + widths[k] + 2 > WIDTH:
            groups.append([])
        groups[-1].append(k)
    out: list[str] = []
    for group in groups:
        out += [""] if out else []
        for n, r in enumerate(rows):
            line = r[0].ljust(widths[0]) + "".join("  " + r[c].rjust(widths[c]) for c in group)
            out.append(line.rstrip())
            if n == 0:
                out.append("-" * len(line))
    return out


def _wrap(text: str) -> list[str]:
    import textwrap

    return textwrap.wrap(text, WIDTH)


def _markdown(df: pd.DataFrame) -> str:
    rows = [[cell.replace("|", "\\|") for cell in row] for row in _strings(df)]
    lines = ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join([lines[0], "|" + "---|" * len(rows[0]), *lines[1:]])


def _latex(df: pd.DataFrame) -> str:
    return df.style.format(escape="latex").format_index(escape="latex", axis=0) \
        .format_index(escape="latex", axis=1).to_latex(hrules=True)


def _latex_text(line: str) -> str:
    for char in "\\&%$#_{}":
        line = line.replace(char, f"\\{char}")
    return f"DISAGREEMENT: {line}\\\\"


def report(paths: Sequence[str | Path], fmt: str = "text") -> str:
    """`workbench report FILE...`: the files' runs, rendered."""
    return render(load(paths), fmt, ", ".join(str(p) for p in paths) if fmt in ("text", "markdown") else "")
