"""Stepping stones: checker verdicts, the exact search against published values, CP backends agree."""
from __future__ import annotations

import pytest
from conftest import published_values

from workbench.pipeline import plan
from workbench.pipeline import solve as pipeline_solve
from workbench.puzzles.base import BadInput, Verdict
from workbench.puzzles.stones.check import check as check_board
from workbench.puzzles.stones.hunt.lookahead import prefix
from workbench.puzzles.stones.kernel import subtree
from workbench.puzzles.stones.model import box_model, decode
from workbench.puzzles.stones.puzzle import StonesPuzzle
from workbench.puzzles.stones.search import search
from workbench.search.tasks import Settings
from workbench.solvers.base import Options, Status
from workbench.solvers.runner import run

PUBLISHED = published_values("stones")
PUZZLE = StonesPuzzle()
# xash's a(5) = 49 board from the seed document, as [row, col, value] triples (rules data, not code)
SEED_49 = """\
0 46 26 0 0 0 0 0 0 0 0 35 0
0 20 0 6 28 48 0 0 0 0 34 1 36
39 19 1 2 3 17 0 30 0 0 33 0 37
0 0 18 7 1 4 9 0 21 32 0 0 0
0 40 0 8 38 5 43 10 11 0 44 0 0
0 0 22 0 13 0 15 0 1 12 0 0 0
47 23 0 14 27 0 31 16 29 0 0 0 0
0 24 1 0 41 0 0 0 45 0 0 0 0
49 25 0 42 0 0 0 0 0 0 0 0 0"""
BOARD_49 = [[r, c, int(v)] for r, line in enumerate(SEED_49.splitlines())
            for c, v in enumerate(line.split()) if v != "0"]


def test_checker_accepts_the_seed_board_and_rejects_broken_ones():
    assert check_board(5, BOARD_49) == Verdict(True, "valid: 5 ones, numbers up to 49", 49)
    assert not check_board(4, BOARD_49).ok                       # five ones, only four allowed
    moved = [t if t[2] != 49 else [20, 20, 49] for t in BOARD_49]
    assert check_board(5, moved).message == "49 at (20, 20) has neighbour sum 0 when placed"
    assert not check_board(5, [t for t in BOARD_49 if t[2] != 30]).ok   # a number missing
    assert not check_board(5, BOARD_49 + [[20, 20, 12]]).ok             # a number twice
    assert not check_board(5, BOARD_49 + [[0, 0, 7]]).ok                # a cell used twice
    # the seed's illegal lazy one: a one next to the 2 would have made the 2's sum 3
    assert not check_board(4, [[0, 1, 1], [1, 0, 1], [1, 1, 1], [1, 2, 1], [2, 1, 2], [0, 0, 3]]).ok
    assert not check_board(3, [[0, 0, 1], [1, 1, 1], [2, 1, 2], [1, 2, 1], [1, 3, 3]]).ok
    assert check_board(3, [[0, 0, 1], [2, 0, 1], [1, 1, 2], [0, 3, 1], [1, 2, 3]]).ok
    assert not check_board(1, "not a board").ok


@pytest.mark.parametrize("n", [1, 2, 3])
def test_exact_search_proves_published_values(n):
    out = search(n, Settings(threads=2, journal=False))
    assert out.complete and out.best == PUBLISHED[n]
    if n > 1:
        assert check_board(n, out.witness).ok and check_board(n, out.witness).objective == PUBLISHED[n]


def test_search_backend_through_the_pipeline():
    r = pipeline_solve(plan("stones", 2, "search"), Options(time_limit=120))
    assert r.result.status == Status.OPTIMAL and r.result.objective == 16 and r.verdict.ok
    assert "16" in PUZZLE.render(2, r.result.solution, {})


def test_exhaustive_ending_of_the_seed_board():
    """From the seed's a(5) board cut after 35, the hunt's exhaustive ending finds 49 and proves no
    more below that prefix (a(5) = 49)."""
    out = subtree(5, prefix(BOARD_49, 35), 10**7)
    value, board, complete = out.best, out.witness, out.complete
    assert (value, complete) == (49, True) and check_board(5, board).ok and check_board(5, board).objective == 49


def test_record_hunt_finds_a_valid_board():
    r = pipeline_solve(plan("stones", 3, "search", "hunt"), Options(time_limit=5))
    assert r.result.status == Status.FEASIBLE and r.verdict.ok and r.result.objective >= 20


@pytest.mark.parametrize("solver", ["cpsat", "highs", "cbc", "minizinc:gecode"])
def test_model_backends_agree_on_a_small_box(solver):
    """n = 2 in a 5 x 5 box, values capped at 8: every backend proves 8 and the checker agrees."""
    m = box_model(2, 5, 8, "max")
    r = run(solver, m, Options(time_limit=60))
    assert r.status == Status.OPTIMAL and round(r.objective) == 8
    assert check_board(2, decode(5, 8, r.values)).ok and check_board(2, decode(5, 8, r.values)).objective == 8


def test_position_model_proves_a2_without_a_box():
    """CP-SAT's default for stones is the position model: box-free for n <= 4, so its optimum is a(n)."""
    r = pipeline_solve(plan("stones", 2, "cpsat"), Options(time_limit=120, threads=1))
    assert (r.formulation, r.variant) == ("position", "stones")
    assert r.result.status == Status.OPTIMAL and r.result.objective == PUBLISHED[2] and r.verdict.ok


@pytest.mark.parametrize("solver", ["cpsat", "minizinc:gecode"])
def test_position_model_agrees_with_the_cell_model_in_a_box(solver):
    """Radius 2 is the 5 x 5 box of the cell-value model: the same optimum (8, values capped at 8)."""
    built = PUZZLE.build(2, "position", {"box": 5, "top": 8})
    r = run(solver, built.model, Options(time_limit=60))
    assert r.status == Status.OPTIMAL and round(r.objective) == 8
    assert PUZZLE.check(2, built.decode(r.values), {}).ok


def test_box_runs_get_tables_of_their_own():
    def variant(params, formulation):
        return PUZZLE.variant(PUZZLE.params(params), formulation)

    assert variant({}, "max") == "stones-box" and variant({"box": 9}, "position") == "stones-box9"
    assert variant({}, "position") == "stones" and variant({"top": 9}, "position") == "stones-top9"
    with pytest.raises(BadInput):
        PUZZLE.build(5, "position", {})


def test_model_knows_a_single_one_goes_nowhere():
    r = run("cpsat", box_model(1, 3, 2, "reach"), Options(time_limit=30))
    assert r.status == Status.INFEASIBLE
    r = pipeline_solve(plan("stones", 1, "cpsat", params={"box": 3, "top": 3}), Options(time_limit=30))
    assert r.result.status == Status.OPTIMAL and r.result.objective == 1 and r.verdict.ok


def test_hints_are_a_valid_start():
    board = search(2, Settings(threads=1, journal=False)).witness
    m = box_model(2, 9, 16, "max", hint=board)
    assert m.hints and sum(m.hints.values()) == len(board) + 15   # cells + y_2..y_16


def test_a_projection_from_every_task_is_the_exact_count():
    """The a(6) projection's estimator (sample mean times tasks) with every task sampled gives the
    exact search's positions: with the part above the cut, a(3)'s 192,651."""
    from workbench.puzzles.stones.search import projection, tasks_of

    whole = projection(3, 4, 10 ** 6, 60.0, 60.0)
    assert whole["sampled"] == whole["tasks"] and whole["cut short"] == 0
    assert round(whole["positions"]) + tasks_of(3, 4)[1].positions == 192651
