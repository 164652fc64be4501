"""The `auto` portfolio and the clause orders of the maxsat backend."""
import random

import pytest
from test_backends import brute_force, random_hitting_set

from workbench import pipeline
from workbench.models.core import HittingSet
from workbench.solvers.base import Options, Status
from workbench.solvers.maxsat import SAT_SOLVERS
from workbench.solvers.runner import run


@pytest.mark.parametrize("seed", [1, 2, 7])
def test_maxsat_clause_orders_agree(seed):
    """A shuffled order (seed != 0) renumbers the variables: the decoded solution must still be right."""
    for case in range(20):
        hs = random_hitting_set(case)
        r = run("maxsat", hs, Options(time_limit=30, threads=1, seed=seed))
        assert r.status == Status.OPTIMAL and round(r.objective) == brute_force(hs)
        chosen = {e for e in range(hs.n_elements) if r.values[e]}
        assert all(chosen & set(s) for s in hs.sets)


@pytest.mark.parametrize("sat_solver", sorted(SAT_SOLVERS))
def test_maxsat_with_each_offered_sat_solver(sat_solver):
    """`maxsat:NAME` runs RC2 over that SAT solver and proves the same optima as brute force."""
    for case in range(10):
        hs = random_hitting_set(case)
        r = run(f"maxsat:{sat_solver}", hs, Options(time_limit=30, threads=1))
        assert r.status == Status.OPTIMAL and round(r.objective) == brute_force(hs)
        assert r.solver == f"maxsat:{sat_solver}" and SAT_SOLVERS[sat_solver] in r.solver_version


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_auto_proves_with_one_racer_and_reports_all(threads):
    r = pipeline.solve(pipeline.plan("enigma144", 6, "auto"), Options(time_limit=60, threads=threads))
    assert r.result.status == Status.OPTIMAL and r.value == 29 and r.verified
    racers = r.result.racers
    assert len(racers) == threads
    proofs = [x for x in racers if x.status == "optimal"]
    assert proofs and all(x.objective == 29 for x in proofs)
    assert r.result.message.startswith("proven by ")


def test_auto_without_proof_is_not_optimal():
    """Stopped by the limit: the best solution and bound of any racer, status feasible."""
    r = pipeline.solve(pipeline.plan("enigma144", 16, "auto"), Options(time_limit=4))
    assert r.result.status == Status.FEASIBLE and r.verified
    assert r.result.bound is not None and r.result.bound < r.result.objective
    assert all(x.status != "optimal" for x in r.result.racers)


def test_auto_is_the_trigrid_default():
    from workbench.puzzles import get

    assert {get(p).default_solver for p in ("enigma144", "enigma82", "triangles")} == {"auto"}


def symmetric_hitting_set(seed: int) -> HittingSet:
    """Random sets closed under the rotations and reflections of n elements in a ring."""
    rng = random.Random(seed)
    n = rng.randint(4, 11)
    group = [[(k * e + shift) % n for e in range(n)] for k in (1, -1) for shift in range(n)]
    base = [rng.sample(range(n), rng.randint(2, min(4, n))) for _ in range(rng.randint(1, 3))]
    sets = sorted({tuple(sorted(g[e] for e in s)) for s in base for g in group})
    return HittingSet(n, sets, symmetries=group[1:])


@pytest.mark.parametrize("sub", ["lex", "cd195+lex"])
def test_maxsat_lex_leader_keeps_the_optimum_of_symmetric_instances(sub):
    """`maxsat:…+lex` adds lex-leader clauses for the model's symmetries: the optimum stays."""
    for case in range(15):
        hs = symmetric_hitting_set(case)
        r = run(f"maxsat:{sub}", hs, Options(time_limit=30, threads=1))
        assert r.status == Status.OPTIMAL and round(r.objective) == brute_force(hs)
        assert "lex-leader" in r.solver_version
        chosen = {e for e in range(hs.n_elements) if r.values[e]}
        assert all(chosen & set(s) for s in hs.sets)
