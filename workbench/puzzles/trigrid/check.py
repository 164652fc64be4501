"""Independent checker for the triangular grid: which shapes survive the remaining matches?

It does not use the generator's walks. It finds, along every lattice line, the runs of intact
matches; two points are joined when one run covers both. A surviving triangle is three joined,
non-collinear points; a surviving quadrilateral is a 4-cycle of joins with no three points
collinear and no two sides crossing.
"""
from __future__ import annotations

from collections import defaultdict
from itertools import combinations
from typing import Any

from ..base import Verdict

Point = tuple[int, int]
Segment = tuple[Point, Point]


def _line_families(n: int) -> list[list[Point]]:
    """All lattice lines of the grid, each as its points in order."""
    lines = []
    for y in range(n + 1):
        lines.append([(x, y) for x in range(n + 1 - y)])
    for x in range(n + 1):
        lines.append([(x, y) for y in range(n + 1 - x)])
    for s in range(n + 1):
        lines.append([(x, s - x) for x in range(s, -1, -1)])
    return lines


def joins(n: int, present: set[frozenset[Point]]) -> dict[Point, set[Point]]:
    """Point -> the points it is joined to by an unbroken straight run of present matches."""
    joined: dict[Point, set[Point]] = defaultdict(set)
    for line in _line_families(n):
        run = [line[0]]
        for p, q in zip(line, line[1:]):
            if frozenset((p, q)) in present:
                run.append(q)
                continue
            _join_run(run, joined)
            run = [q]
        _join_run(run, joined)
    return joined


def _join_run(run: list[Point], joined: dict[Point, set[Point]]) -> None:
    for a, b in combinations(run, 2):
        joined[a].add(b)
        joined[b].add(a)


def _cross(o: Point, a: Point, b: Point) -> int:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _collinear(a: Point, b: Point, c: Point) -> bool:
    return _cross(a, b, c) == 0


def _segments_cross(p: Point, q: Point, r: Point, s: Point) -> bool:
    return (_cross(p, q, r) > 0) != (_cross(p, q, s) > 0) and (_cross(r, s, p) > 0) != (_cross(r, s, q) > 0)


def surviving(n: int, present: set[frozenset[Point]], kinds: tuple[str, ...]) -> dict[str, list[tuple[Point, ...]]]:
    """Every surviving shape of the requested kinds ('triangle', 'quad'), as its corner points."""
    joined = joins(n, present)
    found: dict[str, list[tuple[Point, ...]]] = {k: [] for k in kinds}
    if "triangle" in kinds:
        for a in sorted(joined):
            for b, c in combinations(sorted(q for q in joined[a] if q > a), 2):
                if c in joined[b] and not _collinear(a, b, c):
                    found["triangle"].append((a, b, c))
    if "quad" in kinds:
        seen = set()
        for a in sorted(joined):
            for b in joined[a]:
                for c in joined[b]:
                    if c == a or _collinear(a, b, c):
                        continue
                    for d in joined[c] & joined[a]:
                        corners = (a, b, c, d)
                        key = frozenset(corners)
                        if len(key) < 4 or key in seen:
                            continue
                        if any(_collinear(*t) for t in combinations(corners, 3)):
                            continue
                        if _segments_cross(a, b, c, d) or _segments_cross(b, c, d, a):
                            continue
                        seen.add(key)
                        found["quad"].append(corners)
    return found


def all_matches(n: int) -> set[frozenset[Point]]:
    pts = [(x, y) for y in range(n + 1) for x in range(n + 1 - y)]
    inside = set(pts)
    return {frozenset((p, (p[0] + dx, p[1] + dy))) for p in pts for dx, dy in ((1, 0), (0, 1), (-1, 1))
            if (p[0] + dx, p[1] + dy) in inside}


def _is_match(item: Any) -> bool:
    """[[x, y], [x, y]] with integer coordinates."""
    return isinstance(item, list) and len(item) == 2 and all(
        isinstance(p, list) and len(p) == 2 and all(isinstance(c, int) and not isinstance(c, bool) for c in p)
        for p in item)


def check(n: int | None, solution: Any, params: Any) -> Verdict:
    """The removed matches (a list of [[x, y], [x, y]]) must leave no shape of params.shapes; the
    objective is the number removed."""
    if n is None:
        return Verdict(False, "the grid needs n")
    everything = all_matches(n)
    if not isinstance(solution, list) or not all(map(_is_match, solution)):
        return Verdict(False, "malformed solution: expected a list of [[x, y], [x, y]] matches")
    removed = {frozenset((tuple(a), tuple(b))) for a, b in solution}
    strangers = removed - everything
    if strangers:
        return Verdict(False, f"{len(strangers)} removed match(es) are not matches of the grid")
    if len(removed) != len(solution):
        return Verdict(False, "a match is listed twice")
    left = surviving(n, everything - removed, params.shapes)
    alive = {k: v for k, v in left.items() if v}
    if alive:
        kind, shapes = next(iter(alive.items()))
        return Verdict(False, f"{sum(map(len, alive.values()))} shape(s) survive, e.g. the {kind} "
                              f"with corners {shapes[0]}", len(removed))
    what = " and ".join({"triangle": "triangles", "quad": "quadrilaterals"}[k] for k in params.shapes)
    return Verdict(True, f"all {what} spoiled by {len(removed)} removed matches", len(removed))
