"""CSV tables under results/: one row per run, appended atomically so an interrupted table resumes.

A table is only ever appended to, or widened to new columns through a temporary file that keeps
every line; a file whose header is not a workbench table's is never touched (NotOurs). A last
line without its newline is kept when it is a complete row and cut only when it is torn."""
from __future__ import annotations

import csv
import errno
import fcntl
import io
import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from .errors import BadInput, BadRow, NotOurs
from .records import COLUMNS, Record

__all__ = ["COLUMNS", "RESULTS", "NotOurs", "Record", "Unreadable", "append_row", "check_ours", "read_records"]

RESULTS = Path("results")      # the reference record: one table per variant, and bench.csv


def row_from_record(record: Record) -> dict[str, str]:
    """The record as the row `table` appends: stamped with the time, and the command that redoes it."""
    return replace(record, timestamp=time.strftime("%Y-%m-%dT%H:%M:%S"), command=command_of(record)).to_row()


def check_ours(path: Path, columns: list[str]) -> None:
    """NotOurs unless `path` is missing, empty, headed by some of `columns` (an older version's
    table has fewer) starting with the same first column, or a header torn by a crash."""
    if not path.is_file() or path.stat().st_size == 0:
        return
    with path.open("rb") as f:
        start = f.read(1 << 16)
    if b"\n" not in start and ",".join(columns).encode().startswith(start):
        return
    try:
        header = _header(path)
    except (UnicodeDecodeError, csv.Error) as e:
        raise NotOurs(f"{path} is not a workbench table ({e}); give another file") from None
    if not header or header[0] != columns[0] or not set(header) <= set(columns):
        raise NotOurs(f"{path} is not a workbench table (its header is {','.join(header)[:80]!r}); "
                      f"it is left as it is: give another file")


def command_of(record: Record) -> str:
    """The `table` command that recomputes the row (written from the record, so rows made through
    the API carry it too): a reader can rerun any stored claim."""
    words = ["python -m workbench table", record.puzzle]
    if record.n is not None:
        words += ["--n", str(record.n)]
    words += ["--solver", record.solver, "--formulation", record.formulation]
    for name in ("time_limit", "threads", "seed"):
        if record.params.get(name) is not None:
            words += [f"--{name.replace('_', '-')}", str(record.params[name])]
    for name, value in record.setting.items():
        flag = "--" + name.replace("_", "-")
        words += [flag] if value is True else [flag, str(value)]
    return " ".join(words)


def append_row(path: Path, row: dict[str, Any], columns: list[str] = COLUMNS, once: bool = False) -> bool:
    """One whole line, written in full or not at all and flushed to disk, under a lock: a crash or
    a full disk never leaves half a row. With `once`, a row whose key another writer stored
    meanwhile is not written again (returns False). NotOurs for a file that is not a table."""
    path.parent.mkdir(parents=True, exist_ok=True)
    line = {k: (v.replace("\r", " ").replace("\n", " ") if isinstance(v, str) else v) for k, v in row.items()}
    while True:
        fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            if os.fstat(fd).st_ino != os.stat(path).st_ino:
                continue                 # another writer widened (replaced) the file: lock the new one
            check_ours(path, columns)
            size = _end_tail(fd)
            if size:
                _widen(path, columns)
                if os.fstat(fd).st_ino != os.stat(path).st_ino:
                    continue             # widened into a new file: write there
            if once and finished_row(path, _key_of(line)):
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


def _complete(header: list[str], line: str) -> bool:
    """Whether a last line without its newline is a whole row: the header's field count, and a
    solution that reads as JSON (the last column; a torn one almost never does)."""
    try:
        fields = next(csv.reader([line], strict=True), [])
    except csv.Error:
        return False
    if len(fields) != len(header):
        return False
    solution = dict(zip(header, fields)).get("solution", "")
    if not solution:
        return True
    try:
        return isinstance(json.loads(solution), (list, dict))
    except (ValueError, RecursionError):
        return False


