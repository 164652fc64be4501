"""--time-limit covers the whole run, model building and MiniZinc's compilation included: a run that
spends its limit building ends near it, status unknown, saying so."""
import os
import subprocess
import sys
import time

from workbench import pipeline
from workbench.solvers.base import Options, Status
from workbench.solvers.runner import grace


def test_a_build_that_outlasts_the_limit_ends_unknown_near_the_limit():
    """enigma144 N = 30 takes about 15 s to generate (273,480 shapes) on a quiet core; with a 3 s
    limit the run ends at 3 s (plus grace), unknown, and says the limit ran out building."""
    began = time.perf_counter()
    run = pipeline.solve(pipeline.plan("enigma144", 30), Options(time_limit=3))
    took = time.perf_counter() - began
    assert took < 3 + grace(3), took
    assert (run.status, run.value, run.solution, run.proven) == ("unknown", None, None, False)
    assert "the time limit (3 s) was reached while the model was being built" in run.result.message
    assert run.record().to_json()["params"]["time_limit"] == 3


def test_a_built_model_gets_what_is_left_and_the_row_keeps_the_limit_given():
    run = pipeline.solve(pipeline.plan("enigma144", 6, "maxsat"), Options(time_limit=60))
    assert (run.value, run.result.status, run.verified) == (29, Status.OPTIMAL, True)
    assert run.record().to_json()["params"]["time_limit"] == 60       # not 60 less the build


def test_a_minizinc_compilation_cut_by_the_limit_is_a_clean_unknown(tmp_path):
    """A model whose flattening takes far longer than 1 s (two million rows): `solve --model` on a
    linear backend ends at the limit with status unknown, not a traceback after 600 s."""
    model = tmp_path / "slow.mzn"
    model.write_text("int: n = 2000;\narray[1..n] of var 0..1: x;\n"
                     "constraint forall(i, j in 1..n where i < j)(x[i] + x[j] <= 1);\nsolve maximize sum(x);\n")
    began = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "workbench", "solve", "--model", str(model), "--solver", "highs",
                           "--time-limit", "1"], capture_output=True, text=True, env=dict(os.environ))
    assert time.perf_counter() - began < 1 + grace(1) + 3       # and the interpreter's start
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert ("highs: unknown - (bound -)" in done.stdout and "slow.mzn: status unknown: the time limit (1 s) was "
            "reached while MiniZinc compiled it; no backend ran") in done.stdout, done.stdout
