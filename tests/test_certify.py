"""Certified lower bounds: both cardinality CNFs against brute force, the LRAT checker and drup's verdicts."""
import itertools
import random

import drup
import pytest
from pysat.solvers import Solver

from workbench import lrat
from workbench.certify import ENCODINGS, at_most_cnf, certify, check_refutation, packing, refutation
from workbench.models.core import HittingSet
from workbench.puzzles import get


def random_instance(seed: int) -> HittingSet:
    rng = random.Random(seed)
    n = rng.randint(2, 9)
    return HittingSet(n, [tuple(sorted(rng.sample(range(n), rng.randint(1, min(4, n)))))
                          for _ in range(rng.randint(1, 12))])


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


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("seed", range(40))
def test_each_encoding_matches_brute_force(seed, encoding):
    """SAT exactly when some hitting set has at most k elements (the regrouped CNF's argument:
    at_most_cnf's docstring); each model's elements are such a set."""
    hs = random_instance(seed)
    smallest = min(sum(c) for c in itertools.product((0, 1), repeat=hs.n_elements)
                   if all(any(c[e] for e in s) for s in hs.sets))
    for k in range(hs.n_elements + 1):
        with Solver(name="cadical195", bootstrap_with=at_most_cnf(hs, k, encoding).clauses) as solver:
            sat = solver.solve()
            assert sat == (smallest <= k), (seed, k)
            if sat:
                chosen = {v - 1 for v in solver.get_model() if 0 < v <= hs.n_elements}
                assert len(chosen) <= k and all(chosen & set(s) for s in hs.sets)


def test_the_packing_of_the_grid_is_its_upward_triangles():
    for n in range(1, 9):
        hs = get("enigma144").build(n, "plain", {}).model
        groups = packing(hs)
        assert len(groups) == n * (n + 1) // 2 and sorted(e for s in groups for e in s) == list(range(hs.n_elements))


@pytest.mark.parametrize("puzzle,n,value,checker", [("enigma144", 7, 39, "lrat+drup"), ("enigma82", 6, 20, "lrat"),
                                                    ("triangles", 8, 36, "lrat")])
def test_certificates_of_the_three_grids(puzzle, n, value, checker):
    """enigma144 N = 7 (383 s with drup alone before the regrouped CNF) is checked by both checkers;
    triangles needs no proof: its N(N + 1)/2 disjoint upward triangles need a match each."""
    hs = get(puzzle).build(n, "plain", {}).model
    cert = certify(hs, value, 120)
    assert (cert.verdict, cert.checker) == ("VALID", checker)
    assert (cert.proof_bytes == 0) == (puzzle == "triangles")
    assert certify(hs, value + 1, 120).verdict == "SATISFIABLE"


