"""A small search for the task layer's tests: the largest prime below a bound, searched in ranges,
with every number looked at counted as a position. Importable by Dask workers (on PYTHONPATH)."""
from __future__ import annotations

import time
from dataclasses import replace

from workbench.search.journal import Codec
from workbench.search.outcome import Outcome


def primes_in(task: tuple[int, int, float], stop_at: float) -> Outcome:
    lo, hi, pause = task
    found, positions = [], 0
    for k in range(lo, hi):
        if time.time() > stop_at:
            best = max(found, default=None)
            return Outcome(best, best, int(best is not None), positions, False, 1, maximise=True)
        positions += 1
        if k > 1 and all(k % d for d in range(2, int(k ** 0.5) + 1)):
            found.append(k)
    time.sleep(pause)
    best = max(found, default=None)
    return Outcome(best, best, int(best is not None), positions, True, 1, maximise=True)


def ranges(top: int, step: int, pause: float = 0.0) -> list[tuple[int, int, float]]:
    return [(lo, min(top, lo + step), pause) for lo in range(0, top, step)]


def capped_primes_in(task: tuple[int, int, float, int], stop_at: float) -> Outcome:
    """primes_in for the first `cap` numbers of the range; the rest is handed back in two halves."""
    lo, hi, pause, cap = task
    if hi - lo <= cap:
        return primes_in((lo, hi, pause), stop_at)
    out = primes_in((lo, lo + cap, pause), stop_at)
    mid = (lo + cap + hi) // 2
    return replace(out, parts=((lo + cap, mid, pause, cap), (mid, hi, pause, cap)) if out.complete else ())


def prime(k: int) -> int:
    """The toy's checker: a witness is worth itself when it is a prime."""
    if not (isinstance(k, int) and k > 1 and all(k % d for d in range(2, int(k ** 0.5) + 1))):
        raise ValueError(f"{k!r} is not a prime")
    return k


PRIMES = Codec(value=prime)
