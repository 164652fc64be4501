"""The user's own model: --model FILE (LP, MPS, WCNF, MiniZinc with its data) on every backend that
takes its kind, each solution checked against the file (no puzzle checker), objectives recomputed."""
import csv
import json
import os
import subprocess
import sys
import time

import pytest

from workbench import usermodel
from workbench.models.core import HittingSet
from workbench.puzzles import get
from workbench.puzzles.base import BadInput
from workbench.solvers.base import Options, Status

PY = sys.executable
HAND_WRITTEN = "docs/models/hitting_set.mzn"
CORPUS = "tests/models"


def wb(*argv, env=None):
    return subprocess.run([PY, "-m", "workbench", *argv], capture_output=True, text=True,
                          env={**os.environ, "COLUMNS": "250", **(env or {})})


def enigma144_dzn(n: int, path) -> None:
    p = get("enigma144")
    hs = p.build(n, p.formulation_for("highs"), p.params(None)).model
    assert isinstance(hs, HittingSet) and hs.weights is None
    shapes = ", ".join("{" + ",".join(str(e + 1) for e in s) + "}" for s in hs.sets)
    path.write_text(f"n_matches = {hs.n_elements};\nn_shapes = {len(hs.sets)};\nshape = [{shapes}];\n")


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("models")
    for n, fmt, formulation in ((6, "lp", "plain"), (6, "wcnf", "plain"), (4, "mps", "plain"),
                                (6, "lp", "subgrid"), (6, "wcnf", "subgrid")):
        name = f"{'s' if formulation == 'subgrid' else 'e'}{n}.{fmt}"
        out = wb("export", "enigma144", "--n", str(n), "--formulation", formulation, "--format", fmt,
                 "-o", str(folder / name))
        assert out.returncode == 0, out.stderr
    enigma144_dzn(6, folder / "e6.dzn")
    enigma144_dzn(4, folder / "e4.dzn")
    return folder


@pytest.mark.parametrize("kind", ["lp", "wcnf", "mzn"])
def test_compare_model_on_every_backend_that_takes_it_agrees_on_29(kind, files, tmp_path):
    """N = 6 of Enigma 144: every backend that takes the file runs it, 2 s each (a MIP needs about
    25 s to prove 29 on 2 quiet cores; docs/backends.md has the long runs). Every answer is checked
    against the file, none contradicts 29 (no solution below it, no bound above it), 29 is found,
    and the WCNF's MaxSAT proof says 29. The `subgrid` export is proven by all but Gecode (below)."""
    model = HAND_WRITTEN if kind == "mzn" else str(files / f"e6.{kind}")
    extra = ["--data", str(files / "e6.dzn")] if kind == "mzn" else []
    mf = usermodel.read(model, *(extra[1:]))
    expected = usermodel.backends_for(mf)
    assert {"highs", "cbc", "cpsat", "scip", "glpk", "lpsolve", "minizinc:gecode"} <= set(expected)
    assert ("maxsat" in expected) == (kind == "wcnf")
    out = tmp_path / "c.csv"
    p = wb("compare", "--model", model, *extra, "--time-limit", "2", "-o", str(out))
    assert p.returncode == 0 and "no disagreement" in p.stdout, p.stdout + p.stderr
    rows = list(csv.DictReader(open(out)))
    assert [r["solver"] for r in rows] == expected
    for r in rows:
        assert r["status"] in ("optimal", "feasible"), r
        assert r["verified"] == "True" and int(r["value"]) >= 29
        assert r["bound"] == "" or float(r["bound"]) <= 29 + 1e-6
    assert min(int(r["value"]) for r in rows) == 29
    assert all(int(r["value"]) == 29 for r in rows if r["status"] == "optimal")
    if kind == "wcnf":
        assert next(r for r in rows if r["solver"] == "maxsat")["status"] == "optimal"
    assert p.stdout.count("no puzzle checker ran") == len(rows)


