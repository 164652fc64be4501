"""What `workbench journals` reads: where each journal's run stands and how much work it has left,
read without disturbing a run that may be writing it, and consistent copies of the journals, so
that a long proof outlives the machine it runs on."""
from __future__ import annotations

import contextlib
import fcntl
import functools
import json
import math
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from ..errors import JournalBroken, JournalBusy
from .forecast import Forecast, Tally, forecast, tallies
from .journal import FORMAT, PLAIN, UNREADABLE, Row, broken, journal_key, older, read_rows
from .outcome import Outcome

RECENT = 1000               # finished tasks `journals` takes a run's recent pace over


@dataclass(frozen=True)
class Pace:
    """How a run went over its latest RECENT finished tasks: the machine and code it runs on now,
    whatever the rows before them were timed on."""

    rate: float | None          # positions a task-second (None: the search counts none)
    workers: float | None       # tasks at once: their task-seconds a second of the time any ran
    rate_error: float = 0.0     # the rate's standard error, as a ratio of two sums over a sample


@dataclass(frozen=True)
class JournalState:
    """Where one journaled search stands, read without disturbing a run that may be writing it."""

    path: Path
    key: dict[str, Any]
    own: Tally                  # the split's own tasks finished
    handed: Tally               # the parts finished that tasks cut at their cap handed back
    parts: int                  # parts handed back so far (they join the total)
    best: int | None            # the best value the finished tasks found
    task_seconds: float
    last: str | None            # when the latest task finished
    running: bool               # a run holds the journal now
    pace: Pace
    foreign: int = 0            # finished tasks written elsewhere, not yet re-checked here

    @property
    def done(self) -> int:
        return self.own.done + self.handed.done

    @property
    def positions(self) -> int:
        """Of the finished tasks (the split before them is not journaled)."""
        return self.own.positions + self.handed.positions

    @property
    def total(self) -> int:
        return int(self.key["tasks"]) + self.parts

    @functools.cached_property
    def forecast(self) -> Forecast | None:
        return forecast(self.own, int(self.key["tasks"]), self.handed, self.parts)

    @property
    def seconds_left(self) -> float | None:
        """Task-seconds still to go: the positions left (the forecast) at the recent positions a
        task-second, else the mean task-seconds. The positions are exact wherever a row was made;
        its seconds are those of its machine and code."""
        if not self.done:
            return None
        if self.pace.rate and self.forecast is not None:
            return self.forecast.positions / self.pace.rate
        return self.task_seconds / self.done * (self.total - self.done)

    @property
    def margin(self) -> float | None:
        """Two standard errors of seconds_left, from the errors of its two estimates: the
        positions' (the forecast's) and the speed's (the recent rows are a sample of the tasks'
        speeds, which differ from task to task). Not covered: a drift of the machine's own speed."""
        left, rate, ahead = self.seconds_left, self.pace.rate, self.forecast
        if self.done < 2 or not rate or left is None or ahead is None:
            return None
        return 2 * math.hypot(ahead.error / rate, left * self.pace.rate_error / rate)

    @property
    def hours_left(self) -> float | None:
        """Wall-clock hours still to go with as many tasks at once as lately."""
        left = self.seconds_left
        return None if left is None or not self.pace.workers else left / self.pace.workers / 3600

    def left(self) -> str:
        """The work left in words, with what the estimate rests on."""
        seconds, pace = self.seconds_left or 0.0, self.pace
        plus = "" if self.margin is None else f" (± {self.margin / 3600:,.2f} at two standard errors)"
        about = "at least" if self.forecast is not None and self.forecast.floor else "about"
        said = (f"{about} {seconds / 3600:,.2f} task-hours{plus} at the latest {RECENT} tasks' {pace.rate:,.0f} "
                "positions a task-second and the mean positions of a task, and of a handed-back part, so far"
                if pace.rate else f"about {seconds / 3600:,.2f} task-hours at the mean so far")
        if self.hours_left is not None and pace.workers is not None:
            said += f"; {self.hours_left:,.1f} h with {pace.workers:.1f} tasks at once, as lately"
        return said


@dataclass(frozen=True)
class Unreadable:
    """A journal `journals` lists as one line: why it cannot be read."""

    path: Path
    why: str


