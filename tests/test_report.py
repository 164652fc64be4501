"""`workbench report` and `plot --from`: a model comparison (the row format of docs/usage.md) as tables a
person reads, in five formats, and as a cactus plot."""
import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

from workbench import report
from workbench.cli import main

PY = sys.executable
ROOT = Path(__file__).resolve().parent.parent
COLUMNS = ["model", "model_sha256", "kind", "solver", "options", "repeat", "seed", "status", "value", "bound",
           "proven", "verified", "seconds", "time_limit", "threads", "solver_version", "incumbents", "timestamp",
           "message", "command"]
BACKENDS = ["minizinc:gecode", "minizinc:chuffed", "maxsat:cd195+lexrev", "highs", "cbc", "cpsat", "scip",
            "lpsolve"]


def write(path: Path, rows: list[dict]) -> Path:
    with open(path, "w", newline="") as f:
        out = csv.DictWriter(f, COLUMNS, restval="")
        out.writeheader()
        for r in rows:
            out.writerow({"kind": "lp", "options": "{}", "repeat": 1, "seed": 0, "time_limit": 20, "threads": 2,
                          "incumbents": "[]", "timestamp": "2026-12-01T10:00:00",
                          "command": f"python -m workbench solve --model {r['model']} --solver {r['solver']}", **r})
    return path


def run(model: str, solver: str, status: str, value="", seconds=1.0, verified=True, bound="", **more) -> dict:
    proven = status in ("optimal", "infeasible", "complete")
    return {"model": model, "solver": solver, "status": status, "value": value, "bound": bound,
            "proven": proven, "verified": verified and value != "", "seconds": seconds, **more}


def grid(tmp_path: Path) -> Path:
    """10 models x 8 backends, every cell a proven value with its time."""
    return write(tmp_path / "grid.csv", [run(f"tests/models/model_number_{m}.lp", b, "optimal", 1000 + m,
                                             seconds=12.25 + k, bound=1000 + m)
                                         for m in range(10) for k, b in enumerate(BACKENDS)])


def mixed(tmp_path: Path) -> Path:
    """a.lp: two proofs that differ; b.lp: infeasible beside a verified solution; c.lp: a time-out,
    an error, an unsupported model."""
    return write(tmp_path / "mixed.csv", [
        run("a.lp", "highs", "optimal", 10, 0.5), run("a.lp", "cbc", "optimal", 12, 0.7),
        run("a.lp", "cpsat", "optimal", 10, 0.4), run("a.lp", "cpsat", "optimal", 10, 0.3, repeat=2),
        run("b.lp", "cpsat", "infeasible", seconds=0.2), run("b.lp", "highs", "feasible", 5, 20.1, bound=3),
        run("c.lp", "highs", "feasible", 7, 20.0, bound=9), run("c.lp", "cbc", "error", seconds=0.1),
        run("c.lp", "cpsat", "unsupported", seconds=0.0), run("c.lp", "glpk", "unknown", seconds=20.0)])


def test_the_text_report_fits_100_columns_and_names_every_backend_whole(tmp_path):
    text = report.report([grid(tmp_path)])
    assert max(len(line) for line in text.splitlines()) <= 100
    assert "…" not in text and all(f" {b} " in text or text.count(b) >= 2 for b in BACKENDS)
    header = [line.split() for line in text.splitlines() if line.startswith("model ")]
    assert len(header) >= 2 and sorted(b for line in header for b in line[1:]) == sorted(BACKENDS)
    rows = [line for line in text.splitlines() if line.startswith("tests/models/model_number_3.lp")]
    assert len(rows) == len(header) and rows[0].split()[1:3] == ["1003*", "16s"]      # cbc: proven (*), its time


