"""Issue 17: every promise of the README under bad input and odd runs, one test per broken item."""
from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable

import pytest
from processes import children, outlived

from workbench import pipeline
from workbench.cli import main
from workbench.puzzles.magic15.puzzle import BENCH_START
from workbench.solvers import runner
from workbench.solvers.base import Incumbent, Options, Result, Status
from workbench.solvers.runner import Tracker

PY = sys.executable


def wb(*args, env=None, timeout=300):
    return subprocess.run([PY, "-m", "workbench", *args], capture_output=True, text=True, env=env,
                          timeout=timeout)


def bad(capsys, *argv: str) -> str:
    """Run the CLI in-process on bad input: exit 2 and one line on stderr, which is returned."""
    try:
        code = main(list(argv))
    except SystemExit as e:          # argparse's own errors
        code = e.code
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and "Traceback" not in captured.err, (code, captured.err)
    return lines[0]


def record(tmp_path, *argv: str) -> dict:
    p = wb("solve", *argv, "--json")
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


# 1. the runner's merge: a final solution keeps its own objective --------------------------------

def test_merge_keeps_the_objective_of_the_solution_it_returns():
    tracker = Tracker("min")
    tracker.update(Incumbent(2254, None, {"matches": "an early solution"}))
    final = Result(Status.FEASIBLE, objective=1526, solution={"matches": "the better one"})
    merged = tracker.merge(final)
    assert (merged.objective, merged.solution) == (1526, {"matches": "the better one"})


def test_merge_takes_a_better_incumbent_with_its_own_solution():
    tracker = Tracker("max")
    tracker.update(Incumbent(40, None, [[0, 0, 1]]))
    merged = tracker.merge(Result(Status.FEASIBLE, objective=30, solution=[[1, 1, 1]]))
    assert (merged.objective, merged.values, merged.solution) == (40, [[0, 0, 1]], None)


# 2. the exact stones search stops at its deadline and hands back a checked board ---------------

def test_exact_stones_search_stops_at_its_limit_with_a_verified_board():
    run = pipeline.solve(pipeline.plan("stones", 5, "search"), Options(time_limit=3, threads=2))
    r = run.result
    assert r.status == Status.FEASIBLE and run.verified and r.solution, r.message
    assert "killed" not in r.message and r.solve_seconds < 3 + 4
    assert run.value == run.verdict.objective


# 3. compilation is not charged to the time limit ----------------------------------------------

def test_a_cold_numba_cache_is_not_charged_to_the_time_limit(tmp_path):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cold-cache"))
    p = wb("solve", "magic15", "--time-limit", "5", "--json", env=env, timeout=600)
    rec = json.loads(p.stdout)
    assert (rec["status"], rec["objective"], rec["verified"]) == ("optimal", 35, True), rec["message"]


def test_table_does_not_store_or_skip_a_run_without_an_answer(tmp_path):
    out = tmp_path / "t.csv"
    rows = [{"puzzle": "stones", "variant": "stones", "n": "2", "formulation": "native", "solver": "search",
             "status": status, "verified": verified}
            for status, verified in (("unknown", "False"), ("feasible", "False"))]
    from workbench.tables import append_row
    for row in rows:
        append_row(out, row)
    p = wb("table", "stones", "--n", "2", "-o", str(out))
    assert p.returncode == 0 and "skipped" not in p.stdout, p.stdout
    done = [r for r in csv.DictReader(out.open()) if r["status"] == "optimal"]
    assert [(r["objective"], r["verified"]) for r in done] == [("16", "True")]


# 4. (short writes and torn rows: tests/test_faults.py) ---------------------------------------

# 5. the row key holds every parameter that changes the answer ----------------------------------

