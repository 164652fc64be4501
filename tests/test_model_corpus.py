"""Every file of tests/models/ on every backend that takes it: a proven optimum is the one outside
tools found (expected.csv), a `feasible` answer has a correct bound, a backend that cannot take
the model says `unsupported`, and no answer the file-check passes is wrong. Files the workbench
cannot represent (quadratic, semi-continuous, SOS) are refused by name."""
import csv
import math
from pathlib import Path

import pytest

from workbench import usermodel
from workbench.puzzles.base import BadInput
from workbench.solvers.base import Options, Status

CORPUS = Path(__file__).parent / "models"
EXPECTED = {row["file"]: row for row in csv.DictReader(open(CORPUS / "expected.csv"))}
# seconds a run may take (every run proves its answer in well under 1 s; MiniZinc files run as
# written on Gecode, with their own search, and flattened on the rest)
LIMIT = {"mzn": 10, "lp": 10, "mps": 10, "wcnf": 10}


def close(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-6 * max(1.0, abs(b))


def test_the_corpus_is_what_the_brief_asks_for():
    kinds = [name.removesuffix(".gz").rsplit(".", 1)[1] for name in EXPECTED]
    assert len(EXPECTED) >= 25 and {"lp", "mps", "wcnf", "mzn"} <= set(kinds)
    assert sum(name.endswith(".gz") for name in EXPECTED) >= 2
    assert {r["status"] for r in EXPECTED.values()} >= {"optimal", "infeasible", "unbounded", "refused"}
    assert all(r["source"] for r in EXPECTED.values())
    assert sorted(p.name for p in CORPUS.iterdir() if p.name not in ("expected.csv", "make_expected.py")) == \
        sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_every_backend_on_the_file_is_right_or_says_why_not(name):
    exp = EXPECTED[name]
    if exp["status"] == "refused":
        with pytest.raises(BadInput) as refused:
            usermodel.read(CORPUS / name)
        assert exp["note"].lower() in str(refused.value).lower() and "\n" not in str(refused.value)
        return
    mf = usermodel.read(CORPUS / name)
    solvers = usermodel.backends_for(mf)
    runs = [usermodel.solve(mf, solver, Options(time_limit=LIMIT[mf.kind], threads=1)) for solver in solvers]
    sign = -1 if mf.sense == "max" else 1
    for run in runs:
        r = run.result
        what = f"{name} on {r.solver}: {r.status} {run.value} {r.message}"
        assert r.status != Status.ERROR, what
        if r.status == Status.UNSUPPORTED:
            assert r.message and "\n" not in r.message and not run.verified, what
            continue
        if r.status in (Status.OPTIMAL, Status.FEASIBLE):
            assert run.verified and close(run.verdict.objective, r.objective), what
            assert "feasibility 1e-06 relative, integrality 1e-06" in run.verdict.message or mf.kind in ("wcnf", "mzn")
        if r.status == Status.OPTIMAL:
            assert exp["status"] == "optimal" and close(r.objective, float(exp["objective"])), what
        elif r.status == Status.FEASIBLE and exp["status"] == "optimal":
            optimum = float(exp["objective"])
            assert sign * (r.objective - optimum) >= -1e-6 * max(1.0, abs(optimum)), what
            assert r.bound is None or sign * (optimum - r.bound) >= -1e-6 * max(1.0, abs(optimum)), what
        elif r.status == Status.FEASIBLE:
            assert exp["status"] == "unbounded" and r.bound is None, what
        elif r.status == Status.INFEASIBLE:
            assert exp["status"] == "infeasible", what
        else:
            assert r.status == Status.UNKNOWN, what
    # the corpus is not vacuous: some backend proves what the outside tools found
    proofs = {str(run.result.status) for run in runs if run.result.proven}
    assert exp["status"] == "unbounded" or exp["status"] in proofs, [str(r.result.status) for r in runs]
    gecode = next((run.result for run in runs if run.result.solver == "minizinc:gecode"), None)
    if mf.kind == "mzn":      # MiniZinc's own Gecode, with the file's own search, proves every one
        assert gecode is not None
        assert gecode.status == Status.OPTIMAL and close(gecode.objective, float(exp["objective"])), gecode
    elif gecode is not None and gecode.status != Status.UNSUPPORTED:
        # an LP or MPS file: its complete search comes before the neighbourhoods, so Gecode proves these
        # small models (the neighbourhoods alone never end: `feasible` after the whole time limit)
        assert gecode.status == (Status.INFEASIBLE if exp["status"] == "infeasible" else Status.OPTIMAL), gecode
        assert gecode.total_seconds < LIMIT[mf.kind] / 3, gecode


def test_integer_bounds_are_the_domain_and_continuous_values_stay():
    mf = usermodel.read(CORPUS / "general_frac_bound.lp")
    x = mf.model.vars[0]
    assert (x.lb, x.ub, x.integer) == (0, 2, True) and math.isinf(mf.model.vars[1].ub)
    cont = usermodel.read(CORPUS / "cont_max.lp")
    assert [(v.lb, v.ub, v.integer) for v in cont.model.vars] == [(0, 2.5, False), (0, 0.75, False)]


def test_the_check_reads_the_file_not_the_converted_model():
    """A converted model that rounded x <= 2.5 up to 3 would pass its own rows; the file rejects it."""
    mf = usermodel.read(CORPUS / "cont_max.lp")
    mf.model.vars[0].ub = 3                         # a conversion gone wrong
    assert not usermodel.check(mf, [3, 0]).ok
    verdict = usermodel.check(mf, [2.5, 0.75])
    assert verdict.ok and verdict.objective == 3.25
    gen = usermodel.read(CORPUS / "general_frac_bound.lp")
    assert "integrality of x" in usermodel.check(gen, [1.5, 0]).message


def test_wcnf_weights_as_written_negative_ones_with_their_offset():
    frac = usermodel.read(CORPUS / "fractional_weights.wcnf")
    assert sorted(w for _, w in frac.model.soft) == [1.2, 1.9]
    neg = usermodel.read(CORPUS / "negative_weight.wcnf")
    assert neg.model.offset == -1 and neg.model.n_vars == 3 and neg.model.decode_vars == 2
    run = usermodel.solve(neg, "maxsat", Options(time_limit=10))
    assert (run.result.status, run.value, run.verified) == (Status.OPTIMAL, -1, True)
    assert usermodel.check(neg, [0, 0]).objective == 3          # (1 v 2) falsified: 3, as the file says
