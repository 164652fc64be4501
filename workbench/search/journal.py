"""The journal of a split search: each finished task's outcome, so that a killed run resumes where
it stopped, and a copy carried to another machine resumes there.

A journal comes from outside like any input, so it holds data, never code: one SQLite table of
rows in canonical JSON, each decoded with its types checked (a split's Codec turns its witnesses
and parts into JSON and back) and each witness re-measured by the puzzle's own checker, so that a
row counts only if its value is its witness's. The rows are chained: each row's hash covers the
previous one's and its own text, so a copy cannot be edited, nor rows inserted or reordered,
without breaking the chain. Anyone can compute a chain, though, so each row's hash is also MAC'd
with a key that never leaves this machine (journal_key): a row this machine wrote vouches for
itself and every row before it. Rows from elsewhere are trusted only after a random sample of
them has been searched again here and agreed exactly (tasks.run); an import row then records that,
MAC'd here, so that a later resume need not check them again.
"""
from __future__ import annotations

import contextlib
import contextvars
import fcntl
import functools
import hashlib
import hmac
import json
import math
import os
import secrets
import socket
import sqlite3
import subprocess
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from ..errors import JournalBroken, JournalBusy
from .outcome import Outcome

FORMAT = 2                  # PRAGMA user_version of a journal in this format (pickles were format 0)
KEY_FILE = "WORKBENCH_JOURNAL_KEY"    # environment variable: another file for this machine's key
SAMPLE, AT_LEAST = 0.01, 5  # rows from elsewhere searched again before the rest are trusted
UNREADABLE = (sqlite3.DatabaseError, ValueError, TypeError, KeyError, RecursionError)
_log: contextvars.ContextVar[JournalLog | None] = contextvars.ContextVar("journal log", default=None)


def broken(path: Path, why: object) -> JournalBroken:
    return JournalBroken(f"the journal {path} cannot be read ({why}); rerun with --fresh to start over")


def older(path: Path) -> JournalBroken:
    return JournalBroken(f"the journal {path} was written by an older workbench (its format is not read); "
                         "rerun with --fresh to start over")


def plain_out(value: Any) -> Any:
    """JSON's own values as they are, tuples as lists: the default codec's encoding."""
    if isinstance(value, (tuple, list)):
        return [plain_out(v) for v in value]
    if value is None or isinstance(value, (int, str)) or (isinstance(value, float) and math.isfinite(value)):
        return value
    raise TypeError(f"a journal holds no {type(value).__name__}; give the split a Codec for it")


def plain_in(value: Any) -> Any:
    """The default codec's decoding: lists come back as tuples (a task descriptor's form)."""
    return tuple(plain_in(v) for v in value) if isinstance(value, list) else value


@dataclass(frozen=True)
class Codec:
    """What a split's journal needs of it: its witnesses and parts as JSON and back (decoding
    raises ValueError on anything malformed), and `value`, the witness's value as the puzzle's
    independent checker measures it (raising ValueError when the checker rejects the witness; None
    for an empty one, which only a row of the `given` value may have: a count's threshold, a value
    asked for rather than found). Without `value` a row's witness is taken as it is (the tests' toys)."""

    witness_out: Callable[[Any], Any] = plain_out
    witness_in: Callable[[Any], Any] = plain_in
    part_out: Callable[[Any], Any] = plain_out
    part_in: Callable[[Any], Any] = plain_in
    value: Callable[[Any], int | None] | None = None
    given: int | None = None


PLAIN = Codec()


def integer(x: Any, what: str, least: int = 0, below: float = math.inf) -> int:
    """x, when it is an int (not a bool) in [least, below); else ValueError naming `what`."""
    if type(x) is not int or not least <= x < below:
        raise ValueError(f"{what} is {x!r}, not an integer in [{least}, {below})")
    return x