@pytest.mark.heavy
def test_every_backend_with_a_relaxation_proves_29_from_the_subgrid_export(files, tmp_path):
    """N = 6 exported with the sub-grid rows (`--formulation subgrid`): from the file alone, every
    backend with a relaxation proves 29: the LP on the MIP solvers and CP-SAT, the WCNF on RC2. One
    thread each; lp_solve needs about 40 s of CPU (glpk 14 s, the rest under 4 s), so the limit
    leaves room for a loaded machine; about 60 s all told at load 4 on 2 cores. Gecode, without
    a relaxation, does not prove it but finds it (the next test)."""
    for name, solvers in (("s6.lp", ["highs", "cbc", "cpsat", "scip", "glpk", "lpsolve"]), ("s6.wcnf", ["maxsat"])):
        out = tmp_path / f"{name}.csv"
        p = wb("compare", "--model", str(files / name), "--solvers", ",".join(solvers), "--threads", "1",
               "--time-limit", "150", "-o", str(out))
        assert p.returncode == 0 and "no disagreement" in p.stdout, p.stdout + p.stderr
        rows = list(csv.DictReader(open(out)))
        assert [r["solver"] for r in rows] == solvers
        for r in rows:
            assert (r["status"], r["value"], r["verified"]) == ("optimal", "29", "True"), r
            assert float(r["bound"]) == 29, r


@pytest.mark.parametrize("name", ["s6.lp", "e6.lp"])
def test_gecode_reaches_29_by_neighbourhoods_from_every_file(name, files, tmp_path):
    """The last backend of the agreement: Gecode has no relaxation, so a user's model reaches it with
    a search by large neighbourhoods (usermodel.read) after its complete search has had a third of the
    time, which finds 29 from the LP files with and without the sub-grid rows (about 1 s; 6 s
    allowed). It proves nothing here: that search never ends and the complete one does not end in
    2 s, so the run is `feasible`. (A MiniZinc file runs as written: its own search.)"""
    model = [str(files / name)]
    out = tmp_path / "g.csv"
    p = wb("compare", "--model", *model, "--solvers", "minizinc:gecode", "--threads", "1", "--time-limit", "6",
           "-o", str(out))
    assert p.returncode == 0 and "no disagreement" in p.stdout, p.stdout + p.stderr
    (row,) = list(csv.DictReader(open(out)))
    assert (row["status"], row["value"], row["verified"]) == ("feasible", "29", "True"), row


def test_a_minizinc_file_runs_as_written_and_a_time_out_is_feasible(files):
    """The hand-written file on Gecode, as written (its complete search, no neighbourhoods): N = 6
    is not proven in 2 s, so the run is `feasible` with its best solution so far, checked by MiniZinc
    on the file; N = 4 is proven."""
    mf = usermodel.read(HAND_WRITTEN, files / "e6.dzn")
    cut = usermodel.solve(mf, "minizinc:gecode", Options(time_limit=2, threads=1))
    assert (cut.result.status, cut.verified) == (Status.FEASIBLE, True) and cut.value >= 29, cut.result
    assert cut.result.total_seconds < 2 + 8 and sum(cut.result.solution["x"]) == cut.value
    small = usermodel.solve(usermodel.read(HAND_WRITTEN, files / "e4.dzn"), "minizinc:gecode", Options(time_limit=60))
    assert (small.result.status, small.value, small.verified) == (Status.OPTIMAL, 13, True)


def test_solve_model_record_says_no_checker_and_recomputes_the_objective(files):
    p = wb("solve", "--model", str(files / "e6.wcnf"), "--solver", "maxsat", "--json")
    rec = json.loads(p.stdout)
    assert rec["status"] == "optimal" and rec["objective"] == 29 == rec["recomputed_objective"]
    assert rec["check"].startswith("no puzzle checker ran") and "cost recomputed from the file: 29" in rec["check"]
    removed = [lit for lit in rec["solution"] if lit > 0]
    assert len(removed) == 29 and len(rec["solution"]) == 63
    mps = usermodel.solve(usermodel.read(files / "e4.mps"), "highs", Options(time_limit=60))
    assert mps.result.status == Status.OPTIMAL and mps.verdict.objective == 13 and mps.verified
    assert sum(mps.result.solution.values()) == 13