def test_table_rows_of_different_starts_are_not_confused(tmp_path):
    out = tmp_path / "m.csv"
    near = "1 15 14 4 12 6 7 9 8 10 11 5 13 3 2 0"     # not a sorted board: another start
    first = wb("table", "magic15", "--start", BENCH_START, "-o", str(out), "--time-limit", "60")
    second = wb("table", "magic15", "--start", near, "-o", str(out), "--time-limit", "60")
    assert first.returncode == 0 and second.returncode == 0, first.stderr + second.stderr
    assert "skipped" not in second.stdout
    rows = list(csv.DictReader(out.open()))
    assert len(rows) == 2 and rows[0]["objective"] == "18" and rows[0]["setting"] != rows[1]["setting"]
    again = wb("table", "magic15", "--start", near, "-o", str(out))
    assert "skipped" in again.stdout


def test_a_method_is_named_by_its_formulation_alone_and_its_table_follows_it():
    """One spelling per method: --formulation names it (else n and the params pick the default),
    and the results table follows the method, not an option that used to pick it."""
    plan = pipeline.plan
    assert [plan("stones", n).formulation for n in (5, 6)] == ["exact", "hunt"]
    assert [plan("squares", 9, formulation=f).variant for f in (None, "heuristic")] == ["squares", "squares-heuristic"]
    assert plan("percolation", 5, formulation="transfer").variant == "percolation-transfer"
    permutation = plan("percolation", 5, params={"permutation": True})
    assert (permutation.formulation, permutation.variant) == ("transfer", "percolation-permutation")


def test_an_exact_stones_run_is_not_skipped_for_a_hunt_row(tmp_path):
    out = tmp_path / "s.csv"
    hunt = wb("table", "stones", "--n", "6", "--time-limit", "2", "-o", str(out))
    exact = wb("table", "stones", "--n", "6", "--formulation", "exact", "--time-limit", "2", "-o", str(out))
    assert hunt.returncode == 0 and exact.returncode == 0, hunt.stderr + exact.stderr
    assert "skipped" not in exact.stdout
    assert sorted((r["formulation"], r["setting"]) for r in csv.DictReader(out.open())) == [("exact", ""),
                                                                                           ("hunt", "")]


# 6. verify checks every claim of a record -----------------------------------------------------

@pytest.fixture(scope="module")
def enigma4(tmp_path_factory) -> dict:
    return record(tmp_path_factory.mktemp("rec"), "enigma144", "--n", "4")


@pytest.mark.parametrize("edit", [
    {"objective": 12, "bound": 12, "match": "NEW RECORD (proven)"},
    {"bound": 12, "status": "optimal"},
    {"bound": None},
    {"match": "DIFFERS"},
    {"status": "feasible", "proven": True},
])
def test_verify_rejects_false_claims_about_a_valid_solution(edit, enigma4, tmp_path, capsys):
    path = tmp_path / "r.json"
    path.write_text(json.dumps({**enigma4, **edit}))
    assert main(["verify", "enigma144", str(path)]) == 1
    assert "FALSE CLAIM" in capsys.readouterr().out
    path.write_text(json.dumps(enigma4))
    assert main(["verify", "enigma144", str(path)]) == 0


def test_verify_refuses_another_puzzles_record_and_another_n(enigma4, tmp_path, capsys):
    path = tmp_path / "r.json"
    path.write_text(json.dumps(enigma4))
    assert "record of 'enigma144'" in bad(capsys, "verify", "enigma82", str(path))
    assert "n = 4" in bad(capsys, "verify", "enigma144", "--n", "5", str(path))
    path.write_text(json.dumps({**enigma4, "puzzle": "squares"}))
    assert "record of 'squares'" in bad(capsys, "verify", "enigma144", str(path))


# 7. one line and exit 2, never a traceback -----------------------------------------------------

def test_verify_on_a_directory_or_malformed_contents(tmp_path, capsys):
    bad(capsys, "verify", "enigma144", "--n", "3", str(tmp_path))
    for contents in ([[1, 2]], {"solution": 7}, [["a", "b"]], {"solution": [[[0, 0], [1, "x"]]]}):
        path = tmp_path / "m.json"
        path.write_text(json.dumps(contents))
        assert "malformed" in bad(capsys, "verify", "enigma144", "--n", "3", str(path))
    for solution in ({"matches": [["h", 0]]}, {"matches": 5}, {"squares": []}):
        path.write_text(json.dumps({"puzzle": "squares", "n": 2, "solution": solution}))
        assert "malformed" in bad(capsys, "verify", "squares", str(path))