def journal_key() -> bytes:
    """This machine's journal key: $WORKBENCH_JOURNAL_KEY, else ~/.local/share/workbench/journal.key,
    made (32 random bytes, mode 600) on first use. It stays out of the journals' folder, so that a
    copy of a journal never carries it."""
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    path = Path(os.environ.get(KEY_FILE) or base / "workbench" / "journal.key")
    path.parent.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(FileExistsError):
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(secrets.token_bytes(32))
    key = path.read_bytes()
    if len(key) < 16:
        raise JournalBroken(f"the journal key {path} is too short; remove it and a new one is made")
    return key


@functools.cache
def commit() -> str:
    """The checkout's commit, as each row records it ("unknown" outside git)."""
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        done = subprocess.run(["git", "rev-parse", "HEAD"], cwd=Path(__file__).parent, capture_output=True,
                              text=True, timeout=10)
        if done.returncode == 0:
            return done.stdout.strip()
    return "unknown"


def _canonical(body: dict[str, Any]) -> str:
    return json.dumps(body, sort_keys=True, separators=(",", ":"), allow_nan=False)


def _link(previous: str, text: str) -> str:
    return hashlib.sha256(f"{previous}\n{text}".encode()).hexdigest()


def _genesis(key_text: str) -> str:
    """The hash before the first row: the key's, so that rows cannot move to another search's journal."""
    return _link(f"workbench journal {FORMAT}", key_text)


def _mac(secret: bytes, digest: str) -> str:
    return hmac.new(secret, digest.encode(), hashlib.sha256).hexdigest()


@dataclass(frozen=True)
class Row:
    """A finished task as its journal holds it: what it found, its parts, the work it did, and
    where: `bounds`, for a search that shares its best, the bound the task started and ended under."""

    task: int
    outcome: Outcome[Any]
    parts: dict[int, Any]
    seconds: float
    bounds: tuple[int, int] | None
    finished: str
    commit: str
    machine: str


@dataclass
class Ledger:
    """A journal read and checked: its rows by task, the parts they handed back by task id, the
    tasks whose rows no row of this machine vouches for (`foreign`, oldest first), and the imports
    of rows from elsewhere recorded so far."""

    rows: dict[int, Row] = field(default_factory=dict)
    parts: dict[int, Any] = field(default_factory=dict)
    foreign: list[int] = field(default_factory=list)
    imports: list[dict[str, Any]] = field(default_factory=list)


TASK_FIELDS = {"kind", "task", "best", "witness", "count", "positions", "complete", "seconds", "finished", "commit",
               "machine", "bound", "parts"}
EXAMPLES = "examples"       # a task row's optional field: every solution of its best, when the search keeps them
IMPORT_FIELDS = {"kind", "tasks", "rechecked", "origin", "finished", "commit", "machine"}


def _text(x: Any, what: str) -> str:
    if not isinstance(x, str) or len(x) > 200:
        raise ValueError(f"{what} is not a short text")
    return x


def _stamp(body: dict[str, Any]) -> tuple[str, str, str]:
    finished = _text(body["finished"], "finished")
    datetime.fromisoformat(finished)                          # raises ValueError on a bad timestamp
    return finished, _text(body["commit"], "commit"), _text(body["machine"], "machine")


def _task_row(body: dict[str, Any], codec: Codec, total: int, maximise: bool) -> Row:
    """One task row decoded, its types and ranges checked, its witness measured by the checker."""
    if set(body) - {EXAMPLES} != TASK_FIELDS:
        raise ValueError(f"a task row with the fields {sorted(body)}")
    task = integer(body["task"], "task", 0, total)
    best = None if body["best"] is None else integer(body["best"], "best", -2**62, 2**62)
    witness = None if body["witness"] is None else codec.witness_in(body["witness"])
    if codec.value is not None:
        measured = None if witness is None else codec.value(witness)
        if best is None and witness is not None:
            raise ValueError(f"task {task}: a witness without its value")
        if best is not None and measured != best and not (measured is None and best == codec.given):
            raise ValueError(f"task {task}: its witness is worth {measured} by the checker, the row says {best}")
    if body["complete"] is not True:
        raise ValueError(f"task {task}: not complete")
    seconds = body["seconds"]
    if type(seconds) not in (int, float) or not 0 <= seconds < 1e9:
        raise ValueError(f"task {task}: seconds is {seconds!r}")
    bound = body["bound"]
    if bound is not None:
        if not isinstance(bound, list) or len(bound) != 2:
            raise ValueError(f"task {task}: bound is {bound!r}")
        bound = tuple(integer(b, "bound", -2**62, 2**62) for b in bound)
    parts = body["parts"]
    if not isinstance(parts, list):
        raise ValueError(f"task {task}: parts is not a list")
    examples = tuple(_examples(body.get(EXAMPLES, []), codec, best, task))
    count = integer(body["count"], "count")
    if examples and len(examples) != count:
        raise ValueError(f"task {task}: {len(examples)} examples for a count of {count}")
    outcome = Outcome(best, witness, count, integer(body["positions"], "positions"), True, 1, maximise,
                      examples=examples)
    return Row(task, outcome, {total + i: codec.part_in(p) for i, p in enumerate(parts)}, float(seconds), bound,
               *_stamp(body))


