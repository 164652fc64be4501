"""What the depth-first search (search.py) and the beam (beam.py) of matchstick squares share: the
placements as flat arrays, and the two compiled board operations on them.

A board is one 64-bit word per row line and one per column line (bit i = the match at offset i is
present), so a placement is its corner plus the mask of its side's s matches: laying it on a board
is four ORs and the matches it adds are four popcounts.
"""
from __future__ import annotations

from collections.abc import Callable
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


def _on_lattice(n: int, margin: int, spacing: int) -> Callable[[Placement], bool]:
    """Whether a placement's corner lies a multiple of `spacing` from the largest square's near or
    far side, in both directions (ladder-type solutions stagger groups of squares that way)."""
    def ok(p: Placement) -> bool:
        return all((c - margin) % spacing == 0 or (n + margin - c - p.size) % spacing == 0
                   for c in (p.x, p.y))
    return ok


@dataclass
class Placements:
    """The flat placement arrays of one search, depth d holding size n - d."""

    grid: Grid
    items: list[Placement]
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
        g = Grid(n, margin)
        if g.side > 63:
            raise ValueError("the native search handles boards up to 63 matches wide")
        items: list[Placement] = []
        starts, ends = [], []
        on_lattice = _on_lattice(n, margin, lattice[0]) if lattice else None
        lattice_above = lattice[1] if lattice else n
        for s in range(n, 0, -1):
            ps = [fixed[s]] if fixed and s in fixed else g.placements(s)
            if diagonal_above is not None and s > diagonal_above:
                ps = [p for p in ps if p.on_diagonal]
            if on_lattice and s > lattice_above and runs_above is None:
                ps = [p for p in ps if on_lattice(p)]
            starts.append(len(items))
            items += ps
            ends.append(len(items))

        def arr(f: Callable[[Placement], object], t: type = np.int64) -> np.ndarray:
            return np.array([f(p) for p in items], t)

        def leads(p: Placement) -> bool:
            return not on_lattice or p.size <= lattice_above or on_lattice(p)

        sizes = np.arange(n, 0, -1)                # the size at each depth
        prun = np.zeros(n, np.bool_)               # the largest square never follows
        if runs_above is not None:
            prun[1:] = sizes[1:] > runs_above
        return cls(g, items, arr(lambda p: p.x), arr(lambda p: p.y), arr(lambda p: p.size),
                   arr(lambda p: p.on_diagonal and not fixed, np.bool_), arr(leads, np.bool_),
                   np.array(starts, np.int64), np.array(ends, np.int64), prun)

    @property
    def arrays(self) -> PlacementArrays:
        """The arrays as the kernels take them (PlacementArrays)."""
        return (self.px, self.py, self.ps, self.pdiag, self.plead, self.pstart, self.pend, self.prun,
                self.grid.side + 1)

    def decode(self, path: np.ndarray) -> list[Placement]:
        return [self.items[k] for k in path if k >= 0]
