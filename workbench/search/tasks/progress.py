"""What a split search shows while it runs."""
from __future__ import annotations

import sys
import time
from typing import TextIO

from ..forecast import Tally, forecast
from ..outcome import Outcome

LOG_EVERY = 5.0             # seconds between progress lines when stderr is not a terminal


class TaskProgress:
    """A rich bar on a terminal (tasks, positions per second, best so far, ETA); elsewhere a line
    every few seconds; nothing with `quiet`."""

    def __init__(self, own_tasks: int, parts: int, quiet: bool, stream: TextIO | None = None,
                 done: tuple[Tally, Tally] = (Tally(), Tally())) -> None:
        """`parts`: those handed back so far; `done`: the own tasks and parts earlier runs finished."""
        self.stream = stream or sys.stderr
        self.quiet, self.own_tasks, self.parts = quiet, own_tasks, parts
        self.own, self.handed = done
        self.resumed = self.done
        self.started = self.last = time.monotonic()
        self.positions = 0                              # this run's
        self.bar = None
        if not quiet and self.stream.isatty():
            from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn
            from rich.progress import Progress as Bar

            self.bar = Bar(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                           TextColumn("{task.fields[rate]}"), TextColumn("best {task.fields[best]}"),
                           TimeRemainingColumn(), transient=True)
            self.bar.start()
            self.job = self.bar.add_task("tasks", total=self.tasks, completed=self.done, rate="", best="-")

    @property
    def tasks(self) -> int:
        return self.own_tasks + self.parts

    @property
    def done(self) -> int:
        return self.own.done + self.handed.done

    def update(self, task: int, outcome: Outcome, total: Outcome, handed: int = 0) -> None:
        """Task `task` finished, handing back `handed` parts (they join the tasks)."""
        if task < self.own_tasks:
            self.own = self.own.plus(outcome.positions, handed)
        else:
            self.handed = self.handed.plus(outcome.positions, handed)
        self.parts += handed
        self.positions += outcome.positions
        rate = f"{self.positions / max(1e-9, time.monotonic() - self.started):,.0f} positions/s"
        if self.bar is not None:
            self.bar.update(self.job, total=self.tasks, completed=self.done, rate=rate,
                            best="-" if total.best is None else total.best)
        elif not self.quiet and time.monotonic() - self.last >= LOG_EVERY:
            self.last = time.monotonic()
            best = "-" if total.best is None else total.best
            print(f"tasks {self.done}/{self.tasks}, {rate}, best {best}, {self.eta()}", file=self.stream, flush=True)

    def eta(self) -> str:
        """The time left: the positions the forecast gives from every task done, this run's and
        earlier runs' (steadier than a resumed run's own few when their sizes are heavy-tailed), at
        this run's positions a second."""
        elapsed = time.monotonic() - self.started
        ahead = forecast(self.own, self.own_tasks, self.handed, self.parts)
        if self.positions and ahead is not None:
            seconds = ahead.positions / self.positions * elapsed
        else:
            seconds = elapsed / max(1, self.done - self.resumed) * (self.tasks - self.done)
        return f"{'at least' if ahead is not None and ahead.floor else 'about'} {seconds:,.0f} s left"

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()
