"""How much search a split run has left, from the tasks it finished: the one estimate that the
progress line and `workbench journals` share."""
from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .journal import Row


@dataclass(frozen=True)
class Tally:
    """Finished tasks of one kind: the split's own, or the parts that tasks cut at their cap
    handed back (the rest of a heavy task, so heavy by construction: they are priced apart)."""

    done: int = 0
    positions: int = 0
    squares: float = 0.0        # the sum of each task's positions squared, for their spread
    handed: int = 0             # the parts these tasks handed back
    handed_squares: int = 0     # the sum of each task's parts handed back, squared

    def plus(self, positions: int, handed: int = 0) -> Tally:
        return Tally(self.done + 1, self.positions + positions, self.squares + float(positions) ** 2,
                     self.handed + handed, self.handed_squares + handed * handed)

    @property
    def mean(self) -> float:
        return self.positions / self.done if self.done else 0.0

    @property
    def spread(self) -> float:
        """The standard deviation of a task's positions."""
        return _deviation(self.done, self.positions, self.squares)

    @property
    def handing(self) -> float:
        """The standard error of the mean parts a task hands back."""
        return _deviation(self.done, self.handed, self.handed_squares) / math.sqrt(max(1, self.done))


def _deviation(n: int, total: float, squares: float) -> float:
    return math.sqrt(max(0.0, (squares - total * total / n) / (n - 1))) if n > 1 else 0.0


def tallies(rows: Iterable[Row], own: int) -> tuple[Tally, Tally]:
    """The split's own tasks and the parts, from a journal's rows; the parts are numbered on from
    the `own` tasks."""
    mine, parts = Tally(), Tally()
    for row in rows:
        if row.task < own:
            mine = mine.plus(row.outcome.positions, len(row.parts))
        else:
            parts = parts.plus(row.outcome.positions, len(row.parts))
    return mine, parts


@dataclass(frozen=True)
class Forecast:
    positions: float            # what the unfinished tasks will search, the parts they hand back too
    error: float                # its standard error (see forecast)
    floor: bool                 # only a floor: parts to come, and no part finished (or m >= 1) to price them


def forecast(own: Tally, own_tasks: int, parts: Tally, parts_known: int) -> Forecast | None:
    """The positions left, with `parts_known` the parts handed back so far, finished or not. An
    own task left is priced at the mean own task (tasks are shuffled, so the mean is fair) and
    hands back parts as often as the finished ones did. A part is priced at the mean finished
    part, and since parts hand back m parts each on average, one part to come is 1/(1 - m) parts
    in all. The error: the own tasks done are a sample drawn without replacement; the parts' is
    the sum of that many parts of their spread, whose mean is itself estimated, and the error of
    m carried through 1/(1 - m). While no part has finished (or m >= 1) a part counts as one mean
    part (or task), and the forecast is a floor. A rough forecast: read while a run still hands
    back parts, m tends high (the runs that branched more are those still running), and
    1/(1 - m) makes a high m count more than a low one."""
    if not own.done:
        return None
    parts_left = parts_known - parts.done
    own_left = own_tasks - own.done
    coming = parts_left + own_left * own.handed / own.done
    if parts.done and parts.handed < parts.done:
        price, family, floor = parts.mean, parts.done / (parts.done - parts.handed), False
    else:
        price, family, floor = (parts.mean if parts.done else own.mean), 1.0, coming > 0
    count = coming * family
    own_error = own.spread * math.sqrt(own_left / own_tasks / own.done) * own_tasks
    part_error = parts.spread * math.sqrt(count + count * count / parts.done) if parts.done else 0.0
    family_error = 0.0 if floor else coming * price * parts.handing * family ** 2
    return Forecast(own_left * own.mean + count * price, math.hypot(own_error, part_error, family_error), floor)
