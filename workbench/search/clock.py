"""The deadline's clock (time.monotonic()) for compiled kernels.

Through numba's object mode a look costs about a microsecond, so a kernel looks every few thousand
positions and compares with Deadline.at.
"""
from __future__ import annotations

import time

import numba
from numba import njit


@njit(cache=True)
def clock() -> float:
    """time.monotonic(), callable from compiled code."""
    with numba.objmode(t="float64"):
        t = time.monotonic()
    return t
