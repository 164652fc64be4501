"""What a split search shows while it runs."""
from __future__ import annotations

import sys
import time
from typing import TextIO

from ..outcome import Outcome

LOG_EVERY = 5.0             # seconds between progress lines when stderr is not a terminal


class TaskProgress:
    """A rich bar on a terminal (tasks, positions per second, best so far, ETA); elsewhere a line
    every few seconds; nothing with `quiet`."""

    def __init__(self, tasks: int, done: int, quiet: bool, stream: TextIO | None = None, positions: int = 0) -> None:
        self.stream = stream or sys.stderr
        self.quiet, self.tasks, self.done, self.resumed = quiet, tasks, done, done
        self.started = self.last = time.monotonic()
        self.positions, self.earlier = 0, positions     # this run's, and those of the tasks done before it
        self.bar = None
        if not quiet and self.stream.isatty():
            from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn
            from rich.progress import Progress as Bar

            self.bar = Bar(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                           TextColumn("{task.fields[rate]}"), TextColumn("best {task.fields[best]}"),
                           TimeRemainingColumn(), transient=True)
            self.bar.start()
            self.job = self.bar.add_task("tasks", total=tasks, completed=done, rate="", best="-")

    def grow(self, tasks: int) -> None:
        """More tasks: the parts a task handed back."""
        self.tasks += tasks
        if self.bar is not None:
            self.bar.update(self.job, total=self.tasks)

    def update(self, outcome: Outcome, total: Outcome) -> None:
        self.done += 1
        self.positions += outcome.positions
        rate = f"{self.positions / max(1e-9, time.monotonic() - self.started):,.0f} positions/s"
        if self.bar is not None:
            self.bar.update(self.job, completed=self.done, rate=rate, best="-" if total.best is None else total.best)
        elif not self.quiet and time.monotonic() - self.last >= LOG_EVERY:
            self.last = time.monotonic()
            best = "-" if total.best is None else total.best
            print(f"tasks {self.done}/{self.tasks}, {rate}, best {best}, {self.eta()}", file=self.stream, flush=True)

    def eta(self) -> str:
        """The time left at this run's pace so far (the tasks handed back make it grow): the mean
        positions of every task done, this run's and earlier runs' (steadier than a resumed run's
        own few when their sizes are heavy-tailed), at this run's positions a second."""
        elapsed = time.monotonic() - self.started
        if self.positions and self.done:
            seconds = (self.earlier + self.positions) / self.done * (self.tasks - self.done) / self.positions * elapsed
        else:
            seconds = elapsed / max(1, self.done - self.resumed) * (self.tasks - self.done)
        return f"about {seconds:,.0f} s left"

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()
