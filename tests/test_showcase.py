"""The main job's last word (issue: `make run` ended with exit 2 and "DIFFERS from the proven published
value: percolation N=9: None against 140537609" when a(9) merely ran out of time): a run stopped by
its time limit is not finished, never a difference; a wrong answer differs; a backend failure is an
error; and the exit status tells them apart."""
import json
import os
import re
import subprocess
import sys

import workbench
from workbench import pipeline, showcase
from workbench.puzzles.trigrid.check import all_matches
from workbench.records import Record
from workbench.tables import read_rows


def test_not_finished_differs_error_and_matched_are_told_apart(tmp_path):
    matched = workbench.table("enigma144", "3..4", results_dir=tmp_path)
    # stopped by a tiny limit: stones a(3) with its best board so far, percolation a(8) uncounted
    stopped = [workbench.solve("stones", 3, time_limit=0.01), workbench.count("percolation", 8, time_limit=0.01,
                                                                               formulation="transfer")]
    assert [run.proven for run in stopped] == [False, False]
    row = read_rows(tmp_path / "enigma144.csv")[0]
    board = json.loads(row["solution"])
    removed = {frozenset(map(tuple, m)) for m in board}
    spare = next([list(p) for p in sorted(m)] for m in all_matches(3) if m not in removed)
    stored = {  # rows read back, as a results table would give them: each goes through the checker again
        "proven, one match too many": {**row, "objective": "9", "solution": json.dumps([*board, spare])},
        "one match short": {**row, "objective": "7", "solution": json.dumps(board[1:])},
        "crashed": {**row, "status": "error", "objective": "", "bound": "", "solution": "",
                    "message": "backend process died (exit code -9)"},
    }
    read = {k: pipeline.stored(pipeline.plan("enigma144", 3), Record.from_row(r)) for k, r in stored.items()}
    assert [showcase.outcome(run) for run in matched] == ["matched", "matched"]
    assert [showcase.outcome(run) for run in stopped] == ["not finished", "not finished"]
    assert [showcase.outcome(run) for run in read.values()] == ["differs", "differs", "error"]

    done = showcase.Done(showcase.Case("stones", "3"), stopped[:1])
    line = showcase.summary(done)
    assert (line["workbench"], line["published"], line["match"], line["proven"]) == ("-", "28", "0/1", "0/1")
    assert line["notes"] == "N=3: not finished within 0.01 s"
    tables = [showcase.Done(showcase.Case("enigma144", "3..4"), matched), done]
    words, status = showcase.verdict(tables)
    assert status == 0 and words[-1].startswith("every finished answer matched; 1 run(s) not finished")
    assert "not finished within 0.01 s: stones N=3" in words and not any("DIFFERS" in w for w in words)
    words, status = showcase.verdict([*tables, showcase.Done(showcase.Case("enigma144", "3"), [read["crashed"]])])
    assert status == 3 and "ERROR: enigma144 N=3 with auto: backend process died (exit code -9)" in words
    words, status = showcase.verdict([*tables, showcase.Done(showcase.Case("enigma144", "3"), list(read.values()))])
    differs = [w for w in words if w.startswith("DIFFERS: enigma144 N=3: ")]
    assert status == 1 and words[-1] == "2 answer(s) differ from the proven published values"
    assert differs[0].startswith("DIFFERS: enigma144 N=3: 9 against published 8 (PROVEN)")
    assert differs[1].startswith("DIFFERS: enigma144 N=3: - against published 8 (PROVEN); checker rejected")


def test_a_forced_time_out_is_reported_as_not_finished_and_the_job_does_not_fail(tmp_path):
    """Every run given 0.01 s: the transfer matrix's a(7) (half a second) cannot finish, and its table
    stops there."""
    p = subprocess.run([sys.executable, "-m", "workbench", "showcase", "--puzzle", "percolation", "--time-limit",
                        "0.01", "--results-dir", str(tmp_path)], capture_output=True, text=True, timeout=300,
                       env=dict(os.environ, COLUMNS="80"))
    assert p.returncode == 0, p.stdout + p.stderr
    assert "DIFFERS" not in p.stdout and "not finished in time (not a failure)" in p.stdout
    transfer = next(r for r in read_rows(tmp_path / "summary.csv")
                    if r["puzzle"] == "percolation --formulation transfer")
    assert transfer["N"] == "1..7" and "not finished within 0.01 s" in transfer["notes"]
    n = re.match(r"N=(\d+): not finished", transfer["notes"]).group(1)
    assert f"not finished within 0.01 s: percolation --formulation transfer N={n}" in p.stdout
