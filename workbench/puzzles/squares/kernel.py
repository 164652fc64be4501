"""What the depth-first search (search.py) and the beam (beam.py) of matchstick squares share: the
placements as flat arrays, and the two compiled board operations on them.

A board is one 64-bit word per row line and one per column line (bit i = the match at offset i is
present), so a placement is its corner plus the mask of its side's s matches: laying it on a board
is four ORs and the matches it adds are four popcounts.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
from numba import njit

from ...search.bits import low_mask, popcount
from .model import Grid, Placement

# The placement arrays as the kernels take them (one tuple): px, py, ps (corner and size of each
# placement), pdiag (on the main diagonal), plead (may lead a run), pstart, pend (the placements
# of depth d are pstart[d]..pend[d]-1), prun (depth d follows the runs rule), lines (words a side)
PlacementArrays = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                        np.ndarray, int]


@njit(cache=True, inline="always")
def added(rows: np.ndarray, cols: np.ndarray, x: int, y: int, s: int) -> int:
    """The matches the square of size s at (x, y) adds to the board."""
    mask = low_mask(s)
    rm, cm = mask << np.uint64(x), mask << np.uint64(y)
    return (popcount(rm & ~rows[y]) + popcount(rm & ~rows[y + s])
            + popcount(cm & ~cols[x]) + popcount(cm & ~cols[x + s]))


@njit(cache=True, inline="always")
def put(rows: np.ndarray, cols: np.ndarray, x: int, y: int, s: int) -> None:
    """Lay the square's four sides on the board."""
    mask = low_mask(s)
    rows[y] |= mask << np.uint64(x)
    rows[y + s] |= mask << np.uint64(x)
    cols[x] |= mask << np.uint64(y)
    cols[x + s] |= mask << np.uint64(y)


def _on_lattice(n: int, margin: int, spacing: int, x: np.ndarray, y: np.ndarray, size: int | np.ndarray) -> np.ndarray:
    """Whether each placement's corner lies a multiple of `spacing` from the largest square's near or
    far side, in both directions (ladder-type solutions stagger groups of squares that way)."""
    def ok(c: np.ndarray) -> np.ndarray:
        return ((c - margin) % spacing == 0) | ((n + margin - c - size) % spacing == 0)
    return ok(x) & ok(y)


@functools.lru_cache(maxsize=8)
def _corners(n: int, margin: int) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
    """The corners (x, y) of every placement of each size n..1, in Grid.placements' order. Built once
    a board: the heuristics build many restricted placement sets, some within a tenth of a second."""
    g = Grid(n, margin)
    out = []
    for s in range(n, 0, -1):
        ps = g.placements(s)
        x, y = np.array([p.x for p in ps], np.int64), np.array([p.y for p in ps], np.int64)
        x.flags.writeable = y.flags.writeable = False
        out.append((x, y))
    return tuple(out)


@dataclass
class Placements:
    """The flat placement arrays of one search, depth d holding size n - d."""

    side: int
    px: np.ndarray
    py: np.ndarray
    ps: np.ndarray
    pdiag: np.ndarray
    plead: np.ndarray
    pstart: np.ndarray
    pend: np.ndarray
    prun: np.ndarray

    @classmethod
    def build(cls, n: int, margin: int = 0, diagonal_above: int | None = None,
              lattice: tuple[int, int] | None = None, runs_above: int | None = None,
              fixed: dict[int, Placement] | None = None) -> Placements:
        """diagonal_above: sizes larger than this are only placed on the main diagonal;
        lattice (spacing, above): sizes larger than `above` only on that lattice (_on_lattice);
        runs_above: the sizes larger than this come in runs of two or more consecutive sizes, each
        square sharing a corner with the one a size larger (ladder solutions: n = 36's 629 is pairs
        and one run of three from the largest square down); the lattice then applies only to the
        squares leading a run;
        fixed: sizes held at the given placement. Mirror images are then no longer skipped, since
        a fixed square off the diagonal may follow a symmetric start."""
        side = n + 2 * margin
        if side > 63:
            raise ValueError("the native search handles boards up to 63 matches wide")
        xs, ys, ss = [], [], []
        for (x, y), s in zip(_corners(n, margin), range(n, 0, -1), strict=True):
            if fixed and s in fixed:
                x, y = np.array([fixed[s].x], np.int64), np.array([fixed[s].y], np.int64)
            keep = np.ones(len(x), np.bool_)
            if diagonal_above is not None and s > diagonal_above:
                keep &= x == y
            if lattice and s > lattice[1] and runs_above is None:
                keep &= _on_lattice(n, margin, lattice[0], x, y, s)
            xs.append(x[keep])
            ys.append(y[keep])
            ss.append(np.full(int(keep.sum()), s, np.int64))
        ends = np.cumsum([len(x) for x in xs], dtype=np.int64)
        starts = ends - [len(x) for x in xs]
        px, py, ps = np.concatenate(xs), np.concatenate(ys), np.concatenate(ss)
        plead = np.ones(len(px), np.bool_)
        if lattice:
            plead = (ps <= lattice[1]) | _on_lattice(n, margin, lattice[0], px, py, ps)
        sizes = np.arange(n, 0, -1)                # the size at each depth
        prun = np.zeros(n, np.bool_)               # the largest square never follows
        if runs_above is not None:
            prun[1:] = sizes[1:] > runs_above
        return cls(side, px, py, ps, (px == py) & (not fixed), plead, starts, ends, prun)

    @property
    def arrays(self) -> PlacementArrays:
        """The arrays as the kernels take them (PlacementArrays)."""
        return (self.px, self.py, self.ps, self.pdiag, self.plead, self.pstart, self.pend, self.prun,
                self.side + 1)

    def decode(self, path: np.ndarray) -> list[Placement]:
        return [Placement(int(self.ps[k]), int(self.px[k]), int(self.py[k])) for k in path if k >= 0]


@functools.lru_cache(maxsize=4)
def exact_placements(n: int, margin: int = 0) -> Placements:
    """Every placement of the board: built once a process (a Dask worker gets only (n, margin))."""
    return Placements.build(n, margin)
