"""The command line as a user meets it: output, files, errors."""
import csv
import json
import os
import subprocess
import sys

import pytest

from workbench.solvers import BACKENDS, canonical

PY = sys.executable


def wb(*args, env=None, cwd=None):
    return subprocess.run([PY, "-m", "workbench", *args], capture_output=True, text=True, env=env, cwd=cwd,
                          timeout=300)


def test_solve_json_record():
    p = wb("solve", "enigma144", "--n", "4", "--json")
    assert p.returncode == 0, p.stderr
    rec = json.loads(p.stdout)
    for key in ("puzzle", "n", "solver", "status", "objective", "bound", "proven", "verified", "seconds",
                "solution"):
        assert key in rec
    assert (rec["objective"], rec["status"], rec["proven"], rec["verified"]) == (13, "optimal", True, True)
    assert len(rec["solution"]) == 13


def test_solve_prints_value_drawing_and_verdict(tmp_path):
    png = tmp_path / "g.png"
    p = wb("solve", "enigma144", "--n", "3", "--solver", "highs", "--png", str(png))
    assert p.returncode == 0, p.stderr
    assert "value 8" in p.stdout and "optimal" in p.stdout and "verified" in p.stdout
    assert "•" in p.stdout and png.exists()


@pytest.mark.parametrize("args,needle", [
    (["solve", "nosuch", "--n", "3"], "unknown puzzle"),
    (["solve", "enigma144", "--n", "3", "--solver", "nosuch"], "unknown solver"),
    (["solve", "enigma144", "--n", "0"], "between"),
    (["solve", "enigma144", "--n", "31"], "between"),
    (["solve", "enigma144", "--n", "x"], "integer"),
    (["solve", "enigma144"], "needs --n"),
    (["solve", "enigma144", "--n", "3", "--time-limit", "-1"], "positive"),
    (["solve", "enigma144", "--n", "3", "--solver", "minizinc:cplex"], "cannot run here"),
    (["table", "enigma144", "--n", "3..x"], "bad --n"),
    (["export", "enigma144", "--n", "3", "--format", "docx", "-o", "x"], "invalid choice"),
    (["verify", "enigma144", "--n", "3", "/nonexistent.json"], "no such file"),
    (["frobnicate"], "invalid choice"),
])
def test_bad_input_exits_2_with_one_line(args, needle):
    p = wb(*args)
    assert p.returncode == 2
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0], p.stderr
    assert "Traceback" not in p.stderr


def test_malformed_file_exits_2(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    p = wb("verify", "enigma144", "--n", "3", str(bad))
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1


def test_missing_executable_exits_2(tmp_path):
    env = dict(os.environ, PATH=os.path.dirname(PY))     # the venv only: no minizinc on PATH
    p = wb("solve", "enigma144", "--n", "3", "--solver", "minizinc:gecode", env=env)
    assert p.returncode == 2
    assert "minizinc" in p.stderr and len(p.stderr.strip().splitlines()) == 1


def test_verify_saved_solution_and_reject_a_tampered_one(tmp_path):
    p = wb("solve", "enigma144", "--n", "4", "--json")
    rec = json.loads(p.stdout)
    good = tmp_path / "good.json"
    good.write_text(json.dumps(rec))
    assert wb("verify", "enigma144", str(good)).returncode == 0
    rec["solution"] = rec["solution"][1:]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(rec))
    v = wb("verify", "enigma144", str(bad))
    assert v.returncode == 1 and "INVALID" in v.stdout


def test_verify_a_table_row(tmp_path):
    """`verify PUZZLE TABLE.csv --n N` checks the latest finished row for N, as `table` reads it
    back: a good row is valid, a row whose objective was edited is not, a missing one is bad input."""
    out = tmp_path / "t.csv"
    assert wb("table", "enigma144", "--n", "3..4", "-o", str(out)).returncode == 0
    good = wb("verify", "enigma144", str(out), "--n", "4")
    assert good.returncode == 0 and "valid" in good.stdout and "13 removed" in good.stdout, good.stdout
    rows = list(csv.DictReader(out.open()))
    rows[-1]["objective"] = "12"
    with out.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    edited = wb("verify", "enigma144", str(out), "--n", "4")
    assert edited.returncode == 1 and "INVALID" in edited.stdout and "FALSE CLAIM: objective 12" in edited.stdout
    assert wb("verify", "enigma144", str(out), "--n", "3").returncode == 0
    missing = wb("verify", "enigma144", str(out), "--n", "5")
    assert missing.returncode == 2 and len(missing.stderr.strip().splitlines()) == 1, missing.stderr
    (tmp_path / "folder.csv").mkdir()
    folder = wb("verify", "enigma144", str(tmp_path / "folder.csv"), "--n", "4")
    assert folder.returncode == 2 and "is a directory" in folder.stderr, folder.stderr


