"""A finished answer is never thrown away by a file that will not take it: a search's journal goes
only once its row is written (a rerun replays it in seconds), and compare and bench refuse a bad
output file before the first backend runs."""
import pytest

from workbench import api


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