def test_minizinc_file_is_checked_by_minizinc(files):
    """A flattened solution is named as the model names it and checked by MiniZinc on the original
    file; a wrong one (a match taken away) is rejected, by name or as the backend's list."""
    mf = usermodel.read(HAND_WRITTEN, files / "e4.dzn")
    assert mf.names == ["x"]
    run = usermodel.solve(mf, "highs", Options(time_limit=60))
    assert run.verified and run.value == 13 and "objective recomputed by MiniZinc: 13" in run.verdict.message
    x = run.result.solution["x"]
    assert len(x) == 30 and sum(x) == 13
    assert usermodel.check(mf, {"x": x}).ok
    wrong = list(x)
    wrong[x.index(1)] = 0
    assert "MiniZinc rejects the solution" in usermodel.check(mf, {"x": wrong}).message
    values = list(run.result.values)
    assert usermodel.check(mf, values).ok
    values[values.index(1)] = 0       # the flattened solution with a removed match, mapped back
    assert not usermodel.check(mf, values).ok


def test_bool_enum_and_set_outputs_are_checked_by_the_model_s_own_names():
    """The issue: such solutions were written back as FlatZinc integers and all rejected."""
    for name, right, wrong, value in (("bool_output.mzn", {"take": [True, True, False, False]},
                                       {"take": [False, True, True, False]}, 8),
                                      ("enum_output.mzn", {"c": ["green", "red", "blue"]},
                                       {"c": ["blue", "red", "green"]}, 4),
                                      ("set_output.mzn", {"s": {3, 5}}, {"s": {4, 5}}, 28)):
        mf = usermodel.read(f"{CORPUS}/{name}")
        assert usermodel.check(mf, right).objective == value
        assert not usermodel.check(mf, wrong).ok


def test_gecode_proves_the_knapsack_with_its_own_search_in_seconds():
    """The issue: `minizinc --solver gecode` proves it in 0.12 s; the workbench said feasible after 60 s."""
    p = wb("solve", "--model", f"{CORPUS}/knapsack_search.mzn", "--solver", "minizinc:gecode", "--time-limit", "60",
           "--json")
    rec = json.loads(p.stdout)
    assert (rec["status"], rec["objective"], rec["verified"], rec["proven"]) == ("optimal", 309, True, True), rec
    assert rec["seconds"] < 10 and rec["solution"]["take"][:4] == [True, True, True, True]


def test_a_float_model_is_unsupported_on_the_linear_route(tmp_path):
    model = tmp_path / "price.mzn"
    model.write_text("var 0.0..10.0: price;\nvar 0..10: units;\nconstraint units + price <= 7.5;\n"
                     "solve maximize 2.0 * price + units;\n")
    mf = usermodel.read(model)
    for solver in ("highs", "cpsat"):
        r = usermodel.solve(mf, solver, Options(time_limit=10)).result
        assert r.status == Status.UNSUPPORTED and r.message and "\n" not in r.message, r


@pytest.mark.parametrize("include", ['"/etc/passwd"', '"../outside.mzn"', '"sub/../../outside.mzn"'])
def test_an_include_outside_the_model_s_folder_is_refused_before_minizinc_runs(include, tmp_path):
    folder = tmp_path / "m"
    folder.mkdir()
    (tmp_path / "outside.mzn").write_text("var 1..2: y;\n")
    (folder / "local.mzn").write_text(f"include {include};\n")
    model = folder / "model.mzn"
    model.write_text('include "alldifferent.mzn";\ninclude "local.mzn";\nvar 1..3: x;\nsolve maximize x;\n')
    p = wb("solve", "--model", str(model), "--solver", "minizinc:gecode")
    assert p.returncode == 2 and "outside the model's folder" in p.stderr and len(p.stderr.strip().splitlines()) == 1
    (folder / "local.mzn").write_text('include "alldifferent.mzn"; % include "/etc/passwd";\n')
    p = wb("solve", "--model", str(model), "--solver", "minizinc:gecode", "--json")
    assert p.returncode == 0 and json.loads(p.stdout)["objective"] == 3, p.stderr


def test_a_backend_that_does_not_take_the_kind_is_bad_input(files):
    p = wb("compare", "--model", str(files / "e6.lp"), "--solvers", "highs,maxsat")
    assert p.returncode == 2 and "maxsat does not take a lp model" in p.stderr and p.stdout == ""


