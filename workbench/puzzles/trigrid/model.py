"""The triangular matchstick grid of side N (Enigma 82 / Enigma 144).

Points (x, y) with x, y >= 0 and x + y <= N, in lattice coordinates where the unit vectors
(1, 0) and (0, 1) meet at 60 degrees. Shapes are traced as closed walks that turn left by 60 or
120 degrees at each corner: 3 turns of 120 make the triangles, two of each the quadrilaterals
(no simple quadrilateral on this lattice has a reflex corner, so that is all of them).
"""
from __future__ import annotations

from functools import lru_cache
from itertools import permutations

Point = tuple[int, int]
# the six lattice directions in counter-clockwise order (0, 60, 120, ... degrees)
DIRECTIONS: tuple[Point, ...] = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
TURNS: dict[str, list[tuple[int, ...]]] = {"triangle": [(2, 2, 2)], "quad": sorted(set(permutations((1, 1, 2, 2))))}


class Grid:
    def __init__(self, n: int) -> None:
        self.n = n
        self.points = [(x, y) for y in range(n + 1) for x in range(n + 1 - y)]
        self.matches: list[tuple[Point, Point]] = []
        for (x, y) in self.points:
            for dx, dy in DIRECTIONS[:3]:
                q = (x + dx, y + dy)
                if self.inside(q):
                    self.matches.append(((x, y), q))
        self.index: dict[tuple[Point, Point], int] = {}
        for i, (a, b) in enumerate(self.matches):
            self.index[a, b] = self.index[b, a] = i

    def inside(self, p: Point) -> bool:
        return p[0] >= 0 and p[1] >= 0 and p[0] + p[1] <= self.n

    def _walk(self, start: Point, d: int, turns: tuple[int, ...]):
        """Closed left-turning walks from `start` with these exterior turns (in 60-degree steps), as
        their sides (corner, direction, length). Only walks whose other corners all come after `start`
        (by row, then column): a convex shape has one least corner, so each shape is traced once."""
        def extend(p: Point, side: int, d: int, sides: tuple[tuple[Point, int, int], ...]):
            dx, dy = DIRECTIONS[d]
            if side == len(turns) - 1:        # the last side must lead straight back to the start
                ex, ey = start[0] - p[0], start[1] - p[1]
                k = ex // dx if dx else ey // dy
                if k > 0 and (ex, ey) == (k * dx, k * dy):
                    yield sides + ((p, d, k),)
                return
            k = 1
            while self.inside(q := (p[0] + k * dx, p[1] + k * dy)):
                if (q[1], q[0]) > (start[1], start[0]):
                    yield from extend(q, side + 1, (d + turns[side]) % 6, sides + ((p, d, k),))
                k += 1
        yield from extend(start, 0, d, ())

    def _segment(self, p: Point, d: int, k: int) -> list[int]:
        dx, dy = DIRECTIONS[d]
        x, y = p
        return [self.index[(x + i * dx, y + i * dy), (x + (i + 1) * dx, y + (i + 1) * dy)] for i in range(k)]

    def shapes(self, kind: str) -> list[tuple[int, ...]]:
        """Every shape of this kind as the sorted tuple of its match indices."""
        found: set[tuple[int, ...]] = set()
        for p in self.points:
            for d in range(6):
                for turns in TURNS[kind]:
                    for sides in self._walk(p, d, turns):
                        found.add(tuple(sorted(m for side in sides for m in self._segment(*side))))
        return sorted(found)


    def symmetries(self) -> list[list[int]]:
        """The 5 non-identity symmetries of the grid (rotations by 120 degrees, reflections) as
        permutations of the match indices: with z = N - x - y, each permutes the point's
        barycentric coordinates (x, y, z)."""
        perms = []
        for order in sorted(permutations(range(3)))[1:]:
            def image(p: Point, order: tuple[int, ...] = order) -> Point:
                xyz = (p[0], p[1], self.n - p[0] - p[1])
                return xyz[order[0]], xyz[order[1]]
            perms.append([self.index[image(a), image(b)] for a, b in self.matches])
        return perms


@lru_cache(maxsize=16)
def grid(n: int) -> Grid:
    return Grid(n)


def shape_sets(n: int, kinds: tuple[str, ...]) -> list[tuple[int, ...]]:
    """The match sets of every shape of these kinds: the hitting set's sets."""
    return [s for kind in kinds for s in grid(n).shapes(kind)]
