"""What a new user meets first (issue 22): the main job, tables that show their rows, defaults that
win in bench, the pictures, the Python API, readable output."""
import csv
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import workbench
from workbench import pipeline, showcase
from workbench.bench import fastest_proving
from workbench.puzzles import available
from workbench.records import Record
from workbench.tables import read_rows

PY = sys.executable
ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def wb(*args, cwd=None):
    return subprocess.run([PY, "-m", "workbench", *args], capture_output=True, text=True, timeout=300,
                          cwd=cwd, env=dict(os.environ, COLUMNS="80"))


# Every puzzle with bench cases (triangles has none yet, so the bench cannot speak for it).
@pytest.mark.parametrize("puzzle", [p for p in available() if p.bench_cases()], ids=lambda p: p.name)
def test_default_solver_is_the_fastest_proving_backend_in_bench(puzzle):
    assert puzzle.default_solver == fastest_proving(puzzle, ROOT / "results" / "bench.csv")


def test_default_solver_of_squares_is_the_native_search():
    p = wb("solve", "squares", "--n", "14", "--json")
    record = json.loads(p.stdout)          # the whole of stdout is one JSON document
    assert (record["solver"], record["objective"], record["status"], record["verified"]) == \
        ("search", 156, "optimal", True)


def test_list_shows_the_default_solvers_within_80_columns():
    p = wb("list")
    assert p.returncode == 0
    assert all(len(line) <= 80 for line in p.stdout.splitlines())
    squares = next(line for line in p.stdout.splitlines() if line.split()[:1] == ["squares"])
    assert "search" in squares.split()


def test_table_prints_every_row_and_marks_the_skipped_ones(tmp_path):
    out = tmp_path / "t.csv"
    first = wb("table", "enigma144", "--n", "1..3", "-o", str(out))
    assert first.returncode == 0, first.stderr
    again = wb("table", "enigma144", "--n", "2..4", "-o", str(out))
    rows = [line for line in again.stdout.splitlines() if line.startswith("N=")]
    assert [line.split(":")[0] for line in rows] == ["N=2", "N=3", "N=4"]
    assert [line.split()[1] for line in rows] == ["4", "8", "13"]
    assert ["skipped" in line for line in rows] == [True, True, False]
    assert "verified True" in rows[0]          # a skipped row's stored solution is checked again