def test_statuses_are_counted_and_disagreements_found(tmp_path):
    table = report.status_table(report.cells(report.load([mixed(tmp_path)]))[0])
    counts = table.to_dict("index")
    assert counts["highs"] == {"models": 3, "solved": 3, "proven": 1, "best": 3, "unknown": 0, "unsupported": 0,
                               "error": 0, "disagree": 2}
    assert counts["cbc"] == {"models": 2, "solved": 1, "proven": 1, "best": 0, "unknown": 0, "unsupported": 0,
                             "error": 1, "disagree": 1}
    assert counts["cpsat"] == {"models": 3, "solved": 2, "proven": 2, "best": 1, "unknown": 0, "unsupported": 1,
                               "error": 0, "disagree": 2}
    assert counts["glpk"]["unknown"] == 1 and counts["glpk"]["solved"] == 0
    lines = report.cells(report.load([mixed(tmp_path)]))[1]
    assert "a.lp: highs proves 10 but cbc proves 12" in lines
    assert "b.lp: cpsat says infeasible but highs found a verified solution" in lines


def test_a_time_out_is_shown_as_one_and_only_proofs_carry_a_time(tmp_path):
    models = report.model_table(report.cells(report.load([mixed(tmp_path)]))[0])
    assert models.loc["c.lp", "highs"] == "7 >20s" and models.loc["c.lp", "glpk"] == "unknown >20s"
    assert models.loc["c.lp", "cbc"] == "error" and models.loc["c.lp", "cpsat"] == "unsupported"
    assert models.loc["a.lp", "cpsat"] == "10* 0.30s" and models.loc["b.lp", "cpsat"] == "infeasible* 0.20s"


def test_every_format_parses(tmp_path, capsys):
    path = str(mixed(tmp_path))
    assert main(["report", path, "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert len(rows) == 9 and {(r["model"], r["backend"], r["value"]) for r in rows if r["backend"] == "cbc"} == \
        {("a.lp", "cbc", "12"), ("c.lp", "cbc", "")}
    assert main(["report", path, "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert len(doc["cells"]) == 9 and len(doc["disagreements"]) == 3
    assert {b["backend"]: b["proven"] for b in doc["backends"]} == {"cbc": 1, "cpsat": 2, "glpk": 0, "highs": 1}
    assert main(["report", path, "--format", "markdown"]) == 0
    md = capsys.readouterr().out.splitlines()
    assert "| backend | models | solved | proven | best | unknown | unsupported | error | disagree |" in md
    assert md[md.index("| backend | models | solved | proven | best | unknown | unsupported | error | disagree |")
              + 1] == "|---|---|---|---|---|---|---|---|---|"
    assert main(["report", path, "--format", "latex"]) == 0
    latex = capsys.readouterr().out
    assert latex.count("\\begin{tabular}") == 2 and "a.lp: highs proves 10" in latex


def test_bad_input_is_one_line(tmp_path, capsys):
    odd = tmp_path / "odd.csv"
    odd.write_text("x,y\n1,2\n")
    for args in (["report", str(odd)], ["report", str(tmp_path / "none.csv")]):
        assert main(args) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "workbench: error:" in err


def test_the_bench_reads_as_a_report_within_100_columns():
    p = subprocess.run([PY, "-m", "workbench", "bench", "--summary", "--puzzle", "enigma144"], capture_output=True,
                       text=True, cwd=ROOT)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert max(map(len, lines)) <= 100 and "…" not in p.stdout
    highs = next(line for line in lines if line.startswith("highs "))
    assert highs.split()[1:3] == ["10", "10"]          # N=1..10, each with an answer
    assert "enigma144 N=6 " in p.stdout and "no disagreement between the runs" in p.stdout


def test_plot_writes_a_cactus_under_runs_by_default(tmp_path):
    path = mixed(tmp_path)
    rows = list(csv.DictReader(open(path)))
    rows[0]["incumbents"] = "[[0.1, 14], [0.3, 11], [0.5, 10]]"
    write(path, rows)
    p = subprocess.run([PY, "-m", "workbench", "plot", "--from", str(path)], capture_output=True, text=True,
                       cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert p.returncode == 0, p.stderr
    for name in ("cactus.png", "objective-over-time.png"):
        png = tmp_path / "runs" / "plots" / name
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 5000
