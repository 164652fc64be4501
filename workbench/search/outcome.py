"""One result type for every native search's own answer: the native search backend alone turns
it into a workbench Result (and a reported one into an incumbent), so no search imports solvers/.

A search that is split into tasks (threads today, machines with the scale-out) reduces the tasks'
outcomes with `merge`: the better value wins with its witness, equal values add their counts
(and join their examples), positions add up, and the whole is complete only if every part is.
Outcome() with complete=True is the neutral element (nothing searched, nothing missed).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from functools import reduce
from typing import Any, Generic, TypeVar

from ..errors import Refused as Refused  # (re-exported: the searches raise it from here)

W = TypeVar("W")


@dataclass(frozen=True)
class Outcome(Generic[W]):
    """best: the best value found (a cost when minimising), None if none; witness: a solution of
    that value; count: solutions of that value when the search counts them (a pure count has no
    best); positions: boards searched; complete: the space was searched to the end, so best and
    count are proven; tasks: the independent tasks this covers; parts: work a task hands back to the
    task layer as new tasks (a task that reached its cap), which the outcome does not cover.
    Said to the workbench as well: bound, a proven bound on the best (an incomplete search's); examples,
    a count's example solutions; message, what the run did; build_seconds, compiling and set-up.
    bounds: a task of a search that shares its best, the bound it started and ended under (its
    journal keeps them, so that a re-check of the task elsewhere runs under the same bound)."""

    best: int | None = None
    witness: W | None = None
    count: int = 0
    positions: int = 0
    complete: bool = True
    tasks: int = 0
    maximise: bool = False
    parts: tuple[Any, ...] = ()
    bound: int | None = None
    examples: tuple[Any, ...] = ()
    message: str = ""
    build_seconds: float = 0.0
    bounds: tuple[int, int] | None = None

    @property
    def found(self) -> bool:
        return self.witness is not None

    def beats(self, other: Outcome[W]) -> bool:
        """Whether this value is strictly better than the other's (any value beats none)."""
        if self.best is None or other.best is None:
            return other.best is None and self.best is not None
        return self.best > other.best if self.maximise else self.best < other.best

    def merge(self, other: Outcome[W]) -> Outcome[W]:
        """The outcome of both searches together."""
        if self.maximise != other.maximise:
            raise ValueError("cannot merge a maximisation with a minimisation")
        if other.beats(self):
            first, count, examples = other, other.count, other.examples
        elif self.beats(other):
            first, count, examples = self, self.count, self.examples
        else:
            first = self if self.found or not other.found else other
            count, examples = self.count + other.count, self.examples + other.examples
        return replace(first, count=count, examples=examples, positions=self.positions + other.positions,
                       complete=self.complete and other.complete, tasks=self.tasks + other.tasks, parts=())

    @staticmethod
    def reduce(outcomes: Iterable[Outcome[W]], maximise: bool = False) -> Outcome[W]:
        return reduce(Outcome.merge, outcomes, Outcome(maximise=maximise))


Progress = Callable[[Outcome[Any]], None]     # a search's report of what it has so far (never complete)
