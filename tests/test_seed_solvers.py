"""The seed's own toolchain: GLPK and lp_solve as backends, the MathProg export solved by glpsol, and
minizinc:scip working or saying why not. (The backend suite in test_backends.py runs both backends
on the toy puzzle, random hitting sets, random linear models and a short time limit.)"""
import os
import re
import signal
import subprocess
import sys
import threading
import time

import pytest
from processes import children, descendants, name, outlived
from test_backends import brute_linear, random_linear

import workbench
from workbench import pipeline
from workbench.models.mathprog import write as write_mathprog
from workbench.solvers import available_solvers, runner
from workbench.solvers.base import Options, Status
from workbench.solvers.minizinc import scip_library

PY = sys.executable


def glpsol_math(mod, dat) -> int:
    out = subprocess.run(["glpsol", "--math", str(mod), "--data", str(dat)], capture_output=True, text=True,
                         timeout=120)
    assert "INTEGER OPTIMAL SOLUTION FOUND" in out.stdout, out.stdout[-2000:]
    return round(float(re.search(r"^objective (\S+)$", out.stdout, re.M).group(1)))


@pytest.mark.parametrize("solver", ["glpk", "lpsolve"])
def test_the_toy_puzzle_on_the_seed_solvers(solver, toy, tmp_path):
    rows = workbench.table(toy, "2..7", solver=solver, time_limit=30, results_dir=tmp_path)
    assert [r.value for r in rows] == [1, 2, 2, 3, 3, 4] and all(r.proven and r.verified and r.match == "yes"
                                                                  for r in rows)


@pytest.mark.parametrize("n", [3, 4])
def test_mathprog_export_solved_by_glpsol_to_the_same_optimum(n, tmp_path):
    mod = tmp_path / "e.mod"
    out = subprocess.run([PY, "-m", "workbench", "export", "enigma144", "--n", str(n), "--format", "mathprog",
                          "-o", str(mod)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    run = pipeline.solve(pipeline.plan("enigma144", n, "highs"), Options(time_limit=60))
    assert run.proven and run.verified
    assert glpsol_math(mod, tmp_path / "e.dat") == run.value == [0, 1, 4, 8, 13][n]


def test_mathprog_export_of_linear_models_matches_brute_force(tmp_path):
    """Both senses, constants, indicators and all-different groups (seed 0 has one)."""
    for seed in (0, 1, 2, 4, 5):
        m = random_linear(seed)
        expected = brute_linear(m)
        if expected is None:
            continue
        files = write_mathprog(m, tmp_path / f"m{seed}.mod")
        assert glpsol_math(*files) == expected, seed


@pytest.mark.parametrize("solver", ["glpk", "lpsolve"])
def test_a_killed_worker_leaves_no_solver_running(solver):
    """The worker is killed mid-run: the run ends with status error, keeping lp_solve's streamed
    incumbent, checked (glpsol prints no solution before it ends), and the solver's process is gone."""
    runs: list[pipeline.Run] = []
    solving = threading.Thread(target=lambda: runs.append(
        pipeline.solve(pipeline.plan("enigma144", 9, solver), Options(time_limit=300, threads=1))))
    solving.start()
    child = None
    for _ in range(300):
        time.sleep(0.1)
        worker = runner._workers.get(solver)
        if worker is not None and worker.alive():
            kids = children(worker.process.pid)
            if kids:
                child = kids[0]
                break
    assert child is not None
    time.sleep(3.0)          # lp_solve prints its first solutions within a second
    worker.process.kill()
    solving.join(60)
    r = runs[0].result
    assert "died" in r.message and r.status == Status.ERROR
    if solver == "lpsolve":
        assert runs[0].verified and r.objective is not None and r.bound is None
    else:
        assert r.objective is None
    assert not outlived([child]), f"{solver}'s process outlived its worker"


def test_glpk_reports_its_bound_at_the_limit():
    run = pipeline.solve(pipeline.plan("enigma144", 9, "glpk"), Options(time_limit=3))
    r = run.result
    assert r.status == Status.FEASIBLE and run.verified
    assert r.bound is not None and r.bound <= r.objective and r.total_seconds < 3 + 8


def test_lpsolve_missing_is_one_line_and_exit_2(tmp_path):
    """Without lp_solve on PATH: `solvers` says how to get it, `solve --solver lpsolve` exits 2."""
    env = {**os.environ, "PATH": str(tmp_path), "COLUMNS": "400"}
    listing = subprocess.run([PY, "-m", "workbench", "solvers"], capture_output=True, text=True, env=env)
    row = next(line for line in listing.stdout.splitlines() if line.startswith("│ lpsolve"))
    assert "missing" in row and "apt-get install lp-solve" in listing.stdout
    out = subprocess.run([PY, "-m", "workbench", "solve", "enigma144", "--n", "3", "--solver", "lpsolve"],
                         capture_output=True, text=True, env=env)
    assert out.returncode == 2 and out.stdout == ""
    assert len(out.stderr.strip().splitlines()) == 1 and "lp_solve" in out.stderr


def test_minizinc_scip_works_or_says_why():
    info = next(i for i in available_solvers() if i.name == "minizinc:scip")
    library, why = scip_library()
    if library is None:
        assert not info.available and "PySCIPOpt" in info.note and why in info.note
    else:
        assert info.available
        run = pipeline.solve(pipeline.plan("enigma144", 3, "minizinc:scip"), Options(time_limit=60))
        assert run.proven and run.verified and run.value == 8


def test_versions_show_in_solvers():
    rows = {i.name: i for i in available_solvers()}
    assert rows["glpk"].available and re.match(r"GLPK \d+\.\d+", rows["glpk"].version)
    assert rows["lpsolve"].available and re.match(r"lp_solve 5\.5", rows["lpsolve"].version)



@pytest.mark.parametrize("solver", ["cbc", "minizinc:gecode"])
def test_the_runners_kill_takes_what_the_worker_started(solver):
    """`Worker.kill` (the runner's at its hard limit, a race's for its losers) mid-solve: the solver
    processes the worker started (PuLP's cbc; MiniZinc's driver and fzn-gecode) die with it, where
    they used to run on to their own limits."""
    runs: list[pipeline.Run] = []
    solving = threading.Thread(target=lambda: runs.append(
        pipeline.solve(pipeline.plan("enigma144", 16, solver), Options(time_limit=300, threads=1))))
    solving.start()
    started: set[int] = set()
    for _ in range(600):
        time.sleep(0.1)
        worker = runner._workers.get(solver.split(":")[0])
        if worker is not None and worker.alive():
            started = descendants(worker.process.pid)
            if started:
                break
    assert started, "the solver never started"
    time.sleep(1.0)
    started |= descendants(worker.process.pid)
    worker.kill()
    solving.join(60)
    assert runs[0].result.status == Status.ERROR
    assert not (left := outlived(started)), f"{left} outlived the kill"


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM])
def test_a_killed_command_leaves_no_solver_running(how):
    """The command killed mid-solve (a job's time up on a cluster, say): its worker dies with it, and
    the worker's reaper takes PuLP's cbc, which used to run on to its own limit."""
    command = subprocess.Popen([PY, "-m", "workbench", "solve", "enigma144", "--n", "16", "--solver", "cbc",
                                "--time-limit", "300", "--threads", "1"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    started: set[int] = set()
    for _ in range(600):
        time.sleep(0.1)
        started |= descendants(command.pid)
        if "cbc" in map(name, started):
            break
    assert "cbc" in map(name, started), "cbc never started"
    command.send_signal(how)
    command.wait(10)
    assert not (left := outlived(started)), f"{left} outlived the command"
