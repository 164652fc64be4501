"""One clock and one deadline for every native search.

The clock is time.monotonic(), for Python and for compiled kernels alike (compiled.clock). A kernel takes
the deadline as `Deadline.at`, a float that is infinite when there is no limit. This module loads
no numba, so that code which never compiles anything (the percolation recursion) can use it.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Deadline:
    """When a search must stop: `at` on the monotonic clock (inf: never), counted from `start`."""

    at: float = math.inf
    start: float = field(default_factory=time.monotonic)

    @classmethod
    def after(cls, seconds: float | None) -> Deadline:
        """A deadline `seconds` from now (None: no limit)."""
        now = time.monotonic()
        return cls(math.inf if seconds is None else now + seconds, now)

    @classmethod
    def at_wall(cls, instant: float) -> Deadline:
        """The deadline at a time.time() instant (the task layer's stop_at; inf: no limit)."""
        return cls.after(None if instant == math.inf else instant - time.time())

    def left(self) -> float:
        """Seconds left (never negative; inf without a limit)."""
        return max(0.0, self.at - time.monotonic())

    def passed(self) -> bool:
        return time.monotonic() > self.at

    def elapsed(self) -> float:
        """Seconds since the start."""
        return time.monotonic() - self.start

    def within(self, seconds: float) -> Deadline:
        """This deadline, or `seconds` from now if that comes first (same start)."""
        return Deadline(min(self.at, time.monotonic() + seconds), self.start)

    def share(self, fraction: float) -> Deadline:
        """A deadline after `fraction` of the time left (same start)."""
        now = time.monotonic()
        return Deadline(now + fraction * (self.at - now), self.start)


NEVER = Deadline()                  # no limit (a default argument)