def test_bench_model_appends_rows(files, tmp_path):
    out = tmp_path / "bench.csv"
    p = wb("bench", "--model", str(files / "e6.wcnf"), "--solver", "maxsat", "--time-limit", "60", "-o", str(out))
    assert p.returncode == 0, p.stderr
    row = next(csv.DictReader(open(out)))
    assert row["model"] == str(files / "e6.wcnf") and row["kind"] == "wcnf" and row["value"] == "29"


@pytest.mark.parametrize("argv,needle", [
    (["solve", "--model", "nothing.lp", "--solver", "highs"], "no such file"),
    (["solve", "--model", "x.txt", "--solver", "highs"], "unknown kind"),
    (["solve", "enigma144", "--model", HAND_WRITTEN, "--solver", "highs"], "takes no puzzle"),
    (["solve", "--model", HAND_WRITTEN, "--solver", "highs"], "did you forget to specify a data file"),
    (["compare"], "needs a puzzle, or --model"),
    (["solve", "--model", HAND_WRITTEN], "needs --solver"),
])
def test_bad_model_requests_are_one_line_and_exit_2(argv, needle):
    p = wb(*argv)
    assert p.returncode == 2 and needle in p.stderr and len(p.stderr.strip().splitlines()) == 1, p.stderr


def test_issue_continuous_lp_is_solved_as_written_and_checked_with_tolerances():
    """The issue: `solve --model cont.lp --solver highs` said optimal 3, verified; glpsol says 3.25."""
    p = wb("solve", "--model", f"{CORPUS}/cont_max.lp", "--solver", "highs", "--json")
    rec = json.loads(p.stdout)
    claims = (rec["status"], rec["objective"], rec["verified"], rec["recomputed_objective"])
    assert claims == ("optimal", 3.25, True, 3.25)
    assert "feasibility 1e-06 relative, integrality 1e-06" in rec["check"]
    assert rec["solution"] == {"x": 2.5, "y": 0.75}


def test_compare_plain_lp_marks_cpsat_unsupported_and_the_rest_prove_one_and_a_half(tmp_path):
    out = tmp_path / "c.csv"
    p = wb("compare", "--model", f"{CORPUS}/lp_half.lp", "--solvers", "highs,glpk,cpsat,lpsolve", "--time-limit", "20",
           "-o", str(out))
    assert p.returncode == 0 and "Traceback" not in p.stdout + p.stderr, p.stdout + p.stderr
    assert "Running HiGHS" not in p.stderr     # its banner, printed as a Highs object is made (quiet_highs)
    rows = {r["solver"]: r for r in csv.DictReader(open(out))}
    assert rows["cpsat"]["status"] == "unsupported" and rows["cpsat"]["verified"] == "False"
    assert "CP-SAT takes no continuous variables" in p.stdout
    for solver in ("highs", "glpk", "lpsolve"):
        row = rows[solver]
        assert (row["status"], row["value"], row["verified"]) == ("optimal", "1.5", "True")


@pytest.mark.parametrize("name,needle", [("quadratic.lp", "quadratic"), ("semicontinuous.lp", "semi-continuous"),
                                         ("sos.lp", "SOS")])
def test_what_a_linear_model_cannot_say_is_refused_by_name(name, needle):
    p = wb("solve", "--model", f"{CORPUS}/{name}", "--solver", "highs")
    assert p.returncode == 2 and needle in p.stderr and len(p.stderr.strip().splitlines()) == 1, p.stderr
    assert p.stdout == ""


def test_an_mps_entry_given_twice_is_refused_not_read_as_its_first(tmp_path):
    """HiGHS kept the first of `x obj -1` and `x obj -2` and said kOk (the warning only in its log),
    so every backend solved objective -x; glpsol refuses the file."""
    path = tmp_path / "twice.mps"
    path.write_text("NAME twice\nROWS\n N obj\n L c1\nCOLUMNS\n    x  obj  -1  c1  1\n    x  obj  -2\n"
                    "RHS\n    rhs c1 3.5\nENDATA\n")
    with pytest.raises(BadInput, match=r"duplicate nonzero -2 in objective row \"obj\".*refused rather than guessed"):
        usermodel.read(path)


