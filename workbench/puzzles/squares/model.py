"""Matchstick squares (OEIS A294249): the geometry and the solver-neutral models.

The board is a side x side grid of unit matches, side = n + 2*margin; the largest square sits in the
middle, so `margin` is how far the smaller squares may stray outside it (0 = Chaffin's assumption that
everything lies inside the largest square). Points are (x, y) with y growing downwards. A match is
("h", x, y) from (x, y) to (x+1, y) or ("v", x, y) from (x, y) to (x, y+1).

Symmetry breaking (exact, also with a margin): translations are removed by fixing the largest square at
(margin, margin); the eight symmetries of the largest square (which map the board onto itself) are
removed by putting the second-largest square's top-left corner at x <= y <= margin, i.e. its centre in
one octant around the largest square's centre.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from ...models.core import Built, LinearModel, MaxSatModel

Match = tuple[str, int, int]


@dataclass(frozen=True)
class Placement:
    size: int
    x: int
    y: int

    @property
    def on_diagonal(self) -> bool:
        return self.x == self.y


def square_matches(size: int, x: int, y: int) -> list[Match]:
    """The 4*size matches of the square with top-left corner (x, y)."""
    out: list[Match] = []
    for i in range(size):
        out += [("h", x + i, y), ("h", x + i, y + size), ("v", x, y + i), ("v", x + size, y + i)]
    return out


@dataclass
class Grid:
    n: int
    margin: int = 0
    matches: list[Match] = field(init=False)
    index: dict[Match, int] = field(init=False)

    def __post_init__(self) -> None:
        side = self.side
        self.matches = [("h", x, y) for y in range(side + 1) for x in range(side)]
        self.matches += [("v", x, y) for x in range(side + 1) for y in range(side)]
        self.index = {m: i for i, m in enumerate(self.matches)}

    @property
    def side(self) -> int:
        return self.n + 2 * self.margin

    def placements(self, size: int) -> list[Placement]:
        """Every position of a square of this size, after the symmetry breaking of the two largest."""
        free = range(self.side - size + 1)
        if size == self.n:
            return [Placement(size, self.margin, self.margin)]
        if size == self.n - 1:
            return [Placement(size, x, y) for y in free for x in free if x <= y <= self.margin]
        return [Placement(size, x, y) for y in free for x in free]

    @cached_property
    def all_placements(self) -> list[Placement]:
        """Largest sizes first: the order every search and model uses."""
        return [p for s in range(self.n, 0, -1) for p in self.placements(s)]

    def match_ids(self, p: Placement) -> list[int]:
        return [self.index[m] for m in square_matches(p.size, p.x, p.y)]


# -- models -------------------------------------------------------------------------------

FORMULATIONS = {
    "strong": "0-1 linear; placement of size s covering match m -> x_m, summed over s's placements "
              "(one row per match and size: the tightest LP)",
    "pairwise": "0-1 linear; one row p <= x_m per placement and match (same LP bound, many more rows)",
    "aggregated": "0-1 linear; 4s*p <= sum of the placement's matches (weak big-M linking, few rows)",
    "maxsat": "weighted partial MaxSAT: hard p -> x_m and one placement per size, soft not x_m",
}


def linear_model(n: int, margin: int = 0, formulation: str = "strong") -> LinearModel:
    """Minimise the matches used so that every size has a placement whose matches are all present."""
    g = Grid(n, margin)
    m = LinearModel(name=f"squares_n{n}_m{margin}_{formulation}")
    for kind, x, y in g.matches:
        m.add_var(f"{kind}_{x}_{y}")
    by_size: dict[int, list[tuple[int, Placement]]] = {}
    for p in g.all_placements:
        by_size.setdefault(p.size, []).append((m.add_var(f"sq{p.size}_{p.x}_{p.y}"), p))
    for s, ps in by_size.items():
        m.add_row([(v, 1.0) for v, _ in ps], lo=1, hi=1, name=f"one_{s}")
        if formulation == "strong":
            cover: dict[int, list[int]] = {}
            for v, p in ps:
                for e in g.match_ids(p):
                    cover.setdefault(e, []).append(v)
            for e, vs in cover.items():
                m.add_row([(v, 1.0) for v in vs] + [(e, -1.0)], hi=0, name=f"link_{s}_{e}")
        elif formulation == "pairwise":
            for v, p in ps:
                for e in g.match_ids(p):
                    m.add_row([(v, 1.0), (e, -1.0)], hi=0)
        elif formulation == "aggregated":
            for v, p in ps:
                m.add_row([(e, 1.0) for e in g.match_ids(p)] + [(v, -4.0 * s)], lo=0)
        else:
            raise ValueError(f"unknown linear formulation {formulation!r}")
    m.objective = [(e, 1.0) for e in range(len(g.matches))]
    m.project = list(range(len(g.matches)))
    return m


def maxsat_model(n: int, margin: int = 0) -> MaxSatModel:
    """Match variables 1..M first (decode_vars), then one variable per placement."""
    g = Grid(n, margin)
    n_match = len(g.matches)
    w = MaxSatModel(n_vars=n_match + len(g.all_placements), decode_vars=n_match,
                    name=f"squares_n{n}_m{margin}_maxsat")
    by_size: dict[int, list[int]] = {}
    for i, p in enumerate(g.all_placements):
        v = n_match + 1 + i
        by_size.setdefault(p.size, []).append(v)
        w.hard += [[-v, e + 1] for e in g.match_ids(p)]
    # at least one placement per size is enough: extra placements never lower the cost
    w.hard += list(by_size.values())
    w.soft = [([-(e + 1)], 1) for e in range(n_match)]
    return w


def build(n: int, margin: int = 0, formulation: str = "strong") -> Built:
    """The model of this formulation, with its decoder: the matches on, and (linear models) the
    placement chosen for each size, which the drawings label."""
    model: LinearModel | MaxSatModel
    model = maxsat_model(n, margin) if formulation == "maxsat" else linear_model(n, margin, formulation)
    g = Grid(n, margin)
    placements = g.all_placements if isinstance(model, LinearModel) else []
    first_placement = len(g.matches)       # placement variables follow the match variables

    def decode(values: Any) -> dict[str, Any]:
        on = [i for i, v in enumerate(values) if round(v) == 1]
        matches = sorted(g.matches[i] for i in on if i < first_placement)
        chosen = [placements[i - first_placement] for i in on if 0 <= i - first_placement < len(placements)]
        return {"n": n, "margin": margin, "matches": [list(m) for m in matches],
                "squares": [[p.size, p.x, p.y] for p in chosen]}

    return Built(model, decode)
