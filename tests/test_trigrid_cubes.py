"""The cubes method (puzzles/trigrid/cubes.py): the optimum of today's rows, the same answer and
counters after a stop and a resume on a copy of the journal elsewhere, cubes that cover the space,
a probe whose lemmas are implied."""
from __future__ import annotations

import socket

import pytest

from workbench.puzzles import get
from workbench.puzzles.trigrid import cubes
from workbench.puzzles.trigrid.model import grid
from workbench.puzzles.trigrid.subgrid import proven_minima
from workbench.search.tasks import Settings, copy_journal, survey

QUIET = Settings(threads=2, journal=False, quiet=True)
SHAPES = {"enigma144": ("triangle", "quad"), "enigma82": ("quad",)}


def ignore(_: object) -> None:
    pass


@pytest.mark.parametrize("probe", [0, 1])
@pytest.mark.parametrize("variant, n", [("enigma82", 4), ("enigma82", 5), ("enigma144", 5), ("enigma144", 6)])
def test_the_cubes_prove_the_optimum_of_the_proven_rows(variant, n, probe):
    """Both splits: the tiles' (probe 0: 415 or 279 cubes in tasks of 26) and the probe's (2 cubes)."""
    puzzle = get(variant)
    row = proven_minima(variant, lambda k, board: puzzle.check(k, board), n + 1)[n]
    out = cubes.search(n, SHAPES[variant], QUIET, ignore, probe=probe)
    assert out.complete and out.best == row
    assert out.tasks == (2 if probe else {"enigma82": 16, "enigma144": 11}[variant])
    verdict = puzzle.check(n, out.witness)
    assert verdict.ok and verdict.objective == row


def test_a_probe_that_refutes_the_whole_call_leaves_no_cubes():
    out = cubes.search(6, SHAPES["enigma82"], QUIET, ignore, probe=cubes.PROBE)
    assert (out.best, out.complete, out.tasks) == (20, True, 0) and "the probe refuted it" in out.message


def test_a_time_limit_stops_the_probes_descent_after_one_probe():
    """A probe is one call the clock cannot stop: with the time out before the first, enigma82 N = 9
    stops after that probe (which finds a cheaper board) with its checked board, incomplete, rather
    than probing on down to the optimum."""
    cubes.probed.cache_clear()
    out = cubes.search(9, SHAPES["enigma82"], Settings(threads=1, time_limit=0.01, journal=False, quiet=True), ignore)
    assert not out.complete and cubes.probed.cache_info().misses == 1
    verdict = get("enigma82").check(9, out.witness)
    assert verdict.ok and verdict.objective == out.best


def test_the_probes_lemmas_are_implied_and_its_cubes_cover_the_space():
    """enigma82 N = 6, refuting 19: each kept lemma's negation is refuted with the formula, and
    the two cubes on the most active match cover the space (one alone does not)."""
    from pysat.solvers import Solver

    shapes = SHAPES["enigma82"]
    answer, active, lemmas, spent, _, ranked = cubes.probed(shapes, 6, 20, 300)
    assert ranked[:cubes.ACTIVE] == active and len(set(ranked)) == len(ranked) > 10
    assert answer is None and len(active) == cubes.ACTIVE and 300 <= spent and len(lemmas) > 20
    assert all(0 < len(lemma) <= cubes.LEMMA_MAX for lemma in lemmas)
    with Solver(name=cubes.SAT_SOLVER, bootstrap_with=cubes.formula(shapes, 6, 20)) as solver:
        assert not any(solver.solve(assumptions=[-lit for lit in lemma]) for lemma in lemmas[:200])
    both = cubes.signs(active)
    assert len(both) == 2 and cubes.covers(shapes, 6, 0, both) and not cubes.covers(shapes, 6, 0, both[1:])