@pytest.mark.parametrize("where", ["obj: 1e30 x + y", "obj: x + y\nSubject To\n c: 1e21 x + y >= 1"])
def test_a_coefficient_solvers_read_as_infinite_is_refused_in_one_line(where, tmp_path):
    """Every backend failed on it, each with its own traceback's last line (PuLP: NaN/inf, CP-SAT:
    OverflowError, SCIP: error in input data): now it never reaches one. (A row's coefficient that
    large HiGHS's reader refuses itself.)"""
    path = tmp_path / "huge.lp"
    constraints = "" if "Subject" in where else "Subject To\n c: x + y >= 1\n"
    path.write_text(f"Minimize\n {where}\n{constraints}Bounds\n 0 <= x <= 1\n 0 <= y <= 1\nGeneral\n x y\nEnd\n")
    p = wb("compare", "--model", str(path), "--time-limit", "10")
    assert p.returncode == 2 and p.stdout == "", p.stdout
    (line,) = p.stderr.strip().splitlines()
    assert "coefficient of x" in line and "as infinite" in line or "HiGHS cannot read it" in line, line


EVERY_BACKEND = {"highs", "cbc", "cpsat", "scip", "glpk", "lpsolve", "minizinc:gecode"}


def compared_everywhere(name: str, text: str, tmp_path) -> list[dict[str, str]]:
    """`compare --model` of the text on every backend here: its rows, once it said no disagreement."""
    path = tmp_path / name
    path.write_text(text)
    out = tmp_path / "c.csv"
    p = wb("compare", "--model", str(path), "--time-limit", "20", "-o", str(out))
    assert p.returncode == 0 and "no disagreement" in p.stdout, p.stdout + p.stderr
    rows = list(csv.DictReader(open(out)))
    assert EVERY_BACKEND <= {r["solver"] for r in rows}
    return rows


@pytest.mark.parametrize("objective,value", [("", "0"), (" obj: 0 x + 5\n", "5")])
def test_a_model_without_objective_is_solved_alike_by_every_backend(objective, value, tmp_path):
    """An empty objective: PuLP writes a `__dummy` column into the MPS for glpsol and lp_solve, which
    shifted glpk's columns (IndexError) and ended lp_solve's solution block early (a solution of
    zeros, rejected by the file); some backends gave no objective where HiGHS gave 0, and SCIP
    dropped an objective that is a constant alone (0 where the file gives 5)."""
    rows = compared_everywhere("exactly_one.lp", f"Minimize\n{objective}Subject To\n c: x + y >= 1\n"
                               " d: x + y <= 1\nBinary\n x y\nEnd\n", tmp_path)
    for r in rows:
        assert (r["status"], r["value"], r["bound"], r["verified"]) == ("optimal", value, value, "True"), r


def test_an_empty_model_is_optimal_at_0_on_every_backend(tmp_path):
    """HiGHS's status for it, kModelEmpty, read as unknown; Gecode failed on the writer's
    `min(lb)` of no variables."""
    rows = compared_everywhere("nothing.lp", "Minimize\n obj:\nSubject To\nEnd\n", tmp_path)
    assert {(r["status"], r["value"], r["verified"]) for r in rows} == {("optimal", "0", "True")}


@pytest.mark.parametrize("constraint,answer", [("x + y = 4", ("optimal", "", "True")),
                                               ("x > 5", ("infeasible", "", "False"))])
def test_a_minizinc_satisfy_model_is_answered_alike_by_every_backend(constraint, answer, tmp_path):
    """The linear backends gave their empty objective's 0 where the rest gave none; and HiGHS,
    handed MiniZinc's flattening of an unsatisfiable model (no columns, one infeasible row), said
    `Empty`, which read as optimal and then failed the file's check."""
    rows = compared_everywhere("pair.mzn", f"var 1..3: x;\nvar 1..3: y;\nconstraint {constraint};\nsolve satisfy;\n",
                               tmp_path)
    assert {(r["status"], r["value"], r["verified"]) for r in rows} == {answer}, rows


