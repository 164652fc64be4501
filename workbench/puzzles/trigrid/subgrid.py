"""Bounds from sub-grids: implied "at least m(k) removed" rows for every sub-triangle of side k.

Lemma. Let X be a set of matches whose removal spoils every shape of the grid of side N, and let S
be any set of matches. Every shape made only of matches of S is a shape of the big grid, so X hits
it, and it can only be hit inside S: X & S spoils every shape lying wholly inside S. Hence
|X & S| >= tau(S), the least number of matches of S that spoils those shapes.

For S the matches of a sub-triangle of side k, tau(S) = a(k), the puzzle's own optimum at side k:
- up-pointing, corner (x, y): the translation by (-x, -y) maps S's points onto grid(k)'s points, its
  matches onto grid(k)'s matches, and a triangle or quadrilateral along lattice lines onto one;
- down-pointing, corners (x + k, y), (x, y + k), (x + k, y + k) (it fits when x + y + 2k <= N): the
  point reflection p -> (x + k, y + k) - p does the same (a lattice symmetry: it maps lattice lines
  to lattice lines).
So the shapes wholly inside S are, match for match, those of grid(k) (tested for N <= 7).
Adding sum(S) >= a(k) keeps every hitting set, hence the optimum; each a(k) is read from a proven
row of results/<variant>.csv whose board the independent checker accepts, never from a published
table (`proven_minima`).

For S a strip of width w (the matches outside one corner's sub-triangle of side N - w), tau(S) is
computed here, in the same run: RC2 (python-sat, the `maxsat` backend's engine) proves the minimum
hitting set of the shapes wholly inside S (`strips`). The strip and the corner triangle share no
match, so together they bound the whole: a(N) >= a(N - w) + tau(strip) (tight for enigma144 N = 4,
5 with w = 3: 1 + 12 and 4 + 16).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from .model import Point, grid

RESULTS = Path(__file__).resolve().parents[3] / "results"   # the project's reference record


def triangles(n: int, k: int) -> Iterator[tuple[Point, int, set[Point]]]:
    """Every sub-triangle of side k of grid(n), up and down, as (origin, sign, its points): the map
    p -> sign * (p - origin) takes it onto grid(k) (a translation; for a down one, a point reflection)."""
    for y in range(n - k + 1):
        for x in range(n - k + 1 - y):
            yield (x, y), 1, {(x + i, y + j) for j in range(k + 1) for i in range(k + 1 - j)}
    for y in range(n - 2 * k + 1):
        for x in range(n - 2 * k + 1 - y):
            cx, cy = x + k, y + k
            yield (cx, cy), -1, {(cx - i, cy - j) for j in range(k + 1) for i in range(k + 1 - j)}


def rows(n: int, minima: dict[int, int]) -> list[tuple[tuple[int, ...], int]]:
    """(the matches of a sub-triangle, at least how many of them are removed) for every side k in
    `minima` with 2 <= k < n and a positive minimum."""
    g = grid(n)
    out = []
    for k, least in sorted(minima.items()):
        if 2 <= k < n and least > 0:
            for _, _, points in triangles(n, k):
                out.append((tuple(i for i, (a, b) in enumerate(g.matches) if a in points and b in points), least))
    return out


def strips(n: int, widths: Iterable[int], sets: Sequence[tuple[int, ...]]) -> list[tuple[tuple[int, ...], int]]:
    """(the matches of a strip, the proven minimum inside it) for each width 1 <= w < n and each of
    the 3 corners whose sub-triangle of side n - w the strip leaves out."""
    g = grid(n)
    out = []
    for w in widths:
        if 1 <= w < n:
            for corner in ((0, 0), (w, 0), (0, w)):
                kept = {(corner[0] + i, corner[1] + j) for j in range(n - w + 1) for i in range(n - w + 1 - j)}
                strip = tuple(i for i, (a, b) in enumerate(g.matches) if not (a in kept and b in kept))
                out.append((strip, least_inside(strip, sets)))
    return out


def least_inside(region: tuple[int, ...], sets: Sequence[tuple[int, ...]]) -> int:
    """The fewest elements of `region` that meet every set lying wholly inside it, proven by RC2."""
    from pysat.examples.rc2 import RC2
    from pysat.formula import WCNF

    inside, number = set(region), {e: i + 1 for i, e in enumerate(region)}
    wcnf = WCNF()
    for s in sets:
        if inside.issuperset(s):
            wcnf.append([number[e] for e in s])
    for v in number.values():
        wcnf.append([-v], weight=1)
    with RC2(wcnf, solver="cd195") as rc2:
        if rc2.compute() is None:
            raise ValueError("the sets inside the region cannot all be met")
        return int(rc2.cost)


def proven_minima(variant: str, check: Callable[[int, Any], Any], below: int,
                  results: Path = RESULTS) -> dict[int, int]:
    """k -> a(k) for k < `below`, from results/<variant>.csv: rows that say proven optimal and whose
    board `check` (the puzzle's checker) accepts with exactly that many matches removed."""
    found: dict[int, int] = {}
    for k, value, board in _proven_rows(variant, results):
        if k < below and k not in found:
            verdict = check(k, board)
            if verdict.ok and verdict.objective == value:
                found[k] = value
    return found


@cache
def _proven_rows(variant: str, results: Path) -> tuple[tuple[int, int, Any], ...]:
    from ...tables import Record, read_records

    return tuple((r.n, r.objective, r.solution) for r in read_records(results / f"{variant}.csv")
                 if isinstance(r, Record) and r.proved and r.n is not None and isinstance(r.objective, int))