def _examples(raw: Any, codec: Codec, best: int | None, task: int) -> list[Any]:
    """A row's examples decoded, each worth the row's best by the checker."""
    if not isinstance(raw, list):
        raise ValueError(f"task {task}: examples is not a list")
    examples = [codec.witness_in(x) for x in raw]
    if codec.value is not None and any(codec.value(x) != best for x in examples):
        raise ValueError(f"task {task}: an example is not worth the row's best {best} by the checker")
    return examples


def read_rows(db: sqlite3.Connection, key_text: str, codec: Codec, secret: bytes) -> Ledger:
    """Every row of a journal, the chain and each row checked; ValueError (naming the row) otherwise."""
    key = json.loads(key_text)
    if not isinstance(key, dict) or not isinstance(key.get("search"), str):
        raise ValueError("its key is not a search's")
    total = integer(key.get("tasks"), "the key's tasks")
    ledger, vouched = Ledger(), 0
    previous = _genesis(key_text)
    rows = db.execute("SELECT seq, body, hash, mac FROM rows ORDER BY seq").fetchall()
    decoded: list[tuple[str, Any]] = []
    for number, (_, text, digest, mac) in enumerate(rows, start=1):
        if not isinstance(text, str) or _link(previous, text) != digest:
            raise ValueError(f"the hash chain breaks at row {number}: the journal was edited")
        previous = digest
        if isinstance(mac, str) and hmac.compare_digest(mac, _mac(secret, digest)):
            vouched = number
        try:
            body = json.loads(text)
            if not isinstance(body, dict):
                raise ValueError("not an object")
            if body.get("kind") == "task":
                row = _task_row(body, codec, total, bool(key.get("maximise", False)))
                if row.task in ledger.rows:
                    raise ValueError(f"task {row.task} twice")
                ledger.rows[row.task] = row
                ledger.parts.update(row.parts)
                total += len(row.parts)
                decoded.append(("task", row.task))
            elif body.get("kind") == "import" and set(body) == IMPORT_FIELDS:
                origin = body["origin"]
                if not isinstance(origin, list):
                    raise ValueError("origin is not a list")
                ledger.imports.append({"tasks": integer(body["tasks"], "tasks"),
                                       "rechecked": integer(body["rechecked"], "rechecked"),
                                       "origin": [_text(o, "origin") for o in origin]})
                _stamp(body)
                decoded.append(("import", None))
            else:
                raise ValueError("a row of no known kind")
        except (ValueError, TypeError, KeyError) as e:
            raise ValueError(f"row {number}: {e}") from None
    ledger.foreign = [task for kind, task in decoded[vouched:] if kind == "task"]
    return ledger


