"""The helpers that compiled kernels call, compiled: the deadline's clock and the symmetries.

Kept apart so that deadline.py and symmetry.py load no numba (the puzzles' models and the
percolation recursion use them without compiling anything). Through numba's object mode a look at
the clock costs about a microsecond, so a kernel looks every few thousand positions and compares
with Deadline.at.
"""
from __future__ import annotations

import time

import numba
from numba import njit

from . import symmetry

transform = njit(cache=True)(symmetry.transform)     # the same function, for compiled code


@njit(cache=True)
def clock() -> float:
    """time.monotonic(), callable from compiled code."""
    with numba.objmode(t="float64"):
        t = time.monotonic()
    return t