@pytest.mark.parametrize("probe, tasks", [(0, 249), (1, 323)])
def test_a_cube_run_stopped_halfway_resumes_on_a_copy_elsewhere_to_the_same_answer_and_counters(tmp_path, probe, tasks):
    """enigma144 N = 6 with tasks handing back after 200 conflicts: stopped by its time limit, its
    journal copied to another folder, resumed there: the same optimum, exactly the same cubes
    and conflicts as an uninterrupted run (the budgets are in conflicts, not seconds), for both
    splits (probe 0: 11 tasks of the tiles, 1: the probe's 2, the rest handed back)."""
    whole = cubes.search(6, SHAPES["enigma144"], QUIET, ignore, split_after=200, probe=probe)
    assert (whole.best, whole.complete, whole.tasks) == (29, True, tasks)
    here, there = tmp_path / "here", tmp_path / "there"
    for seconds in (0.4, 0.8, 1.6):
        part = cubes.search(6, SHAPES["enigma144"], Settings(threads=2, time_limit=seconds, runs=here, quiet=True),
                            ignore, split_after=200, probe=probe)
        (state,) = survey(here)
        if not part.complete and state.done > 0:
            break
    assert not part.complete and 0 < state.done < state.total
    assert str(tmp_path) not in str(state.key) and socket.gethostname() not in str(state.key)
    copy_journal(state.path, there)
    rest = cubes.search(6, SHAPES["enigma144"], Settings(threads=2, runs=there, quiet=True), ignore,
                        split_after=200, probe=probe)
    assert (rest.best, rest.tasks, rest.positions, rest.complete) == (29, whole.tasks, whole.positions, True)
    assert survey(here)[0].done == state.done                                     # the original, as it was


def test_the_cubes_and_their_refinements_cover_the_space():
    shapes = SHAPES["enigma82"]
    first = cubes.refine(shapes, 6, 0)
    assert len(first) == 415 and cubes.covers(shapes, 6, 1, first) and not cubes.covers(shapes, 6, 1, first[1:])
    deeper = first[1:] + cubes.refine(shapes, 6, 1, first[0])
    assert len(deeper) == 414 + 415 and cubes.covers(shapes, 6, 2, deeper)
    assert not cubes.covers(shapes, 6, 2, deeper[:-1])


@pytest.mark.parametrize("raw", [[["quad"], 6, 100, 0, -1, [[1]], None], [["quad"], 6, 100, 0, 1, [[999]], None],
                                 [["quad"], 6, 100, 0, 1, [], None], [["hexagon"], 6, 100, 0, 1, [[1]], None],
                                 [["quad"], 6, True, 0, 1, [[1]], None], [["quad"], 6, 100, -5, 1, [[1]], None],
                                 [["quad"], 6, 100, 0, 1, [[1]], [19, [[1, 2]]]], [["quad"], 6, 100, 1, [[1]]],
                                 ["quad", 6]])
def test_a_journal_task_out_of_range_is_refused(raw):
    """A handed-back part never carries lemmas (a journal is untrusted, and they would be unchecked)."""
    assert cubes._task_in([["quad"], 6, 100, 50, 0, [[1, -2]], None]) == (("quad",), 6, 100, 50, 0, ((1, -2),), None)
    with pytest.raises(ValueError):
        cubes._task_in(raw)


def test_every_cube_and_the_coverage_are_certified_by_checked_lrat_proofs():
    """enigma144 N = 4 (13): each cube's refutation of "at most 12" and the coverage proof, checked
    by the LRAT checker against the CNFs whose hashes are kept; the cube that holds an optimal board
    is satisfiable at "at most 13", and 278 of the cubes do not cover the space."""
    shapes = SHAPES["enigma144"]
    first = cubes.refine(shapes, 4, 0)
    proof = cubes.certify(shapes, 4, 1, first, 13)
    assert (proof["verdict"], proof["cubes"], proof["coverage"]["verdict"]) == ("VALID", 279, "VALID")
    assert len(set(proof["cnf_sha256"])) == 279 and proof["proof_bytes"] > 0
    board = cubes.search(4, shapes, QUIET, ignore).witness
    index = {frozenset(m): i + 1 for i, m in enumerate(grid(4).matches)}
    removed = {index[frozenset(map(tuple, m))] for m in board}
    (holder,) = [c for c in first if all((lit > 0) == (abs(lit) in removed) for lit in c)]
    assert cubes.cube_certificate(shapes, 4, holder, 14)["verdict"] == "SATISFIABLE"
    assert cubes.coverage_certificate(shapes, 4, 1, [c for c in first if c != holder])["verdict"] == "SATISFIABLE"