@pytest.mark.parametrize("limit", ["inf", "1e400", "nan", "-inf", "0"])
def test_time_limits_that_are_not_finite_positive_numbers(limit, capsys):
    assert "time-limit" in bad(capsys, "solve", "enigma144", "--n", "3", "--time-limit", limit)


@pytest.mark.parametrize("argv", [
    ["squares", "--n", "4", "--set", "margin=abc"],
    ["stones", "--n", "2", "--solver", "cpsat", "--set", "box=abc"],
    ["magic15", "--solver", "cpsat", "--formulation", "plan", "--set", "horizon=abc"],
    ["stones", "--n", "2", "--solver", "cpsat", "--set", "top=[1]"],
    ["squares", "--n", "4", "--set", "all=maybe"],
    ["squares", "--n", "4", "--set", "nosuch=1"],
])
def test_set_values_go_through_the_options_types(argv, capsys):
    bad(capsys, "solve", *argv)


def test_output_paths_are_checked_before_the_solve(tmp_path, capsys):
    a_file = tmp_path / "file"
    a_file.write_text("")
    for argv in (["export", "enigma144", "--n", "3", "--format", "lp", "-o", str(tmp_path)],
                 ["export", "enigma144", "--n", "3", "--format", "lp", "-o", str(a_file / "m.lp")],
                 ["table", "enigma144", "--n", "3", "-o", str(tmp_path)],
                 ["table", "enigma144", "--n", "3", "-o", str(a_file / "t.csv")],
                 ["compare", "enigma144", "--n", "3", "--solvers", "highs", "-o", str(tmp_path)],
                 ["solve", "enigma144", "--n", "3", "--png", str(tmp_path)],
                 ["solve", "enigma144", "--n", "3", "--png", str(a_file / "x.png")]):
        assert "cannot write" in bad(capsys, *argv)
    assert main(["export", "enigma144", "--n", "3", "--format", "lp", "-o", str(tmp_path / "new" / "m.lp")]) == 0
    assert (tmp_path / "new" / "m.lp").stat().st_size > 0


# 8 - 10. ranges, empty selections, thread counts, conflicting flags ---------------------------

def test_a_huge_range_is_refused_before_it_is_built(capsys):
    started = time.perf_counter()
    assert "between" in bad(capsys, "table", "enigma144", "--n", "1..1000000000")
    assert time.perf_counter() - started < 5


@pytest.mark.parametrize("argv,needle", [
    (["table", "enigma144", "--n", "5..3"], "empty"),
    (["compare", "enigma144", "--n", "3", "--solvers", ""], "no backend"),
    (["compare", "enigma144", "--n", "3", "--solvers", " , "], "no backend"),
    (["bench", "--puzzle", "nosuch"], "unknown puzzle"),
    (["bench", "--puzzle", "triangles"], "no bench case"),
    (["bench", "--label", "no such label"], "no bench case"),
    (["table", "magic15", "--n", "3"], "takes no --n"),
    (["solve", "enigma144", "--n", "3", "--solver", "cbc", "--threads", "1000"], "threads"),
    (["solve", "enigma144", "--n", "3", "--seed", "-1"], "seed"),
    (["solve", "stones", "--n", "4", "--exact"], "--exact is gone: use --formulation exact"),
    (["solve", "stones", "--n", "4", "--hunt"], "--hunt is gone: use --formulation hunt"),
    (["solve", "squares", "--n", "4", "--heuristic"], "--heuristic is gone: use --formulation heuristic"),
    (["solve", "squares", "--n", "4", "--lookahead", "2"], "--lookahead does not apply to squares"),    # retired
    (["count", "percolation", "--n", "4", "--counter", "transfer"], "--counter is gone: use --formulation transfer"),
    (["solve", "squares", "--n", "4", "--formulation", "heuristic", "--all"], "exact search method only"),
    (["solve", "stones", "--n", "3", "--formulation", "exact", "--width", "1000"], "hunt search method only"),
    (["solve", "stones", "--n", "9", "--formulation", "exact"], "handles n <= 8"),
    (["solve", "stones", "--n", "4", "--top", "30"], "model backends only"),
    (["solve", "stones", "--n", "4", "--box", "9"], "model backends only"),
    (["solve", "stones", "--n", "2", "--solver", "cpsat", "--cut", "3"], "exact search method only"),
    (["solve", "squares", "--n", "4", "--solver", "highs", "--diagonal-above", "9"], "native search backend only"),
    (["solve", "squares", "--n", "4", "--solver", "search", "--formulation", "strong"], "no --formulation"),
    (["compare", "enigma144", "--n", "3", "--solvers", "highs,search", "--formulation", "lexleader"],
     "native search takes no --formulation"),
])
def test_bad_requests_exit_2_before_anything_runs(argv, needle, capsys):
    assert needle in bad(capsys, *argv)


