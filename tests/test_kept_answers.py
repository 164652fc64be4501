"""A finished answer is never thrown away by a file that will not take it: a search's journal goes
only once its row is written (a rerun replays it in seconds), and compare and bench refuse a bad
output file before the first backend runs."""
import os
import subprocess
import sys

import pytest

from workbench import api


def cli(argv):
    return subprocess.run([sys.executable, "-m", "workbench", *argv], capture_output=True, text=True,
                          env={**os.environ, "COLUMNS": "250"})


def journals_in(folder):
    return sorted(p.name for p in folder.glob("*.sqlite"))


def test_a_row_that_cannot_be_written_keeps_the_answer_and_the_journal(tmp_path, monkeypatch):
    """stones n = 3 into a table that turned into a folder while it ran: the answer is handed to
    on_row, the error names the file, the journal stays; the rerun into a good folder replays it
    (its note says so), writes the row, and only then is the journal gone."""
    journals = tmp_path / "journals"
    monkeypatch.setenv("WORKBENCH_JOURNALS", str(journals))
    planned, settings = api.table_request("stones", 3, results_dir=tmp_path / "bad")   # checked: fine so far
    planned.path.mkdir()            # unwritable from now on (as root, chmod would not stop a write)
    printed = []
    with pytest.raises(api.RowNotStored) as e:
        api.run_table(planned, settings, on_row=lambda run, note: printed.append((run.value, run.status, note)))
    assert printed == [(28, "optimal", f"NOT STORED (cannot write its row to {planned.path}: Is a directory)")]
    assert "journal is kept" in str(e.value) and [r.value for r in e.value.runs] == [28]
    assert len(journals_in(journals)) == 1

    runs = api.table("stones", 3, results_dir=tmp_path / "good")
    assert (runs[0].value, runs[0].status) == (28, "optimal")
    assert "resumed from its journal: 21 of 21 tasks were done by earlier runs" in runs[0].result.message
    assert "resumed from its journal" in (tmp_path / "good" / "stones.csv").read_text()
    assert journals_in(journals) == []



@pytest.mark.parametrize("command", ["compare", "bench"])
@pytest.mark.parametrize("spoil", ["foreign", "under a file"])
def test_compare_and_bench_with_a_model_refuse_a_bad_output_before_any_backend_runs(command, spoil, tmp_path):
    """A CSV that is not a workbench table (or a path under a file): one line, exit 2, and no
    backend has run (none says "running"); the foreign file is left as it was."""
    model = tmp_path / "e3.lp"
    assert cli(["export", "enigma144", "--n", "3", "--format", "lp", "-o", str(model)]).returncode == 0
    foreign = tmp_path / "mine.csv"
    foreign.write_text("name,score\nada,3\n")
    output = foreign if spoil == "foreign" else foreign / "rows.csv"
    done = cli([command, "--model", str(model), "--time-limit", "5", "-o", str(output)])
    assert done.returncode == 2 and "running" not in done.stderr, done.stderr
    assert done.stderr.startswith("workbench: error: ") and done.stderr.count("\n") == 1
    assert str(foreign) in done.stderr
    assert foreign.read_text() == "name,score\nada,3\n"


def test_bench_checks_the_results_table_a_store_case_writes_before_it_runs(tmp_path, monkeypatch):
    """A bench case that also stores its row in results/<variant>.csv (a second computation, an
    hour long) finds a foreign file there refused before anything runs, not after the hour."""
    from rich.console import Console

    from workbench.bench import run_bench
    from workbench.models.core import OPTIMISE, Count
    from workbench.pipeline import plan
    from workbench.puzzles import available
    from workbench.tables import NotOurs

    case = next(c for p in available() for c in p.bench_cases() if c.store)
    variant = plan(case.puzzle, case.n, case.solver, case.formulation, case.params,
                   Count() if case.count else OPTIMISE).variant
    monkeypatch.chdir(tmp_path)
    (tmp_path / "results").mkdir()
    (tmp_path / "results" / f"{variant}.csv").write_text("name,score\nada,3\n")
    with pytest.raises(NotOurs, match=f"{variant}.csv is not a workbench table"):
        run_bench([case.puzzle], [case.solver], case.label, tmp_path / "bench.csv", Console(), ns=[case.n])
    assert not (tmp_path / "bench.csv").exists()
