"""pandas where the workbench tabulates: the result tables and the bench as DataFrames, and the
backend comparison as a pivot (backend x N, each cell the time and the status).

Imported on first use only: the worker processes and `workbench solve` never load pandas.
"""
from __future__ import annotations

import math
import typing
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .puzzles import get
from .puzzles.base import BadInput
from .records import Number, Record
from .solvers.base import clean_number
from .tables import RESULTS

if TYPE_CHECKING:
    import pandas as pd

BENCH = RESULTS / "bench.csv"


@cache
def _kinds() -> dict[str, str]:
    """Each column's kind, as the Record types it: "integer" (whole numbers), "number" or "flag"
    (the answer, `value`, is a number too)."""
    hints = {**typing.get_type_hints(Record), "value": Number}
    kinds = {}
    for name, hint in hints.items():
        args = set(typing.get_args(hint)) | {hint}
        if bool in args:
            kinds[name] = "flag"
        elif args & {float, Number} or args >= {int, float}:
            kinds[name] = "number"
        elif int in args:
            kinds[name] = "integer"
    return kinds


def _typed(df: pd.DataFrame, where: str = "the table") -> pd.DataFrame:
    """Each column typed as the Record types it: numbers as numbers (nullable integers where whole),
    True/False as booleans, the time a datetime; the answer is `value` (a results table's objective,
    else its count) with its `log10_value`. A field that is not its column's type (a row pasted in
    another column order, say) is refused (BadInput naming its line), never turned into a blank."""
    import pandas as pd

    for col in df.columns:
        _refuse_mistyped(df[col], _kinds().get(str(col)) or ("time" if col == "timestamp" else None), where)

    if "value" not in df and "objective" in df:
        value = df["objective"].fillna(df["count"]) if "count" in df else df["objective"]
        df.insert(int(df.columns.get_loc("objective")), "value", value)

    for col in df.columns:
        kind = _kinds().get(str(col))
        if kind == "flag":
            df[col] = df[col].map({"True": True, "False": False, True: True, False: False}).astype("boolean")
        elif kind is not None:
            text = df[col].dropna()
            if len(text) and text.str.fullmatch(r"-?\d+").all():     # integers, exactly (counts pass 2**63)
                ints = df[col].map(lambda x: None if pd.isna(x) else int(x))
                small = ints.dropna().abs().max() < 2**63
                df[col] = ints.astype("Int64") if small else ints.astype(object)
            else:
                df[col] = pd.to_numeric(df[col], errors="coerce")
    if "value" in df:
        df.insert(int(df.columns.get_loc("value")) + 1, "log10_value", df["value"].map(_log10).astype("float64"))
    if "timestamp" in df:
        df["timestamp"] = pd.to_datetime(df["timestamp"], errors="coerce", format="ISO8601")
    return df


def _refuse_mistyped(text: pd.Series, kind: str | None, where: str) -> None:
    """BadInput for the first field of the column that its kind cannot read (lines count from the
    header, line 1)."""
    import pandas as pd

    given = text.dropna()
    if kind is None or given.empty:
        return
    if kind == "flag":
        bad = ~given.isin(["True", "False"])
    elif kind == "time":
        bad = pd.to_datetime(given, errors="coerce", format="ISO8601").isna()
    elif kind == "integer":
        bad = ~given.str.fullmatch(r"\s*-?\d+\s*")
    else:
        bad = pd.to_numeric(given, errors="coerce").isna() & (given.str.lower() != "nan")
    if bad.any():
        row = bad.idxmax()
        expected = {"flag": "True or False", "time": "an ISO time", "integer": "an integer"}.get(kind, "a number")
        raise BadInput(f"{where}:{int(row) + 2}: {text.name} is {given[row]!r}, not {expected} "
                       f"(a row in another column order?): refused")


def _log10(x: Any) -> float:
    """log10 of a positive value, exact counts of any size included (Python's log10 takes big ints)."""
    try:
        return math.log10(x) if x is not None and x == x and x > 0 else math.nan
    except (TypeError, ValueError):
        return math.nan


def read(path: str | Path) -> pd.DataFrame:
    """One CSV of results/ as a typed DataFrame (empty cells are missing values)."""
    import pandas as pd

    return _typed(pd.read_csv(path, dtype=str, keep_default_na=False).replace("", pd.NA), str(path))


def reference(name: str = "") -> Path:
    """The project's results folder (or a file in it) wherever the caller's working directory is: the
    checkout's (the parent of this package when installed editable), else ./results."""
    for folder in (Path(__file__).resolve().parent.parent / RESULTS, RESULTS):
        if (folder / name).exists():
            return folder / name
    raise BadInput(f"no results{'/' + name if name else ''} in {Path(__file__).resolve().parent.parent} "
                   f"nor in {Path.cwd()}: pass the folder or file")


