"""Many model files per run (files, folders, globs), --repeat, backend options passed through (--option),
incumbents with their times, the model-comparison rows under runs/, and the API's solve_model,
compare_models and available_solvers. Real solvers on the small corpus files (tests/models)."""
import csv
import hashlib
import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import workbench
from workbench.modelruns import COLUMNS

PY = sys.executable
ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "models"
KNAPSACK = CORPUS / "knapsack_binary.lp"       # max, optimum 8; CP-SAT refuses its weight 2.5
NEGATIVE = CORPUS / "negative_int.lp"


def wb(*argv, cwd=None):
    return subprocess.run([PY, "-m", "workbench", *map(str, argv)], capture_output=True, text=True, cwd=cwd,
                          env={**os.environ, "COLUMNS": "250", "PYTHONPATH": str(ROOT)})


def rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))


@pytest.fixture(scope="module")
def enigma6(tmp_path_factory):
    """Enigma 144 N = 6 as an LP file: a MIP whose optimum 29 takes HiGHS a few branch-and-bound nodes."""
    path = tmp_path_factory.mktemp("e6") / "e6.lp"
    p = wb("export", "enigma144", "--n", "6", "--format", "lp", "-o", path)
    assert p.returncode == 0, p.stderr
    return path


def test_a_folder_a_glob_and_a_file_give_a_row_per_model_backend_and_repeat_under_runs(tmp_path):
    folder = tmp_path / "models"
    folder.mkdir()
    for name in ("lp_half.lp", "fixed_format_gz.mps.gz", "expected.csv"):     # the CSV is no model: left out
        shutil.copy(CORPUS / name, folder / name)
    p = wb("compare", "--model", folder, f"{CORPUS}/negative_int*.lp", KNAPSACK, "--solvers", "highs,glpk",
           "--repeat", "2", "--seed", "5", "--time-limit", "20", cwd=tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    (out,) = (tmp_path / "runs").glob("compare-models-*.csv")
    assert f"16 rows written to {out.relative_to(tmp_path)}" in p.stdout
    found = rows(out)
    assert list(found[0]) == COLUMNS
    models = [str(folder / "fixed_format_gz.mps.gz"), str(folder / "lp_half.lp"), str(NEGATIVE), str(KNAPSACK)]
    assert [(r["model"], r["solver"], r["repeat"], r["seed"]) for r in found] == \
        [(m, s, k, seed) for m in models for s in ("highs", "glpk") for k, seed in (("1", "5"), ("2", "6"))]
    for r in found:
        assert r["model_sha256"] == hashlib.sha256(Path(r["model"]).read_bytes()).hexdigest()
        assert (r["status"], r["proven"], r["verified"], r["options"]) == ("optimal", "True", "True", "{}"), r
        assert json.loads(r["incumbents"]) == [] or all(len(pair) == 2 for pair in json.loads(r["incumbents"]))
    assert {r["value"] for r in found if r["model"] == str(KNAPSACK)} == {"8"}
    assert {r["kind"] for r in found} == {"mps", "lp"}
    # the command column runs the row again: its backend, its seed, a row of its own under runs/
    again = shlex.split(found[3]["command"])
    assert again[:3] == ["python", "-m", "workbench"] and again[again.index("--seed") + 1] == "6"
    p = wb(*again[3:], cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    rerun = max((tmp_path / "runs").glob("compare-models-*.csv"), key=os.path.getmtime)
    (row,) = rows(rerun)
    assert (row["model"], row["solver"], row["seed"], row["value"]) == \
        (found[3]["model"], found[3]["solver"], "6", found[3]["value"])


def test_highs_options_reach_highs_and_a_gap_it_calls_optimal_is_no_proof(enigma6, tmp_path):
    """mip_rel_gap=0.5 lets HiGHS stop at once and call it "Optimal": the bound shows the gap, so the
    workbench says feasible. Without the option HiGHS proves the optimum (N = 5: 20)."""
    out = tmp_path / "gap.csv"
    p = wb("compare", "--model", enigma6, "--solvers", "highs", "--option", "highs:mip_rel_gap=0.5",
           "--option", "highs:presolve=off", "--time-limit", "30", "-o", out)
    assert p.returncode == 0, p.stdout + p.stderr
    (row,) = rows(out)
    assert json.loads(row["options"]) == {"mip_rel_gap": 0.5, "presolve": "off"}
    assert row["status"] == "feasible" and row["proven"] == "False" and float(row["bound"]) < 29 <= int(row["value"])
    assert "--option highs:mip_rel_gap=0.5 --option highs:presolve=off" in row["command"]
    enigma5 = tmp_path / "e5.lp"                                     # N = 6 takes 10-20 s to prove
    assert wb("export", "enigma144", "--n", "5", "--format", "lp", "-o", enigma5).returncode == 0
    run = workbench.solve_model(enigma5, "highs", time_limit=300)
    assert (str(run.result.status), run.value, "options" in run.result.params) == ("optimal", 20, False)


def test_cpsat_options_typed_by_its_parameters_reach_it(enigma6):
    run = workbench.solve_model(enigma6, "cpsat", time_limit=30, options=["cpsat:stop_after_first_solution=true"])
    assert run.result.params["options"] == {"stop_after_first_solution": True}
    assert str(run.result.status) == "feasible" and run.result.message == "FEASIBLE" and run.verified
    assert run.result.incumbents and run.result.incumbents[-1][1] == run.value


def test_incumbents_are_recorded_with_their_times(enigma6):
    run = workbench.solve_model(enigma6, "scip", time_limit=30)
    found = run.result.incumbents
    assert found and found[-1][1] == 29 and str(run.result.status) == "optimal"
    times = [t for t, _ in found]
    assert times == sorted(times) and 0 <= times[0] <= run.result.total_seconds
    assert [v for _, v in found] == sorted((v for _, v in found), reverse=True)   # a minimisation improves down


@pytest.mark.parametrize("option,needle", [
    ("highs:mip_rel_gapp=0", "highs has no option 'mip_rel_gapp' (did you mean mip_rel_gap"),
    ("highs:mip_rel_gap=abc", "highs wants float"),
    ("cpsat:search_branching=NOPE", "one of AUTOMATIC_SEARCH"),
    ("scip:limits/gap=x", "scip wants float"),
    ("maxsat:exhaust=1", "maxsat takes no options of its own"),
    ("highs", "wants BACKEND:NAME=VALUE"),
    ("lpsolve:e=7", "lpsolve is not among the backends run"),
])
def test_a_bad_option_is_one_line_and_exit_2_before_any_work(option, needle, tmp_path):
    p = wb("compare", "--model", KNAPSACK, "--solvers", "highs,scip", "--option", option, cwd=tmp_path)
    assert p.returncode == 2 and needle in p.stderr and len(p.stderr.strip().splitlines()) == 1, p.stderr
    assert p.stdout == "" and not (tmp_path / "runs").exists()


def test_one_bad_file_among_many_stops_the_run_before_any_work(tmp_path):
    bad = tmp_path / "broken.lp"
    bad.write_text("Minimize\n obj: x + \nSubject To\n c1: x >= \nEnd\n")
    p = wb("compare", "--model", KNAPSACK, bad, NEGATIVE, "--solvers", "highs", cwd=tmp_path)
    assert p.returncode == 2 and str(bad) in p.stderr and len(p.stderr.strip().splitlines()) == 1, p.stderr
    assert not (tmp_path / "runs").exists() and "running" not in p.stderr
    p = wb("compare", "--model", f"{tmp_path}/none*.lp", cwd=tmp_path)
    assert p.returncode == 2 and "no file matches" in p.stderr


def test_options_reach_a_puzzle_run(tmp_path):
    p = wb("solve", "enigma144", "--n", "4", "--solver", "highs", "--option", "highs:presolve=off", "--json")
    assert p.returncode == 0, p.stderr
    record = json.loads(p.stdout)
    assert record["params"]["options"] == {"presolve": "off"} and record["status"] == "optimal"


def test_compare_models_api_writes_the_csv_and_available_solvers_names_backends(tmp_path):
    here = workbench.available_solvers()
    assert {"highs", "cpsat", "scip"} <= set(here) and all(isinstance(name, str) for name in here)
    out = tmp_path / "api.csv"
    runs = workbench.compare_models([KNAPSACK, str(CORPUS / "lp_h*.lp")], ["highs", "cpsat"], time_limit=20,
                                    repeat=2, options={"highs": {"mip_rel_gap": "0"}}, output=out)
    assert [(r.file.path.name, r.solver, r.repeat, r.result.params["seed"]) for r in runs] == \
        [(f, s, k, k - 1) for f in ("knapsack_binary.lp", "lp_half.lp") for s in ("highs", "cpsat") for k in (1, 2)]
    assert [str(r.result.status) for r in runs if r.solver == "cpsat"] == ["unsupported"] * 4
    assert [r["options"] for r in rows(out)] == ['{"mip_rel_gap":0.0}'] * 2 + ["{}"] * 2 + \
        ['{"mip_rel_gap":0.0}'] * 2 + ["{}"] * 2
    with pytest.raises(workbench.BadInput, match="no option 'gap'"):
        workbench.compare_models(KNAPSACK, ["highs"], options={"highs": {"gap": 0}})


def test_bench_model_writes_the_comparison_rows_under_runs_not_results(tmp_path):
    p = wb("bench", "--model", CORPUS / "new_format.wcnf", "--solver", "maxsat", "--time-limit", "20", cwd=tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    (out,) = (tmp_path / "runs").glob("bench-models-*.csv")
    (row,) = rows(out)
    assert (row["kind"], row["solver"], row["status"], row["verified"]) == ("wcnf", "maxsat", "optimal", "True")
    assert not (tmp_path / "results").exists()
