"""Enigma 144 / Enigma 82 / triangles only: spoil every shape of the triangular grid of side N
by removing the fewest matches: a minimum hitting set over the shapes' match sets."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...drawing import figure
from ...models.core import Built, HittingSet, lex_leader
from ..base import BenchCase, Formulation, Params, Puzzle, ShowcaseCase
from . import subgrid
from .check import all_matches
from .check import check as check_grid
from .model import grid, shape_sets

N_MAX = 30
# the sub-triangles' sides and the strips' widths whose rows `subgrid` adds (docs/notes/trigrid.md, section 8)
SUBGRID_SIDES, STRIP_WIDTHS = range(2, 5), (3,)
RACERS_ALONE = ("maxsat:cd195+lex", "sat:cd195", "maxsat:cd195")   # auto's first racers, each run alone for comparison
# second computations of the new terms, each by a method the first did not use (docs/notes/trigrid.md, section 7):
# the first were RC2 + Glucose without symmetry breaking (enigma144 N = 11..13, enigma82 N = 7), RC2 + CaDiCaL
# without it (enigma144 N = 14, 15, enigma82 N = 10) and with lex-leader clauses (enigma144 N = 16)
SECOND = "trigrid second computation"
SECONDS_144 = ((11, "maxsat:cd195+lex"), (12, "maxsat:cd195+lex"), (13, "maxsat:cd195+lex"),
               (14, "maxsat:cd195+lex"), (15, "maxsat:cd195+lex"), (16, "maxsat:cd195+lexrev"))
SECONDS_82 = ((7, "scip"), (10, "maxsat:cd195+lex"))
# the frontier, predicted before the runs (docs/notes/trigrid.md, section 4): enigma144 N = 17: 221, 18: 248;
# enigma82 N = 11: 65, 12: 77, 13: 90. `sat` (linear SAT search) is the second method beside RC2 (section 10)
FRONTIER = (("enigma144", 17, "maxsat:cd195+lex"), ("enigma144", 17, "maxsat:cd195+lexrev"),
            ("enigma82", 11, "maxsat:cd195"), ("enigma82", 11, "sat:cd195"),
            ("enigma82", 12, "sat:cd195"), ("enigma82", 12, "sat:cd195+lex"), ("enigma82", 13, "sat:cd195"))
# the frontier with the sub-grid rows (docs/notes/trigrid.md, section 8): (puzzle, N, solver, formulation); not
# enigma82, whose rows (a(2..4) = 2, 5, 9) made RC2 15..25 % slower at N = 8, 9
FRONTIER_SUBGRID = (("enigma144", 17, "maxsat:cd195+lex", "subgrid"),
                    ("enigma144", 17, "maxsat:cd195+lexrev", "subgrid"),
                    ("enigma144", 18, "maxsat:cd195+lexrev", "subgrid"))
SUBGRID = "trigrid sub-grid rows"
# the cubes method (cubes.py) against the whole `sat` run it splits, and its frontier runs (issue 62)
CUBES, CUBES_FRONTIER = "trigrid cubes against sat", "trigrid cubes frontier"
CUBE_CASES = {"enigma144": (7, 10), "enigma82": (7, 8, 9)}   # N = 9: where the seeded split comes to par in conflicts
# a CP backend without an LP relaxation: on `plain` its propagation bounds nothing (N = 5: 20 found, not proven in
# 600 s); the sub-grid rows give it the bound at the root (N = 5 in about a second), so they are its default
GECODE = ("minizinc:gecode",)
# with and without the rows, each against today's fastest single configuration (one core each)
SUBGRID_CASES = {"enigma144": ((13, 14, 15), "maxsat:cd195+lex", (16,)), "enigma82": ((8, 9), "maxsat:cd195", (10,))}


@dataclass(frozen=True)
class TriGridParams(Params):
    """No options: the shapes to spoil are fixed by the puzzle (Enigma 144, Enigma 82, triangles)."""

    shapes: tuple[str, ...] = ("triangle", "quad")


@dataclass(frozen=True)
class QuadParams(TriGridParams):
    shapes: tuple[str, ...] = field(default=("quad",))


@dataclass(frozen=True)
class TriangleParams(TriGridParams):
    shapes: tuple[str, ...] = field(default=("triangle",))


class TriGridPuzzle(Puzzle[TriGridParams]):
    n_min, n_max = 1, N_MAX
    default_solver = "auto"        # no single backend wins on every N (docs/notes/trigrid.md): race them
    formulations = (Formulation("plain", "one covering row per shape: the shape's matches, at least one removed"),
                    Formulation("lexleader", "plain, plus lex-leader clauses for the grid's 6 symmetries"),
                    Formulation("subgrid", "plain, plus the implied rows 'at least a(k) removed' in every "
                                           "sub-triangle of side k and 'at least the proven minimum' in every strip "
                                           "along a side (subgrid.py)", solvers=GECODE),
                    Formulation("cubes", "the `sat` descent, then its refutation split into cubes, each one SAT call, "
                                         "run as journaled tasks (cubes.py)",
                                search="workbench.puzzles.trigrid.cubes:solve", tasks=True))
    Params = TriGridParams
    checker = staticmethod(check_grid)
    showcase_n = ""            # the N of the main job's table: each row in seconds (larger N are bench cases)

    def showcase_cases(self) -> list[ShowcaseCase]:
        return [ShowcaseCase(self.name, self.showcase_n)]

    def generate(self, n: int | None, formulation: str, params: TriGridParams) -> Built:
        assert n is not None
        g = grid(n)
        sets = shape_sets(n, params.shapes)
        names = [f"m{a[0]}_{a[1]}_{b[0]}_{b[1]}" for a, b in g.matches]
        hs = HittingSet(len(g.matches), sets, names=names, name=f"{self.name}_n{n}", symmetries=g.symmetries())
        if formulation == "subgrid":
            minima = subgrid.proven_minima(self.name, lambda k, board: self.check(k, board, params), n)
            hs.at_least = subgrid.rows(n, {k: m for k, m in minima.items() if k in SUBGRID_SIDES}) + \
                subgrid.strips(n, STRIP_WIDTHS, sets)
        model = lex_leader(hs) if formulation == "lexleader" else hs
        return Built(model, lambda values: [[list(a), list(b)] for i, (a, b) in enumerate(g.matches) if values[i]])


    def render(self, n: int | None, solution: Any, params: TriGridParams) -> str:
        assert n is not None
        return draw_ascii(n, solution)

    def png(self, n: int | None, solution: Any, path: str, params: TriGridParams) -> None:
        assert n is not None
        draw_png(n, solution, path, f"{self.title}, N = {n}: {len(solution)} matches removed")

    def bench_cases(self) -> list[BenchCase]:
        if self.name == "triangles":
            return []
        if self.name == "enigma82":
            return [BenchCase(self.name, 8, s, 120.0, label="enigma82 N=8 within 120 s")
                    for s in ("auto", *RACERS_ALONE, "scip", "highs")] + \
                   [BenchCase(self.name, 9, "auto", 600.0, ladder=True, n_stop=N_MAX,
                              label="enigma82 largest N proven in 600 s")] + \
                   [BenchCase(self.name, 1, "sat:cd195", 3600.0, ladder=True, n_stop=12, certify=7200.0,
                              label="enigma82 certified lower bounds")] + \
                   [BenchCase(self.name, n, s, 3600.0, store=True, label=SECOND) for n, s in SECONDS_82] + \
                   self.frontier()
        everyone = ("auto", *RACERS_ALONE, "highs", "cbc", "cpsat", "scip", "minizinc:gecode")
        cases = [BenchCase(self.name, n, s, 60.0, label="enigma144 N=6..10")
                 for s in everyone for n in range(6, 11)]
        cases += [BenchCase(self.name, n, s, 60.0, label="enigma144 auto against its racers")
                  for n in range(11, 14) for s in ("auto", *RACERS_ALONE)]
        cases += [BenchCase(self.name, 1, s, 60.0, ladder=True, n_stop=N_MAX, label="largest N proven in 60 s")
                  for s in everyone]
        cases += [BenchCase(self.name, 1, "auto", 120.0, ladder=True, n_stop=14, label="enigma144 N=1..14 default")]
        cases += [BenchCase(self.name, 14, s, 120.0, label="enigma144 N=14 single racer") for s in RACERS_ALONE]
        cases += [BenchCase(self.name, n, s, 600.0, label="enigma144 N=5..7 in 600 s, the seed's solvers beside")
                  for s in ("glpk", "lpsolve", "highs", "cbc", "cpsat", "scip", "maxsat", "minizinc:gecode")
                  for n in (5, 6, 7)]
        cases += [BenchCase(self.name, n, "minizinc:gecode", 600.0, formulation="plain",
                            label="enigma144 N=5, 6: gecode without its sub-grid rows") for n in (5, 6)]
        cases += [BenchCase(self.name, 15, "auto", 600.0, ladder=True, n_stop=N_MAX,
                            label="enigma144 largest N proven in 600 s")]
        cases += [BenchCase(self.name, 1, "maxsat:cd195+lex", 1200.0, ladder=True, n_stop=15, certify=7200.0,
                            label="enigma144 certified lower bounds")]
        cases += [BenchCase(self.name, n, s, 3600.0, store=True, label=SECOND) for n, s in SECONDS_144]
        return cases + self.frontier()

    def frontier(self) -> list[BenchCase]:
        both, solver, subgrid_only = SUBGRID_CASES[self.name]
        return [BenchCase(p, n, s, 7200.0, store=True, label="trigrid frontier")
                for p, n, s in FRONTIER if p == self.name] + \
               [BenchCase(p, n, s, 10800.0, formulation=f, store=True, label="trigrid frontier, sub-grid rows")
                for p, n, s, f in FRONTIER_SUBGRID if p == self.name] + \
               [BenchCase(self.name, n, solver, 1800.0, formulation=f, label=SUBGRID)
                for n in both for f in ("plain", "subgrid")] + \
               [BenchCase(self.name, n, solver, 1800.0, formulation="subgrid", store=True, label=SUBGRID)
                for n in subgrid_only] + \
               [BenchCase(self.name, n, s, 1800.0, formulation=f, label=CUBES, race=False)
                for n in CUBE_CASES[self.name] for s, f in (("search", "cubes"), ("sat:cd195", None))] + \
               [BenchCase(self.name, n, "search", 36000.0, formulation="cubes", label=CUBES_FRONTIER, race=False)
                for n in {"enigma144": (15, 16), "enigma82": (11, 12)}[self.name]]


class Enigma144(TriGridPuzzle):
    name, title = "enigma144", "Enigma 144: spoil all triangles and quadrilaterals"
    showcase_n = "1..11"


class Enigma82(TriGridPuzzle):
    name, title, Params = "enigma82", "Enigma 82: spoil all quadrilaterals", QuadParams
    showcase_n = "1..7"


class Triangles(TriGridPuzzle):
    name, title, Params = "triangles", "Spoil all triangles", TriangleParams
    showcase_n = "1..10"


# -- drawings -------------------------------------------------------------------------------

def _removed_set(solution: Any) -> set[frozenset]:
    return {frozenset((tuple(a), tuple(b))) for a, b in solution}


def draw_ascii(n: int, solution: Any) -> str:
    """Point rows from the apex down; a removed match is drawn as a dot instead of its stroke."""
    removed = _removed_set(solution)
    width = 4 * n + 1
    rows = [[" "] * width for _ in range(2 * n + 1)]

    def col(p):               # horizontal position of a point: shifted half a unit per row
        return 4 * p[0] + 2 * p[1]

    for (a, b) in map(tuple, all_matches(n)):
        a, b = sorted((a, b), key=lambda p: (p[1], p[0]))
        gone = frozenset((a, b)) in removed
        if a[1] == b[1]:                               # horizontal
            r, c = 2 * (n - a[1]), col(a)
            rows[r][c + 1:c + 4] = list(" · " if gone else "───")
        else:                                          # rising to the right (/) or to the left (\)
            r = 2 * (n - a[1]) - 1
            c = col(a) + (1 if b[0] == a[0] else -1)
            rows[r][c] = "·" if gone else ("/" if b[0] == a[0] else "\\")
    for y in range(n + 1):
        for x in range(n + 1 - y):
            rows[2 * (n - y)][col((x, y))] = "•"
    return "\n".join("".join(r).rstrip() for r in rows)


def draw_png(n: int, solution: Any, path: str, title: str) -> None:
    removed = _removed_set(solution)
    h = 3 ** 0.5 / 2

    def xy(p):
        return p[0] + p[1] / 2, p[1] * h

    with figure(path, (6, 5.5)) as (ax,):
        for m in all_matches(n):
            a, b = tuple(m)
            (x0, y0), (x1, y1) = xy(a), xy(b)
            if m in removed:
                ax.plot([x0, x1], [y0, y1], color="tab:red", lw=1.2, ls=":", alpha=0.8)
            else:
                ax.plot([x0, x1], [y0, y1], color="saddlebrown", lw=3, solid_capstyle="round")
        ax.set_title(title, fontsize=10)
