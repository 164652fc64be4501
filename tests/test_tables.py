"""Property tests (hypothesis) of the results tables: whatever happened to a file (a random cut, a
missing final newline, an older or a newer header, a foreign file, rows edited by hand), appending
to it and rerunning `table` over it never lose a complete row and never crash. The rows are real:
a table of enigma144 N = 1..4 computed once by MaxSAT."""
from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import workbench
from workbench import tables
from workbench.puzzles.base import BadInput

PROPERTY = settings(max_examples=60, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def table(tmp_path_factory) -> bytes:
    path = tmp_path_factory.mktemp("t") / "t.csv"
    runs = workbench.table("enigma144", "1..4", solver="maxsat", output=path)
    assert [r.value for r in runs] == [1, 4, 8, 13]
    return path.read_bytes()


def lines(data: bytes) -> list[str]:
    return data.decode().splitlines()


def whole(path: Path) -> list[str]:
    """The file's lines, every one ended by its newline."""
    data = path.read_bytes()
    assert data.endswith(b"\n")
    return lines(data)


def extra_row(table: bytes, n: str = "9") -> dict[str, str]:
    row = next(csv.DictReader(io.StringIO(table.decode())))
    return {**row, "n": n}


@PROPERTY
@given(cut=st.integers(min_value=0, max_value=10**6))
def test_a_cut_anywhere_keeps_every_complete_row(table, tmp_path, cut):
    """A file cut at any byte (a crash mid-write): after the next append, every line that was whole
    before the cut is still there, in order, and the file holds only whole rows."""
    path = tmp_path / "t.csv"
    data = table[:cut % (len(table) + 1)]
    path.write_bytes(data)
    complete = lines(data[:data.rfind(b"\n") + 1])
    tables.append_row(path, extra_row(table))
    after = whole(path)
    assert after[:len(complete)] == complete or not complete
    widths = {len(r) for r in csv.reader(after)}
    assert len(widths) == 1


def test_a_complete_last_row_without_its_newline_is_kept(table, tmp_path):
    """Before: taken for torn and cut on the next append."""
    path = tmp_path / "t.csv"
    path.write_bytes(table.rstrip(b"\n"))
    assert len(tables.read_rows(path)) == 4
    tables.append_row(path, extra_row(table))
    assert whole(path)[:5] == lines(table)


@PROPERTY
@given(drop=st.integers(min_value=1, max_value=6), newer=st.integers(min_value=0, max_value=4),
       odd=st.lists(st.text(alphabet="abc,\"1", max_size=30), max_size=3))
def test_widening_an_older_file_keeps_every_row(table, tmp_path, drop, newer, odd):
    """An older file lacks the last `drop` columns (as older tables lacked `setting`); `newer` of its
    rows were written whole by the newer layout, and `odd` lines were edited in by hand. Widening it
    to this version's columns keeps every line (before: every row of another width was lost), and
    every row of either layout reads back whole."""
    path = tmp_path / "t.csv"
    header, *rows = list(csv.reader(io.StringIO(table.decode())))
    old = [r[:len(header) - drop] for r in [header, *rows]]
    body = io.StringIO()
    csv.writer(body, lineterminator="\n").writerows(old[:len(old) - newer] + rows[len(rows) - newer:])
    path.write_text(body.getvalue() + "".join(line.replace("\n", " ") + "\n" for line in odd))
    before = lines(path.read_bytes())[1:]
    tables.append_row(path, extra_row(table))
    after = lines(path.read_bytes())
    assert all(any(a.startswith(b) for a in after) for b in before)
    by_n = {r["n"]: r for r in tables.read_rows(path)}
    assert {"1", "2", "3", "4", "9"} <= set(by_n)
    for r in rows:
        full = dict(zip(header, r))
        assert all(by_n[full["n"]][c] == full[c] for c in header[:len(header) - drop])


@PROPERTY
@given(text=st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=200))
def test_a_foreign_file_is_never_written(table, tmp_path, text):
    """A file that is not a workbench table is left byte for byte as it was (before: `showcase`
    rewrote one in its folder); reading it never crashes."""
    path = tmp_path / "f.csv"
    path.write_text("name,age\n" + text)
    before = path.read_bytes()
    tables.read_rows(path)
    with pytest.raises(BadInput):
        tables.append_row(path, extra_row(table))
    assert path.read_bytes() == before


EDITS = st.sampled_from(["objective", "bound", "status", "solution", "count", "seconds", "verified", "n"])
VALUES = st.one_of(st.sampled_from(["abc", "1e400", "-inf", "nan", "[[1,", "{}", "9" * 5000, "", "optimal",
                                    "3", "30", "[]", "null"]),
                   st.text(max_size=20))


@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edits=st.lists(st.tuples(st.integers(min_value=0, max_value=3), EDITS, VALUES), min_size=1, max_size=3))
def test_rows_edited_by_hand_are_checked_again(table, tmp_path, edits):
    """Rows edited by hand: rerunning the table never crashes, never drops a line, and ends with a
    row per N that the checker and the published value bear out (an edited row that does not hold
    is recomputed, not kept as done; before: a traceback, or a wrong value skipped as done)."""
    path = tmp_path / "t.csv"
    header, *rows = list(csv.reader(io.StringIO(table.decode())))
    for i, column, value in edits:
        rows[i][header.index(column)] = value
    body = io.StringIO()
    csv.writer(body, lineterminator="\n").writerows([header, *rows])
    path.write_text(body.getvalue())
    before = lines(path.read_bytes())
    runs = workbench.table("enigma144", "1..4", "maxsat", output=path)
    assert lines(path.read_bytes())[:len(before)] == before
    assert [r.value for r in runs] == [1, 4, 8, 13] and all(r.verified and r.proven for r in runs)


def test_a_wrong_value_is_redone_not_kept(table, tmp_path, capsys):
    """N = 2 edited from 4 to 3 with its bound: before, skipped as done."""
    path = tmp_path / "t.csv"
    header, *rows = list(csv.reader(io.StringIO(table.decode())))
    rows[1][header.index("objective")] = rows[1][header.index("bound")] = "3"
    body = io.StringIO()
    csv.writer(body, lineterminator="\n").writerows([header, *rows])
    path.write_text(body.getvalue())
    runs = workbench.table("enigma144", "1..4", solver="maxsat", output=path)
    assert runs[1].value == 4 and runs[1].proven
    stored = tables.read_rows(path)
    assert [r["objective"] for r in stored if r["n"] == "2"] == ["3", "4"]      # both kept, the new one last
    assert json.loads(stored[-1]["solution"]) == runs[1].solution
