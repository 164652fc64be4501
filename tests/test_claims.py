"""Claims that contradict themselves or each other: a record whose status its own solution refutes
(`verify`, and a table row read back), and backends whose answers cannot all hold (`compare`)."""
from __future__ import annotations

import csv
import json
from dataclasses import replace

import pytest

import workbench
from workbench.api import comparison_summary, disagreements
from workbench.cli import main
from workbench.solvers.base import Status


@pytest.fixture(scope="module")
def e6(tmp_path_factory):
    """A real `solve enigma144 --n 6 --json` record: optimal 29, its board verified."""
    path = tmp_path_factory.mktemp("e6") / "e6.json"
    record = workbench.solve("enigma144", 6).record().to_json()
    assert record["status"] == "optimal" and record["objective"] == 29 and record["verified"]
    path.write_text(json.dumps(record))
    return record


def verify(puzzle, record, tmp_path, capsys, **edits):
    path = tmp_path / "r.json"
    path.write_text(json.dumps({**record, **edits}))
    code = main(["verify", puzzle, str(path)])
    return code, capsys.readouterr().out


@pytest.mark.parametrize("edits,claim", [
    ({"status": "infeasible"}, "infeasible, but the record carries a solution the checker accepts"),
    ({"status": "infeasible", "objective": None, "bound": None, "match": ""},
     "infeasible, but the record carries a solution"),
    ({"status": "unknown", "bound": None, "proven": False}, "unknown, but the record gives the objective 29"),
    ({"bound": 28}, "optimal, but the bound 28 does not equal the objective 29"),
])
def test_verify_flags_a_status_its_own_solution_refutes(e6, edits, claim, tmp_path, capsys):
    """Before: a record saying `infeasible` beside its valid 29-board printed "valid", exit 0."""
    code, out = verify("enigma144", e6, tmp_path, capsys, **edits)
    assert code == 1 and claim in out and "FALSE CLAIM" in out, out


def test_verify_keeps_an_honest_record_valid(e6, tmp_path, capsys):
    code, out = verify("enigma144", e6, tmp_path, capsys)
    assert code == 0 and "FALSE CLAIM" not in out, out


def test_verify_flags_a_complete_count_below_its_own_examples(tmp_path, capsys):
    record = workbench.count("percolation", 3, show=3).record().to_json()
    assert record["status"] == "complete" and record["count"] == 14 and len(record["solution"]) == 3
    code, out = verify("percolation", record, tmp_path, capsys, count=2)
    assert code == 1 and "a complete count of 2, but the record holds 3 distinct valid examples" in out, out
    code, out = verify("percolation", record, tmp_path, capsys, status="infeasible")
    assert code == 1 and "infeasible, but the record counts 14 solution(s)" in out, out
    code, out = verify("percolation", record, tmp_path, capsys, status="unknown", proven=False, match="partial count")
    assert code == 0, out                    # a count stopped short keeps its examples under `unknown`


def test_a_table_row_whose_status_its_board_refutes_does_not_hold(tmp_path, capsys):
    table = tmp_path / "t.csv"
    assert main(["table", "enigma144", "--n", "3", "-o", str(table)]) == 0
    rows = list(csv.DictReader(table.open()))
    rows[0]["status"] = "infeasible"
    with table.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    capsys.readouterr()
    assert main(["verify", "enigma144", str(table), "--n", "3"]) == 1
    assert "infeasible, but the record carries a solution the checker accepts" in capsys.readouterr().out


def test_compare_where_every_backend_fails_says_so_and_fails(tmp_path, capsys):
    """Before: "no disagreement between backends", exit 0."""
    assert main(["compare", "enigma144", "--n", "2", "--solvers", "minizinc:cplex", "-o", str(tmp_path / "c.csv")]) == 1
    out = capsys.readouterr().out
    assert "every backend failed (minizinc:cplex)" in out and "no disagreement" not in out


@pytest.fixture(scope="module")
def e3():
    """A real HiGHS run of enigma144 n = 3: optimal 8, its board verified."""
    run = workbench.solve("enigma144", 3, solver="highs")
    assert run.proven and run.verified and run.value == 8
    return run


def claiming(run, solver, status, objective=None, bound=None, keep_board=False):
    """Another backend's run on the same request, claiming `status` (without a board unless `keep_board`)."""
    result = replace(run.result, status=status, objective=objective, bound=bound, solver=solver)
    return replace(run, result=result, verdict=run.verdict if keep_board else None)


def test_disagreements_between_a_verified_board_and_a_claim(e3):
    feasible = claiming(e3, "scip", Status.FEASIBLE, 8, None, keep_board=True)
    assert disagreements([claiming(e3, "cbc", Status.INFEASIBLE), feasible], "min") == \
        ["cbc says infeasible but scip found a verified solution"]            # before: only beside `optimal`
    assert disagreements([feasible, claiming(e3, "cbc", Status.OPTIMAL, 9)], "min") == \
        ["scip found 8, beyond cbc's proven optimum 9"]                       # before: a proof without a bound passed
    assert disagreements([e3, claiming(e3, "cbc", Status.OPTIMAL, 9, 9)], "min") == ["highs proves 8 but cbc proves 9"]
    assert disagreements([e3, feasible, claiming(e3, "cbc", Status.FEASIBLE, None, 7)], "min") == []


def test_comparison_summary_says_when_none_proves(e3):
    unproven = [claiming(e3, "scip", Status.FEASIBLE, 8, None, keep_board=True), claiming(e3, "cbc", Status.ERROR)]
    lines, status = comparison_summary(unproven, "min")
    assert status == 0 and lines == ["failed: cbc", "no backend proved its answer",
                                     "no disagreement between the backends that answered"]
    lines, status = comparison_summary([e3, claiming(e3, "cbc", Status.INFEASIBLE)], "min")
    assert status == 1 and lines == ["DISAGREEMENT: cbc says infeasible but highs found a verified solution"]


@pytest.mark.parametrize("puzzle,n,edit,says", [
    ("enigma144", 4, {"objective": 12}, "FALSE CLAIM: objective 12, but the checker measures 13"),
    ("enigma144", 4, {"solution": "drop"}, "INVALID"),
    ("enigma144", 4, {"status": Status.INFEASIBLE}, "infeasible, but the record carries a solution the checker"),
    ("percolation", 3, {"count": 2}, "a complete count of 2, but the record holds 3 distinct valid examples"),
])
def test_verify_reads_a_table_row_and_a_json_record_through_the_same_code(puzzle, n, edit, says, tmp_path, capsys):
    """The same edit to one stored run, written as a table's row and as a JSON record: `verify`
    gives the same exit status and the same lines for both (before, a row's false objective was a
    verdict "the row does not hold" and a record's a FALSE CLAIM line)."""
    from workbench import tables

    run = workbench.count(puzzle, n, show=3) if puzzle == "percolation" else workbench.solve(puzzle, n)
    record = run.record()
    if edit.get("solution") == "drop":
        edit = {"solution": record.solution[1:]}
    record = replace(record, **edit)
    table, saved = tmp_path / "t.csv", tmp_path / "r.json"
    tables.append_row(table, tables.row_from_record(record))
    saved.write_text(json.dumps(record.to_json()))
    seen = []
    for path in (table, saved):
        code = main(["verify", puzzle, str(path), "--n", str(n)])
        seen.append((code, capsys.readouterr().out))
    assert seen[0] == seen[1] and seen[0][0] == 1 and says in seen[0][1], seen
