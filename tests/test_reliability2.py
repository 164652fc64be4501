"""Issue 43 (reliability, round two): one test per broken or misleading item that the export,
table and fault tests (test_exports, test_tables, test_backend_faults) do not cover."""
from __future__ import annotations

import json
import math
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from task_toys import primes_in, ranges
from test_reliability import bad

import workbench
from workbench.cli import main
from workbench.puzzles.stones.hunt import store
from workbench.puzzles.stones.hunt.run import solve as hunt_solve
from workbench.search.tasks import Journal, Settings, Split, run
from workbench.solvers.base import Incumbent, Result, Status
from workbench.solvers.runner import Tracker

PY = sys.executable
ROOT = Path(__file__).resolve().parent.parent


def wb(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([PY, "-m", "workbench", *args], capture_output=True, text=True, env=env, timeout=300)


# -- bounds -------------------------------------------------------------------------------------

def test_a_non_finite_bound_never_enters_the_runner():
    """HiGHS reports its first incumbents with a dual bound of -inf; the tracker kept it, and a
    killed run reported it (OverflowError when printed)."""
    tracker = Tracker("min")
    tracker.update(Incumbent(30.0, -math.inf, [1, 0]))
    assert (tracker.objective, tracker.bound, tracker.values) == (30.0, None, [1, 0])
    tracker.update(Incumbent(math.nan, 12.0, [0, 1]))
    assert (tracker.objective, tracker.bound, tracker.values) == (30.0, 12.0, [1, 0])
    killed = tracker.merge(Result(Status.UNKNOWN, message="killed"))
    assert (killed.status, killed.objective, killed.bound) == (Status.FEASIBLE, 30.0, 12.0)
    maximise = Tracker("max")
    maximise.update(Incumbent(5.0, math.inf, [1]))
    assert maximise.merge(Result(Status.UNKNOWN)).bound is None


# -- early checks -------------------------------------------------------------------------------

def test_certify_is_refused_before_a_native_search_runs(capsys):
    began = time.perf_counter()
    assert "--certify" in bad(capsys, "solve", "squares", "--n", "26", "--solver", "search", "--certify", "30")
    assert time.perf_counter() - began < 5


@pytest.mark.parametrize("argv,word", [
    (["solve", "stones", "--n", "4", "--cluster", "tcp://head:notaport"], "--cluster"),
    (["solve", "stones", "--n", "4", "--cluster", "tcp://head"], "--cluster"),
    (["solve", "enigma144", "--n", "3", "--solver", "highs", "--cluster", "local:2"], "--cluster applies"),
    (["solve", "magic15", "--cluster", "local:2"], "--cluster applies"),
    (["solve", "squares", "--n", "9", "--formulation", "heuristic", "--cluster", "local:2"], "--cluster applies"),
    (["solve", "enigma144", "--n", "3", "--solver", "highs", "--fresh"], "--fresh applies"),
    (["count", "percolation", "--n", "4", "--show", "1000000000000"], "--show"),
    (["count", "percolation", "--n", "4", "--show", "-1"], "--show"),
])
def test_options_a_run_cannot_take_are_refused_first(capsys, argv, word):
    assert word in bad(capsys, *argv)


def test_the_api_checks_what_the_command_line_checks():
    for call in (lambda: workbench.solve("enigma144", 3, time_limit=-5),
                 lambda: workbench.solve("enigma144", 3, threads=-1),
                 lambda: workbench.solve("enigma144", 3, time_limit=float("nan")),
                 lambda: workbench.solve("enigma144", 3, solver=123),
                 lambda: workbench.solve("enigma144", 3, solver="highs", cluster="local:2"),
                 lambda: workbench.count("percolation", 4, show=10**12),
                 lambda: workbench.compare("enigma144", 3, solvers="highs"),
                 lambda: workbench.solve("enigma144", "3"),      # text is the command line's to parse
                 lambda: workbench.solve("enigma144", True),
                 lambda: workbench.table("enigma144", [3, "4"]),
                 lambda: workbench.table("enigma144", "3..x"),
                 lambda: workbench.table("enigma144", range(5, 3))):
        with pytest.raises(workbench.BadInput):
            call()
    with pytest.raises(workbench.UnknownSolver):
        workbench.solve("enigma144", 3, solver="nosuch")
    assert all(issubclass(getattr(workbench, name), Exception) for name in workbench.ERRORS)


def test_showcase_checks_its_folder_and_files_before_it_solves(tmp_path, capsys):
    a_file = tmp_path / "file"
    a_file.write_text("x")
    assert str(a_file) in bad(capsys, "showcase", "--puzzle", "magic15", "--results-dir", str(a_file))
    folder = tmp_path / "run"
    folder.mkdir()
    (folder / "summary.csv").write_text("name,age\nada,36\n")
    assert "not a workbench table" in bad(capsys, "showcase", "--puzzle", "magic15", "--results-dir", str(folder))
    assert (folder / "summary.csv").read_text() == "name,age\nada,36\n"
    assert sorted(p.name for p in folder.iterdir()) == ["summary.csv"]      # nothing solved


def test_table_never_writes_into_a_foreign_file(tmp_path, capsys):
    path = tmp_path / "mine.csv"
    path.write_text("a,b,c\n1,2,3\n4,5,6")
    assert str(path) in bad(capsys, "table", "enigma144", "--n", "3", "-o", str(path))
    assert path.read_text() == "a,b,c\n1,2,3\n4,5,6"


# -- verify ------------------------------------------------------------------------------------

def verified(tmp_path: Path, capsys, puzzle: str, rec: dict) -> tuple[int, str]:
    rec.pop("match", None)
    path = tmp_path / "r.json"
    path.write_text(json.dumps(rec))
    capsys.readouterr()
    code = main(["verify", puzzle, str(path)])
    return code, capsys.readouterr().out


def test_verify_recomputes_the_claims_without_a_match_field(tmp_path, capsys):
    """Before: a count of 131 (published 130, proven) and an 'optimal 30' enigma144 N = 6 (29,
    proven) passed as valid when the record had no match field."""
    count = workbench.count("percolation", 4).record().to_json()
    assert count["count"] == 130
    code, out = verified(tmp_path, capsys, "percolation", {**count, "count": 131})
    assert code == 1 and "FALSE CLAIM" in out and "130" in out
    run = workbench.solve("enigma144", 6, solver="maxsat")
    rec = run.record().to_json()
    every = workbench.api.get("enigma144").build(6, rec["formulation"], None)
    extra = next(m for m in every.decode([1] * every.model.n_elements) if m not in rec["solution"])
    worse = {**rec, "solution": [*rec["solution"], extra], "objective": 30, "bound": 30}
    code, out = verified(tmp_path, capsys, "enigma144", worse)
    assert code == 1 and "FALSE CLAIM" in out and "29 is proven" in out
    assert verified(tmp_path, capsys, "enigma144", rec)[0] == 0


def test_verify_a_board_with_a_huge_number(tmp_path, capsys):
    """Before: MemoryError (the checker built the list 2..10^12)."""
    rec = workbench.solve("stones", 2).record().to_json()
    rec["solution"][-1][2] = 10**12
    code, out = verified(tmp_path, capsys, "stones", rec)
    assert code == 1 and "INVALID" in out


# -- the hunt's store, journals, the scheduler ---------------------------------------------------

def test_the_hunt_store_replays_what_it_compares_with(tmp_path, monkeypatch):
    """An entry the checker does not replay (value 999 on a one-stone board) blocked every real
    record; now it is replaced by the first real one."""
    monkeypatch.setenv("WORKBENCH_JOURNALS", str(tmp_path))
    path = store.store_path()
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"2": {"value": 999, "board": [[0, 0, 1]], "found": "-", "by": "hand"}}))
    board = workbench.solve("stones", 2).solution
    store.save_store(path, 2, 16, board, "test")
    assert json.loads(path.read_text())["2"]["value"] == 16
    assert store.load_store(path, 2) == {2: (16, board)}


