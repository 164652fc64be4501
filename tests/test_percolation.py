"""Minimal percolating sets: the checker against a direct simulation and brute force, the native
counter against the published series and its own enumeration, and the CP model on the counting
backends agreeing with both."""
from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys
from collections import deque

import pytest
from conftest import published_values

from workbench.models.core import OPTIMISE, Count
from workbench.pipeline import plan
from workbench.pipeline import solve as pipeline_solve
from workbench.puzzles.percolation.check import percolates
from workbench.puzzles.percolation.puzzle import PercolationPuzzle
from workbench.puzzles.percolation.transfer import count_sets, enumerate_count, example_sets
from workbench.puzzles.percolation.transfer import solve as native_solve
from workbench.solvers.base import Options, Status
from workbench.solvers.search import result

A146971 = published_values("percolation")
SCHROEDER = published_values("percolation-permutation")
PUZZLE = PercolationPuzzle()


def queue_simulation(n: int, cells) -> bool:
    """A second, differently written filling process: a work queue of cells whose filled-neighbour
    count reaches two."""
    filled = set(cells)
    hits = {}
    todo = deque(filled)
    while todo:
        r, c = todo.popleft()
        for cell in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= cell[0] < n and 0 <= cell[1] < n and cell not in filled:
                hits[cell] = hits.get(cell, 0) + 1
                if hits[cell] == 2:
                    filled.add(cell)
                    todo.append(cell)
    return len(filled) == n * n


def test_checker_agrees_with_a_queue_simulation_on_random_sets():
    rng = random.Random(5)
    for _ in range(3000):
        n = rng.randint(1, 8)
        k = rng.randint(n - 1, n + 2)
        cells = rng.sample([(r, c) for r in range(n) for c in range(n)], min(max(k, 0), n * n))
        assert percolates(n, cells) == queue_simulation(n, cells), (n, cells)


def test_checker_by_brute_force_reproduces_small_terms():
    for n in range(1, 5):
        board = [(r, c) for r in range(n) for c in range(n)]
        assert sum(percolates(n, s) for s in itertools.combinations(board, n)) == A146971[n]


def test_checker_verdicts():
    diagonal = {"n": 4, "cells": [[i, i] for i in range(4)]}
    assert PUZZLE.check(4, diagonal, {}).ok
    assert PUZZLE.check(4, diagonal, {"permutation": True}).ok
    assert not PUZZLE.check(4, {"n": 4, "cells": [[0, 0], [1, 1], [2, 2], [2, 3]]}, {}).ok   # stops
    assert not PUZZLE.check(4, {"n": 4, "cells": [[0, 0], [1, 1], [2, 2]]}, {}).ok          # too few
    assert not PUZZLE.check(4, {"n": 4, "cells": [[0, 0], [0, 0], [2, 2], [3, 3]]}, {}).ok  # repeat
    assert not PUZZLE.check(4, {"n": 4, "cells": [[0, 0], [1, 1], [2, 2], [3, 4]]}, {}).ok  # outside
    assert not PUZZLE.check(4, {"cells": "x"}, {}).ok
    # percolates, but two cells share row 0: not a permutation
    zigzag = {"n": 3, "cells": [[0, 0], [0, 2], [2, 1]]}
    assert PUZZLE.check(3, zigzag, {}).ok and not PUZZLE.check(3, zigzag, {"permutation": True}).ok


def test_native_counter_reproduces_published_terms():
    """n <= 7 here (a fraction of a second once compiled); a(8) and up are bench cases."""
    assert [count_sets(n) for n in range(1, 8)] == [A146971[n] for n in range(1, 8)]
    assert [count_sets(n, permutation=True) for n in range(1, 10)] == [SCHROEDER[n] for n in range(1, 10)]
    assert count_sets(7, walk=0) == count_sets(7, walk=4) == A146971[7]


def test_native_counter_agrees_with_plain_enumeration():
    for n in range(1, 7):
        assert enumerate_count(n) == count_sets(n, threads=1)
        assert enumerate_count(n, permutation=True) == count_sets(n, permutation=True, threads=1)


def test_native_solve_counts_and_shows_checked_examples():
    r = result(native_solve(6, PUZZLE.params(), Options(time_limit=60), lambda inc: None, Count(3)), Count(3))
    assert r.status == Status.COMPLETE and r.count == A146971[6]
    assert len(r.examples) == 3 and len({json.dumps(s) for s in r.examples}) == 3
    assert all(PUZZLE.check(6, s, {}).ok for s in r.examples)
    perm = example_sets(7, 4, permutation=True, seed=2)
    assert len(perm) == 4 and all(PUZZLE.check(7, s, {"permutation": True}).ok for s in perm)
    one = result(native_solve(9, PUZZLE.params(), Options(time_limit=60), lambda inc: None), OPTIMISE)
    assert one.status == Status.OPTIMAL and PUZZLE.check(9, one.solution, {}).ok


def test_native_time_limit_gives_unknown_not_a_count():
    r = result(native_solve(11, PUZZLE.params(), Options(time_limit=0.5), lambda inc: None, Count()), Count())
    assert r.status == Status.UNKNOWN and r.count is None


@pytest.mark.parametrize("solver", ["cpsat", "minizinc:gecode", "search"])
@pytest.mark.parametrize("permutation", [False, True])
def test_backends_count_small_boards(solver, permutation):
    """Every counting backend through the real pipeline (worker process, decoding, checker)."""
    expect = SCHROEDER if permutation else A146971
    params = {"permutation": True} if permutation else {}
    for n in range(1, 6):
        # cpsat: one worker, since its parallel enumeration measured incomplete here
        run = pipeline_solve(plan("percolation", n, solver, None, params, Count(2)), Options(time_limit=60, threads=1))
        r = run.result
        assert r.status == Status.COMPLETE and r.count == expect[n], (solver, n, r.message)
        assert len(r.examples) == min(2, expect[n]) and run.verified, (solver, n)


def test_render_and_png(tmp_path):
    s = {"n": 3, "cells": [[0, 0], [1, 1], [2, 2]]}
    assert PUZZLE.render(3, s, {}) == "#..\n.#.\n..#"
    PUZZLE.png(3, [s, s], str(tmp_path / "p.png"), PUZZLE.params())
    assert (tmp_path / "p.png").stat().st_size > 1000


def test_cli_count_json():
    out = subprocess.run([sys.executable, "-m", "workbench", "count", "percolation", "--n", "5",
                          "--solver", "search", "--json", "--show", "2"],
                         capture_output=True, text=True, timeout=120, check=True).stdout
    record = json.loads(out)
    assert record["count"] == A146971[5] and record["status"] == "complete" and record["match"] == "yes"
