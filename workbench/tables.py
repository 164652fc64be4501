"""CSV tables under results/: one row per run, appended atomically so an interrupted table resumes."""
from __future__ import annotations

import csv
import errno
import fcntl
import io
import json
import os
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

COLUMNS = ["puzzle", "variant", "n", "formulation", "solver", "setting", "status", "objective", "bound", "proven",
           "verified", "count", "seconds", "published", "published_status", "match", "solver_version",
           "time_limit", "threads", "timestamp", "message", "solution"]
RESULTS = Path("results")      # the reference record: one table per variant, and bench.csv
KEY = ("puzzle", "variant", "n", "formulation", "solver", "setting")   # setting: options away from defaults


def row_from_record(record: dict[str, Any]) -> dict[str, Any]:
    row = {c: record.get(c) for c in COLUMNS}
    row["time_limit"] = record["params"].get("time_limit")
    row["threads"] = record["params"].get("threads")
    row["timestamp"] = time.strftime("%Y-%m-%dT%H:%M:%S")
    row["solution"] = "" if record.get("solution") is None else json.dumps(record["solution"],
                                                                          separators=(",", ":"))
    return {k: ("" if v is None else v) for k, v in row.items()}


def append_row(path: Path, row: dict[str, Any], columns: list[str] = COLUMNS, once: bool = False) -> bool:
    """One whole line, written in full or not at all and flushed to disk, under a lock: a crash or
    a full disk never leaves half a row. With `once`, a row whose key another writer stored
    meanwhile is not written again (returns False)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    line = {k: (v.replace("\r", " ").replace("\n", " ") if isinstance(v, str) else v) for k, v in row.items()}
    while True:
        fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            if os.fstat(fd).st_ino != os.stat(path).st_ino:
                continue                 # another writer widened (replaced) the file: lock the new one
            size = _cut_torn_tail(fd)
            if size:
                _widen(path, columns)
                if os.fstat(fd).st_ino != os.stat(path).st_ino:
                    continue             # widened into a new file: write there
            if once and key_of(line) in done_keys(read_rows(path)):
                return False
            header = _header(path) if size else columns
            buf = io.StringIO()
            writer = csv.DictWriter(buf, fieldnames=header, extrasaction="ignore", lineterminator="\n")
            if not size:
                writer.writeheader()
            writer.writerow(line)
            _write_all(fd, buf.getvalue().encode(), size)
            os.fsync(fd)
            return True
        finally:
            os.close(fd)


def _cut_torn_tail(fd: int) -> int:
    """Drop an unfinished last line (a write cut short by a crash): returns the file's length."""
    size = os.fstat(fd).st_size
    if size == 0 or os.pread(fd, 1, size - 1) == b"\n":
        return size
    tail = 4096
    while True:
        start = max(0, size - tail)
        cut = os.pread(fd, size - start, start).rfind(b"\n")
        if cut >= 0 or start == 0:
            keep = start + cut + 1 if cut >= 0 else 0
            os.ftruncate(fd, keep)
            return keep
        tail *= 2


def _write_all(fd: int, data: bytes, size: int) -> None:
    """os.write may write less than asked (a full disk): write the rest, or put the file back."""
    view = memoryview(data)
    try:
        while view:
            written = os.write(fd, view)
            if written <= 0:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            view = view[written:]
    except OSError:
        os.ftruncate(fd, size)
        raise


def _header(path: Path) -> list[str]:
    with path.open(newline="") as f:
        return next(csv.reader(f), [])


def _widen(path: Path, columns: list[str]) -> list[str]:
    """The file's header, widened (through a temporary file, so no row can be lost) when this
    version writes columns an older file lacks; new rows are written in the file's column order."""
    header = _header(path)
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
    """The file's whole rows: an unfinished last line and rows with the wrong number of fields
    (torn by a crash, or glued to a torn one by an older version) are left out."""
    if not path.exists():
        return []
    with path.open(newline="") as f:
        text = f.read()
    text = text[:text.rfind("\n") + 1]
    return [r for r in csv.DictReader(io.StringIO(text, newline=""))
            if None not in r and None not in r.values()]


def finished(row: dict[str, Any]) -> bool:
    """A row that answers its N: a proof, or a solution the checker verified; a rerun skips it."""
    status = str(row.get("status"))
    proven = status in ("optimal", "complete", "infeasible")
    return proven or (status == "feasible" and str(row.get("verified")) == "True")


def done_keys(rows: Iterable[dict[str, str]]) -> set[tuple[str, ...]]:
    """Keys of rows that finished; a rerun of `table` skips them."""
    return {key_of(r) for r in rows if finished(r)}


def key_of(record: dict[str, Any]) -> tuple[str, ...]:
    return tuple("" if record.get(k) is None else str(record.get(k)) for k in KEY)