def test_pulp_sense_comment_is_warned_about_and_solved_as_mps_says():
    p = wb("solve", "--model", f"{CORPUS}/pulp_sense_comment.mps", "--solver", "highs", "--json")
    assert "*SENSE:Maximize" in p.stderr and "minimisation" in p.stderr
    assert json.loads(p.stdout)["objective"] == 2


def test_gzipped_mps_is_read():
    run = usermodel.solve(usermodel.read(f"{CORPUS}/fixed_format_gz.mps.gz"), "highs", Options(time_limit=20))
    assert (run.result.status, run.value, run.verified) == (Status.OPTIMAL, -12.5, True)


@pytest.mark.parametrize("heavier", [1, -1])
def test_wcnf_weights_past_2_to_the_53_are_exact_or_refused_by_name(heavier, tmp_path):
    """2^60 + 100 and 2^60 are one double: the weights were read as floats, so the two clauses tied,
    CP-SAT and SCIP kept the wrong literal (or RC2, with the clauses swapped) and every backend
    printed 'optimal 2^60' for an assignment that costs 2^60 + 100. Now the weights are ints; a
    backend whose arithmetic is narrower (SCIP's doubles, Gecode's 32-bit integers) is unsupported."""
    big = 2 ** 60
    path = tmp_path / "tie.wcnf"
    path.write_text(f"p wcnf 1 2 {2 ** 70}\n{big + 100} {heavier} 0\n{big} {-heavier} 0\n")
    mf = usermodel.read(path)
    outcomes = {}
    for solver in usermodel.backends_for(mf):
        run = usermodel.solve(mf, solver, Options(time_limit=30))
        outcomes[solver] = run.result.status
        if run.result.status == Status.OPTIMAL:   # the heavier clause holds, the lighter one pays
            assert (run.result.solution, run.value, run.result.bound, run.verified) == \
                ([heavier], big, big, True), solver
        else:
            assert run.result.status == Status.UNSUPPORTED and "2^61.0" in run.result.message, solver
    assert outcomes["maxsat"] == outcomes["cpsat"] == Status.OPTIMAL
    assert outcomes["scip"] == outcomes["minizinc:gecode"] == Status.UNSUPPORTED


@pytest.mark.parametrize("text,needle", [
    ("p wcnf 1 2 10\n1e400 1 0\n3 -1 0\n", "line 2: weight 1e400"),     # was read as a hard clause
    ("p wcnf 2 2 10\n3 1 0\n3 -999999999999 0\n", "variable 999999999999 in a file of 2 literals"),  # MemoryError
    ("p wcnf 2 2 10\n1_0 1 0\n3 -1 0\n", "weight '1_0' is not a number"),    # Python's int() took it as 10
    ("p wcnf 2 2 10\n3 1_0 0\n3 -1 0\n", "'1_0' is not an integer"),
])
def test_a_wcnf_that_cannot_be_held_as_written_is_refused(text, needle, tmp_path):
    path = tmp_path / "odd.wcnf"
    path.write_text(text)
    with pytest.raises(BadInput, match=needle):
        usermodel.read(path)


@pytest.mark.parametrize("objective,bounds,needle", [
    ("2000000000 x + 2000000000 y", " 0 <= x <= 1\n", "the objective reaches 4000000000"),
    ("x", " 0 <= x <= 100000000000\n", "x has [0, 100000000000]"),
])
def test_gecode_refuses_integers_past_its_32_bits_by_name(objective, bounds, needle, tmp_path):
    """Gecode's FlatZinc reader failed on the literal with a two-line syntax error (status error);
    HiGHS proves the same file."""
    path = tmp_path / "wide.lp"
    path.write_text(f"Maximize\n obj: {objective}\nSubject To\n c: x + y <= 1\nBounds\n{bounds} 0 <= y <= 1\n"
                    "General\n x y\nEnd\n")
    mf = usermodel.read(path)
    gecode = usermodel.solve(mf, "minizinc:gecode", Options(time_limit=20)).result
    assert gecode.status == Status.UNSUPPORTED and needle in gecode.message and "32-bit" in gecode.message
    assert usermodel.solve(mf, "highs", Options(time_limit=20)).result.status == Status.OPTIMAL