def _end_tail(fd: int) -> int:
    """A last line without its newline: a complete row gets its newline, a torn one (a write cut
    short by a crash) is cut. Returns the file's length."""
    size = os.fstat(fd).st_size
    if size == 0 or os.pread(fd, 1, size - 1) == b"\n":
        return size
    tail = 4096
    while True:
        start = max(0, size - tail)
        cut = os.pread(fd, size - start, start).rfind(b"\n")
        if cut >= 0 or start == 0:
            keep = start + cut + 1 if cut >= 0 else 0
            header = os.pread(fd, min(size, 1 << 16), 0).split(b"\n", 1)[0].decode(errors="replace")
            last = os.pread(fd, size - keep, keep).decode(errors="replace")
            if keep and _complete(next(csv.reader([header]), []), last):
                _write_all(fd, b"\n", size)
                return size + 1
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
    """The file's header, widened (through a temporary file) when this version writes columns an
    older file lacks; new rows are written in the file's column order. Every line is kept: a row
    of the old width gets empty new fields, any other line (a row a newer layout wrote whole, a
    line edited by hand) is copied as it is."""
    header = _header(path)
    missing = [c for c in columns if c not in header]
    if not missing:
        return header
    with path.open(newline="") as f:
        lines = f.read().splitlines(keepends=True)[1:]
    tmp = path.with_suffix(path.suffix + ".tmp")
    with tmp.open("w", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(header + missing)
        for line in lines:
            fields = _fields(line)
            if fields is not None and len(fields) == len(header):
                writer.writerow(fields + [""] * len(missing))
            else:
                f.write(line)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    return header + missing


def _fields(line: str) -> list[str] | None:
    try:
        return next(csv.reader([line], strict=True), [])
    except csv.Error:
        return None


def read_rows(path: Path) -> list[dict[str, str]]:
    """The file's whole rows as text: a torn last line and rows with the wrong number of fields (torn
    by a crash, glued to a torn one by an older version, or edited by hand) are left out; so is
    everything of a file that is not text. Readers above take Records (read_records)."""
    return [row for _, row in numbered_rows(path)]


def numbered_rows(path: Path) -> list[tuple[int, dict[str, str]]]:
    if not path.is_file():
        return []
    try:
        with path.open(newline="") as f:
            text = f.read()
    except UnicodeDecodeError:
        return []
    lines = text.split("\n")
    header = _fields(lines[0]) or []
    if lines[-1] and not _complete(header, lines[-1]):
        lines.pop()                      # a torn last line
    rows = [(number, _fields(line)) for number, line in enumerate(lines[1:], 2) if line]
    return [(number, dict(zip(header, fields))) for number, fields in rows
            if fields is not None and len(fields) == len(header)]


@dataclass(frozen=True)
class Unreadable:
    """A row whose fields cannot be read back (edited by hand, say): its key, so that `table`
    redoes its N, and the one-line refusal naming its file and line."""

    key: tuple[str, ...]
    error: BadRow


def read_records(path: Path, keep: Callable[[tuple[str, ...]], bool] | None = None) -> list[Record | Unreadable]:
    """The table's whole rows as Records, in file order (only those whose key `keep` keeps: the
    others are never parsed); a row that cannot be read is Unreadable."""
    out: list[Record | Unreadable] = []
    for line, row in numbered_rows(path):
        if keep is not None and not keep(_key_of(row)):
            continue
        try:
            out.append(Record.from_row(row, f"{path}:{line}"))
        except BadRow as e:
            out.append(Unreadable(_key_of(row), e))
    return out


def finished_rows(path: Path, keys: set[tuple[str, ...]]) -> dict[tuple[str, ...], Record | Unreadable]:
    """The rows with these keys that a rerun of `table` skips, by key (the last of each): finished
    ones, and those that cannot be read (the rerun redoes them)."""
    return {r.key: r for r in read_records(path, keys.__contains__) if not isinstance(r, Record) or r.finished}


def finished_row(path: Path, key: tuple[str, ...]) -> bool:
    """Whether the table holds a finished row with this key (a rerun of `table` skips it)."""
    return any(isinstance(r, Record) and r.finished for r in read_records(path, key.__eq__))


def _key_of(row: dict[str, str]) -> tuple[str, ...]:
    return tuple(row.get(k) or "" for k in ("puzzle", "variant", "n", "formulation", "solver", "setting"))


def latest_finished(path: Path, puzzle: str, n: int | None, setting: str | None = None) -> Record:
    """The table's latest finished row for the puzzle's n (with this setting, if given); BadInput
    when there is none, the row's BadRow when it cannot be read."""
    if not path.is_file():
        raise BadInput(f"{path} is a directory, not a table" if path.is_dir() else f"no such file: {path}")
    check_ours(path, COLUMNS)
    wanted = (puzzle, "" if n is None else str(n), setting)
    rows = [r for r in read_records(path, lambda key: (key[0], key[2], None if setting is None else key[5]) == wanted)
            if not isinstance(r, Record) or r.finished]
    if not rows:
        raise BadInput(f"{path} has no finished row for {puzzle} n = {n}" + (f" with {setting}" if setting else ""))
    return readable(rows[-1])


def readable(row: Record | Unreadable) -> Record:
    """The row's Record; its one-line BadRow (naming file and line) when it cannot be read."""
    if isinstance(row, Unreadable):
        raise row.error
    return row
