"""Bit tricks the native searches share, compiled by numba and usable from other compiled code."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

Int = int | np.integer          # what compiled code takes as an integer: a Python or a numpy one


def _counting(name: str, emit: Callable[[ir.IRBuilder, ir.Value], ir.Value]) -> Any:
    """An intrinsic that takes any numba integer to an int64 by one LLVM bit-counting instruction."""
    def typer(typingctx, x):  # type: ignore[no-untyped-def]
        if not isinstance(x, types.Integer):
            return None

        def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
            count = emit(builder, args[0])
            if x.bitwidth < 64:  # type: ignore[attr-defined]   # numba's Integer has it; its stubs do not
                return builder.zext(count, ir.IntType(64))
            return count

        return types.int64(x), codegen

    typer.__name__ = typer.__qualname__ = name
    return intrinsic(typer)


_ctpop = _counting("_ctpop", lambda builder, x: builder.ctpop(x))          # one popcnt instruction
_cttz = _counting("_cttz", lambda builder, x: builder.cttz(x, ir.Constant(ir.IntType(1), 1)))   # tzcnt; x != 0


@njit(cache=True, inline="always")
def popcount(x: Int) -> int:
    """The number of set bits of a non-negative integer (any numba integer type)."""
    return _ctpop(x)  # type: ignore[call-arg]


@njit(cache=True, inline="always")
def lowest_bit(x: Int) -> int:
    """The index of the lowest set bit of a nonzero integer."""
    return _cttz(x)  # type: ignore[call-arg]


@njit(cache=True, inline="always")
def low_mask(k: int) -> np.uint64:
    """The word with the k lowest bits set (0 <= k <= 63)."""
    return (np.uint64(1) << np.uint64(k)) - np.uint64(1)


@njit(cache=True)
def reverse(x: Int, width: int) -> Int:
    """The lowest `width` bits of x in the opposite order (a row mask mirrored left-right)."""
    y = 0
    for b in range(width):
        if (x >> b) & 1:
            y |= 1 << (width - 1 - b)
    return y
