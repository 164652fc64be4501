"""Bit tricks the native searches share, compiled by numba and usable from other compiled code."""
from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

Int = int | np.integer          # what compiled code takes as an integer: a Python or a numpy one


@intrinsic
def _ctpop(typingctx, x):  # type: ignore[no-untyped-def]
    """LLVM's ctpop (one popcnt instruction on the machines we run on), as an int64."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        count = builder.ctpop(args[0])
        if x.bitwidth < 64:  # type: ignore[attr-defined]   # numba's Integer has it; its stubs do not
            return builder.zext(count, ir.IntType(64))
        return count

    return types.int64(x), codegen


@njit(cache=True, inline="always")
def popcount(x: Int) -> int:
    """The number of set bits of a non-negative integer (any numba integer type)."""
    return _ctpop(x)  # type: ignore[call-arg]


@intrinsic
def _cttz(typingctx, x):  # type: ignore[no-untyped-def]
    """LLVM's cttz (one tzcnt instruction), as an int64; x must be nonzero."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        count = builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))
        if x.bitwidth < 64:  # type: ignore[attr-defined]
            return builder.zext(count, ir.IntType(64))
        return count

    return types.int64(x), codegen


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