# misleading output ----------------------------------------------------------------------------

def test_a_squares_proof_says_what_it_assumes():
    p = wb("solve", "squares", "--n", "5", "--solver", "search")
    assert "optimal (proven)" in p.stdout and "assumes all squares within 0 of the largest" in p.stdout


def test_a_box_run_is_not_compared_with_the_box_free_value():
    run = pipeline.solve(pipeline.plan("stones", 2, "cpsat", "max", {"box": 4}), Options(time_limit=60))
    assert run.verified and run.published is None and run.match == ""
    free = pipeline.solve(pipeline.plan("stones", 2, "search"), Options(time_limit=60))
    assert free.published is not None and free.match == "yes"


def test_a_worker_exits_when_its_parent_is_killed():
    parent = subprocess.Popen([PY, "-m", "workbench", "solve", "stones", "--n", "5", "--time-limit", "120"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    worker = None
    for _ in range(600):
        time.sleep(0.1)
        kids = children(parent.pid)
        if kids:
            worker = kids[0]
            break
    assert worker is not None
    time.sleep(1.0)
    parent.kill()
    parent.wait()
    assert not outlived([worker]), "the worker outlived its parent"
    assert "Traceback" not in parent.stderr.read()


def killed_after_first_incumbent(monkeypatch, puzzle: str, n: int, solver: str,
                                 workers: Callable[[str], bool]) -> pipeline.Run:
    """Solve in a thread; once the first incumbent has come, SIGKILL the workers `workers` picks."""
    arrived = threading.Event()
    update = runner.Tracker.update

    def watched(self, incumbent):       # the real update, and a signal that an incumbent came
        update(self, incumbent)
        if incumbent.objective is not None:
            arrived.set()

    monkeypatch.setattr(runner.Tracker, "update", watched)
    runs: list[pipeline.Run] = []
    solving = threading.Thread(target=lambda: runs.append(
        pipeline.solve(pipeline.plan(puzzle, n, solver), Options(time_limit=300, threads=2))))
    solving.start()
    assert arrived.wait(300)
    for base, worker in list(runner._workers.items()):
        if workers(base) and worker.alive():
            worker.process.kill()
    solving.join(60)
    return runs[0]


def test_a_killed_workers_incumbents_survive(monkeypatch):
    """The worker is killed right after its first incumbent: the run keeps that board, checked, and
    its status is error, not feasible, so that `table` reruns it (a feasible row is one that ran to
    its time limit, which a rerun would not better)."""
    run = killed_after_first_incumbent(monkeypatch, "stones", 5, "search", lambda base: base == "search")
    r = run.result
    assert r.status == Status.ERROR and "died" in r.message and run.verified
    assert run.value == run.verdict.objective
    assert not run.record().finished


def test_a_race_whose_racers_all_die_is_an_error_that_keeps_the_best(monkeypatch):
    """`auto` with every racer killed after the first incumbent: status error (so `table` reruns
    it, as it did not in CI once, when a killed race came back feasible and was kept), best kept."""
    run = killed_after_first_incumbent(monkeypatch, "enigma144", 14, "auto", lambda base: "#" in base)
    r = run.result
    assert r.status == Status.ERROR and "died" in r.message, r.message
    assert run.verified and run.value == run.verdict.objective
