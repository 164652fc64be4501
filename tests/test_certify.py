"""Certified lower bounds: the cardinality CNF against brute force, and drup's verdicts."""
import itertools
import random

import drup
import pytest
from pysat.solvers import Solver

from workbench.certify import at_most_cnf, certify, trim
from workbench.models.core import HittingSet
from workbench.puzzles import get


def random_instance(seed: int) -> HittingSet:
    rng = random.Random(seed)
    n = rng.randint(2, 9)
    return HittingSet(n, [tuple(sorted(rng.sample(range(n), rng.randint(1, min(4, n)))))
                          for _ in range(rng.randint(1, 12))])


@pytest.mark.parametrize("seed", range(40))
def test_cardinality_cnf_matches_brute_force(seed):
    """SAT exactly when some hitting set has at most k elements; each model is such a set."""
    hs = random_instance(seed)
    smallest = min(sum(c) for c in itertools.product((0, 1), repeat=hs.n_elements)
                   if all(any(c[e] for e in s) for s in hs.sets))
    for k in range(hs.n_elements + 1):
        with Solver(name="cadical195", bootstrap_with=at_most_cnf(hs, k).clauses) as solver:
            sat = solver.solve()
            assert sat == (smallest <= k), (seed, k)
            if sat:
                chosen = {v - 1 for v in solver.get_model() if 0 < v <= hs.n_elements}
                assert len(chosen) <= k and all(chosen & set(s) for s in hs.sets)


def test_certify_enigma144_n4():
    hs = get("enigma144").build(4, "plain", {}).model
    cert = certify(hs, 13, 120)
    assert cert.verdict == "VALID" and cert.lower_bound == 13
    assert len(cert.proof_sha256) == 64 and cert.proof_lines > 0
    assert certify(hs, 14, 120).verdict == "SATISFIABLE"     # 13 matches do suffice


def test_drup_rejects_a_proof_that_skips_the_work():
    hs = get("enigma144").build(3, "plain", {}).model
    dimacs = at_most_cnf(hs, 7).to_dimacs()
    assert drup.check_proof_from_strings(dimacs, "0\n").outcome == drup.Outcome.INVALID


def test_trim_refuses_a_lemma_that_is_not_rup():
    with pytest.raises(ValueError):
        trim([[1, 2], [-1, 2]], [[1], []])


def test_cli_certify_stores_the_verdict_and_hash():
    import json
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "workbench", "solve", "enigma144", "--n", "4", "--certify",
                          "--json"], capture_output=True, text=True, timeout=300, check=True).stdout
    record = json.loads(out)
    cert = record["certificate"]
    assert record["objective"] == 13 and record["verified"]
    assert cert["verdict"] == "VALID" and cert["lower_bound"] == 13 and len(cert["proof_sha256"]) == 64
    bad = subprocess.run([sys.executable, "-m", "workbench", "solve", "enigma82", "--n", "3", "--formulation",
                          "lexleader", "--certify"], capture_output=True, text=True, timeout=300)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1
