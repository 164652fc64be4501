"""pandas where the workbench tabulates: results/ and the bench as DataFrames, the backend x N pivot."""
import csv
import os
import subprocess
import sys

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


def test_bench_summary_is_the_pivot_of_the_file(tmp_path):
    out = tmp_path / "bench.csv"
    for solver in ("maxsat", "lpsolve"):
        run_case(BenchCase("enigma144", 3, solver, 60.0, label="tiny", ladder=True, n_stop=4), out,
                 Console(quiet=True))
    p = subprocess.run([PY, "-m", "workbench", "bench", "--summary", "-o", str(out)], capture_output=True,
                       text=True, env={**os.environ, "COLUMNS": "200"})
    assert p.returncode == 0, p.stderr
    lines = [line for line in p.stdout.splitlines() if "enigma144" in line]
    assert len(lines) == 2 and all("N=" not in line for line in lines)
    for line, solver in zip(lines, ("lpsolve", "maxsat")):
        assert solver in line and line.count("optimal") == 2 and " 8 optimal" in line and " 13 optimal" in line
    empty = subprocess.run([PY, "-m", "workbench", "bench", "--summary", "-o", str(out), "--puzzle", "squares"],
                           capture_output=True, text=True)
    assert empty.returncode == 2 and "no row" in empty.stderr
