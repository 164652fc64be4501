"""CSV tables under results/: one row per run, appended atomically so an interrupted table resumes."""
from __future__ import annotations

import csv
import io
import json
import os
import time
from pathlib import Path
from typing import Any, Iterable

COLUMNS = ["puzzle", "variant", "n", "formulation", "solver", "status", "objective", "bound", "proven",
           "verified", "count", "seconds", "published", "published_status", "match", "solver_version",
           "time_limit", "threads", "timestamp", "message", "solution"]
KEY = ("puzzle", "variant", "n", "formulation", "solver")


def row_from_record(record: dict[str, Any]) -> dict[str, Any]:
    row = {c: record.get(c) for c in COLUMNS}
    row["time_limit"] = record["params"].get("time_limit")
    row["threads"] = record["params"].get("threads")
    row["timestamp"] = time.strftime("%Y-%m-%dT%H:%M:%S")
    row["solution"] = "" if record.get("solution") is None else json.dumps(record["solution"],
                                                                          separators=(",", ":"))
    return {k: ("" if v is None else v) for k, v in row.items()}


def append_row(path: Path, row: dict[str, Any], columns: list[str] = COLUMNS) -> None:
    """One write of one whole line, flushed to disk: a crash never leaves half a row or loses one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    new = not path.exists() or path.stat().st_size == 0
    if not new:
        columns = _widen(path, columns)
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=columns, extrasaction="ignore", lineterminator="\n")
    if new:
        writer.writeheader()
    writer.writerow(row)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, buf.getvalue().encode())
        os.fsync(fd)
    finally:
        os.close(fd)


def _widen(path: Path, columns: list[str]) -> list[str]:
    """The file's header, widened (through a temporary file, so no row can be lost) when this
    version writes columns an older file lacks; new rows are written in the file's column order."""
    with path.open(newline="") as f:
        header = next(csv.reader(f), [])
    missing = [c for c in columns if c not in header]
    if not missing:
        return header
    rows, header = read_rows(path), header + missing
    tmp = path.with_suffix(path.suffix + ".tmp")
    with tmp.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=header, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    return header


def read_rows(path: Path) -> list[dict[str, str]]:
    if not path.exists():
        return []
    with path.open(newline="") as f:
        return list(csv.DictReader(f))


def done_keys(rows: Iterable[dict[str, str]]) -> set[tuple[str, ...]]:
    """Keys of rows that finished; a rerun of `table` skips them."""
    return {tuple(str(r[k]) for k in KEY) for r in rows if r.get("status") not in ("", "error")}


def key_of(record: dict[str, Any]) -> tuple[str, ...]:
    return tuple("" if record.get(k) is None else str(record.get(k)) for k in KEY)
