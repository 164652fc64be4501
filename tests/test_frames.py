"""pandas where the workbench tabulates: results/ and the bench as DataFrames, the backend x N pivot."""
import csv
import os
import subprocess
import sys
from pathlib import Path

from rich.console import Console

import workbench
from workbench import frames
from workbench.bench import run_case
from workbench.puzzles.base import BenchCase

PY = sys.executable


def test_results_of_a_puzzle_as_a_dataframe(published):
    df = workbench.results("enigma144")
    assert len(df) and set(df["puzzle"]) == {"enigma144"} and str(df["n"].dtype) == "Int64"
    proven = df[(df["status"] == "optimal") & df["verified"] & (df["file"] == "enigma144.csv")]
    expected = published("enigma144")
    checked = [(int(n), int(v)) for n, v in zip(proven["n"], proven["objective"]) if int(n) in expected]
    assert len(checked) >= 10 and all(expected[n] == v for n, v in checked)
    with open("results/enigma144.csv", newline="") as f:
        assert len(df[df["file"] == "enigma144.csv"]) == sum(1 for r in csv.DictReader(f) if r["puzzle"] == "enigma144")


def test_bench_results_as_a_dataframe_keep_exact_counts():
    df = workbench.bench_results()
    with open("results/bench.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(df) == len(rows)
    counts = [r["count"] for r in rows if r.get("count")]
    assert counts and [str(c) for c in df["count"].dropna()] == counts     # no count rounded through a float
    assert df["proven"].dtype == "boolean" and df["seconds"].dtype == "float64"


def test_every_stored_bench_row_reads_as_a_run_in_its_columns():
    """A row pasted from a bench file of another column order shifts its fields (a version where
    the published value should be): the typed reader refuses it, and the bench's readers skip it."""
    from workbench.bench import read_bench
    from workbench.records import BENCH_COLUMNS
    path = Path("results/bench.csv")
    with path.open(newline="") as f:
        reader = csv.DictReader(f)
        rows = list(reader)
    assert reader.fieldnames == BENCH_COLUMNS           # a file of its own (`bench -o`) lines up with it
    assert len(read_bench(path)) == len(rows)
    assert all(r["timestamp"][:2] == "20" for r in rows)


def test_a_native_search_bench_row_carries_its_positions(tmp_path):
    """Positions are a search's work on any machine: stones a(3) visits exactly 192,651 boards,
    whatever the threads (tests/test_tasks.py)."""
    out = tmp_path / "bench.csv"
    run_case(BenchCase("stones", 3, "search", 60.0, label="tiny"), out, Console(quiet=True))
    with open(out, newline="") as f:
        row = next(csv.DictReader(f))
    assert (row["status"], row["value"], row["positions"]) == ("optimal", "28", "192651")
    assert workbench.bench_results(out)["positions"].tolist() == [192651]


def test_compare_runs_pivot_to_backend_by_n():
    runs = [run for n in (3, 4) for run in workbench.compare("enigma144", n, solvers=["highs", "glpk"])]
    table = frames.pivot(frames.records(runs))
    assert list(table.index) == ["glpk", "highs"] and list(table.columns) == ["N=3", "N=4"]
    for solver in ("glpk", "highs"):
        assert table.loc[solver, "N=3"].startswith("8 optimal ") and table.loc[solver, "N=4"].startswith("13 optimal ")
    view = frames.comparison(runs[2:])
    assert list(view.index) == ["highs", "glpk"] and list(view["value"]) == [13, 13] and all(view["verified"])


def test_bench_summary_is_the_report_of_the_file(tmp_path):
    out = tmp_path / "bench.csv"
    for solver in ("maxsat", "lpsolve"):
        run_case(BenchCase("enigma144", 3, solver, 60.0, label="tiny", ladder=True, n_stop=4), out,
                 Console(quiet=True))
    p = subprocess.run([PY, "-m", "workbench", "bench", "--summary", "-o", str(out)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    for solver in ("lpsolve", "maxsat"):          # 2 models, 2 answers, 2 proofs, 2 best values
        assert next(line for line in lines if line.startswith(solver + " ")).split()[1:5] == ["2", "2", "2", "2"]
    for model, value in (("enigma144 N=3 [tiny]", "8*"), ("enigma144 N=4 [tiny]", "13*")):   # a label no case has
        row = next(line for line in lines if line.startswith(model + " ")).split()
        assert row[3] == row[5] == value          # lpsolve, maxsat: value, proven mark, then the time
    empty = subprocess.run([PY, "-m", "workbench", "bench", "--summary", "-o", str(out), "--puzzle", "squares"],
                           capture_output=True, text=True)
    assert empty.returncode == 2 and "no row" in empty.stderr


def test_the_answer_is_value_with_its_log10_and_the_time_a_datetime(tmp_path):
    df = workbench.results("percolation")
    huge = df[df["n"] == 500]["value"].iloc[0]
    assert isinstance(huge, int) and len(str(huge)) > 1000 and df["value"].dtype == object
    assert abs(df[df["n"] == 500]["log10_value"].iloc[0] - (len(str(huge)) - 1)) < 1
    assert df["log10_value"].dtype == "float64" and str(df["timestamp"].dtype).startswith("datetime64")
    enigma = workbench.results("enigma144")
    assert str(enigma["value"].dtype) == "Int64" and (enigma["value"].dropna() == enigma["objective"].dropna()).all()
    bench = workbench.bench_results()
    assert str(bench["timestamp"].dtype).startswith("datetime64") and "log10_value" in bench


def test_the_reference_tables_are_found_from_any_working_directory(tmp_path):
    code = "import workbench; print(len(workbench.results('enigma144')), len(workbench.bench_results()))"
    p = subprocess.run([PY, "-c", code], capture_output=True, text=True, cwd=tmp_path,
                       env={**os.environ, "PYTHONPATH": os.getcwd()})
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == [str(len(workbench.results("enigma144"))), str(len(workbench.bench_results()))]