def test_lrat_checker_rejects_broken_proofs():
    hs = get("enigma144").build(6, "plain", {}).model
    cnf = at_most_cnf(hs, 28)
    formula = [list(c) for c in cnf.clauses]
    proof = refutation(formula)
    text = proof.lrat()
    assert lrat.check(lrat.parse_dimacs(cnf.to_dimacs()), text).valid
    lines = text.splitlines()
    no_end = "\n".join(lines[:-1])                       # the empty clause left out
    assert not lrat.check(formula, no_end).valid
    at = next(i for i in range(len(lines) // 2, len(lines)) if lines[i].split()[1] != "d")
    words = lines[at].split()
    cut = words.index("0")
    dropped = " ".join(words[:cut + 1] + words[cut + 2:])   # its first hint dropped
    broken = "\n".join(lines[:at] + [dropped] + lines[at + 1:])
    assert not lrat.check(formula, broken).valid
    first = next(line.split() for line in lines if line.split()[1] != "d")
    first_hint = int(first[first.index("0") + 1])
    flipped = [[-lit for lit in c] if i == first_hint - 1 else c for i, c in enumerate(formula)]
    assert not lrat.check(flipped, text).valid            # a clause the proof uses, changed


def test_lrat_checker_rejects_a_unit_lemma_it_cannot_derive():
    """A unit lemma that later lemmas cite, written without the hints that derive it: the checker
    stops at the unit, whatever the lemmas after it make of it."""
    hs = get("enigma144").build(8, "plain", {}).model
    cnf = at_most_cnf(hs, 49)
    formula = [list(c) for c in cnf.clauses]
    lines = refutation(formula).lrat().splitlines()
    cited = {int(h) for line in lines if " d " not in line for h in line.split(" 0 ")[1].split()[:-1]}
    at = next(i for i, line in enumerate(lines) if len(line.split(" 0 ")[0].split()) == 2
              and " d " not in line and int(line.split()[0]) in cited)
    ident, lit = lines[at].split()[:2]
    assert lrat.check(formula, "\n".join(lines)).valid
    for hints in ("", lines[at].split(" 0 ")[1].split()[-2]):       # none; only the last one
        lines[at] = f"{ident} {lit} 0 {hints} 0".replace("  ", " ")
        verdict = lrat.check(formula, "\n".join(lines))
        assert not verdict.valid and verdict.message.startswith(f"line {at + 1}: lemma {ident} does not follow")


@pytest.mark.parametrize("seed", range(30))
def test_refutations_of_random_formulas_check(seed):
    """Random unsatisfiable 3-CNFs, some with unit clauses, repeated literals and tautologies among
    them (CaDiCaL gives a clause it derives while they are added an id among theirs:
    `Refutation.formula_ids`): every proof passes the LRAT checker, and a satisfiable CNF gives None."""
    rng = random.Random(seed)
    n_vars = rng.randint(20, 70)
    clauses = [[v * rng.choice((1, -1)) for v in rng.sample(range(1, n_vars + 1), 3)] for _ in range(6 * n_vars)]
    if seed % 2:
        for at in rng.sample(range(len(clauses)), 5):
            clauses.insert(at, [rng.choice((1, -1)) * rng.randint(1, n_vars)])
        clauses[3] = clauses[3] + clauses[3][:1]
        clauses[5] = clauses[5] + [-clauses[5][0]]
    proof = refutation(clauses)
    assert proof is not None and lrat.check(clauses, proof.lines(), proof.formula_ids()).valid
    assert refutation(clauses[:n_vars // 4]) is None


def test_trivial_refutations():
    """An empty clause needs no proof. Units that clash: CaDiCaL derives [2] from [-1] and [1, 2]
    while the clauses are added, and the empty clause from [3] and [-3], each taking the next id, so
    the formula's clauses have ids 1, 2, 3, 5, 7 (`formula_ids`), and the checker accepts the proof."""
    from pysat.formula import CNF

    checked = check_refutation(refutation([[1, 2], [], [3]]), CNF(from_clauses=[[1, 2], [], [3]]).to_dimacs())
    assert checked.valid and checked.proof_bytes == 0
    clauses = [[1, 2], [3], [-1], [-3], [2, 4]]
    proof = refutation(clauses)
    assert proof.formula_ids() == [1, 2, 3, 5, 7] and proof.lrat() == "4 2 0 3 1 0\n6 0 2 5 0\n"
    assert check_refutation(proof, CNF(from_clauses=clauses).to_dimacs()).valid
    assert not lrat.check(clauses, proof.lines()).valid       # with ids 1..5 the hints point elsewhere


@pytest.mark.parametrize("seed", range(6))
def test_certify_weighted_models_against_brute_force(seed):
    """A weighted model (a user's, say) takes the sequential counter, each element counted its
    weight times: the certificate must stand exactly at the lightest hitting set's weight."""
    hs = random_instance(seed)
    rng = random.Random(-seed)
    hs = HittingSet(hs.n_elements, hs.sets, weights=[rng.randint(1, 4) for _ in range(hs.n_elements)])
    lightest = min(sum(hs.weight(e) for e in range(hs.n_elements) if c[e])
                   for c in itertools.product((0, 1), repeat=hs.n_elements)
                   if all(any(c[e] for e in s) for s in hs.sets))
    cert = certify(hs, lightest, 60)
    assert cert.verdict == "VALID" and cert.lower_bound == lightest, (seed, cert)
    assert certify(hs, lightest + 1, 60).verdict == "SATISFIABLE", seed


def test_lrat_checker_rejects_a_clause_cited_after_its_deletion():
    """The checker, reading CaDiCaL's proof line by line, accepts it, and rejects it when a clause goes
    before a lemma that cites it, or a deletion names an unknown id."""
    from pysat.formula import CNF

    hs = get("enigma144").build(6, "plain", {}).model
    formula = [list(c) for c in at_most_cnf(hs, 28).clauses]
    proof = refutation(formula)
    checked = check_refutation(proof, CNF(from_clauses=formula).to_dimacs())
    assert checked.valid and checked.lemmas > 100 and len(checked.proof_sha256) == 64
    lines = proof.lrat().splitlines()
    assert checked.proof_bytes == sum(len(line) + 1 for line in lines)
    assert any(line.split()[1] == "d" for line in lines)
    at = next(i for i in range(len(lines) // 2, len(lines)) if lines[i].split()[1] != "d")
    ident, hint = lines[at].split()[0], lines[at].split(" 0 ")[1].split()[0]
    early = lines[:at] + [f"{int(ident) - 1} d {hint} 0"] + lines[at:]
    verdict = lrat.check(formula, early)
    assert not verdict.valid and verdict.message.startswith(f"line {at + 2}: lemma {ident} does not follow")
    unknown = lines[:at] + [f"{int(ident) - 1} d {int(ident) + 5} 0"] + lines[at:]
    assert lrat.check(formula, unknown).message.startswith(f"line {at + 1}: a deletion names an unknown id")