def _pace(rows: Iterable[Row]) -> Pace:
    """The pace of the latest RECENT rows. Each task ran over its `seconds` before it finished; cut
    to the window from the first of them to finish to the last, those spans give the time any task
    ran (a run stopped, or moved between machines, lay still outside them) and how many ran at once
    within it. A task still running counts nothing yet, so `workers` errs low. The rate's error is
    the ratio estimator's: the spread of each task's positions less the rate times its seconds."""
    latest = sorted(rows, key=lambda row: row.finished)[-RECENT:]
    seconds = sum(row.seconds for row in latest)
    positions = sum(row.outcome.positions for row in latest)
    rate = positions / seconds if positions and seconds > 0 else None
    if len(latest) < 2:
        return Pace(rate, None)
    n = len(latest)
    rate_error = 0.0 if rate is None else math.sqrt(
        sum((row.outcome.positions - rate * row.seconds) ** 2 for row in latest) / (n * (n - 1))) / (seconds / n)
    ends = [datetime.fromisoformat(row.finished).timestamp() for row in latest]
    spans = sorted((max(end - row.seconds, ends[0]), end) for row, end in zip(latest, ends))
    busy, reached = 0.0, ends[0]
    for start, end in spans:
        busy += max(0.0, end - max(start, reached))
        reached = max(reached, end)
    work = sum(end - start for start, end in spans)
    return Pace(rate, work / busy if busy > 0 else None, rate_error)


def _read_only(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True)


def _running(path: Path) -> bool:
    """Whether a run holds the journal's lock (tried and let go at once)."""
    lock = path.with_suffix(".lock")
    if not lock.exists():
        return False
    with open(lock) as f:
        try:
            fcntl.flock(f, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(f, fcntl.LOCK_UN)
    return False


def _state(path: Path, secret: bytes) -> JournalState:
    """One journal's state, its rows checked as a resume checks them (but for the checker, which
    needs the search's own codec)."""
    with contextlib.closing(_read_only(path)) as db:
        tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if db.execute("PRAGMA user_version").fetchone()[0] != FORMAT or "tasks" in tables:
            raise older(path)
        (key_text,) = db.execute("SELECT key FROM search").fetchone()
        ledger = read_rows(db, key_text, PLAIN, secret)
    key = json.loads(key_text)
    rows = list(ledger.rows.values())
    total = Outcome.reduce((row.outcome for row in rows), bool(key.get("maximise", False)))
    own, handed = tallies(rows, int(key["tasks"]))
    return JournalState(path, key, own, handed, len(ledger.parts), total.best, sum(row.seconds for row in rows),
                        max((row.finished for row in rows), default=None), _running(path), _pace(rows),
                        len(ledger.foreign))


def survey(folder: Path) -> list[JournalState | Unreadable]:
    """The journals in `folder`, each with its key and how far its run got; one that cannot be read
    (damaged, edited, an older format) as an Unreadable saying why."""
    states: list[JournalState | Unreadable] = []
    secret = journal_key()
    for path in sorted(folder.glob("*.sqlite")):
        try:
            states.append(_state(path, secret))
        except JournalBroken as e:
            states.append(Unreadable(path, str(e)))
        except UNREADABLE as e:
            states.append(Unreadable(path, str(broken(path, e))))
    return states


def copy_journal(path: Path, folder: Path) -> Path:
    """A consistent copy of a journal into `folder` under its own name (SQLite's online backup, so
    a run may go on writing it meanwhile): how a long run is carried to another machine, or kept
    past the end of the disk it runs on. The copy resumes like the original, and reading it leaves
    no -wal or -shm file beside it."""
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / path.name
    if target.resolve() == path.resolve():
        raise ValueError(f"{path} would be copied onto itself")
    if _running(target):
        raise JournalBusy(f"a run is using {target}; stop it before copying over it")
    for suffix in ("", "-wal", "-shm"):
        Path(f"{target}{suffix}").unlink(missing_ok=True)
    source, copy = _read_only(path), sqlite3.connect(target)
    try:
        source.backup(copy)
        copy.execute("PRAGMA journal_mode=DELETE")    # one self-contained file; a run sets WAL again
    finally:
        source.close()
        copy.close()
    return target
