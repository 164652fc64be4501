"""The helpers that compiled kernels call, compiled: the deadline's clock and the symmetries.

Kept apart so that deadline.py and symmetry.py load no numba (the puzzles' models and the
percolation recursion use them without compiling anything). Through numba's object mode a look at
the clock costs about a microsecond, so a kernel looks every few thousand positions and compares
with Deadline.at.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numba
import numpy as np
from numba import njit

from . import symmetry

# the same function, for compiled code (typed as its source, which numba's Dispatcher hides from mypy)
transform: Callable[[int, Any, Any], tuple[Any, Any]] = njit(cache=True)(symmetry.transform)  # type: ignore[assignment]


@njit(cache=True)
def clock() -> float:
    """time.monotonic(), callable from compiled code."""
    with numba.objmode(t="float64"):
        t = time.monotonic()
    return t


@njit(cache=True)
def canonical_codes(rows, cols, values, valid):  # type: ignore[no-untyped-def]
    """symmetry.canonical_codes, row by row: the numpy form sorts eight whole copies of a batch,
    which made deduplicating a 5e5-board frontier take seconds the deadline did not see."""
    big = np.iinfo(np.int64).max
    nrows, width = rows.shape
    best = np.full((nrows, width), big, dtype=np.int64)
    code = np.empty(width, dtype=np.int64)
    for i in range(nrows):
        for o in range(8):
            r0 = c0 = big
            for j in range(width):
                if valid[i, j]:
                    r, c = transform(o, rows[i, j], cols[i, j])
                    r0, c0 = min(r0, r), min(c0, c)
            m = 0
            for j in range(width):                  # insertion sort: a board has a dozen cells
                if valid[i, j]:
                    r, c = transform(o, rows[i, j], cols[i, j])
                    key = ((r - r0) * symmetry.SHIFT + c - c0) * symmetry.SHIFT + values[i, j]
                    at = m
                    while at > 0 and code[at - 1] > key:
                        code[at] = code[at - 1]
                        at -= 1
                    code[at] = key
                    m += 1
            code[m:] = big
            for j in range(width):
                if code[j] != best[i, j]:
                    if code[j] < best[i, j]:
                        best[i, :] = code
                    break
    return best


@numba.extending.intrinsic
def _as_pointer(typingctx, address):  # type: ignore[no-untyped-def]
    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.inttoptr(args[0], numba.core.cgutils.voidptr_t)
    return numba.types.voidptr(address), codegen


@njit(cache=True, inline="always")
def borrowed(a):  # type: ignore[no-untyped-def]
    """A view of `a` without a reference count, for hot loops: numba increfs and decrefs an array
    (atomically) at each call that passes it, and a view with no owner skips that. The caller keeps
    `a` alive while the view is in use."""
    return numba.carray(_as_pointer(a.ctypes.data), a.shape, a.dtype)  # type: ignore[call-arg]


@njit(cache=True)
def keep_alive(owners):  # type: ignore[no-untyped-def]
    """A use of `owners` at the end of a kernel, so that numba frees no array that a borrowed view
    of it still reads (numba frees a variable after its last use)."""
    return len(owners)