def test_table_appends_and_resumes(tmp_path):
    out = tmp_path / "t.csv"
    p = wb("table", "enigma144", "--n", "1..4", "-o", str(out))
    assert p.returncode == 0, p.stderr
    rows = list(csv.DictReader(out.open()))
    assert [int(r["objective"]) for r in rows] == [1, 4, 8, 13]
    assert all(r["status"] == "optimal" and r["match"] == "yes" and r["verified"] == "True" for r in rows)
    again = wb("table", "enigma144", "--n", "1..5", "-o", str(out))
    assert again.stdout.count("skipped") == 4
    rows = list(csv.DictReader(out.open()))
    assert [int(r["n"]) for r in rows] == [1, 2, 3, 4, 5]


def test_compare_flags_no_disagreement_on_agreeing_backends(tmp_path):
    out = tmp_path / "c.csv"
    p = wb("compare", "enigma144", "--n", "3", "--solvers", "highs,maxsat,cpsat", "-o", str(out))
    assert p.returncode == 0, p.stdout + p.stderr
    assert "no disagreement" in p.stdout
    rows = list(csv.DictReader(out.open()))
    assert {r["solver"] for r in rows} == {"highs", "maxsat", "cpsat"}
    assert {r["objective"] for r in rows} == {"8"}


def test_compare_goes_on_past_a_broken_backend(tmp_path):
    out = tmp_path / "c.csv"
    wb("compare", "enigma144", "--n", "2", "--solvers", "minizinc:cplex,maxsat", "-o", str(out))
    rows = list(csv.DictReader(out.open()))
    assert [r["status"] for r in rows] == ["error", "optimal"]


def test_solvers_lists_every_backend_with_a_version():
    p = wb("solvers")
    assert p.returncode == 0
    for name in BACKENDS:
        assert canonical(name) in p.stdout
    assert "minizinc:cplex" in p.stdout and "missing" in p.stdout


def test_rows_of_an_older_file_survive_a_new_column(tmp_path):
    from workbench.tables import append_row, read_rows
    path = tmp_path / "old.csv"
    path.write_text("puzzle,n\nenigma144,3\n")
    append_row(path, {"puzzle": "enigma144", "n": 4, "objective": 13}, ["puzzle", "n", "objective"])
    assert read_rows(path) == [{"puzzle": "enigma144", "n": "3", "objective": ""},
                               {"puzzle": "enigma144", "n": "4", "objective": "13"}]


def test_count_shows_examples_from_a_model_backend():
    out = subprocess.run([sys.executable, "-m", "workbench", "count", "magic15", "--solver", "cpsat",
                          "--pandiagonal", "--show", "2", "--json"], capture_output=True, text=True,
                         timeout=300, check=True).stdout
    record = json.loads(out)
    assert record["count"] == 384 and record["match"] == "yes" and len(record["solution"]) == 2


def test_compare_reads_equal_optima_within_rounding_as_agreement():
    """HiGHS reports 28.9999999999999 where the others report 29: the same proven optimum."""
    from workbench.api import disagreements
    from workbench.pipeline import Run, plan
    from workbench.solvers.base import Result, Status

    def run(solver, objective):
        result = Result(Status.OPTIMAL, objective, objective, solver=solver)
        return Run(plan("enigma144", 6, formulation="plain"), result, None, None)

    assert disagreements([run("highs", 28.9999999999999), run("maxsat", 29.0)], "min") == []
    assert "highs proves 28 but maxsat proves 29" in disagreements([run("highs", 28.0), run("maxsat", 29.0)], "min")


def test_compile_loads_every_native_search_into_numba_cache():
    """`make test` runs it before the parallel tests, so that no two processes compile one function."""
    from workbench.puzzles import available

    p = wb("compile")
    assert p.returncode == 0, p.stderr
    methods = {f.warm_up for puzzle in available() for f in puzzle.formulations if f.warm_up}
    assert len(methods) >= 5 and all(m in p.stdout for m in methods)