def test_showcase_recomputes_into_its_own_folder_and_sums_up(tmp_path):
    before = {f: f.read_bytes() for f in (ROOT / "results").glob("*.csv")}
    p = wb("showcase", "--puzzle", "enigma144", "--results-dir", str(tmp_path / "run"), cwd=tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    rows = read_rows(tmp_path / "run" / "enigma144.csv")
    assert [int(r["objective"]) for r in rows] == [1, 4, 8, 13, 20, 29, 39, 50, 63, 78, 94]
    summary = read_rows(tmp_path / "run" / "summary.csv")
    assert summary[0]["match"] == "10/10" and summary[0]["proven"] == "11/11" and summary[0]["notes"] == ""
    assert "every proven published value matched" in p.stdout
    assert all(len(line) <= 80 for line in p.stdout.splitlines() if not line.startswith("N=") and "run" not in line)
    assert {f: f.read_bytes() for f in (ROOT / "results").glob("*.csv")} == before


def test_showcase_fails_on_an_answer_that_differs_from_a_proven_value(tmp_path):
    rows = workbench.table("enigma144", "3..4", results_dir=tmp_path)
    line = showcase.summary(showcase.Done(showcase.Case("enigma144", "3..4"), rows))
    assert (line["workbench"], line["published"], line["match"], line["proven"]) == ("8 13", "8 13", "2/2", "2/2")
    assert showcase.verdict([showcase.Done(showcase.Case("enigma144", "3..4"), rows)])[1] == 0
    # a stored row one match short: the checker rejects it, so it is no answer and the job fails
    row = read_rows(tmp_path / "enigma144.csv")[0]
    solution = json.loads(row["solution"])
    tampered = pipeline.stored(pipeline.plan("enigma144", 3),
                               Record.from_row({**row, "objective": "7", "solution": json.dumps(solution[1:])}))
    assert not tampered.verified and tampered.value is None and showcase.outcome(tampered) == "differs"
    assert showcase.verdict([showcase.Done(showcase.Case("enigma144", "3"), [tampered])])[1] == 1


def test_api_records_are_the_cli_records(tmp_path):
    run = workbench.solve("enigma144", 4, solver="highs")
    assert (run.value, run.status, run.bound, run.verified, len(run.solution)) == (13, "optimal", 13, True, 13)
    cli = json.loads(wb("solve", "enigma144", "--n", "4", "--solver", "highs", "--json").stdout)
    assert {k: cli[k] for k in ("objective", "status", "bound", "verified", "match")} == \
        {k: run.record().to_json()[k] for k in ("objective", "status", "bound", "verified", "match")}
    assert "•" in run.render()
    assert Path(run.png(tmp_path / "g.png")).stat().st_size > 1000
    counted = workbench.count("percolation", 4)
    assert (counted.value, counted.status, counted.match) == (130, "complete", "yes")
    runs = workbench.compare("squares", 5, solvers=["highs", "search"])
    assert [(r.solver, r.value, r.status) for r in runs] == [("highs", 35, "optimal"), ("search", 35, "optimal")]


def test_readme_api_example_runs_without_a_main_guard(tmp_path):
    code = re.search(r"```python\n(import workbench\n.*?)```", README, re.S).group(1)
    p = subprocess.run([PY, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert lines[0] == "29 optimal 29 True" and "1615" in lines and lines[-1] == "[1, 4, 8, 13]"
    assert (tmp_path / "enigma144-6.png").exists() and (tmp_path / "runs" / "mine" / "enigma144.csv").exists()


def _png_is_a_picture(path: Path) -> None:
    from matplotlib.image import imread

    pixels = imread(path)
    height, width = pixels.shape[:2]
    assert width >= 300 and height >= 250, f"{path}: {width} x {height}"
    assert pixels[..., :3].std() > 0.05, f"{path} is blank"
    assert len({tuple(p) for p in pixels[::7, ::7, :3].reshape(-1, 3).round(2).tolist()}) > 3, path


def test_plot_writes_the_pictures_the_readme_shows(tmp_path):
    shown = re.findall(r"\(docs/([\w.-]+\.png)\)", README)
    assert len(shown) == 6
    p = wb("plot", "--out", str(tmp_path))
    assert p.returncode == 0, p.stderr
    for name in shown:
        _png_is_a_picture(tmp_path / name)
        _png_is_a_picture(ROOT / "docs" / name)      # the committed copies the README shows


def test_summary_table_has_the_columns_the_issue_asks_for(tmp_path):
    rows = workbench.table("magic15", None, results_dir=tmp_path)
    line = showcase.summary(showcase.Done(showcase.Case("magic15", None), rows))
    assert list(line) == ["puzzle", "N", "workbench", "published", "match", "proven", "seconds", "backend", "notes"]
    assert (line["workbench"], line["published"], line["match"], line["backend"]) == ("35", "35", "1/1", "search")
    with (tmp_path / "magic15.csv").open() as f:
        assert next(csv.DictReader(f))["verified"] == "True"


def test_json_is_one_document_on_stdout_and_nothing_else(tmp_path):
    out = tmp_path / "p.csv"
    first = wb("table", "percolation", "--n", "3..5", "-o", str(out), "--json")
    again = wb("table", "percolation", "--n", "4..6", "-o", str(out), "--json")
    assert [r["count"] for r in json.loads(first.stdout)] == [14, 130, 1615]
    assert [r["count"] for r in json.loads(again.stdout)] == [130, 1615, 23140]
    counted = json.loads(wb("count", "percolation", "--n", "5", "--show", "1", "--json").stdout)
    assert (counted["count"], counted["verified"], len(counted["solution"])) == (1615, True, 1)


def test_a_first_solve_that_must_compile_says_so_and_counts_the_seconds(tmp_path):
    """A cold numba cache (a fresh checkout) costs a first native solve seconds to minutes before the
    clock: one line says why it waits, and its time breakdown shows them; the next run loads the cache."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"), COLUMNS="200")
    argv = [PY, "-m", "workbench", "count", "percolation", "--n", "3", "--formulation", "residues"]
    first, again = (subprocess.run(argv, capture_output=True, text=True, timeout=300, env=env) for _ in range(2))
    assert first.returncode == 0 and "count 14 " in first.stdout, first.stderr
    assert first.stderr.count("compiling the percolation search into numba's cache") == 1
    compiled = float(re.search(r"time ([\d.]+) s \(.*, compile ([\d.]+)\)", first.stdout).group(2))
    assert compiled > 0.5
    assert again.returncode == 0 and "count 14 " in again.stdout
    assert "compiling" not in again.stderr and "compile" not in again.stdout


def test_plot_without_out_writes_under_runs(tmp_path):
    (tmp_path / "res").mkdir()
    (tmp_path / "res" / "enigma144.csv").write_bytes((ROOT / "results" / "enigma144.csv").read_bytes())
    p = wb("plot", "--results-dir", "res", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    written = sorted(str(f.relative_to(tmp_path)) for f in tmp_path.rglob("*") if f.is_file())
    assert written == ["res/enigma144.csv", "runs/plots/time-vs-n.png"]
    _png_is_a_picture(tmp_path / "runs" / "plots" / "time-vs-n.png")
