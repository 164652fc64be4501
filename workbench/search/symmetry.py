"""The 8 symmetries of the square (rotations and reflections) and boards up to them.

Symmetry o (0..7) acts on an offset (dr, dc) from a centre: bit 0 swaps the axes, then bits 1 and 2
negate the row and the column. `transform` takes numbers or numpy arrays alike; compiled kernels
call its compiled form (compiled.transform). A board is a list of [row, col, value] cells. This
module loads no numba.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

import numpy as np

T = TypeVar("T", int, np.ndarray)

SYMMETRIES = range(8)
_FAR = 1 << 20                      # beyond any board: where the missing cells of a batch are put
SHIFT = 1 << 10                    # cell codes are (row * 1024 + col) * 1024 + value


def transform(o: int, dr: T, dc: T) -> tuple[T, T]:
    """The image of offset (dr, dc) under symmetry o."""
    if o & 1:
        dr, dc = dc, dr
    if o & 2:
        dr = -dr
    if o & 4:
        dc = -dc
    return dr, dc


def at_origin(board: Sequence[Sequence[int]]) -> list[list[int]]:
    """The board moved so that its top-left used cell is at (0, 0), cells in order of value."""
    r0 = min(r for r, _, _ in board)
    c0 = min(c for _, c, _ in board)
    return sorted(([int(r - r0), int(c - c0), int(v)] for r, c, v in board), key=lambda t: t[2])


def canonical_codes(rows: np.ndarray, cols: np.ndarray, values: np.ndarray,
                    valid: np.ndarray) -> np.ndarray:
    """For a batch of boards (one a row; `valid` marks the cells in use), the smallest over the 8
    symmetries of the board's sorted cell codes once moved to the origin: two boards are images of
    each other exactly when their rows are equal. Missing cells sort last."""
    best = None
    for o in SYMMETRIES:
        r, c = transform(o, rows, cols)
        r = np.where(valid, r, _FAR)
        c = np.where(valid, c, _FAR)
        r = r - r.min(axis=1, keepdims=True)
        c = c - c.min(axis=1, keepdims=True)
        code = np.where(valid, (r * SHIFT + c) * SHIFT + values, np.iinfo(np.int64).max)
        code.sort(axis=1)
        if best is None:
            best = code
            continue
        diff = code != best
        first = diff.argmax(axis=1)
        at = np.arange(len(code))
        less = diff.any(axis=1) & (code[at, first] < best[at, first])
        best[less] = code[less]
    assert best is not None
    return best


def canonical(board: Sequence[Sequence[int]]) -> list[list[int]]:
    """The representative of the board's class under the 8 symmetries and translations."""
    cells = np.array(board, dtype=np.int64).reshape(1, -1, 3)
    code = canonical_codes(cells[..., 0], cells[..., 1], cells[..., 2], np.ones(cells.shape[:2], bool))[0]
    return at_origin([[int(k) // SHIFT // SHIFT, int(k) // SHIFT % SHIFT, int(k) % SHIFT] for k in code])