def disagreement(row: Row, again: Outcome[Any], codec: Codec, proven: set[int]) -> str | None:
    """What a task searched again here says that its row from elsewhere does not (None: they agree).
    Exactly compared: best, count, the witness's value, complete, the parts and the positions. A
    search that shares its best between tasks (`bounds`) ran under a bound that others may have
    lowered while it ran: the re-run starts under the row's starting bound (when a row's checked
    witness proves it: a bound is always a solution's value), and where the row's bound did not
    change the comparison stays exact; where it did, the positions depend on when it changed, so
    then: a row that found a value must have the re-run's value and count, a row that found none
    must have an end bound that is proven and that the re-run does not beat, and the re-run, under
    a bound no lower, searched at least the row's positions."""
    said, seen = row.outcome, again

    def measured(o: Outcome[Any]) -> Any:
        return codec.value(o.witness) if codec.value and o.witness is not None else o.best

    parts = [codec.part_out(row.parts[i]) for i in sorted(row.parts)], [codec.part_out(p) for p in seen.parts]
    exact = row.bounds is None or (row.bounds[0] == row.bounds[1] == (seen.bounds or (None,))[0])
    checks = [("complete", said.complete, seen.complete), ("parts", *parts)]
    if exact or said.best is not None:
        checks += [("best", said.best, seen.best), ("count", said.count, seen.count),
                   ("witness value", measured(said), measured(seen)),
                   ("examples", [codec.witness_out(x) for x in said.examples],
                    [codec.witness_out(x) for x in seen.examples])]
    if exact:
        checks.append(("positions", said.positions, seen.positions))
    else:
        assert row.bounds is not None
        end = row.bounds[1]
        if said.best is None and end not in proven and end != (seen.bounds or (None,))[0]:
            return f"it ended under the bound {end}, which no row proves"
        if said.best is None and seen.best is not None and seen.beats(Outcome(end, maximise=seen.maximise)):
            return f"it found nothing under the bound {end}, the re-run found {seen.best}"
        if seen.positions < said.positions:
            return f"it searched {said.positions:,} positions, the re-run (under a bound no lower) {seen.positions:,}"
    return next((f"its {what} is {a!r}, the re-run's {b!r}" for what, a, b in checks if a != b), None)