@pytest.mark.parametrize("model,status,value", [
    ("var int: x;\nconstraint x >= 3;\nsolve maximize x;\n", Status.FEASIBLE, 2 ** 31 - 2),   # unbounded
    ("var int: x;\nconstraint x >= 3;\nsolve minimize x;\n", Status.FEASIBLE, 3),       # true, but unproven
    ("var int: x;\nvar 0..5: y;\nconstraint x = 2 * y + 1;\nsolve maximize x;\n", Status.OPTIMAL, 11),  # bounded
])
def test_gecode_proves_nothing_about_integers_it_holds_to_32_bits(model, status, value, tmp_path):
    """`var int: x; x >= 3; maximize x` is unbounded; Gecode holds x to 2^31 - 2 and said optimal
    2147483646. A file whose FlatZinc (Gecode's own) leaves an integer without bounds gets its
    solution, feasible, and no bound; one whose integers are all bounded keeps its proof."""
    path = tmp_path / "box.mzn"
    path.write_text(model)
    run = usermodel.solve(usermodel.read(path), "minizinc:gecode", Options(time_limit=20))
    assert (run.result.status, run.value, run.verified) == (status, value, True), run.result.message
    if status == Status.FEASIBLE:
        assert run.result.bound is None and "1 integer variable(s) without bounds (x)" in run.result.message


def test_a_float_objective_s_solution_is_checked_in_seconds(tmp_path):
    """Gecode optimising `x + 2*y` over a float x inside the check's tolerance box searched past the
    check's 120 s, so a solution found in 3 s ended as an error; the exact fixing comes first now."""
    path = tmp_path / "float.mzn"
    path.write_text("var 0.0..10.0: x;\nvar 0..3: y;\nconstraint x + y <= 7.5;\nsolve maximize x + 2*y;\n")
    began = time.perf_counter()
    run = usermodel.solve(usermodel.read(path), "minizinc:gecode", Options(time_limit=3))
    assert run.result.status in (Status.FEASIBLE, Status.OPTIMAL) and run.verified, run.result.message
    assert time.perf_counter() - began < 60


def test_integers_past_gecode_s_32_bits_in_a_minizinc_file_are_named_not_rejected(tmp_path):
    """HiGHS's 2500000000 is right, but the check (MiniZinc with Gecode) cannot read it back: that
    said 'MiniZinc rejects the solution'; Gecode's own run failed with a syntax error."""
    path = tmp_path / "wide.mzn"
    path.write_text("var 0..3000000000: x;\nconstraint x >= 2500000000;\nsolve minimize x;\n")
    mf = usermodel.read(path)
    highs = usermodel.solve(mf, "highs", Options(time_limit=20))
    assert not highs.verified and "not checked: the checker, MiniZinc with Gecode" in highs.result.message
    gecode = usermodel.solve(mf, "minizinc:gecode", Options(time_limit=20)).result
    assert gecode.status == Status.UNSUPPORTED and "32 bits" in gecode.message


def test_cbc_s_bound_short_of_a_proof_counts_the_objective_s_constant():
    """CBC's log speaks of the model PuLP wrote, without its objective constant: stopped short on
    `maximize 2x + 3y + 10` (optimum 19), it said bound 9, below its own solution (a fresh-clone
    test run stopped it on its time limit under load)."""
    mf = usermodel.read(f"{CORPUS}/max_constant.lp")
    run = usermodel.solve(mf, "cbc", Options(time_limit=20, backend_options={"cbc": {"maxNodes": "0"}}))
    assert run.result.status in (Status.FEASIBLE, Status.OPTIMAL) and run.result.bound >= 19 - 1e-6, run.result


def test_a_check_that_times_out_leaves_no_solver_behind():
    """subprocess.run's time-out killed the MiniZinc driver and left its fzn-gecode running (two
    were found 40 minutes later, 5 GB each); run_whole kills the whole group."""
    from workbench.userfile.flatzinc import run_whole

    with pytest.raises(subprocess.TimeoutExpired):
        run_whole(["sh", "-c", "sleep 61.234 & wait"], 1)
    time.sleep(0.5)
    left = subprocess.run(["pgrep", "-f", "sleep 61.234"], capture_output=True, text=True).stdout
    assert left == "", left