def results(puzzle: str, results_dir: str | Path | None = None) -> pd.DataFrame:
    """Every row the results tables hold for `puzzle` (each of its variants' CSV files), one row a run,
    with a `file` column naming the table."""
    import pandas as pd

    name = get(puzzle).name
    frames = []
    for path in sorted((reference() if results_dir is None else Path(results_dir)).glob("*.csv")):
        if path.name == BENCH.name or path.name.startswith("compare-"):
            continue
        df = read(path)
        if "puzzle" in df and (df["puzzle"] == name).any():
            frames.append(df[df["puzzle"] == name].assign(file=path.name))
    if not frames:
        return pd.DataFrame(columns=["puzzle", "variant", "n", "solver", "status", "objective", "file"])
    return pd.concat(frames, ignore_index=True)


def bench_results(path: str | Path | None = None) -> pd.DataFrame:
    """results/bench.csv: one row per bench run."""
    return read(reference(BENCH.name) if path is None else path)


def records(runs: Iterable[Any]) -> pd.DataFrame:
    """Runs (pipeline.Run or a model file's run) as rows: their records, less the solution."""
    import pandas as pd

    rows = []
    for run in runs:
        rec = run.record()
        rows.append({**{k: v for k, v in rec.to_json().items() if k not in ("solution", "params")}, "value": run.value,
                     "threads": rec.threads, "time_limit": rec.time_limit})
    return pd.DataFrame(rows)


def pivot(df: pd.DataFrame, index: str | list[str] = "solver", columns: str = "n") -> pd.DataFrame:
    """Backend x N: each cell the latest run's value, status and time, e.g. '29 optimal 1.2 s'."""
    import pandas as pd

    if df.empty:
        return pd.DataFrame()
    value = df["value"] if "value" in df else df["objective"]
    cell = value.astype("string").fillna("-") + " " + df["status"].astype("string") + " " + \
        df["seconds"].astype(float).map("{:.1f} s".format)
    key = df[columns]
    if key.isna().any():                 # a model file's runs have no N
        key = key.astype("string").fillna("-")
    table = df.assign(cell=cell, **{columns: key}).pivot_table(index=index, columns=columns, values="cell",
                                                              aggfunc="last", sort=True)
    table.columns = [f"N={c}" if columns == "n" else str(c) for c in table.columns]
    return table.fillna("")


def bench_rows(df: pd.DataFrame, puzzles: list[str] | None = None, solvers: list[str] | None = None,
               label: str | None = None, ns: list[int] | None = None) -> pd.DataFrame:
    """The bench's rows that match the filters (`bench --summary`'s)."""
    keep = df
    if puzzles:
        keep = keep[keep["puzzle"].isin(puzzles)]
    if solvers:
        keep = keep[keep["solver"].isin(solvers)]
    if label:
        keep = keep[keep["label"].fillna("").str.contains(label, regex=False)]
    if ns:
        keep = keep[keep["n"].isin(ns)]
    return keep


COMPARISON = ["version", "status", "value", "bound", "seconds", "verified"]


def comparison(runs: Iterable[Any]) -> pd.DataFrame:
    """`compare`'s table: one row per backend (a backend named twice: its last run), then each racer
    of a portfolio run under it, indented."""
    import pandas as pd

    rows = []
    for run in runs:
        rec = run.record()
        rows.append({"solver": rec.solver, "version": rec.solver_version, "status": str(rec.status),
                     "value": run.value, "bound": rec.bound, "seconds": rec.seconds, "verified": run.verified})
        rows += [{"solver": f"  {r.racer}", "version": "", "status": r.status, "value": clean_number(r.objective),
                  "bound": clean_number(r.bound), "seconds": r.seconds, "verified": ""}
                 for r in run.result.racers or []]
    df = pd.DataFrame(rows, columns=["solver", *COMPARISON]).astype(object)
    return df.pivot_table(index="solver", values=COMPARISON, aggfunc="last", sort=False, dropna=False)[COMPARISON]


def rich_table(df: pd.DataFrame, title: str = "") -> Any:
    """A DataFrame (compare's table, the bench summary) as a rich table: its index, then its columns."""
    from rich.table import Table

    names = list(df.index.names) if any(df.index.names) else [""]
    table = Table(*[str(x) for x in names], *[str(c) for c in df.columns], title=title or None)
    for key, row in df.iterrows():
        keys = key if isinstance(key, tuple) else (key,)
        table.add_row(*[str(k) for k in keys], *[_cell(v) for v in row])
    return table


def _cell(value: Any) -> str:
    if value is None or (isinstance(value, float) and value != value) or str(value) in ("<NA>", "nan"):
        return "-"
    if isinstance(value, float):
        return str(clean_number(value)) if value.is_integer() else f"{value:.2f}"
    return str(value)