class Journal:
    """The finished tasks of one search, in a SQLite database (WAL mode) under runs/journals/. One
    process at a time: a second one refuses with JournalBusy rather than share the file."""

    def __init__(self, folder: Path, key: dict[str, Any], fresh: bool = False, codec: Codec = PLAIN) -> None:
        self.key_text = json.dumps(key, sort_keys=True)
        self.codec = codec
        folder.mkdir(parents=True, exist_ok=True)
        digest = hashlib.sha256(self.key_text.encode()).hexdigest()[:16]
        self.path = folder / f"{key['search']}-{digest}.sqlite"
        self._lock = open(self.path.with_suffix(".lock"), "w")
        try:
            fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self._lock.close()
            raise JournalBusy(f"another run is using the journal {self.path}; wait for it, or stop it") from None
        if fresh:
            self._remove()
        try:
            self.secret = journal_key()
            self._open()
        except sqlite3.DatabaseError as e:
            self._lock.close()
            raise self.broken(e) from None
        except (JournalBroken, JournalBusy):
            self._lock.close()
            raise

    def broken(self, e: object) -> JournalBroken:
        return broken(self.path, e)

    def _open(self) -> None:
        self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        tables = {name for (name,) in self.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if tables and (self.db.execute("PRAGMA user_version").fetchone()[0] != FORMAT or "tasks" in tables):
            self.db.close()
            raise older(self.path)
        if not tables:
            self.db.execute(f"PRAGMA user_version = {FORMAT}")
            self.db.execute("CREATE TABLE search (key TEXT NOT NULL)")
            self.db.execute("CREATE TABLE rows (seq INTEGER PRIMARY KEY, body TEXT NOT NULL, hash TEXT NOT NULL, "
                            "mac TEXT NOT NULL)")
            self.db.execute("INSERT INTO search VALUES (?)", (self.key_text,))
        stored = self.db.execute("SELECT key FROM search").fetchone()
        if stored is None or stored[0] != self.key_text:
            self.db.close()
            raise JournalBusy(f"{self.path} belongs to another search; remove it or run with --fresh")
        last = self.db.execute("SELECT hash FROM rows ORDER BY seq DESC LIMIT 1").fetchone()
        self._last = last[0] if last else _genesis(self.key_text)

    def read(self) -> Ledger:
        """The rows, checked (JournalBroken, naming the file, when they cannot be read or trusted)."""
        try:
            return read_rows(self.db, self.key_text, self.codec, self.secret)
        except UNREADABLE as e:
            raise self.broken(e) from None

    def _append(self, body: dict[str, Any]) -> None:
        body |= {"finished": time.strftime("%Y-%m-%dT%H:%M:%S"), "commit": commit(), "machine": socket.gethostname()}
        text = _canonical(body)
        digest = _link(self._last, text)
        mac = _mac(self.secret, digest)
        self.db.execute("INSERT INTO rows (body, hash, mac) VALUES (?, ?, ?)", (text, digest, mac))
        self._last = digest

    def task_done(self, task: int, outcome: Outcome[Any], seconds: float, parts: dict[int, Any] | None = None) -> None:
        """Commit one finished task (a complete one only: a task cut by the clock is run again) with
        the parts it handed back (numbered on from the tasks so far), in one row."""
        witness = None if outcome.witness is None else self.codec.witness_out(outcome.witness)
        best = None if outcome.best is None else int(outcome.best)       # (numpy's scalars are no JSON)
        self._append({"kind": "task", "task": task, "best": best, "witness": witness, "count": int(outcome.count),
                      "positions": int(outcome.positions), "complete": bool(outcome.complete),
                      "seconds": round(seconds, 6),
                      "bound": None if outcome.bounds is None else [int(b) for b in outcome.bounds],
                      "parts": [self.codec.part_out(part) for _, part in sorted((parts or {}).items())]}
                     | ({EXAMPLES: [self.codec.witness_out(x) for x in outcome.examples]} if outcome.examples else {}))

    def imported(self, tasks: int, rechecked: int, origin: list[str]) -> str:
        """Record that `tasks` rows from elsewhere were trusted after `rechecked` of them were searched
        again here and agreed: the row, MAC'd here, vouches for them from now on. Returns the note."""
        self._append({"kind": "import", "tasks": tasks, "rechecked": rechecked, "origin": origin})
        return (f"imported {tasks} tasks finished elsewhere ({', '.join(origin)}): {rechecked} of them searched "
                "again here agreed exactly")

    def close(self, finished: bool = False) -> None:
        """A finished search leaves no journal: its answer goes to the results, and a rerun of the
        command then searches again rather than replay. Inside journal_log the removal is left to
        whoever keeps the answer (remove_finished, once its row is written), so that a failure
        after the search costs no work."""
        self.db.close()
        if finished and (log := _log.get()) is not None:
            log.finished.append(str(self.path.resolve()))
        elif finished:
            self.remove()             # (while the lock is still held, as before)
        self._lock.close()

    def remove(self) -> None:
        self._remove()
        self.path.with_suffix(".lock").unlink(missing_ok=True)

    def _remove(self) -> None:
        _unlink(self.path)


def _unlink(path: Path) -> None:
    """A journal's database with its WAL files (not its lock)."""
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def remove_finished(paths: Sequence[str]) -> None:
    """The finished journals of a run whose answer is now kept, removed under their locks (one
    that a run holds again meanwhile is left to it)."""
    for path in map(Path, paths):
        with open(path.with_suffix(".lock"), "a") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                continue
            _unlink(path)
            path.with_suffix(".lock").unlink(missing_ok=True)


@dataclass
class JournalLog:
    """What the journals of one run's searches leave for its answer: notes (a run that resumed from
    a journal says so, and how much work earlier runs, here or elsewhere, had done), and the paths
    of the finished journals, for remove_finished once the answer is kept."""

    notes: list[str] = field(default_factory=list)
    finished: list[str] = field(default_factory=list)


@contextlib.contextmanager
def journal_log() -> Iterator[JournalLog]:
    """The journal log of the searches run inside. Their finished journals stay until the answer
    is kept (its row written, or printed) and the keeper calls remove_finished: a run that fails
    after its search (writing its row, say) reruns from the journal in seconds instead of
    searching again."""
    log = JournalLog()
    token = _log.set(log)
    try:
        yield log
    finally:
        _log.reset(token)