def test_a_garbage_store_ends_the_hunt_with_its_path(tmp_path, monkeypatch):
    monkeypatch.setenv("WORKBENCH_JOURNALS", str(tmp_path))
    path = store.store_path()
    path.parent.mkdir(parents=True)
    path.write_text("{not json")
    params = workbench.api.get("stones").params({"sweep": 0})
    with pytest.raises(store.BrokenStore, match=str(path)):
        hunt_solve(6, params, workbench.api.checks.options(time_limit=5), lambda _: None)
    assert path.read_text() == "{not json"


def test_a_broken_journal_names_itself_and_the_way_out(tmp_path):
    from workbench.search.tasks import JournalBroken

    split = Split("primes", {"top": 20000}, ranges(20000, 250, 0.05), primes_in, maximise=True)
    run(split, Settings(threads=2, time_limit=0.5, runs=tmp_path))
    journal = next(tmp_path.glob("*.sqlite"))
    journal.write_bytes(b"garbage" * 100)
    for suffix in ("-wal", "-shm"):
        Path(f"{journal}-{suffix[1:]}").unlink(missing_ok=True)
    with pytest.raises(JournalBroken, match="--fresh") as e:
        run(split, Settings(threads=2, runs=tmp_path))
    assert str(journal) in str(e.value)
    out = run(split, Settings(threads=2, runs=tmp_path, fresh=True))
    assert (out.count, out.positions, out.complete) == (1, 20000, True)
    Journal(tmp_path, split.key).close()


def test_an_unreachable_scheduler_is_named(tmp_path):
    """Before: 'feasible 4' from the pre-split work, and no word of the scheduler. The scheduler gets
    half the limit to answer; 10 s leaves the other half for loading Dask on a loaded machine (at 4 s
    the runner's deadline came first there once)."""
    p = wb("solve", "stones", "--n", "3", "--cluster", "tcp://127.0.0.1:1", "--time-limit", "10", "--json")
    rec = json.loads(p.stdout)
    assert rec["status"] == "error" and "scheduler tcp://127.0.0.1:1" in rec["message"], rec


# -- plot ---------------------------------------------------------------------------------------

def test_plot_reads_the_results_folder_it_is_given(tmp_path, capsys):
    empty = tmp_path / "empty"
    empty.mkdir()
    assert str(empty) in bad(capsys, "plot", "--results-dir", str(empty), "--out", str(tmp_path / "a"))
    odd = tmp_path / "odd"
    odd.mkdir()
    (odd / "bench.csv").write_bytes(b"label,puzzle\n\x00\x01")
    (odd / "enigma144.csv").write_text("puzzle,n,seconds\nenigma144,x,1e400\n")
    assert str(odd) in bad(capsys, "plot", "--results-dir", str(odd), "--out", str(tmp_path / "b"))
    part = tmp_path / "results"            # a part of results/: the pictures it holds the data for
    part.mkdir()
    shutil.copy(ROOT / "results" / "stones.csv", part)
    assert main(["plot", "--results-dir", str(part), "--out", str(tmp_path / "c")]) == 0
    assert sorted(p.name for p in (tmp_path / "c").iterdir()) == ["stones-5.png", "time-vs-n.png"]
    assert "skipped squares-54.png" in capsys.readouterr().err


def test_a_time_limit_of_months_runs():
    """The runner waits for its worker in slices: one select() past about 24 days overflowed."""
    run = workbench.solve("enigma144", 4, solver="highs", time_limit=5e6)
    assert run.value == 13 and run.status == "optimal" and run.verified
