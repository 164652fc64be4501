"""The triangular-grid puzzles: shapes, checker, published answers, drawings."""
import random

import pytest

from workbench import pipeline
from workbench.puzzles import get
from workbench.puzzles.trigrid.check import all_matches, surviving
from workbench.puzzles.trigrid.model import grid
from workbench.solvers.base import Options, Status


def a002717(n):     # triangles: published closed form
    return n * (n + 2) * (2 * n + 1) // 8


def a204185(n):     # quadrilaterals: published closed form
    return (3 - 3 * (-1) ** n - 16 * n - 16 * n * n + 16 * n ** 3 + 10 * n ** 4) // 32


@pytest.mark.parametrize("n", range(1, 13))
def test_shape_counts_match_oeis(n):
    g = grid(n)
    assert len(g.matches) == 3 * n * (n + 1) // 2
    assert len(g.shapes("triangle")) == a002717(n)
    assert len(g.shapes("quad")) == a204185(n)
    independent = surviving(n, all_matches(n), ("triangle", "quad"))
    assert len(independent["triangle"]) == a002717(n)
    assert len(independent["quad"]) == a204185(n)


def _boundary(corners):
    """The lattice points on a polygon's sides, its corners in cycle order."""
    from math import gcd
    points = set()
    for (x, y), (u, v) in zip(corners, corners[1:] + corners[:1]):
        steps = gcd(u - x, v - y)
        points |= {(x + i * (u - x) // steps, y + i * (v - y) // steps) for i in range(steps)}
    return frozenset(points)


@pytest.mark.parametrize("n", range(1, 9))
def test_the_generator_traces_the_checkers_shapes(n):
    """The same shapes, not only as many: each traced once from its least corner (model.py), and
    each found by the checker from the matches present."""
    g = grid(n)
    independent = surviving(n, all_matches(n), ("triangle", "quad"))
    for kind in ("triangle", "quad"):
        traced = {frozenset(p for m in shape for p in g.matches[m]) for shape in g.shapes(kind)}
        assert len(traced) == len(g.shapes(kind))
        assert traced == {_boundary(list(corners)) for corners in independent[kind]}


@pytest.mark.parametrize("puzzle,n,expected", [
    ("enigma144", 1, 1), ("enigma144", 2, 4), ("enigma144", 3, 8), ("enigma144", 4, 13),
    ("enigma144", 5, 20), ("enigma144", 6, 29), ("enigma82", 6, 20), ("triangles", 6, 21)])
def test_published_minima(puzzle, n, expected):
    run = pipeline.solve(pipeline.plan(puzzle, n, "maxsat"), Options(time_limit=60))
    assert run.result.status == Status.OPTIMAL
    assert run.value == expected
    assert run.verified
    assert run.match == "yes" or run.published is None


def test_checker_rejects_corrupted_solutions():
    puzzle = get("enigma144")
    run = pipeline.solve(pipeline.plan("enigma144", 5, "maxsat"), Options(time_limit=60))
    good = run.result.solution
    assert puzzle.check(5, good, {}).ok
    rng = random.Random(7)
    for _ in range(10):      # put one removed match back: some shape must survive
        broken = list(good)
        broken.pop(rng.randrange(len(broken)))
        verdict = puzzle.check(5, broken, {})
        assert not verdict.ok and "survive" in verdict.message
    assert not puzzle.check(5, good + [[[0, 0], [3, 3]]], {}).ok          # not a match of the grid
    assert not puzzle.check(5, good + [good[0]], {}).ok                    # listed twice
    assert not puzzle.check(5, "nonsense", {}).ok
    assert not puzzle.check(5, [], {}).ok


def test_drawing_marks_removed_matches():
    puzzle = get("enigma144")
    picture = puzzle.render(2, [[[0, 0], [1, 0]]], {})
    assert picture.count("•") == 6
    assert " · " in picture.splitlines()[-1]          # the removed bottom-left match
    assert picture.count("───") == 3 - 1               # the other horizontal matches remain


def test_png_drawing(tmp_path):
    puzzle = get("enigma144")
    path = tmp_path / "grid.png"
    puzzle.png(3, [[[0, 0], [1, 0]]], str(path), {})
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("n", range(1, 8))
def test_symmetries_map_shapes_to_shapes(n):
    """The premise of every symmetry-breaking constraint: the grid's 6 symmetries keep the puzzles."""
    g = grid(n)
    perms = g.symmetries()
    assert len({tuple(p) for p in perms} | {tuple(range(len(g.matches)))}) == (6 if n > 0 else 1)
    for kind in ("triangle", "quad"):
        shapes = set(g.shapes(kind))
        for p in perms:
            assert {tuple(sorted(p[e] for e in s)) for s in shapes} == shapes


@pytest.mark.parametrize("puzzle", ["enigma144", "enigma82", "triangles"])
@pytest.mark.parametrize("n", range(1, 7))
def test_lex_leader_keeps_the_optimum(puzzle, n):
    values = {}
    runs = [("plain", "maxsat"), ("lexleader", "maxsat"), ("plain", "maxsat:cd195+lex"),
            ("plain", "maxsat:cd195+lexrev"), ("plain", "sat"), ("plain", "sat:cd195+lexrev")] + \
        ([("lexleader", "highs")] if n <= 4 else [])
    for formulation, solver in runs:
        run = pipeline.solve(pipeline.plan(puzzle, n, solver, formulation), Options(time_limit=60))
        assert run.result.status == Status.OPTIMAL and run.verified, (formulation, solver)
        values[formulation, solver] = run.value
    assert len(set(values.values())) == 1, values
